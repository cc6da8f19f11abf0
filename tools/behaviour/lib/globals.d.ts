// The tests read decorator metadata (Reflect.getMetadata), as Nest does.
/// <reference types="reflect-metadata" />

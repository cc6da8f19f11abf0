// tools/behaviour/lib/pages.ts imports the marker parser from this path. The parser lives in
// src/features/markdown/markers.mjs; once that import points there, delete this file.
export * from '../features/markdown/markers.mjs';

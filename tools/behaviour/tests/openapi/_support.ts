import {nest, listen} from '../../lib';

const {Module} = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const {SwaggerModule, DocumentBuilder} = nest('@nestjs/swagger');

/** Starts an Express app with these controllers (not listening), builds the OpenAPI document, closes the app. */
export async function documentFor(
  controllers: unknown[],
  options: {config?: any; documentOptions?: any; prefix?: string; providers?: unknown[]} = {},
): Promise<any> {
  @Module({controllers: controllers as any[], providers: (options.providers ?? []) as any[]})
  class DocModule {}
  const app = await NestFactory.create(DocModule, {logger: false, abortOnError: false});
  try {
    if (options.prefix) app.setGlobalPrefix(options.prefix);
    const config = options.config ?? new DocumentBuilder().setTitle('Cats API').build();
    return SwaggerModule.createDocument(app, config, options.documentOptions);
  } finally {
    await app.close();
  }
}

/** An Express app with these controllers (and global pipes), listening on a free loopback port. */
export async function serve(
  controllers: unknown[],
  options: {pipes?: unknown[]; providers?: unknown[]} = {},
): Promise<{app: any; base: string; close: () => Promise<void>}> {
  @Module({controllers: controllers as any[], providers: (options.providers ?? []) as any[]})
  class ServedModule {}
  const app = await NestFactory.create(ServedModule, {logger: false});
  if (options.pipes?.length) app.useGlobalPipes(...options.pipes);
  const base = await listen(app);
  return {app, base, close: () => app.close()};
}

/** GET or POST (JSON) and the status with the body as text. */
export async function call(
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{status: number; text: string; headers: Headers}> {
  const response = await fetch(url, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? headers : {'content-type': 'application/json', ...headers},
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return {status: response.status, text: await response.text(), headers: response.headers};
}

/** The schemas of a document built from models only (no routes): `extraModels`. */
export async function schemasOf(...models: unknown[]): Promise<Record<string, any>> {
  const document = await documentFor([], {documentOptions: {extraModels: models}});
  return document.components.schemas;
}

import {mkdirSync, writeFileSync} from 'node:fs';
import {join, resolve} from 'node:path';
import {createRequire} from 'node:module';

let programs = 0;
/**
 * Compiles files as `nest build` does: one TypeScript program with type information (the samples harness
 * transpiles file by file, which guards every `design:type` reference with a typeof check). Returns a
 * require function for the emitted files.
 */
export function compileProgram(
  files: Map<string, string> | Record<string, string>,
): (name: string) => any {
  const ts = createRequire(resolve(__dirname, '../../package.json'))(
    'typescript',
  ) as typeof import('typescript');
  const dir = resolve(__dirname, '../../.run', `openapi-program-${process.pid}-${programs++}`);
  mkdirSync(dir, {recursive: true});
  const entries = files instanceof Map ? [...files.entries()] : Object.entries(files);
  const names = entries.map(([name, source]) => {
    const file = join(dir, `${name}.ts`);
    writeFileSync(file, source);
    return file;
  });
  const program = ts.createProgram(names, {
    module: ts.ModuleKind.CommonJS,
    target: ts.ScriptTarget.ES2019,
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    esModuleInterop: true,
    skipLibCheck: true,
    types: [],
    noResolve: true,
    noLib: true,
    outDir: dir,
    rootDir: dir,
  });
  const emitted = program.emit();
  if (emitted.emitSkipped) throw new Error('openapi: program emit skipped');
  const load = createRequire(join(dir, 'index.js'));
  return (name: string) => load(`./${name}.js`);
}

/** Files the pages' main.ts samples import but don't show: a cats feature, an owners feature imported by it, an admin feature. */
export const featureFiles: Record<string, string> = {
  'app.module': `
    import { Module } from '@nestjs/common';
    import { CatsModule } from './cats.module';
    import { AdminModule } from './admin.module';
    @Module({ imports: [CatsModule, AdminModule] })
    export class AppModule {}`,
  'cats.module': `
    import { Controller, Get, Module } from '@nestjs/common';
    import { OwnersModule } from './owners.module';
    @Controller('cats')
    export class CatsController { @Get() findAll() { return []; } }
    @Module({ imports: [OwnersModule], controllers: [CatsController] })
    export class CatsModule {}`,
  'owners.module': `
    import { Controller, Get, Module } from '@nestjs/common';
    @Controller('owners')
    export class OwnersController { @Get() findAll() { return []; } }
    @Module({ controllers: [OwnersController] })
    export class OwnersModule {}`,
  'admin.module': `
    import { Controller, Get, Module } from '@nestjs/common';
    @Controller('admin')
    export class AdminController { @Get('stats') stats() { return {}; } }
    @Module({ controllers: [AdminController] })
    export class AdminModule {}`,
};

/** Edits that make a page's main.ts start quietly on a free loopback port and hand the app to the test. */
export const mainEdits: [string, string][] = [
  ['await app.listen(3000);', "await app.listen(0, '127.0.0.1');\n  return app;"],
  ['bootstrap();', 'export const started = bootstrap();'],
];

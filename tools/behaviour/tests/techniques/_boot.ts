/**
 * Runs a page's `main` sample as the reader copies it, around an AppModule
 * built by the test, with visible edits for the bench:
 * - `bootstrap()` returns the app instead of listening on 3000 (the test
 *   listens on a free port), and is exported instead of called;
 * - `import { AppModule } from './app.module'` takes the test's module;
 * - `import * as x from 'cjs-function'` becomes `import x = require()`: a
 *   Nest 8 project compiles without esModuleInterop, where the namespace
 *   import of a function module is callable; the bench compiles with it.
 * (It compiles main alone with compileModule(): samples() compiles every file
 * of a page, and fails on a declaration file such as session.page's `session.d`.)
 */
import {applyEdits, compileModule, nest, readPage} from '../../lib';
import type {Edit} from '../../lib/samples';

export interface BootOptions {
  /** The section whose `main` to run (the first `main` fence at or after its heading). */
  under: string;
  lang?: 'ts' | 'js';
  /** More edits of main. */
  edit?: Edit[];
}

export function mainSource(page: string, options: BootOptions): string {
  const parsed = readPage(page);
  const start = parsed.headings.get(options.under);
  if (start === undefined) throw new Error(`behaviour: ${page} has no heading #${options.under}`);
  const fence = parsed.fences.find((f) => f.filename === 'main' && f.line > start);
  if (!fence) throw new Error(`behaviour: ${page} shows no main after #${options.under}`);
  const code = (options.lang === 'js' ? fence.js : fence.ts) ?? '';
  if (!code) throw new Error(`behaviour: ${page}:${fence.line} main has no ${options.lang} half`);
  return code;
}

export async function bootMain(
  page: string,
  AppModule: unknown,
  options: BootOptions,
): Promise<any> {
  const code = mainSource(page, options);
  const edits: Edit[] = [
    [/await app\.listen\([^)]*\);/, 'return app;'],
    [/^bootstrap\(\);$/m, 'export { bootstrap };'],
    [
      "import { AppModule } from './app.module';",
      'const { AppModule } = (globalThis as any).__behaviourAppModule;',
    ],
    ...(/import \* as \w+ from '[\w-]+';/.test(code)
      ? ([[/import \* as (\w+) from '([\w-]+)';/g, "import $1 = require('$2');"]] as Edit[])
      : []),
    ...(options.edit ?? []),
  ];
  const source = applyEdits(`${page} main`, code, edits);
  (globalThis as any).__behaviourAppModule = {AppModule};
  // The page's bootstrap creates the app with the default logger: keep the bench quiet.
  nest('@nestjs/common').Logger.overrideLogger(false);
  const {bootstrap} = compileModule<{bootstrap: () => Promise<any>}>(source, 'main');
  return bootstrap();
}

/**
 * The behaviour suite (npm run test:behaviour): real NestJS 8.4.7 apps started
 * from the pages' samples. TypeScript is compiled by TypeScript 4.9 itself
 * (tools/behaviour/node_modules), not by Vite's transformer, because Nest's
 * dependency injection reads the `design:paramtypes` metadata that only
 * `emitDecoratorMetadata` writes.
 */
import {createRequire} from 'node:module';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {defineConfig, type Plugin} from 'vitest/config';

const here = dirname(fileURLToPath(import.meta.url));
const ts = createRequire(join(here, 'package.json'))('typescript') as typeof import('typescript');

function typescriptWithMetadata(): Plugin {
  return {
    name: 'behaviour:typescript-metadata',
    enforce: 'pre',
    transform(code, id) {
      if (!/\.tsx?$/.test(id) || id.includes('/node_modules/')) return null;
      const out = ts.transpileModule(code, {
        fileName: id,
        compilerOptions: {
          module: ts.ModuleKind.ESNext,
          target: ts.ScriptTarget.ES2020,
          experimentalDecorators: true,
          emitDecoratorMetadata: true,
          esModuleInterop: true,
          sourceMap: true,
          inlineSources: true,
        },
      });
      return {code: out.outputText, map: out.sourceMapText ? JSON.parse(out.sourceMapText) : null};
    },
  };
}

export default defineConfig({
  root: here,
  plugins: [typescriptWithMetadata()],
  oxc: false,
  test: {
    include: ['tests/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    // Three files at a time on two cores: much of a file's time is spent waiting (servers,
    // child processes, sockets), not computing.
    maxWorkers: 3,
    testTimeout: 30_000,
    // Hooks that scaffold a project with the CLI or start RabbitMQ need minutes on a loaded machine.
    hookTimeout: 240_000,
    reporters: ['default', join(here, 'lib', 'reporter.ts')],
  },
});

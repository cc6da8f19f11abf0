/**
 * The claims of the scripts page that the compiler and npm settle. The CLI's own commands are
 * tested with @nestjs/cli 8.2.8 in ./overview, ./usages, ./monorepo and ./libraries; what this
 * page adds about `nest start` (path rewriting, --exec, --debug, watch restarts) was checked by
 * running it in a temporary project (see the commit), since the suite does not run watch mode.
 */
import {expect} from 'vitest';
import {mkdtempSync, writeFileSync, readFileSync, rmSync} from 'node:fs';
import {spawnSync} from 'node:child_process';
import {join, resolve} from 'node:path';
import {tmpdir} from 'node:os';
import {createRequire} from 'node:module';
import {claim} from '../../lib';

const page = 'docs/cli/scripts.md';
const ts = createRequire(resolve(__dirname, '../../package.json'))(
  'typescript',
) as typeof import('typescript');

claim(
  `${page}#what-nest-build-does`,
  'plain tsc type-checks an @app/... import against paths but emits it unchanged, which Node.js cannot load',
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-paths-'));
    try {
      writeFileSync(join(dir, 'util.ts'), 'export const hello = () => "hi";\n');
      writeFileSync(
        join(dir, 'main.ts'),
        'import { hello } from "@app/util";\nexport const greeting = hello();\n',
      );
      const program = ts.createProgram([join(dir, 'main.ts')], {
        module: ts.ModuleKind.CommonJS,
        outDir: join(dir, 'dist'),
        rootDir: dir,
        baseUrl: dir,
        paths: {'@app/util': ['util']},
        types: [],
        lib: ['lib.es5.d.ts'],
        skipLibCheck: true,
      });
      expect(ts.getPreEmitDiagnostics(program)).toEqual([]);
      program.emit();
      expect(readFileSync(join(dir, 'dist', 'main.js'), 'utf8')).toContain('require("@app/util")');
      const run = spawnSync(process.execPath, [join(dir, 'dist', 'main.js')], {encoding: 'utf8'});
      expect(run.status).not.toBe(0);
      expect(run.stderr).toContain("Cannot find module '@app/util'");
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  },
);

claim(
  `${page}#why-keep-the-scripts`,
  'a comment or a trailing comma is not JSON: a strict parser rejects the nest-cli.json',
  () => {
    expect(() => JSON.parse('{\n  "sourceRoot": "src",\n}')).toThrow(SyntaxError);
    expect(() => JSON.parse('{\n  // comment\n  "sourceRoot": "src"\n}')).toThrow(SyntaxError);
  },
);

claim(
  `${page}#why-keep-the-scripts`,
  'npm start runs the start script; without the CLI installed it fails with "nest: not found"',
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-start-'));
    try {
      writeFileSync(
        join(dir, 'package.json'),
        JSON.stringify({name: 'x', private: true, scripts: {start: 'nest start'}}),
      );
      const run = spawnSync('npm', ['start'], {
        cwd: dir,
        encoding: 'utf8',
        env: {...process.env, PATH: '/usr/local/bin:/usr/bin:/bin'},
      });
      expect(run.status).not.toBe(0);
      expect(run.stderr + run.stdout).toMatch(/nest: (command )?not found/);
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  },
);

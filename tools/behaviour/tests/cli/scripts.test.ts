/**
 * The claims of the scripts page, settled with the real CLI (@nestjs/cli 8.2.8 with @nestjs/schematics
 * 8.0.11), the compiler and npm: the scripts `nest new` writes, where the webpack switch is read, how
 * `nest start` launches Node.js (source-map-support, --exec, arguments after --), watch mode with a type
 * error, and what a nest-cli.json that is not strict JSON does to build and start. The CLI's commands
 * themselves are tested in ./overview, ./usages, ./monorepo and ./libraries.
 */
import {afterAll, beforeAll, expect} from 'vitest';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import {spawn, spawnSync} from 'node:child_process';
import {join, resolve} from 'node:path';
import {tmpdir} from 'node:os';
import {createRequire} from 'node:module';
import {claim, expectOutput} from '../../lib';
import {nestCli, nestOk, newProject, nodeModules, readJson, tempDir} from './_support';

const page = 'docs/cli/scripts.md';
const ts = createRequire(resolve(__dirname, '../../package.json'))(
  'typescript',
) as typeof import('typescript');

const nestBin = join(nodeModules, '@nestjs', 'cli', 'bin', 'nest.js');

// Created in beforeAll: a project made by nest new (node_modules linked to the suite's), whose src is
// then reduced to a main.ts that prints how Node.js was launched, so each build takes little time.
let tmp: ReturnType<typeof tempDir>;
let project: string;
let generatedScripts: Record<string, string>;
let jestConfig: {transform: Record<string, string>};
const launchMain =
  "console.log('launched ' + JSON.stringify({ execArgv: process.execArgv, argv: process.argv.slice(2) }));\n";

beforeAll(() => {
  tmp = tempDir('scripts');
  project = newProject(tmp.dir, 'my-project');
  const pkg = readJson(join(project, 'package.json'));
  generatedScripts = pkg.scripts;
  jestConfig = pkg.jest;
  for (const file of readdirSync(join(project, 'src'))) rmSync(join(project, 'src', file));
  writeFileSync(join(project, 'src', 'main.ts'), launchMain);
}, 240_000);
afterAll(() => tmp?.cleanup());

const nestCliJson = () => readJson(join(project, 'nest-cli.json'));
/** Runs `fn` with nest-cli.json replaced by `content`, then puts the generated file back. */
function withNestCliJson<T>(content: string, fn: () => T): T {
  const file = join(project, 'nest-cli.json');
  const original = readFileSync(file, 'utf8');
  writeFileSync(file, content);
  try {
    return fn();
  } finally {
    writeFileSync(file, original);
  }
}
const launched = (out: string) => {
  const line = out.split('\n').find((l) => l.startsWith('launched '));
  if (!line) throw new Error(`the application printed no launch line:\n${out}`);
  return JSON.parse(line.slice('launched '.length)) as {execArgv: string[]; argv: string[]};
};

claim(
  `${page}#the-scripts-of-a-new-project`,
  'nest new writes the scripts shown (lint, format and test scripts aside); the test scripts run Jest, which compiles through ts-jest',
  () => {
    const shown = Object.fromEntries(
      Object.entries(generatedScripts).filter(([name]) => !/^(lint|format|test)/.test(name)),
    );
    expectOutput(page, 'new-project-scripts', {scripts: shown});
    const tests = Object.entries(generatedScripts).filter(([name]) => name.startsWith('test'));
    expect(tests.length).toBeGreaterThan(0);
    for (const [, command] of tests) {
      expect(command).toMatch(/\bjest\b/);
      expect(command).not.toMatch(/\bnest\b/);
    }
    expect(Object.values(jestConfig.transform)).toEqual(['ts-jest']);
  },
);

claim(
  `${page}#what-nest-build-does`,
  '"webpack": true under compilerOptions bundles dist/main.js; the same key at the top level is ignored (tsc output)',
  () => {
    const base = nestCliJson();
    const build = (config: unknown) =>
      withNestCliJson(JSON.stringify(config), () => {
        rmSync(join(project, 'dist'), {recursive: true, force: true});
        nestOk(project, ['build']);
        return readFileSync(join(project, 'dist', 'main.js'), 'utf8');
      });
    const topLevel = build({...base, webpack: true});
    expect(topLevel).not.toContain('webpackBootstrap');
    expect(existsSync(join(project, 'dist', 'main.js.map'))).toBe(true);
    const underCompilerOptions = build({...base, compilerOptions: {webpack: true}});
    expect(underCompilerOptions).toContain('webpackBootstrap');
  },
  240_000,
);

claim(
  `${page}#what-nest-start-does`,
  'nest start runs node -r source-map-support/register; --debug adds --inspect=<address>, --exec replaces node, arguments after -- reach the application',
  () => {
    const plain = launched(nestOk(project, ['start']).stdout);
    expect(plain).toEqual({execArgv: ['-r', 'source-map-support/register'], argv: []});
    const run = nestOk(project, [
      'start',
      '--debug',
      '127.0.0.1:0',
      '--exec',
      'node --max-old-space-size=4096',
      '--',
      '--port',
      '4000',
    ]);
    expect(launched(run.stdout)).toEqual({
      execArgv: [
        '--max-old-space-size=4096',
        '-r',
        'source-map-support/register',
        '--inspect=127.0.0.1:0',
      ],
      argv: ['--port', '4000'],
    });
  },
  240_000,
);

claim(
  `${page}#what-nest-start-does`,
  'where source-map-support cannot be resolved from the project folder, the launched process fails to start',
  () => {
    const bare = join(tmp.dir, 'no-source-map-support');
    mkdirSync(bare);
    for (const file of ['nest-cli.json', 'tsconfig.json', 'tsconfig.build.json', 'src'])
      cpSync(join(project, file), join(bare, file), {recursive: true});
    // Only what the compiler needs: the CLI comes from the suite's packages, source-map-support does not.
    mkdirSync(join(bare, 'node_modules', '@types'), {recursive: true});
    symlinkSync(join(nodeModules, 'typescript'), join(bare, 'node_modules', 'typescript'), 'dir');
    symlinkSync(
      join(nodeModules, '@types', 'node'),
      join(bare, 'node_modules', '@types', 'node'),
      'dir',
    );
    const run = nestCli(bare, ['start']);
    expect(run.status).toBe(1);
    expect(run.out).toContain("Cannot find module 'source-map-support/register'");
    expect(run.out).not.toContain('launched ');
  },
  240_000,
);

claim(
  `${page}#the-scripts-of-a-new-project`,
  'start:dev (nest start --watch): a change with a type error restarts nothing, the previous process keeps running until a change compiles cleanly',
  async () => {
    const dir = join(tmp.dir, 'watch');
    mkdirSync(dir);
    for (const file of ['nest-cli.json', 'tsconfig.json', 'tsconfig.build.json', 'package.json'])
      cpSync(join(project, file), join(dir, file));
    symlinkSync(nodeModules, join(dir, 'node_modules'), 'dir');
    const main = join(dir, 'src', 'main.ts');
    mkdirSync(join(dir, 'src'));
    const version = (name: string, prefix = '') =>
      `${prefix}console.log('started ${name} ' + process.pid);\nsetInterval(() => undefined, 1000);\n`;
    writeFileSync(main, version('A'));
    const env: NodeJS.ProcessEnv = {...process.env, FORCE_COLOR: '0', NO_COLOR: '1'};
    delete env.NODE_ENV;
    // Its own process group, so that the CLI, the shell it starts and the application end together.
    const watcher = spawn(
      process.execPath,
      [nestBin, 'start', '--watch', '--preserveWatchOutput'],
      {cwd: dir, env, detached: true, stdio: ['ignore', 'pipe', 'pipe']},
    );
    let out = '';
    watcher.stdout.on('data', (chunk) => (out += chunk));
    watcher.stderr.on('data', (chunk) => (out += chunk));
    const waitFor = async (pattern: RegExp, from: number) => {
      for (let waited = 0; waited < 120_000; waited += 100) {
        const match = pattern.exec(out.slice(from));
        if (match) return match;
        await new Promise((done) => setTimeout(done, 100));
      }
      throw new Error(`watch mode never printed ${pattern}:\n${out}`);
    };
    // Running, not a zombie: a killed application whose parent shell died first may stay unreaped.
    const alive = (pid: number) => {
      try {
        return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      } catch {
        return false;
      }
    };
    try {
      const first = Number((await waitFor(/started A (\d+)/, 0))[1]);
      let mark = out.length;
      writeFileSync(main, version('B', "const port: number = '3000';\n"));
      await waitFor(/Found 1 error/, mark);
      await new Promise((done) => setTimeout(done, 1500));
      expect(out.slice(mark)).not.toContain('started B');
      expect(alive(first)).toBe(true);
      mark = out.length;
      writeFileSync(main, version('C'));
      const next = Number((await waitFor(/started C (\d+)/, mark))[1]);
      expect(next).not.toBe(first);
      for (let waited = 0; alive(first) && waited < 5000; waited += 100)
        await new Promise((done) => setTimeout(done, 100));
      expect(alive(first)).toBe(false);
    } finally {
      if (watcher.pid) process.kill(-watcher.pid, 'SIGKILL');
    }
  },
  300_000,
);

claim(
  `${page}#why-keep-the-scripts`,
  'a comment or a trailing comma in nest-cli.json stops nest build (exit code 1) and nest start (nothing built, but exit code 0)',
  () => {
    const variants = [
      '{\n  // the source folder\n  "sourceRoot": "src"\n}\n',
      '{\n  "sourceRoot": "src",\n}\n',
    ];
    for (const content of variants) {
      expect(() => JSON.parse(content)).toThrow(SyntaxError);
      withNestCliJson(content, () => {
        rmSync(join(project, 'dist'), {recursive: true, force: true});
        const build = nestCli(project, ['build']);
        expect(build.status).toBe(1);
        expect(build.out).toMatch(/Error\s+.*JSON/);
        const start = nestCli(project, ['start']);
        expect(start.out).toMatch(/Error\s+.*JSON/);
        expect(start.out).not.toContain('launched ');
        expect(existsSync(join(project, 'dist'))).toBe(false);
        expect(start.status).toBe(0);
      });
    }
  },
  240_000,
);

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

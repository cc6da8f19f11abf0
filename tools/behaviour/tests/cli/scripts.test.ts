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

// Abuse cases and failure modes.

claim.abuse(
  `${page}#what-nest-start-does`,
  'nest start --debug 0.0.0.0:<port>: the inspector listens on every interface, and a client that reaches it runs code in the application process',
  async () => {
    const {freePort} = await import('../../lib');
    const port = await freePort();
    const main = join(project, 'src', 'main.ts');
    const original = readFileSync(main, 'utf8');
    // An application that keeps running, as a server does.
    writeFileSync(
      main,
      "setInterval(() => undefined, 1000);\nconsole.log('running ' + process.pid);\n",
    );
    const child = spawn(process.execPath, [nestBin, 'start', '--debug', `0.0.0.0:${port}`], {
      cwd: project,
      env: {...process.env, NO_COLOR: '1'},
      detached: true,
    });
    try {
      let output = '';
      const listening = await new Promise<string>((resolvePromise, reject) => {
        const timer = setTimeout(() => reject(new Error(`no inspector:\n${output}`)), 120_000);
        const onData = (chunk: Buffer) => {
          output += chunk.toString();
          const m = /Debugger listening on (ws:\/\/\S+)/.exec(output);
          if (m && /running (\d+)/.test(output)) {
            clearTimeout(timer);
            resolvePromise(m[1]);
          }
        };
        child.stdout.on('data', onData);
        child.stderr.on('data', onData);
      });
      expect(listening.startsWith(`ws://0.0.0.0:${port}/`)).toBe(true);
      const appPid = Number(/running (\d+)/.exec(output)![1]);
      // Any address of this machine reaches it; the first non-loopback IPv4 if there is one.
      const {networkInterfaces} = await import('node:os');
      const external =
        Object.values(networkInterfaces())
          .flat()
          .find((address) => address && address.family === 'IPv4' && !address.internal)?.address ??
        '127.0.0.1';
      const [target] = await (await fetch(`http://${external}:${port}/json/list`)).json();
      const WebSocket = (await import('ws')).default;
      const socket = new WebSocket(target.webSocketDebuggerUrl.replace('0.0.0.0', external));
      await new Promise((r) => socket.once('open', r));
      socket.send(
        JSON.stringify({id: 1, method: 'Runtime.evaluate', params: {expression: 'process.pid'}}),
      );
      const reply = await new Promise<any>((r) =>
        socket.on('message', (data: Buffer) => {
          const message = JSON.parse(data.toString());
          if (message.id === 1) r(message);
        }),
      );
      socket.close();
      expect(reply.result.result.value).toBe(appPid);
    } finally {
      // The CLI and the application it started: the process group of the child this test spawned.
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
      writeFileSync(main, original);
    }
  },
  240_000,
);

claim.failure(
  `${page}#the-scripts-of-a-new-project`,
  'start:prod before any build: node dist/main fails with "Cannot find module" (exit code 1)',
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-start-prod-'));
    try {
      writeFileSync(
        join(dir, 'package.json'),
        JSON.stringify({
          name: 'x',
          private: true,
          scripts: {'start:prod': generatedScripts['start:prod']},
        }),
      );
      const run = spawnSync('npm', ['run', 'start:prod'], {cwd: dir, encoding: 'utf8'});
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(`Cannot find module '${join(dir, 'dist', 'main')}'`);
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  },
);

claim.failure(
  `${page}#the-scripts-of-a-new-project`,
  'npm run build with a type error: nest build exits with 1 and names the error, but dist/main.js is written from the failing source all the same',
  () => {
    const main = join(project, 'src', 'main.ts');
    const original = readFileSync(main, 'utf8');
    writeFileSync(main, `const port: number = 'not a number';\n${launchMain}`);
    try {
      const run = spawnSync('npm', ['run', 'build'], {
        cwd: project,
        encoding: 'utf8',
        env: {...process.env, NO_COLOR: '1'},
      });
      expect(run.status).toBe(1);
      // The compiler's diagnostics are coloured even with NO_COLOR.
      // eslint-disable-next-line no-control-regex
      const out = (run.stdout + run.stderr).replace(/\x1b\[[0-9;]*m/g, '');
      expect(out).toContain("error TS2322: Type 'string' is not assignable to type 'number'.");
      expect(readFileSync(join(project, 'dist', 'main.js'), 'utf8')).toContain(
        "const port = 'not a number';",
      );
    } finally {
      writeFileSync(main, original);
    }
  },
  240_000,
);

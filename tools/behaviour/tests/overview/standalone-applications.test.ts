import {expect, vi} from 'vitest';
import {spawn, spawnSync} from 'node:child_process';
import {join, resolve} from 'node:path';
import {claim, samples, nest, fragment, compileModule} from '../../lib';

const behaviourDir = resolve(__dirname, '..', '..');

const common = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const {Module, Injectable, Scope, UseGuards, Controller} = common;
const page = 'docs/standalone-applications.md';

async function context(root: unknown, options: Record<string, unknown> = {logger: false}) {
  return NestFactory.createApplicationContext(root, options);
}

claim(
  `${page}#getting-started`,
  `createApplicationContext() creates the providers and calls onModuleInit() and onApplicationBootstrap(); close() calls onModuleDestroy(), beforeApplicationShutdown() and onApplicationShutdown()`,
  async () => {
    const calls: string[] = [];
    @Injectable()
    class TasksService {
      onModuleInit() {
        calls.push('onModuleInit');
      }
      onApplicationBootstrap() {
        calls.push('onApplicationBootstrap');
      }
      onModuleDestroy() {
        calls.push('onModuleDestroy');
      }
      beforeApplicationShutdown() {
        calls.push('beforeApplicationShutdown');
      }
      onApplicationShutdown() {
        calls.push('onApplicationShutdown');
      }
    }
    @Module({providers: [TasksService]})
    class AppModule {}
    const app = await context(AppModule);
    expect(calls).toEqual(['onModuleInit', 'onApplicationBootstrap']);
    await app.close();
    expect(calls).toEqual([
      'onModuleInit',
      'onApplicationBootstrap',
      'onModuleDestroy',
      'beforeApplicationShutdown',
      'onApplicationShutdown',
    ]);
  },
);

claim(
  `${page}#getting-started`,
  `the logger option ['error', 'warn'] silences the framework's start-up log lines (a fresh process each way)`,
  async () => {
    const script = (options: string) => `
    require('reflect-metadata');
    const { Module } = require('@nestjs/common');
    const { NestFactory } = require('@nestjs/core');
    class AppModule {}
    Module({})(AppModule);
    NestFactory.createApplicationContext(AppModule, ${options}).then((app) => app.close());
  `;
    const run = (options: string) =>
      spawnSync(process.execPath, ['-e', script(options)], {
        cwd: behaviourDir,
        encoding: 'utf8',
        env: {...process.env, NO_COLOR: '1'},
      });
    const quiet = run(`{ logger: ['error', 'warn'] }`);
    expect([quiet.status, quiet.stdout, quiet.stderr]).toEqual([0, '', '']);
    const loud = run('{}');
    expect(loud.status).toBe(0);
    expect(loud.stdout).toContain('Starting Nest application...');
  },
);

@Injectable()
class TasksService {}

claim(
  `${page}#getting-providers`,
  `get() finds a provider in any module; select(Module).get(Token, { strict: true }) finds only what that module declares itself`,
  async () => {
    @Module({providers: [TasksService], exports: [TasksService]})
    class TasksModule {}
    @Module({imports: [TasksModule]})
    class ReportsModule {}
    @Module({imports: [ReportsModule]})
    class AppModule {}
    const app = await context(AppModule);
    expect(app.get(TasksService)).toBeInstanceOf(TasksService);
    expect(app.select(TasksModule).get(TasksService, {strict: true})).toBe(app.get(TasksService));
    expect(() => app.select(ReportsModule).get(TasksService, {strict: true})).toThrow();
    // select() reaches modules that the current one does not import, and the selected context can select again.
    expect(app.select(ReportsModule).select(TasksModule).get(TasksService, {strict: true})).toBe(
      app.get(TasksService),
    );
    await app.close();
  },
);

claim(
  `${page}#getting-providers`,
  `with two providers under one token, strict mode picks each module's own; a module outside the graph makes select() throw; an unknown token makes get() throw in both modes`,
  async () => {
    @Module({providers: [{provide: 'STORE', useValue: 'cats store'}]})
    class CatsModule {}
    @Module({providers: [{provide: 'STORE', useValue: 'dogs store'}]})
    class DogsModule {}
    @Module({imports: [CatsModule, DogsModule]})
    class AppModule {}
    @Module({})
    class Elsewhere {}
    const app = await context(AppModule);
    expect(app.select(CatsModule).get('STORE', {strict: true})).toBe('cats store');
    expect(app.select(DogsModule).get('STORE', {strict: true})).toBe('dogs store');
    expect(['cats store', 'dogs store']).toContain(app.get('STORE'));
    expect(() => app.select(Elsewhere)).toThrow();
    expect(() => app.get('NOBODY')).toThrow();
    expect(() => app.select(CatsModule).get('NOBODY', {strict: true})).toThrow();
    await app.close();
  },
);

claim(
  `${page}#getting-providers`,
  `get() throws for request-scoped and transient providers; resolve() creates them`,
  async () => {
    @Injectable({scope: Scope.REQUEST})
    class PerRequest {}
    @Injectable({scope: Scope.TRANSIENT})
    class PerConsumer {}
    @Module({providers: [PerRequest, PerConsumer]})
    class AppModule {}
    const app = await context(AppModule);
    expect(() => app.get(PerRequest)).toThrow();
    expect(() => app.get(PerConsumer)).toThrow();
    expect(await app.resolve(PerRequest)).toBeInstanceOf(PerRequest);
    expect(await app.resolve(PerConsumer)).toBeInstanceOf(PerConsumer);
    await app.close();
  },
);

claim(
  `${page}#getting-providers`,
  `a service method called on the context runs without guards or other enhancers`,
  async () => {
    let guarded = 0;
    @Injectable()
    @UseGuards({canActivate: () => ((guarded += 1), false)})
    class ReportService {
      run() {
        return 'ran';
      }
    }
    @Controller()
    class Unused {}
    @Module({providers: [ReportService], controllers: [Unused]})
    class AppModule {}
    const app = await context(AppModule);
    expect(app.get(ReportService).run()).toBe('ran');
    expect(guarded).toBe(0);
    await app.close();
  },
);

function reportScript(findAll: string) {
  return samples(page, {
    files: {
      'cats-report': fragment(page, 'example', 'createApplicationContext').value,
      'cats.service': `import { Injectable } from '@nestjs/common';\n@Injectable()\nexport class CatsService {\n  async findAll() { ${findAll} }\n}\n`,
      'cats.module': `import { Module } from '@nestjs/common';\nimport { CatsService } from './cats.service';\n@Module({ providers: [CatsService] })\nexport class CatsModule {}\n`,
      'app.module': `import { Module } from '@nestjs/common';\nimport { CatsModule } from './cats/cats.module';\n@Module({ imports: [CatsModule] })\nexport class AppModule {}\n`,
    },
  });
}

claim(
  `${page}#example`,
  `the report script prints "The database holds 2 cats", and on a failure logs the error and sets process.exitCode to 1`,
  async () => {
    const lines: string[] = [];
    const errors: unknown[] = [];
    const log = vi
      .spyOn(console, 'log')
      .mockImplementation((...args: unknown[]) => void lines.push(args.join(' ')));
    const error = vi
      .spyOn(console, 'error')
      .mockImplementation((...args: unknown[]) => void errors.push(args[0]));
    const before = process.exitCode;
    try {
      reportScript(`return ['Tom', 'Felix'];`).require('cats-report');
      await vi.waitFor(() => expect(lines).toContain('The database holds 2 cats'), {timeout: 3000});
      reportScript(`throw new Error('database unreachable');`).require('cats-report');
      await vi.waitFor(() => expect(process.exitCode).toBe(1), {timeout: 3000});
      expect(String(errors.find((e) => e instanceof Error))).toBe('Error: database unreachable');
    } finally {
      process.exitCode = before;
      log.mockRestore();
      error.mockRestore();
    }
  },
);

// Review 4: dynamic modules in select(), signals, and a context that cannot start.

claim(
  `${page}#getting-providers`,
  `select(ConfigModule) throws UnknownModuleException for a module imported as ConfigModule.forRoot(); select() of the imported object finds ConfigService`,
  async () => {
    const {ConfigService} = nest('@nestjs/config');
    const {AppModule, configModule} = compileModule(
      fragment(page, 'getting-providers', 'ConfigModule.forRoot').value,
      'config-app-module',
    );
    const app = await context(AppModule);
    try {
      const {ConfigModule} = nest('@nestjs/config');
      expect(() => app.select(ConfigModule)).toThrow(
        'Nest could not select the given module (it does not exist in current context)',
      );
      expect(app.select(configModule).get(ConfigService, {strict: true})).toBeInstanceOf(
        ConfigService,
      );
    } finally {
      await app.close();
    }
  },
);

/** A worker context in a child process with a provider that prints its shutdown hooks; resolves when it ends after SIGTERM. */
function workerAfterSigterm(enableShutdownHooks: boolean) {
  const script = `
    require('reflect-metadata');
    const { Module, Injectable } = require('@nestjs/common');
    const { NestFactory } = require('@nestjs/core');
    class Worker {
      onModuleDestroy() { console.log('onModuleDestroy'); }
      onApplicationShutdown(signal) { console.log('onApplicationShutdown ' + signal); }
    }
    Injectable()(Worker);
    class AppModule {}
    Module({ providers: [Worker] })(AppModule);
    (async () => {
      const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
      ${enableShutdownHooks ? 'app.enableShutdownHooks();' : ''}
      setInterval(() => undefined, 1000);
      console.log('ready');
    })();
  `;
  return new Promise<{signal: NodeJS.Signals | null; code: number | null; stdout: string}>(
    (done, fail) => {
      const child = spawn(process.execPath, ['-e', script], {cwd: behaviourDir});
      let stdout = '';
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
        if (stdout.includes('ready') && !child.killed) child.kill('SIGTERM');
      });
      child.on('error', fail);
      child.on('exit', (code, signal) => {
        clearTimeout(timer);
        done({code, signal, stdout});
      });
    },
  );
}

claim.failure(
  `${page}#closing-the-application`,
  `without enableShutdownHooks(), SIGTERM ends a worker context at once and no shutdown hook runs`,
  async () => {
    const ended = await workerAfterSigterm(false);
    expect(ended.signal).toBe('SIGTERM');
    expect(ended.stdout.trim().split('\n')).toEqual(['ready']);
  },
);

claim.failure(
  `${page}#closing-the-application`,
  `with app.enableShutdownHooks(), SIGTERM runs onModuleDestroy() and onApplicationShutdown('SIGTERM'), then the process ends with that signal`,
  async () => {
    expect(fragment(page, 'closing-the-application', 'enableShutdownHooks').value).toContain(
      'app.enableShutdownHooks();',
    );
    const ended = await workerAfterSigterm(true);
    expect(ended.signal).toBe('SIGTERM');
    expect(ended.stdout.trim().split('\n')).toEqual([
      'ready',
      'onModuleDestroy',
      'onApplicationShutdown SIGTERM',
    ]);
  },
);

/** The page's report script in a child process (with `flags` for node), its CatsService failing in onModuleInit(). */
function failingReport(flags: string[] = []) {
  const set = samples(page, {
    files: {
      'cats-report': fragment(page, 'example', 'createApplicationContext').value,
      'cats.service': `import { Injectable } from '@nestjs/common';\n@Injectable()\nexport class CatsService {\n  async onModuleInit() { throw new Error('connect ECONNREFUSED 127.0.0.1:5432'); }\n  async findAll() { return []; }\n}\n`,
      'cats.module': `import { Module } from '@nestjs/common';\nimport { CatsService } from './cats.service';\n@Module({ providers: [CatsService] })\nexport class CatsModule {}\n`,
      'app.module': `import { Module } from '@nestjs/common';\nimport { CatsModule } from './cats/cats.module';\n@Module({ imports: [CatsModule] })\nexport class AppModule {}\n`,
    },
  });
  // The set's files are written flat: resolve './cats/cats.module' by its base name, as lib/samples does.
  const runner = `
      const Module = require('module');
      const path = require('path');
      const resolveFilename = Module._resolveFilename;
      Module._resolveFilename = function (request, parent, ...rest) {
        try {
          return resolveFilename.call(this, request, parent, ...rest);
        } catch (error) {
          if (!request.startsWith('.')) throw error;
          return path.join(${JSON.stringify(set.dir)}, path.basename(request) + '.js');
        }
      };
      require(${JSON.stringify(join(set.dir, 'cats-report.js'))});
    `;
  return spawnSync(process.execPath, [...flags, '-e', runner], {
    cwd: behaviourDir,
    encoding: 'utf8',
    env: {...process.env, NO_COLOR: '1'},
    timeout: 20_000,
  });
}

claim.failure(
  `${page}#example`,
  `when a provider fails in onModuleInit() (the database is down), createApplicationContext() rejects before the try block: Nest's logger reports nothing, the catch() on bootstrap() prints the error and the script exits with code 1`,
  () => {
    const run = failingReport();
    expect(run.status).toBe(1);
    expect(run.stdout).not.toContain('The database holds');
    expect(run.stdout + run.stderr).toContain('connect ECONNREFUSED 127.0.0.1:5432');
    expect(run.stdout + run.stderr).not.toContain('[Nest]');
    expect(run.stderr).not.toContain('UnhandledPromiseRejection');
  },
);

claim.failure(
  `${page}#example`,
  `under Node.js 12/14's rejection mode (--unhandled-rejections=warn), the failed start still ends the report script with exit code 1`,
  () => {
    const run = failingReport(['--unhandled-rejections=warn']);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('connect ECONNREFUSED 127.0.0.1:5432');
  },
);

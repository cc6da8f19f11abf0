/// <reference types="reflect-metadata" />
import {expect} from 'vitest';
import {claim, samples, nest, listen} from '../../lib';
import {captureLog, runScript} from './_support';

const {Module, Injectable, Controller, Get, Scope} = nest('@nestjs/common');
const {NestFactory, LazyModuleLoader} = nest('@nestjs/core');
const page = 'docs/fundamentals/lifecycle-events.md';

const hooks = [
  'onModuleInit',
  'onApplicationBootstrap',
  'onModuleDestroy',
  'beforeApplicationShutdown',
  'onApplicationShutdown',
];

/** Applies a class decorator and returns the class (Nest's decorators return nothing). */
function apply<T>(decorator: (target: any) => unknown, target: T): T {
  decorator(target);
  return target;
}

/** A class whose every hook records `${name}.${hook}` in `log`. */
function recorder(name: string, log: string[]) {
  const target = class {};
  Object.defineProperty(target, 'name', {value: name});
  for (const hook of hooks) {
    (target.prototype as any)[hook] = function () {
      log.push(`${name}.${hook}`);
    };
  }
  return target;
}

claim(
  `${page}#lifecycle-sequence`,
  'NestFactory.create() runs no hook; init() runs every onModuleInit, then every onApplicationBootstrap',
  async () => {
    const log: string[] = [];
    const Service = apply(Injectable(), recorder('CatsService', log));
    const Leaf = apply(Module({providers: [Service]}), recorder('CatsModule', log));
    const Root = apply(Module({imports: [Leaf]}), recorder('AppModule', log));
    const app = await NestFactory.create(Root, {logger: false, abortOnError: false});
    expect(log).toEqual([]);
    await app.init();
    expect(log).toEqual([
      'CatsService.onModuleInit',
      'CatsModule.onModuleInit',
      'AppModule.onModuleInit',
      'CatsService.onApplicationBootstrap',
      'CatsModule.onApplicationBootstrap',
      'AppModule.onApplicationBootstrap',
    ]);
    await app.close();
  },
);

claim(
  `${page}#lifecycle-sequence`,
  'modules run farthest from the root first, the root last; shutdown hooks follow the same order, not the reverse',
  async () => {
    const log: string[] = [];
    const Deep = apply(Module({}), recorder('DeepModule', log));
    const Middle = apply(Module({imports: [Deep]}), recorder('MiddleModule', log));
    const Root = apply(Module({imports: [Middle]}), recorder('AppModule', log));
    const app = await NestFactory.create(Root, {logger: false, abortOnError: false});
    await app.init();
    expect(log.filter((l) => l.endsWith('onModuleInit'))).toEqual([
      'DeepModule.onModuleInit',
      'MiddleModule.onModuleInit',
      'AppModule.onModuleInit',
    ]);
    log.length = 0;
    await app.close();
    expect(log.filter((l) => l.endsWith('onModuleDestroy'))).toEqual([
      'DeepModule.onModuleDestroy',
      'MiddleModule.onModuleDestroy',
      'AppModule.onModuleDestroy',
    ]);
    expect(log.filter((l) => l.endsWith('onApplicationShutdown'))).toEqual([
      'DeepModule.onApplicationShutdown',
      'MiddleModule.onApplicationShutdown',
      'AppModule.onApplicationShutdown',
    ]);
  },
);

claim(
  `${page}#lifecycle-sequence`,
  "root imports [CatsModule, SharedModule] and CatsModule imports SharedModule: CatsModule's hooks run before SharedModule's",
  async () => {
    const log: string[] = [];
    const SharedService = apply(Injectable(), recorder('SharedService', log));
    const SharedModule = apply(
      Module({providers: [SharedService], exports: [SharedService]}),
      recorder('SharedModule', log),
    );
    const CatsService = apply(Injectable(), recorder('CatsService', log));
    const CatsModule = apply(
      Module({imports: [SharedModule], providers: [CatsService]}),
      recorder('CatsModule', log),
    );
    const AppModule = apply(
      Module({imports: [CatsModule, SharedModule]}),
      recorder('AppModule', log),
    );
    const app = await NestFactory.create(AppModule, {logger: false, abortOnError: false});
    await app.init();
    expect(log.filter((l) => l.endsWith('onModuleInit'))).toEqual([
      'CatsService.onModuleInit',
      'CatsModule.onModuleInit',
      'SharedService.onModuleInit',
      'SharedModule.onModuleInit',
      'AppModule.onModuleInit',
    ]);
    await app.close();
  },
);

claim(
  `${page}#lifecycle-sequence`,
  'within a module: controllers and providers first, then transient instances, then the module class',
  async () => {
    const log: string[] = [];
    const Transient = apply(Injectable({scope: Scope.TRANSIENT}), recorder('TransientHelper', log));
    const Service = recorder('CatsService', log);
    Injectable()(Service);
    Reflect.defineMetadata('design:paramtypes', [Transient], Service);
    const CatsController = apply(Controller('cats'), recorder('CatsController', log));
    const AppModule = apply(
      Module({controllers: [CatsController], providers: [Service, Transient]}),
      recorder('AppModule', log),
    );
    const app = await NestFactory.create(AppModule, {logger: false, abortOnError: false});
    await app.init();
    const inits = log.filter((l) => l.endsWith('onModuleInit'));
    expect(inits.slice(0, 2).sort()).toEqual([
      'CatsController.onModuleInit',
      'CatsService.onModuleInit',
    ]);
    expect(inits.slice(2)).toEqual(['TransientHelper.onModuleInit', 'AppModule.onModuleInit']);
    await app.close();
  },
);

claim(
  `${page}#lifecycle-sequence`,
  'shutdown: every onModuleDestroy, then every beforeApplicationShutdown (server still listening), then onApplicationShutdown after the server closed',
  async () => {
    const log: string[] = [];
    @Injectable()
    class A {
      onModuleDestroy() {
        log.push('A.onModuleDestroy');
      }
      beforeApplicationShutdown() {
        log.push(`A.beforeApplicationShutdown listening=${server.listening}`);
      }
      onApplicationShutdown() {
        log.push(`A.onApplicationShutdown listening=${server.listening}`);
      }
    }
    @Injectable()
    class B {
      onModuleDestroy() {
        log.push('B.onModuleDestroy');
      }
      beforeApplicationShutdown() {
        log.push(`B.beforeApplicationShutdown listening=${server.listening}`);
      }
    }
    @Module({providers: [A, B]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, {logger: false, abortOnError: false});
    await listen(app);
    const server = app.getHttpServer();
    await app.close();
    expect(log).toEqual([
      'A.onModuleDestroy',
      'B.onModuleDestroy',
      'A.beforeApplicationShutdown listening=true',
      'B.beforeApplicationShutdown listening=true',
      'A.onApplicationShutdown listening=false',
    ]);
  },
);

claim(
  `${page}#lifecycle-sequence`,
  "request-scoped classes (also through bubbling) and lazy-loaded modules' providers get no hook calls",
  async () => {
    const log: string[] = [];
    const RequestScoped = apply(Injectable({scope: Scope.REQUEST}), recorder('RequestScoped', log));
    const Bubbled = recorder('Bubbled', log);
    Injectable()(Bubbled);
    Reflect.defineMetadata('design:paramtypes', [RequestScoped], Bubbled);
    const LazyService = apply(Injectable(), recorder('LazyService', log));
    const LazyModule = apply(Module({providers: [LazyService]}), recorder('LazyModule', log));
    @Controller()
    class HelloController {
      constructor(readonly bubbled: any) {}
      @Get()
      hello() {
        return 'hi';
      }
    }
    Reflect.defineMetadata('design:paramtypes', [Bubbled], HelloController);
    @Module({controllers: [HelloController], providers: [RequestScoped, Bubbled]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, {logger: false, abortOnError: false});
    const base = await listen(app);
    expect(await (await fetch(base)).text()).toBe('hi');
    await app.get(LazyModuleLoader).load(() => LazyModule);
    await app.close();
    expect(log).toEqual([]);
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#usage`,
    `CatsService's onModuleInit() runs on init and logs its cat count (${lang})`,
    async () => {
      const {CatsService} = samples(page, {under: 'usage', lang}).require('cats.service');
      @Module({providers: [CatsService]})
      class AppModule {}
      const app = await NestFactory.create(AppModule, {logger: false, abortOnError: false});
      const {lines} = await captureLog(() => app.init());
      expect(lines).toEqual(['CatsService is ready with 1 cat(s).']);
      await app.close();
    },
  );
}

claim(
  `${page}#usage`,
  'Nest finds a hook by its method name; a misspelled name is silently ignored',
  async () => {
    const log: string[] = [];
    @Injectable()
    class Misspelled {
      onModuleInt() {
        log.push('onModuleInt');
      }
      onApplicationBootstrap() {
        log.push('onApplicationBootstrap');
      }
    }
    @Module({providers: [Misspelled]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, {logger: false, abortOnError: false});
    await app.init();
    expect(log).toEqual(['onApplicationBootstrap']);
    await app.close();
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#asynchronous-initialization`,
    `init() waits for BreedsService's async onModuleInit() before onApplicationBootstrap (${lang})`,
    async () => {
      const set = samples(page, {
        under: 'asynchronous-initialization',
        lang,
        files: {
          'breeds.repository': `import { Injectable } from '@nestjs/common';
@Injectable()
export class BreedsRepository {
  findAllNames() {
    return new Promise((resolve) => setTimeout(() => resolve(['Tabby', 'Siamese']), 150));
  }
}`,
        },
      });
      const {BreedsService} = set.require('breeds.service');
      const {BreedsRepository} = set.require('breeds.repository');
      const seen: boolean[] = [];
      @Injectable()
      class Observer {
        constructor(readonly breeds: any) {}
        onApplicationBootstrap() {
          seen.push(this.breeds.isKnown('Siamese'));
        }
      }
      Reflect.defineMetadata('design:paramtypes', [BreedsService], Observer);
      @Module({providers: [BreedsService, BreedsRepository, Observer]})
      class AppModule {}
      const app = await NestFactory.create(AppModule, {logger: false, abortOnError: false});
      await app.init();
      expect(seen).toEqual([true]);
      expect(app.get(BreedsService).isKnown('Tabby')).toBe(true);
      await app.close();
    },
  );
}

claim(
  `${page}#asynchronous-initialization`,
  'a promise returned by onModuleDestroy() is awaited before beforeApplicationShutdown()',
  async () => {
    const log: string[] = [];
    @Injectable()
    class Slow {
      async onModuleDestroy() {
        await new Promise((r) => setTimeout(r, 100));
        log.push('destroyed');
      }
      beforeApplicationShutdown() {
        log.push('before shutdown');
      }
    }
    @Module({providers: [Slow]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, {logger: false, abortOnError: false});
    await app.init();
    await app.close();
    expect(log).toEqual(['destroyed', 'before shutdown']);
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#application-shutdown`,
    `with app.close(), MetricsService's hooks receive undefined and log "app.close()" (${lang})`,
    async () => {
      const {MetricsService} = samples(page, {under: 'application-shutdown', lang}).require(
        'metrics.service',
      );
      @Module({providers: [MetricsService]})
      class AppModule {}
      const app = await NestFactory.create(AppModule, {logger: false, abortOnError: false});
      await app.init();
      const {lines} = await captureLog(() => app.close());
      expect(lines).toEqual([
        'Flushing metrics before shutdown (app.close())',
        'Application stopped (app.close())',
      ]);
    },
  );
}

const signalScript = (main: string, throwing: boolean) => `
const { Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { MetricsService } = require('./metrics.service.js');
class Watcher {
  onModuleDestroy() { console.log('onModuleDestroy'); ${throwing ? "throw new Error('destroy failed');" : ''} }
}
class AppModule {}
Module({ providers: [MetricsService, Watcher] })(AppModule);
async function bootstrap() {
  const app = await NestFactory.create(AppModule, { logger: ['error'] });
  ${main}
  await app.listen(0, '127.0.0.1');
  console.log('listening ' + JSON.stringify(['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGUSR2'].map((s) => process.listenerCount(s))));
}
bootstrap();
`;

claim(
  `${page}#application-shutdown`,
  'on SIGTERM with enableShutdownHooks(): onModuleDestroy, beforeApplicationShutdown and onApplicationShutdown get "SIGTERM", then the signal ends the process',
  async () => {
    const set = samples(page, {under: 'application-shutdown', lang: 'ts'});
    set.require('metrics.service');
    const result = await runScript(
      set.dir,
      'signal.js',
      signalScript('app.enableShutdownHooks();', false),
      (line, child) => {
        if (line.startsWith('listening')) child.kill('SIGTERM');
      },
    );
    const lines = result.stdout.trim().split('\n');
    // Without arguments, every signal of the ShutdownSignal enum is listened to (SIGUSR2 among them).
    expect(lines[0]).toBe('listening [1,1,1,1]');
    expect(lines.slice(1)).toEqual([
      'onModuleDestroy',
      'Flushing metrics before shutdown (SIGTERM)',
      'Application stopped (SIGTERM)',
    ]);
    expect(result.signal).toBe('SIGTERM');
  },
);

claim(
  `${page}#application-shutdown`,
  "enableShutdownHooks(['SIGTERM', 'SIGINT']) listens to those two signals only",
  async () => {
    const set = samples(page, {under: 'application-shutdown', lang: 'ts'});
    set.require('metrics.service');
    const result = await runScript(
      set.dir,
      'signal-list.js',
      signalScript("app.enableShutdownHooks(['SIGTERM', 'SIGINT']);", false),
      (line, child) => {
        if (line.startsWith('listening')) child.kill('SIGINT');
      },
    );
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toBe('listening [1,1,0,0]');
    expect(lines.slice(1)).toEqual([
      'onModuleDestroy',
      'Flushing metrics before shutdown (SIGINT)',
      'Application stopped (SIGINT)',
    ]);
    expect(result.signal).toBe('SIGINT');
  },
);

claim.failure(
  `${page}#application-shutdown`,
  'a hook that throws during the signal-driven shutdown is logged, and the process exits with code 1',
  async () => {
    const set = samples(page, {under: 'application-shutdown', lang: 'ts'});
    set.require('metrics.service');
    const result = await runScript(
      set.dir,
      'signal-throw.js',
      signalScript('app.enableShutdownHooks();', true),
      (line, child) => {
        if (line.startsWith('listening')) child.kill('SIGTERM');
      },
    );
    expect(result.stdout).toContain('onModuleDestroy');
    expect(result.stdout).not.toContain('Application stopped');
    expect(result.stderr).toContain('destroy failed');
    expect(result.code).toBe(1);
    expect(result.signal).toBe(null);
  },
);

claim(
  `${page}#application-shutdown`,
  'each app with shutdown hooks adds one listener per signal, and app.close() removes them',
  async () => {
    @Module({})
    class AppModule {}
    const before = process.listenerCount('SIGTERM');
    const first = await NestFactory.create(AppModule, {logger: false, abortOnError: false});
    first.enableShutdownHooks(['SIGTERM']);
    await first.init();
    const second = await NestFactory.create(AppModule, {logger: false, abortOnError: false});
    second.enableShutdownHooks(['SIGTERM']);
    await second.init();
    expect(process.listenerCount('SIGTERM')).toBe(before + 2);
    await first.close();
    await second.close();
    expect(process.listenerCount('SIGTERM')).toBe(before);
  },
);

claim(
  `${page}#lifecycle-sequence`,
  'a guard bound with @UseGuards() and a middleware class applied in configure() receive onModuleInit() too',
  async () => {
    const {UseGuards} = nest('@nestjs/common');
    const log: string[] = [];
    @Injectable()
    class AuthGuard {
      canActivate() {
        return true;
      }
      onModuleInit() {
        log.push('AuthGuard');
      }
    }
    @Injectable()
    class LoggerMiddleware {
      use(_req: unknown, _res: unknown, next: () => void) {
        next();
      }
      onModuleInit() {
        log.push('LoggerMiddleware');
      }
    }
    @Controller()
    @UseGuards(AuthGuard)
    class CatsController {}
    class AppModule {
      configure(consumer: any) {
        consumer.apply(LoggerMiddleware).forRoutes('*');
      }
    }
    Module({controllers: [CatsController]})(AppModule);
    const app = await NestFactory.create(AppModule, {logger: false, abortOnError: false});
    await app.init();
    expect(log.sort()).toEqual(['AuthGuard', 'LoggerMiddleware']);
    await app.close();
  },
);

/**
 * A main.ts around the page's MetricsService, with a route that takes 400 ms and reads from a "pool" that
 * closes in onApplicationShutdown(). Prints "listening <port>" once it accepts requests.
 */
const shutdownScript = (main: string) => `
const { Module, Controller, Get, Injectable } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { MetricsService } = require('./metrics.service.js');
class Pool {
  constructor() { this.open = true; }
  query() { if (!this.open) throw new Error('pool closed'); return 'Tom,Felix'; }
  onApplicationShutdown() { this.open = false; console.log('pool closed'); }
}
Injectable()(Pool);
class CatsController {
  constructor(pool) { this.pool = pool; }
  async findAll() {
    console.log('request started');
    await new Promise((r) => setTimeout(r, 400));
    const cats = this.pool.query();
    console.log('served');
    return cats;
  }
}
Reflect.defineMetadata('design:paramtypes', [Pool], CatsController);
Get()(CatsController.prototype, 'findAll', Object.getOwnPropertyDescriptor(CatsController.prototype, 'findAll'));
Controller('cats')(CatsController);
class AppModule {}
Module({ controllers: [CatsController], providers: [MetricsService, Pool] })(AppModule);
async function bootstrap() {
  const app = await NestFactory.create(AppModule, { logger: ['error'] });
  ${main}
  await app.listen(0, '127.0.0.1');
  console.log('listening ' + app.getHttpServer().address().port);
}
bootstrap();
`;

/** GET /cats on the child's port: the body, or the client's error message. */
function getCats(port: number): Promise<string> {
  const http = nest('http');
  return new Promise((done) => {
    http
      .get({host: '127.0.0.1', port, path: '/cats', agent: false}, (response: any) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk));
        response.on('end', () => done(`${response.statusCode} ${body}`));
      })
      .on('error', (error: Error) => done(`error: ${error.message}`));
  });
}

/** Runs the script; once it listens, sends GET /cats and, when the request has started, SIGTERM. */
async function signalDuringRequest(
  name: string,
  main: string,
  edit?: Record<string, [string, string][]>,
) {
  const set = samples(page, {under: 'application-shutdown', lang: 'ts', edit});
  set.require('metrics.service');
  let answer: Promise<string> = Promise.resolve('no request');
  const result = await runScript(set.dir, name, shutdownScript(main), (line, child) => {
    if (line.startsWith('listening ')) answer = getCats(Number(line.split(' ')[1]));
    if (line === 'request started') child.kill('SIGTERM');
  });
  return {result, answer: await answer, lines: result.stdout.trim().split('\n').slice(1)};
}

claim.failure(
  `${page}#when-a-shutdown-goes-wrong`,
  'SIGTERM without enableShutdownHooks(): the signal ends the process at once, no hook runs and the request in flight is cut off ("socket hang up")',
  async () => {
    const {result, answer, lines} = await signalDuringRequest('no-hooks.js', '');
    expect(result.signal).toBe('SIGTERM');
    expect(lines).toEqual(['request started']);
    expect(answer).toBe('error: socket hang up');
  },
);

claim.failure(
  `${page}#when-a-shutdown-goes-wrong`,
  'SIGTERM with enableShutdownHooks() during a request: the request is served to the end (200) with the pool still open, then the server closes and onApplicationShutdown() runs',
  async () => {
    const {result, answer, lines} = await signalDuringRequest(
      'hooks.js',
      'app.enableShutdownHooks();',
    );
    expect(answer).toBe('200 Tom,Felix');
    expect(lines.slice(0, 3)).toEqual([
      'request started',
      'Flushing metrics before shutdown (SIGTERM)',
      'served',
    ]);
    expect(lines.slice(3).sort()).toEqual(['Application stopped (SIGTERM)', 'pool closed']);
    expect(result.signal).toBe('SIGTERM');
  },
);

claim.failure(
  `${page}#when-a-shutdown-goes-wrong`,
  'a shutdown hook that never settles keeps the process running after SIGTERM (later hooks never run, the server still answers); a second SIGTERM ends it at once',
  async () => {
    const set = samples(page, {
      under: 'application-shutdown',
      lang: 'ts',
      edit: {
        'metrics.service': [
          [
            '// send buffered metrics to the collector',
            'await new Promise(() => {}); // a collector that never answers',
          ],
        ],
      },
    });
    set.require('metrics.service');
    let port = 0;
    let stuck: Promise<string> = Promise.resolve('');
    const result = await runScript(
      set.dir,
      'stuck.js',
      shutdownScript('app.enableShutdownHooks();'),
      (line, child) => {
        if (line.startsWith('listening ')) {
          port = Number(line.split(' ')[1]);
          child.kill('SIGTERM');
        }
        if (line.startsWith('Flushing metrics')) {
          stuck = (async () => {
            await new Promise((r) => setTimeout(r, 1000));
            const still = await getCats(port);
            child.kill('SIGTERM');
            return still;
          })();
        }
      },
    );
    expect(await stuck).toBe('200 Tom,Felix');
    expect(result.stdout).not.toContain('Application stopped');
    expect(result.stdout).not.toContain('pool closed');
    expect(result.signal).toBe('SIGTERM');
  },
);

/**
 * A main.ts with shutdown hooks around the page's EventsController (its timer at 100 ms) and MetricsService,
 * plus `extra` (a controller class named LongPollController, or nothing). Prints "listening <port>".
 */
const streamScript = (extra = '') => `
const { Module, Controller, Get } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { EventsController } = require('./events.controller.js');
const { MetricsService } = require('./metrics.service.js');
${extra}
class AppModule {}
Module({
  controllers: [EventsController${extra ? ', LongPollController' : ''}],
  providers: [MetricsService],
})(AppModule);
async function bootstrap() {
  const app = await NestFactory.create(AppModule, { logger: ['error'] });
  app.enableShutdownHooks();
  await app.listen(0, '127.0.0.1');
  console.log('listening ' + app.getHttpServer().address().port);
}
bootstrap();
`;

/** Opens GET `path` on the child's port; `started` resolves at the first byte, `ended` with the outcome. */
function openResponse(port: number, path: string) {
  const http = nest('http');
  let started!: () => void;
  const first = new Promise<void>((done) => (started = done));
  const ended = new Promise<string>((done) => {
    http
      .get({host: '127.0.0.1', port, path, agent: false}, (response: any) => {
        started();
        response.resume();
        response.on('end', () => done(`end ${response.statusCode}`));
        response.on('error', (error: Error) => done(`error: ${error.message}`));
      })
      .on('error', (error: Error) => done(`error: ${error.message}`));
  });
  return {first, ended};
}

/**
 * Runs the stream script, opens `path`, sends SIGTERM once the response has started and, when `patience` is
 * given, SIGKILL that long after it (recording whether the process was still running then).
 */
async function signalDuringStream(
  name: string,
  path: string,
  options: {edit?: Record<string, [string, string][]>; extra?: string; patience?: number} = {},
) {
  const set = samples(page, {
    under: 'open-streams-and-long-polls',
    lang: 'ts',
    edit: {
      ...options.edit,
      'events.controller': [
        ['interval(1000)', 'interval(100)'],
        ...(options.edit?.['events.controller'] ?? []),
      ],
    },
  });
  set.require('events.controller');
  set.require('metrics.service');
  let ended: Promise<string> = Promise.resolve('no request');
  let stillRunning: Promise<boolean> = Promise.resolve(false);
  const result = await runScript(set.dir, name, streamScript(options.extra), (line, child) => {
    if (!line.startsWith('listening ')) return;
    const response = openResponse(Number(line.split(' ')[1]), path);
    ended = response.ended;
    void response.first.then(() => {
      child.kill('SIGTERM');
      if (options.patience) {
        stillRunning = new Promise((done) =>
          setTimeout(() => {
            done(child.exitCode === null && child.signalCode === null);
            child.kill('SIGKILL');
          }, options.patience),
        );
      }
    });
  });
  return {result, ended: await ended, stillRunning: await stillRunning};
}

claim.failure(
  `${page}#open-streams-and-long-polls`,
  "SIGTERM while a client reads the page's SSE stream: the controller's beforeApplicationShutdown() completes it, the client's response ends, the server closes, onApplicationShutdown() runs and the process ends by SIGTERM",
  async () => {
    const {result, ended} = await signalDuringStream('stream.js', '/events');
    expect(ended).toBe('end 200');
    expect(result.stdout).toContain('Flushing metrics before shutdown (SIGTERM)');
    expect(result.stdout).toContain('Application stopped (SIGTERM)');
    expect(result.signal).toBe('SIGTERM');
  },
);

claim.failure(
  `${page}#open-streams-and-long-polls`,
  'an SSE stream without takeUntil(), or a long poll that is still waiting: the process is still running 2 s after SIGTERM, after beforeApplicationShutdown() and without onApplicationShutdown(), until SIGKILL',
  async () => {
    const longPoll = `
class LongPollController {
  wait() { return new Promise(() => {}); } // an event that does not come
}
Get('wait')(LongPollController.prototype, 'wait', Object.getOwnPropertyDescriptor(LongPollController.prototype, 'wait'));
Controller('poll')(LongPollController);
`;
    const [stream, poll] = await Promise.all([
      signalDuringStream('endless-stream.js', '/events', {
        edit: {'events.controller': [['      takeUntil(this.shutdown$),\n', '']]},
        patience: 2000,
      }),
      // The long poll sends no byte before its answer: SIGTERM goes once the stream has started.
      (async () => {
        const set = samples(page, {under: 'open-streams-and-long-polls', lang: 'ts'});
        set.require('events.controller');
        set.require('metrics.service');
        let stillRunning: Promise<boolean> = Promise.resolve(false);
        const result = await runScript(
          set.dir,
          'long-poll.js',
          streamScript(longPoll),
          (line, child) => {
            if (!line.startsWith('listening ')) return;
            void openResponse(Number(line.split(' ')[1]), '/poll/wait');
            stillRunning = new Promise((done) =>
              setTimeout(() => {
                child.kill('SIGTERM');
                setTimeout(() => {
                  done(child.exitCode === null && child.signalCode === null);
                  child.kill('SIGKILL');
                }, 2000);
              }, 300),
            );
          },
        );
        return {result, stillRunning: await stillRunning};
      })(),
    ]);
    for (const {result, stillRunning} of [stream, poll]) {
      expect(stillRunning).toBe(true);
      expect(result.stdout).toContain('Flushing metrics before shutdown (SIGTERM)');
      expect(result.stdout).not.toContain('Application stopped');
      expect(result.signal).toBe('SIGKILL');
    }
  },
);

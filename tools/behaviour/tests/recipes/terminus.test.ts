import {afterAll, beforeAll, describe, expect} from 'vitest';
import {createServer, type Server} from 'node:http';
import {
  claim,
  samples,
  service,
  nest,
  listen,
  memoryLogger,
  expectOutput,
  compileModule,
  freePort,
  type Service,
} from '../../lib';
import {join} from 'node:path';
import {fragment} from '../../lib';
import {capturedConsole, childApp, consoleMask, flatImports} from './_support';

const page = 'docs/recipes/terminus.md';
const {NestFactory} = nest('@nestjs/core');
const {Module, Controller, Get, Injectable} = nest('@nestjs/common');
const terminus = nest('@nestjs/terminus');
const {TypeOrmModule} = nest('@nestjs/typeorm');
const {Transport} = nest('@nestjs/microservices');

let pg: Service;
let redis: Service;
let upstream: Server;
let upstreamUrl: string;
beforeAll(async () => {
  [pg, redis] = await Promise.all([service('postgres'), service('redis')]);
  upstream = createServer((req, res) => {
    res.statusCode = req.url === '/down' ? 503 : 200;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({state: req.url === '/status' ? 'green' : 'red'}));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as any).port}`;
}, 60_000);
const apps: any[] = [];
afterAll(async () => {
  for (const app of apps) await app.close().catch(() => undefined);
  upstream?.close();
  await Promise.all([pg?.stop(), redis?.stop()]);
});

async function start(module: unknown, logger: any = false): Promise<string> {
  const app = await NestFactory.create(module, {logger, abortOnError: false});
  apps.push(app);
  return listen(app);
}
/** Closes the apps started so far (the TypeORM connection is named 'default': one at a time). */
async function closeStarted(): Promise<void> {
  while (apps.length)
    await apps
      .pop()
      .close()
      .catch(() => undefined);
}
const typeorm = () =>
  TypeOrmModule.forRoot({
    type: 'postgres',
    host: '127.0.0.1',
    port: pg.port,
    username: 'postgres',
    database: 'postgres',
    retryAttempts: 1,
  });
const health = async (base: string, path = '/health') => {
  const response = await fetch(`${base}${path}`);
  return {status: response.status, body: await response.json()};
};

claim(
  `${page}#http-health-check`,
  'with HttpModule imported, pingCheck passes for a 2xx answer and GET /health returns the report shown',
  async () => {
    const set = samples(page, {
      pick: {'health.module': 2, 'health.controller': 1},
      edit: {'health.controller': [["'https://docs.nestjs.com'", 'process.env.UPSTREAM_URL']]},
    });
    process.env.UPSTREAM_URL = upstreamUrl;
    const base = await start(set.require('health.module').HealthModule);
    const result = await health(base);
    expect(result.status).toBe(200);
    expectOutput(page, 'health-ok', result.body);
  },
);

claim(
  `${page}#http-health-check`,
  'without HttpModule the application starts, but the endpoint answers 500 and logs the HttpService message',
  async () => {
    const set = samples(page, {
      pick: {'health.module': 1, 'health.controller': 1},
      edit: {'health.controller': [["'https://docs.nestjs.com'", 'process.env.UPSTREAM_URL']]},
    });
    process.env.UPSTREAM_URL = upstreamUrl;
    const log = memoryLogger();
    const base = await start(set.require('health.module').HealthModule, log.logger);
    const result = await health(base);
    expect(result.status).toBe(500);
    expect(log.text()).toContain(
      'It seems like "HttpService" is not available in the current context. Are you sure you imported the HttpModule from the @nestjs/axios package?',
    );
  },
);

claim(
  `${page}#customizing-http-checks`,
  'responseCheck() is healthy when the callback returns true; pingCheck() fails for a non-2xx status',
  async () => {
    const {HttpModule} = nest('@nestjs/axios');
    @Controller('health')
    class HealthController {
      constructor(
        private readonly health: any,
        private readonly http: any,
      ) {}
      @Get() check() {
        return this.health.check([
          () =>
            this.http.responseCheck(
              'catalog',
              `${upstreamUrl}/status`,
              (response: any) => response.data.state === 'green',
            ),
          () =>
            this.http.responseCheck(
              'other',
              `${upstreamUrl}/other`,
              (response: any) => response.data.state === 'green',
            ),
          () => this.http.pingCheck('payments', `${upstreamUrl}/down`, {timeout: 800}),
        ]);
      }
    }
    (Reflect as any).defineMetadata(
      'design:paramtypes',
      [terminus.HealthCheckService, terminus.HttpHealthIndicator],
      HealthController,
    );
    @Module({imports: [terminus.TerminusModule, HttpModule], controllers: [HealthController]})
    class HealthModule {}
    const result = await health(await start(HealthModule));
    expect(result.status).toBe(503);
    expect(result.body.info).toEqual({catalog: {status: 'up'}});
    expect(Object.keys(result.body.error).sort()).toEqual(['other', 'payments']);
    expect(result.body.error.other.status).toBe('down');
  },
);

describe('a failing check', () => {
  const log = memoryLogger();
  let base: string;
  beforeAll(async () => {
    @Controller('health')
    class HealthController {
      constructor(
        private readonly health: any,
        private readonly db: any,
        private readonly memory: any,
      ) {}
      @Get() check() {
        return this.health.check([
          () => this.db.pingCheck('database'),
          () => this.memory.checkHeap('memory_heap', 1),
        ]);
      }
    }
    (Reflect as any).defineMetadata(
      'design:paramtypes',
      [
        terminus.HealthCheckService,
        terminus.TypeOrmHealthIndicator,
        terminus.MemoryHealthIndicator,
      ],
      HealthController,
    );
    @Module({imports: [typeorm(), terminus.TerminusModule], controllers: [HealthController]})
    class AppModule {}
    base = await start(AppModule, log.logger);
  }, 30_000);
  afterAll(closeStarted);

  claim(
    `${page}#reading-the-result`,
    'one indicator down: HTTP 503 with the whole report (info, error, details) as shown',
    async () => {
      const result = await health(base);
      expect(result.status).toBe(503);
      expectOutput(page, 'health-error', result.body);
    },
  );

  claim(
    `${page}#logging`,
    'the failure goes through the application logger (a custom one receives it), with the HealthCheckService context',
    async () => {
      await health(base);
      const line = log.lines.find((l) => l.context === 'HealthCheckService')!;
      expect(line.level).toBe('error');
      expect(line.message).toBe(
        'Health Check has failed! {"memory_heap":{"status":"down","message":"Used heap exceeded the set threshold"}}',
      );
    },
  );
});

claim(
  `${page}#logging`,
  "with Nest's ConsoleLogger, the failure prints the line shown",
  async () => {
    @Controller('health')
    class HealthController {
      constructor(
        private readonly health: any,
        private readonly memory: any,
      ) {}
      @Get() check() {
        return this.health.check([() => this.memory.checkHeap('memory_heap', 1)]);
      }
    }
    (Reflect as any).defineMetadata(
      'design:paramtypes',
      [terminus.HealthCheckService, terminus.MemoryHealthIndicator],
      HealthController,
    );
    @Module({imports: [terminus.TerminusModule], controllers: [HealthController]})
    class AppModule {}
    const console = capturedConsole();
    try {
      const app = await NestFactory.create(AppModule, {
        logger: console.logger,
        abortOnError: false,
      });
      apps.push(app);
      app.useLogger(console.logger);
      await health(await listen(app));
      const line = console.lines.find((l) => l.includes('[HealthCheckService]'))!;
      expectOutput(page, 'health-failed-log', line, consoleMask);
    } finally {
      console.restore();
    }
  },
);

claim(
  `${page}#reading-the-result`,
  'an error that is not a HealthCheckError escapes: 500 (or the HttpException status), and later indicators do not run',
  async () => {
    const {ForbiddenException} = nest('@nestjs/common');
    let ran = false;
    @Controller('health')
    class HealthController {
      constructor(private readonly health: any) {}
      @Get() plain() {
        return this.health.check([
          () => Promise.reject(new Error('boom')),
          async () => ((ran = true), {later: {status: 'up'}}),
        ]);
      }
      @Get('http') http() {
        return this.health.check([() => Promise.reject(new ForbiddenException())]);
      }
    }
    (Reflect as any).defineMetadata(
      'design:paramtypes',
      [terminus.HealthCheckService],
      HealthController,
    );
    @Module({imports: [terminus.TerminusModule], controllers: [HealthController]})
    class HealthModule {}
    const base = await start(HealthModule);
    expect((await health(base)).status).toBe(500);
    expect(ran).toBe(false);
    expect((await health(base, '/health/http')).status).toBe(403);
  },
);

claim(
  `${page}#typeorm`,
  "TypeOrmHealthIndicator's pingCheck reports the database up (default and explicit connection)",
  async () => {
    const set = samples(page, {pick: {'health.controller': 3}});
    const {HealthController} = set.require('health.controller');
    @Module({
      imports: [
        typeorm(),
        TypeOrmModule.forRoot({
          name: 'albumsConnection',
          type: 'postgres',
          host: '127.0.0.1',
          port: pg.port,
          username: 'postgres',
          database: 'postgres',
        }),
        terminus.TerminusModule,
      ],
      controllers: [HealthController],
    })
    class AppModule {}
    const result = await health(await start(AppModule));
    await closeStarted();
    expect(result).toEqual({
      status: 200,
      body: expect.objectContaining({
        status: 'ok',
        info: {'default-db': {status: 'up'}, 'albums-db': {status: 'up'}},
      }),
    });
  },
  30_000,
);

claim(
  `${page}#mongoose`,
  'MongooseHealthIndicator only reads readyState: up for 1, down otherwise, without sending anything',
  async () => {
    const indicator = new terminus.MongooseHealthIndicator({} as any);
    expect(await indicator.pingCheck('mongodb', {connection: {readyState: 1}})).toEqual({
      mongodb: {status: 'up'},
    });
    await expect(
      indicator.pingCheck('mongodb', {connection: {readyState: 0}}),
    ).rejects.toBeInstanceOf(terminus.HealthCheckError);
  },
);

claim(
  `${page}#disk-health-check`,
  'checkStorage compares the used fraction of the volume with thresholdPercent',
  async () => {
    const ok = samples(page, {
      pick: {'health.controller': 5},
      edit: {'health.controller': [['thresholdPercent: 0.5', 'thresholdPercent: 1']]},
    });
    @Module({
      imports: [terminus.TerminusModule],
      controllers: [ok.require('health.controller').HealthController],
    })
    class OkModule {}
    expect((await health(await start(OkModule))).body.info).toEqual({storage: {status: 'up'}});
    const down = samples(page, {
      pick: {'health.controller': 5},
      edit: {'health.controller': [['thresholdPercent: 0.5', 'thresholdPercent: 0.000001']]},
    });
    @Module({
      imports: [terminus.TerminusModule],
      controllers: [down.require('health.controller').HealthController],
    })
    class DownModule {}
    const result = await health(await start(DownModule));
    expect(result.status).toBe(503);
    expect(result.body.error.storage).toEqual({
      status: 'down',
      message: 'Used disk storage exceeded the set threshold',
    });
  },
);

claim(
  `${page}#memory-health-check`,
  'checkHeap and checkRSS compare the heap and the RSS with limits in bytes',
  async () => {
    const set = samples(page, {
      pick: {'health.controller': 6},
      edit: {
        'health.controller': [
          ['150 * 1024 * 1024', '8 * 1024 * 1024 * 1024'],
          ['300 * 1024 * 1024', '1'],
        ],
      },
    });
    @Module({
      imports: [terminus.TerminusModule],
      controllers: [set.require('health.controller').HealthController],
    })
    class AppModule {}
    const result = await health(await start(AppModule));
    expect(result.status).toBe(503);
    expect(result.body.info).toEqual({memory_heap: {status: 'up'}});
    expect(result.body.error.memory_rss).toEqual({
      status: 'down',
      message: 'Used rss exceeded the set threshold',
    });
  },
);

claim(
  `${page}#microservice-health-check`,
  'MicroserviceHealthIndicator connects to a TCP microservice and to Redis: both up; an unreachable one is down',
  async () => {
    const port = await freePort();
    const set = samples(page, {
      pick: {'health.controller': 7},
      edit: {
        'health.controller': [
          ["host: 'localhost', port: 8877", `host: '127.0.0.1', port: ${port}`],
          ["url: 'redis://localhost:6379'", `url: '${redis.url}'`],
        ],
      },
    });
    @Module({
      imports: [terminus.TerminusModule],
      controllers: [set.require('health.controller').HealthController],
    })
    class AppModule {}
    const app = await NestFactory.create(AppModule, {logger: false, abortOnError: false});
    apps.push(app);
    const base = await listen(app);
    expect((await health(base)).status).toBe(503);
    app.connectMicroservice({transport: Transport.TCP, options: {host: '127.0.0.1', port}});
    await app.startAllMicroservices();
    const result = await health(base);
    expect(result.status).toBe(200);
    expect(result.body.info).toEqual({'orders-service': {status: 'up'}, redis: {status: 'up'}});
  },
  30_000,
);

claim(
  `${page}#liveness-and-readiness`,
  'the two routes of the page answer /health/live and /health/ready separately',
  async () => {
    const set = samples(page, {pick: {'health.controller': 8}});
    @Module({
      imports: [typeorm(), terminus.TerminusModule],
      controllers: [set.require('health.controller').HealthController],
    })
    class AppModule {}
    const base = await start(AppModule);
    expect((await health(base, '/health/live')).body.info).toEqual({memory_heap: {status: 'up'}});
    const ready = await health(base, '/health/ready');
    await closeStarted();
    expect(ready.body.info).toEqual({database: {status: 'up'}});
  },
  30_000,
);

claim(
  `${page}#custom-health-indicator`,
  'the queue indicator reports waiting jobs: up under the limit, 503 with its data once the limit is passed',
  async () => {
    const {BullModule, getQueueToken} = nest('@nestjs/bull');
    const set = samples(page);
    const {HealthModule} = set.require('health.module');
    @Module({
      imports: [BullModule.forRoot({redis: {host: '127.0.0.1', port: redis.port}}), HealthModule],
    })
    class AppModule {}
    const app = await NestFactory.create(AppModule, {logger: false, abortOnError: false});
    apps.push(app);
    const base = await listen(app);
    const queue = app.get(getQueueToken('audio'), {strict: false});
    await queue.empty();
    expect((await health(base)).body.info).toEqual({
      'audio-queue': {status: 'up', waiting: 0, maxWaiting: 500},
    });
    await queue.addBulk(Array.from({length: 501}, (_, i) => ({data: {i}})));
    const result = await health(base);
    expect(result.status).toBe(503);
    expect(result.body.error).toEqual({
      'audio-queue': {status: 'down', waiting: 501, maxWaiting: 500},
    });
    await queue.empty();
  },
  30_000,
);

claim(
  `${page}#graceful-shutdown`,
  "during beforeApplicationShutdown the check answers 503 with status 'shutting_down'; the root module's hook runs after Terminus switched",
  async () => {
    const seen: any[] = [];
    let base = '';
    const set = samples(page, {
      edit: {
        'shutdown-delay.service': [
          ['if (signal) {', 'if (signal || true) {'],
          ['setTimeout(resolve, 5000)', 'setTimeout(resolve, 10)'],
        ],
      },
    });
    const {ShutdownDelayService} = set.require('shutdown-delay.service');
    @Injectable()
    class Probe {
      async beforeApplicationShutdown() {
        const response = await fetch(`${base}/health`);
        seen.push({status: response.status, body: await response.json()});
      }
    }
    @Controller('health')
    class HealthController {
      constructor(private readonly health: any) {}
      @Get() check() {
        return this.health.check([]);
      }
    }
    (Reflect as any).defineMetadata(
      'design:paramtypes',
      [terminus.HealthCheckService],
      HealthController,
    );
    @Module({imports: [terminus.TerminusModule], controllers: [HealthController]})
    class HealthModule {}
    @Module({imports: [HealthModule], providers: [ShutdownDelayService, Probe]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, {logger: false, abortOnError: false});
    base = await listen(app);
    expect((await health(base)).body.status).toBe('ok');
    await app.close();
    expect(seen).toEqual([
      {status: 503, body: {status: 'shutting_down', info: {}, error: {}, details: {}}},
    ]);
  },
);

claim(
  `${page}#openapi-documentation`,
  '@HealthCheck() adds a 200 and a 503 response to the route in the OpenAPI document',
  async () => {
    const {SwaggerModule, DocumentBuilder} = nest('@nestjs/swagger');
    const set = samples(page, {pick: {'health.controller': 6}});
    @Module({
      imports: [terminus.TerminusModule],
      controllers: [set.require('health.controller').HealthController],
    })
    class AppModule {}
    const app = await NestFactory.create(AppModule, {logger: false, abortOnError: false});
    apps.push(app);
    const document = SwaggerModule.createDocument(app, new DocumentBuilder().build());
    expect(Object.keys(document.paths['/health'].get.responses).sort()).toEqual(['200', '503']);
  },
);

void compileModule;

// Abuse cases and failure modes.

describe('failing dependencies', () => {
  let silent: import('node:net').Server;
  let silentUrl: string;
  const sockets: import('node:net').Socket[] = [];
  beforeAll(async () => {
    // Accepts connections and never answers.
    const {createServer: tcp} = await import('node:net');
    silent = tcp((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentUrl = `http://127.0.0.1:${(silent.address() as any).port}`;
  });
  afterAll(() => {
    for (const socket of sockets) socket.destroy();
    silent?.close();
  });

  /** The page's first health module and controller, checking `url` instead of docs.nestjs.com. */
  async function firstCheck(url: string, edits: [string, string][] = []): Promise<string> {
    const set = samples(page, {
      pick: {'health.module': 2, 'health.controller': 1},
      edit: {'health.controller': [["'https://docs.nestjs.com'", JSON.stringify(url)], ...edits]},
    });
    return start(set.require('health.module').HealthModule);
  }

  claim.failure(
    `${page}#http-health-check`,
    "a service that never answers: the page's check (timeout: 800) reports it down after 800 ms; without the timeout, GET /health is still pending after 2 s",
    async () => {
      const base = await firstCheck(silentUrl);
      const started = Date.now();
      const result = await health(base);
      expect(result.status).toBe(503);
      expect(result.body.error).toEqual({
        'nestjs-docs': {status: 'down', message: 'timeout of 800ms exceeded'},
      });
      expect(Date.now() - started).toBeGreaterThanOrEqual(750);
      // What the timeout prevents.
      const open = await firstCheck(silentUrl, [
        [
          `{
          timeout: 800,
        }`,
          '{}',
        ],
      ]);
      const pending = new AbortController();
      const outcome = await Promise.race([
        fetch(`${open}/health`, {signal: pending.signal}).then(
          () => 'answered',
          () => 'aborted',
        ),
        new Promise((r) => setTimeout(() => r('pending'), 2000)),
      ]);
      pending.abort();
      expect(outcome).toBe('pending');
    },
  );

  claim.failure(
    `${page}#customizing-http-checks`,
    "a catalog service that never answers: the page's checkUpstream() reports it down after its 800 ms timeout instead of waiting forever",
    async () => {
      const method = fragment(page, 'customizing-http-checks', 'checkUpstream')
        .value.replace("'https://payments.example.com/ping'", JSON.stringify(`${upstreamUrl}/ping`))
        .replace("'https://catalog.example.com/status'", JSON.stringify(`${silentUrl}/status`));
      const {HealthController} = compileModule<any>(`
import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HttpHealthIndicator } from '@nestjs/terminus';
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthCheckService, private readonly http: HttpHealthIndicator) {}
${method}
}
`);
      const {HttpModule} = nest('@nestjs/axios');
      @Module({imports: [terminus.TerminusModule, HttpModule], controllers: [HealthController]})
      class UpstreamModule {}
      const base = await start(UpstreamModule);
      const pending = new AbortController();
      const started = Date.now();
      const result = await Promise.race([
        fetch(`${base}/health/upstream`, {signal: pending.signal}).then(async (response) => ({
          status: response.status,
          body: await response.json(),
        })),
        new Promise((r) => setTimeout(() => r('pending after 3 s'), 3000)),
      ]);
      pending.abort();
      expect(result).toEqual({
        status: 503,
        body: expect.objectContaining({
          info: {payments: {status: 'up'}},
          error: {catalog: {status: 'down', message: 'timeout of 800ms exceeded'}},
        }),
      });
      expect(Date.now() - started).toBeGreaterThanOrEqual(750);
    },
  );

  claim.abuse(
    `${page}#reading-the-result`,
    'an anonymous caller reads, in the 503 report, the address and port of the service that cannot be reached',
    async () => {
      const port = await freePort();
      const base = await firstCheck(`http://127.0.0.1:${port}`);
      const result = await health(base);
      expect(result.status).toBe(503);
      expect(result.body.error['nestjs-docs']).toEqual({
        status: 'down',
        message: `connect ECONNREFUSED 127.0.0.1:${port}`,
      });
    },
  );

  claim.failure(
    `${page}#typeorm`,
    "the database stops while the application runs: the page's TypeORM check answers 503 with the database down",
    async () => {
      const own = await service('postgres');
      try {
        const set = samples(page, {pick: {'health.controller': 2}});
        @Module({
          imports: [
            terminus.TerminusModule,
            TypeOrmModule.forRoot({
              type: 'postgres',
              host: '127.0.0.1',
              port: own.port,
              username: 'postgres',
              database: 'postgres',
              retryAttempts: 1,
            }),
          ],
          controllers: [set.require('health.controller').HealthController],
        })
        class DbModule {}
        const base = await start(DbModule);
        expect((await health(base)).status).toBe(200);
        await own.stop();
        const result = await health(base);
        expect(result.status).toBe(503);
        expect(result.body).toEqual({
          status: 'error',
          info: {},
          error: {database: {status: 'down'}},
          details: {database: {status: 'down'}},
        });
      } finally {
        await closeStarted();
        await own.stop();
      }
    },
    60_000,
  );

  claim.failure(
    `${page}#disk-health-check`,
    'a path that does not exist (a volume that is not mounted) is measured on the nearest existing folder, the root volume, without an error',
    async () => {
      const checkDiskSpace = nest('check-disk-space').default;
      const {free, size} = await checkDiskSpace('/');
      const used = (size - free) / size;
      for (const [threshold, expected] of [
        [Math.min(used + 0.01, 1), 200],
        [Math.max(used - 0.01, 0), 503],
      ] as const) {
        const set = samples(page, {
          pick: {'health.controller': 5},
          edit: {
            'health.controller': [
              [
                "path: '/', thresholdPercent: 0.5",
                `path: '/no/such/volume', thresholdPercent: ${threshold}`,
              ],
            ],
          },
        });
        @Module({
          imports: [terminus.TerminusModule],
          controllers: [set.require('health.controller').HealthController],
        })
        class DiskModule {}
        expect((await health(await start(DiskModule))).status).toBe(expected);
      }
    },
  );
});

/** The page's last health module (the queue indicator) in a child process, with Bull on `redisPort`. */
function queueChild(redisPort: number, indicatorEdits: [string, string][] = []) {
  const set = samples(page, {edit: {'queue.health': indicatorEdits}});
  return childApp(
    `${flatImports(set.dir)}
const { Module: NestModule } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { BullModule } = require('@nestjs/bull');
const { HealthModule } = require(${JSON.stringify(join(set.dir, 'health.module.js'))});
class AppModule {}
NestModule({ imports: [BullModule.forRoot({ redis: { host: '127.0.0.1', port: ${redisPort} } }), HealthModule] })(AppModule);
(async () => {
  const app = await NestFactory.create(AppModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  console.log('PORT ' + app.getHttpServer().address().port);
})();
`,
    set.dir,
  );
}

claim.failure(
  `${page}#custom-health-indicator`,
  "Redis stops while the application runs: the page's queue indicator reports 'Timeout has occurred' in a 503 after one second; without timeout(), GET /health is still pending after 3 s",
  async () => {
    const own = await service('redis');
    const child = queueChild(own.port);
    const loose = queueChild(own.port, [
      [
        `await firstValueFrom(
        from(this.audioQueue.getWaitingCount()).pipe(timeout(1000)),
      )`,
        'await this.audioQueue.getWaitingCount()',
      ],
    ]);
    try {
      const base = `http://127.0.0.1:${await child.port}`;
      const looseBase = `http://127.0.0.1:${await loose.port}`;
      expect((await health(base)).status).toBe(200);
      expect((await health(looseBase)).status).toBe(200);
      await own.stop();
      const started = Date.now();
      const result = await health(base);
      expect(result.status).toBe(503);
      expect(result.body.error).toEqual({
        'audio-queue': {status: 'down', message: 'Timeout has occurred'},
      });
      expect(Date.now() - started).toBeLessThan(2500);
      // What the time limit prevents.
      const pending = new AbortController();
      const outcome = await Promise.race([
        fetch(`${looseBase}/health`, {signal: pending.signal}).then(
          () => 'answered',
          () => 'aborted',
        ),
        new Promise((r) => setTimeout(() => r('pending'), 3000)),
      ]);
      pending.abort();
      expect(outcome).toBe('pending');
    } finally {
      child.kill();
      loose.kill();
      await own.stop();
    }
  },
  30_000,
);

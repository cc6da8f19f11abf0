import {expect, vi} from 'vitest';
import {spawnSync} from 'node:child_process';
import {resolve} from 'node:path';
import {claim, samples, nest, fragment, expectOutput} from '../../lib';
import {start, call, answersWithin, type Platform, pageSamples} from './_support';

const common = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const {ConfigModule} = nest('@nestjs/config');
const {Controller, Get, Post, Module, Injectable, RequestMethod} = common;
const page = 'docs/middleware.md';

@Controller('cats')
class CatsController {
  @Get()
  findAll() {
    return 'all cats';
  }

  @Post()
  create() {
    return 'created';
  }

  @Get(':id')
  findOne() {
    return 'one cat';
  }
}

@Controller('dogs')
class DogsController {
  @Get()
  findAll() {
    return 'all dogs';
  }
}

/** The page's files import the cats module from './cats/cats.module': this one declares the two controllers above. */
@Module({controllers: [CatsController, DogsController]})
class CatsModule {}

const seen: string[] = [];
function record(tag: string) {
  return (req: any, _res: unknown, next: () => void) => {
    seen.push(`${tag} ${req.method} ${req.originalUrl ?? req.url}`);
    next();
  };
}

/** Starts a module whose configure() is `configure`, on a platform, and returns the base URL. */
async function bound(
  configure: (consumer: any) => unknown,
  platform: Platform = 'express',
  setup?: (app: any) => unknown,
) {
  seen.length = 0;
  @Module({imports: [CatsModule]})
  class AppModule {
    configure(consumer: any) {
      return configure(consumer);
    }
  }
  return (await start(AppModule, {platform, setup})).base;
}

async function hits(base: string, requests: [string, string][]): Promise<string[]> {
  for (const [method, path] of requests) await call(base, method, path);
  return seen.map((line) => line.replace(/^\S+ /, ''));
}

function capture() {
  const lines: string[] = [];
  const spy = vi
    .spyOn(console, 'log')
    .mockImplementation((...args: unknown[]) => void lines.push(args.join(' ')));
  return {lines, restore: () => spy.mockRestore()};
}

/** The page's app.module (fence n), with its './cats/cats.module' and './cats/cats.controller' imports pointing at the classes above. */
function pageAppModule(lang: 'ts' | 'js', n: number, loggerMiddleware = 1) {
  (globalThis as any).__overviewCats = {CatsModule, CatsController};
  const set = samples(page, {
    lang,
    pick: {'app.module': n, 'logger.middleware': loggerMiddleware},
    files: {
      'cats.module': 'export const CatsModule = globalThis.__overviewCats.CatsModule;',
      'cats.controller': 'export const CatsController = globalThis.__overviewCats.CatsController;',
    },
  });
  return set.require('app.module').AppModule;
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#applying-middleware`,
    `LoggerMiddleware bound with forRoutes('cats') logs "GET /cats 200 - Nms" for /cats, POST /cats and /cats/1, not for /dogs (${lang})`,
    async () => {
      const AppModule = pageAppModule(lang, 1);
      const {base} = await start(AppModule);
      const log = capture();
      try {
        for (const [method, path] of [
          ['GET', '/cats'],
          ['POST', '/cats'],
          ['GET', '/cats/1'],
          ['GET', '/dogs'],
        ])
          await call(base, method, path);
        await vi.waitFor(() => expect(log.lines.length).toBeGreaterThanOrEqual(3));
      } finally {
        log.restore();
      }
      expect(log.lines.map((line) => line.replace(/\d+ms$/, 'Nms'))).toEqual([
        'GET /cats 200 - Nms',
        'POST /cats 201 - Nms',
        'GET /cats/1 200 - Nms',
      ]);
    },
  );

  claim(
    `${page}#specific-request-methods`,
    `{ path: 'cats', method: GET } runs the logger for GET /cats only, not POST /cats nor GET /cats/1 on Express (${lang})`,
    async () => {
      const AppModule = pageAppModule(lang, 2);
      const {base} = await start(AppModule);
      const log = capture();
      try {
        for (const [method, path] of [
          ['POST', '/cats'],
          ['GET', '/cats/1'],
          ['GET', '/cats'],
        ])
          await call(base, method, path);
        await vi.waitFor(() => expect(log.lines.length).toBeGreaterThanOrEqual(1));
      } finally {
        log.restore();
      }
      expect(log.lines.map((line) => line.replace(/\d+ms$/, 'Nms'))).toEqual([
        'GET /cats 200 - Nms',
      ]);
    },
  );

  claim(
    `${page}#functional-middleware`,
    `the functional logger bound with forRoutes(CatsController) prints "Request: GET /cats" (${lang})`,
    async () => {
      const AppModule = pageAppModule(lang, 4, 2);
      const {base} = await start(AppModule);
      const log = capture();
      try {
        await call(base, 'GET', '/cats');
        await call(base, 'GET', '/dogs');
      } finally {
        log.restore();
      }
      expect(log.lines).toEqual(['Request: GET /cats']);
    },
  );

  claim(
    `${page}#dependency-injection`,
    `MaintenanceMiddleware answers 503 with its message while MAINTENANCE_MODE is 'true', and lets requests through otherwise (${lang})`,
    async () => {
      const {MaintenanceMiddleware} = pageSamples(page, {lang}).require('maintenance.middleware');
      for (const mode of ['true', 'false']) {
        @Module({
          imports: [
            ConfigModule.forRoot({ignoreEnvFile: true, load: [() => ({MAINTENANCE_MODE: mode})]}),
            CatsModule,
          ],
        })
        class AppModule {
          configure(consumer: any) {
            consumer.apply(MaintenanceMiddleware).forRoutes('cats');
          }
        }
        const {base} = await start(AppModule);
        const reply = await call(base, 'GET', '/cats');
        if (mode === 'true') {
          expect([reply.status, reply.json()]).toEqual([
            503,
            {
              statusCode: 503,
              message: 'Down for maintenance, please try again later',
              error: 'Service Unavailable',
            },
          ]);
        } else {
          expect([reply.status, reply.text]).toEqual([200, 'all cats']);
        }
      }
    },
  );
}

claim(
  `${page}#middleware-consumer`,
  `with forRoutes(CatsController), the page's LoggerMiddleware covers the controller's routes (Express: each route's whole path)`,
  async () => {
    const AppModule = pageAppModule('ts', 3);
    const {base} = await start(AppModule);
    const log = capture();
    try {
      for (const path of ['/cats', '/cats/1', '/dogs']) await call(base, 'GET', path);
      await vi.waitFor(() => expect(log.lines.length).toBeGreaterThanOrEqual(2));
    } finally {
      log.restore();
    }
    expect(log.lines.map((line) => line.replace(/\d+ms$/, 'Nms'))).toEqual([
      'GET /cats 200 - Nms',
      'GET /cats/1 200 - Nms',
    ]);
  },
);

claim(
  `${page}#applying-middleware`,
  `on Express, listing 'cats/*' next to 'cats' runs the middleware twice for nested paths`,
  async () => {
    const base = await bound((consumer) => consumer.apply(record('m')).forRoutes('cats', 'cats/*'));
    expect(
      await hits(base, [
        ['GET', '/cats'],
        ['GET', '/cats/1'],
      ]),
    ).toEqual(['GET /cats', 'GET /cats/1', 'GET /cats/1']);
  },
);

claim(`${page}#applying-middleware`, `configure() may be async`, async () => {
  const base = await bound(async (consumer) => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    consumer.apply(record('m')).forRoutes('cats');
  });
  expect(await hits(base, [['GET', '/cats']])).toEqual(['GET /cats']);
});

claim(
  `${page}#specific-request-methods`,
  `on Express, adding { path: 'cats/*', method: GET } covers the nested paths; RequestMethod.ALL matches every method`,
  async () => {
    const base = await bound((consumer) =>
      consumer
        .apply(record('m'))
        .forRoutes(
          {path: 'cats', method: RequestMethod.GET},
          {path: 'cats/*', method: RequestMethod.GET},
        ),
    );
    expect(
      await hits(base, [
        ['GET', '/cats'],
        ['GET', '/cats/1'],
        ['POST', '/cats'],
      ]),
    ).toEqual(['GET /cats', 'GET /cats/1']);
    const all = await bound((consumer) =>
      consumer.apply(record('m')).forRoutes({path: 'cats', method: RequestMethod.ALL}),
    );
    expect(
      await hits(all, [
        ['GET', '/cats'],
        ['POST', '/cats'],
        ['GET', '/cats/1'],
      ]),
    ).toEqual(['GET /cats', 'POST /cats']);
  },
);

claim(
  `${page}#route-wildcards`,
  `on Express, the middleware path 'ab*cd' matches abcd, ab_cd and abecd (and not abxyz)`,
  async () => {
    const base = await bound((consumer) =>
      consumer.apply(record('m')).forRoutes({path: 'ab*cd', method: RequestMethod.ALL}),
    );
    expect(
      await hits(base, [
        ['GET', '/abcd'],
        ['GET', '/ab_cd'],
        ['GET', '/abecd'],
        ['GET', '/abxyz'],
      ]),
    ).toEqual(['GET /abcd', 'GET /ab_cd', 'GET /abecd']);
  },
);

claim(`${page}#route-wildcards`, `on Fastify, 'cats/*' covers everything below cats`, async () => {
  const base = await bound(
    (consumer) => consumer.apply(record('m')).forRoutes('cats/*'),
    'fastify',
  );
  const got = await hits(base, [
    ['GET', '/cats/1'],
    ['GET', '/cats/1/toys'],
    ['GET', '/dogs'],
  ]);
  expect(got).toEqual(['GET /cats/1', 'GET /cats/1/toys']);
});

claim(
  `${page}#route-wildcards`,
  `on Fastify, 'ab*cd' is rejected when the application starts (Unexpected MODIFIER)`,
  async () => {
    @Module({imports: [CatsModule]})
    class AppModule {
      configure(consumer: any) {
        consumer.apply(record('m')).forRoutes({path: 'ab*cd', method: RequestMethod.ALL});
      }
    }
    const {FastifyAdapter} = nest('@nestjs/platform-fastify');
    const app = await NestFactory.create(AppModule, new FastifyAdapter(), {
      logger: false,
      abortOnError: false,
    });
    try {
      await expect(app.listen(0, '127.0.0.1')).rejects.toThrow(/Unexpected MODIFIER/);
    } finally {
      await app.close().catch(() => undefined);
    }
  },
);

claim(
  `${page}#route-wildcards`,
  `on Fastify every middleware path is a prefix: { path: 'cats', method: GET } covers GET /cats/1; forRoutes(CatsController) runs twice for /cats/1`,
  async () => {
    const byMethod = await bound(
      (consumer) =>
        consumer.apply(record('m')).forRoutes({path: 'cats', method: RequestMethod.GET}),
      'fastify',
    );
    expect(
      await hits(byMethod, [
        ['GET', '/cats'],
        ['GET', '/cats/1'],
        ['POST', '/cats'],
      ]),
    ).toEqual(['GET /cats', 'GET /cats/1']);
    const byString = await bound(
      (consumer) => consumer.apply(record('m')).forRoutes('cats'),
      'fastify',
    );
    expect(await hits(byString, [['GET', '/cats/1']])).toEqual(['GET /cats/1']);
    const byController = await bound(
      (consumer) => consumer.apply(record('m')).forRoutes(CatsController),
      'fastify',
    );
    expect(
      await hits(byController, [
        ['GET', '/cats'],
        ['GET', '/cats/1'],
      ]),
    ).toEqual(['GET /cats', 'GET /cats/1', 'GET /cats/1']);
  },
);

claim(
  `${page}#class-middleware`,
  `on Fastify, middleware receives the raw Node.js request and response (no res.json(), no req.get())`,
  async () => {
    const kinds: string[] = [];
    const base = await bound(
      (consumer) =>
        consumer
          .apply((req: any, res: any, next: () => void) => {
            kinds.push(
              `${typeof res.json} ${typeof req.get} ${req.constructor.name} ${res.constructor.name}`,
            );
            next();
          })
          .forRoutes('cats'),
      'fastify',
    );
    await call(base, 'GET', '/cats');
    expect(kinds).toEqual(['undefined undefined IncomingMessage ServerResponse']);
  },
);

claim(
  `${page}#middleware-consumer`,
  `each apply() starts a new configuration: two chained apply/forRoutes pairs bind different middleware to different routes`,
  async () => {
    const base = await bound((consumer) =>
      consumer
        .apply(record('logger'))
        .forRoutes(CatsController)
        .apply(record('auth'))
        .forRoutes({path: 'dogs', method: RequestMethod.ALL}),
    );
    await hits(base, [
      ['GET', '/cats'],
      ['GET', '/dogs'],
    ]);
    expect(seen).toEqual(['logger GET /cats', 'auth GET /dogs']);
  },
);

claim(
  `${page}#excluding-routes`,
  `the page's exclude() list skips GET and POST /cats and everything matching 'cats/(.*)'; 'cats/*' excludes nothing`,
  async () => {
    const snippet = fragment(page, 'excluding-routes', '.exclude(').value;
    expect(snippet).toContain(`'cats/(.*)'`);
    const base = await bound((consumer) =>
      consumer
        .apply(record('m'))
        .exclude(
          {path: 'cats', method: RequestMethod.GET},
          {path: 'cats', method: RequestMethod.POST},
          'cats/(.*)',
        )
        .forRoutes(CatsController, DogsController),
    );
    expect(
      await hits(base, [
        ['GET', '/cats'],
        ['POST', '/cats'],
        ['GET', '/cats/1'],
        ['GET', '/dogs'],
      ]),
    ).toEqual(['GET /dogs']);
    const star = await bound((consumer) =>
      consumer.apply(record('m')).exclude('cats/*').forRoutes(CatsController),
    );
    expect(
      await hits(star, [
        ['GET', '/cats'],
        ['GET', '/cats/1'],
      ]),
    ).toEqual(['GET /cats', 'GET /cats/1']);
  },
);

claim(
  `${page}#excluding-routes`,
  `with a global prefix, an excluded 'cats/(.*)' does not match /api/cats/1; 'api/cats/(.*)' does`,
  async () => {
    const setup = (app: any) => app.setGlobalPrefix('api');
    const without = await bound(
      (consumer) => consumer.apply(record('m')).exclude('cats/(.*)').forRoutes(CatsController),
      'express',
      setup,
    );
    expect(await hits(without, [['GET', '/api/cats/1']])).toEqual(['GET /api/cats/1']);
    const withPrefix = await bound(
      (consumer) => consumer.apply(record('m')).exclude('api/cats/(.*)').forRoutes(CatsController),
      'express',
      setup,
    );
    expect(
      await hits(withPrefix, [
        ['GET', '/api/cats/1'],
        ['GET', '/api/cats'],
      ]),
    ).toEqual(['GET /api/cats']);
  },
);

claim(
  `${page}#excluding-routes`,
  `on Fastify too, an excluded 'cats/(.*)' skips the nested paths`,
  async () => {
    const base = await bound(
      (consumer) => consumer.apply(record('m')).exclude('cats/(.*)').forRoutes('cats'),
      'fastify',
    );
    expect(
      await hits(base, [
        ['GET', '/cats'],
        ['GET', '/cats/1'],
      ]),
    ).toEqual(['GET /cats']);
  },
);

claim(
  `${page}#multiple-middleware`,
  `middleware given to apply() run in the order listed`,
  async () => {
    const base = await bound((consumer) =>
      consumer.apply(record('first'), record('second'), record('third')).forRoutes(CatsController),
    );
    await call(base, 'GET', '/cats');
    expect(seen).toEqual(['first GET /cats', 'second GET /cats', 'third GET /cats']);
  },
);

claim(
  `${page}#global-middleware`,
  `app.use(logger) runs for every route; a class middleware with dependencies bound with forRoutes('*') does too`,
  async () => {
    @Injectable()
    class Greeting {
      word = 'hello';
    }
    @Injectable()
    class WithDependency {
      constructor(private readonly greeting: Greeting) {}
      use(req: any, _res: unknown, next: () => void) {
        seen.push(`${this.greeting.word} ${req.method} ${req.originalUrl}`);
        next();
      }
    }
    @Module({imports: [CatsModule], providers: [Greeting]})
    class AppModule {
      configure(consumer: any) {
        consumer.apply(WithDependency).forRoutes('*');
      }
    }
    seen.length = 0;
    const {base} = await start(AppModule, {setup: (app) => app.use(record('global'))});
    await call(base, 'GET', '/cats');
    await call(base, 'GET', '/dogs');
    expect(seen).toEqual([
      'global GET /cats',
      'hello GET /cats',
      'global GET /dogs',
      'hello GET /dogs',
    ]);
  },
);

claim(
  `${page}#middleware`,
  `a middleware that neither answers nor calls next() leaves the request hanging; one that answers ends the cycle`,
  async () => {
    let handlerRan = false;
    @Controller('quiet')
    class Quiet {
      @Get()
      get() {
        handlerRan = true;
        return 'never';
      }
    }
    @Module({controllers: [Quiet]})
    class AppModule {
      configure(consumer: any) {
        consumer.apply(() => undefined).forRoutes({path: 'quiet', method: RequestMethod.GET});
        consumer
          .apply((_req: unknown, res: any) => res.status(418).send('answered'))
          .forRoutes({path: 'quiet', method: RequestMethod.POST});
      }
    }
    const {base} = await start(AppModule);
    expect(await answersWithin(base, 'GET', '/quiet', 300)).toBe('hung');
    const answered = await call(base, 'POST', '/quiet');
    expect([answered.status, answered.text]).toEqual([418, 'answered']);
    expect(handlerRan).toBe(false);
  },
);

// Review 4: what req.url holds, the double run of controller-bound middleware on Express, configuration
// values, middleware that fails, clients that disconnect, and CORS.

claim(
  `${page}#applying-middleware`,
  `with forRoutes('cats'), Express strips the mount path: req.url is / and /1, req.baseUrl /cats, req.originalUrl the whole path`,
  async () => {
    const lines: string[] = [];
    const base = await bound((consumer) =>
      consumer
        .apply((req: any, _res: unknown, next: () => void) => {
          lines.push(
            `${req.method} ${req.originalUrl}`.padEnd(13) +
              `req.url=${req.url}`.padEnd(12) +
              `req.baseUrl=${req.baseUrl}  req.originalUrl=${req.originalUrl}`,
          );
          next();
        })
        .forRoutes('cats'),
    );
    await call(base, 'GET', '/cats');
    await call(base, 'GET', '/cats/1');
    expectOutput(page, 'string-binding-url', lines.join('\n'));
  },
);

claim.abuse(
  `${page}#applying-middleware`,
  `a deny check on req.url.startsWith('/cats/admin') bound with forRoutes('cats') never fires (req.url is /admin); on req.originalUrl it does`,
  async () => {
    @Controller('cats')
    class AdminCats {
      @Get('admin')
      admin() {
        return 'admin area';
      }
    }
    const deny = (field: 'url' | 'originalUrl') => (req: any, res: any, next: () => void) => {
      if (String(req[field]).startsWith('/cats/admin')) res.status(403).send('denied');
      else next();
    };
    for (const [field, expected] of [
      ['url', 'admin area'],
      ['originalUrl', 'denied'],
    ] as const) {
      @Module({controllers: [AdminCats]})
      class AppModule {
        configure(consumer: any) {
          consumer.apply(deny(field)).forRoutes('cats');
        }
      }
      const {base} = await start(AppModule);
      expect((await call(base, 'GET', '/cats/admin')).text, field).toBe(expected);
    }
  },
);

@Controller('cats')
class BreedsController {
  @Get('breeds')
  breeds() {
    return 'breeds';
  }

  @Get(':id')
  findOne() {
    return 'one cat';
  }
}

claim(
  `${page}#middleware-consumer`,
  `on Express, the page's LoggerMiddleware bound with forRoutes(CatsController) runs twice for GET /cats/breeds (breeds and :id both match), once for GET /cats/1`,
  async () => {
    const {LoggerMiddleware} = samples(page, {pick: {'logger.middleware': 1}}).require(
      'logger.middleware',
    );
    @Module({controllers: [BreedsController]})
    class AppModule {
      configure(consumer: any) {
        consumer.apply(LoggerMiddleware).forRoutes(BreedsController);
      }
    }
    const {base} = await start(AppModule);
    const log = capture();
    try {
      await call(base, 'GET', '/cats/breeds');
      await vi.waitFor(() => expect(log.lines.length).toBe(2));
      expectOutput(page, 'controller-double-run', log.lines.join('\n'), [[/\d+ms/g, 'Nms']]);
      log.lines.length = 0;
      await call(base, 'GET', '/cats/1');
      await vi.waitFor(() => expect(log.lines.length).toBe(1));
    } finally {
      log.restore();
    }
    // Bound with a path string, Express mounts it once.
    @Module({controllers: [BreedsController]})
    class ByPath {
      configure(consumer: any) {
        consumer.apply(LoggerMiddleware).forRoutes('cats');
      }
    }
    const byPath = await start(ByPath);
    const once = capture();
    try {
      await call(byPath.base, 'GET', '/cats/breeds');
      await vi.waitFor(() => expect(once.lines.length).toBe(1));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(once.lines.length).toBe(1);
    } finally {
      once.restore();
    }
  },
);

claim.failure(
  `${page}#dependency-injection`,
  `MAINTENANCE_MODE set to 1, TRUE, yes or an empty string leaves the application open: only the exact string 'true' closes it`,
  async () => {
    const {MaintenanceMiddleware} = samples(page).require('maintenance.middleware');
    for (const mode of ['1', 'TRUE', 'yes', '', undefined]) {
      @Module({
        imports: [
          ConfigModule.forRoot({ignoreEnvFile: true, load: [() => ({MAINTENANCE_MODE: mode})]}),
          CatsModule,
        ],
      })
      class AppModule {
        configure(consumer: any) {
          consumer.apply(MaintenanceMiddleware).forRoutes('cats');
        }
      }
      const {base} = await start(AppModule);
      expect((await call(base, 'GET', '/cats')).status, String(mode)).toBe(200);
    }
  },
);

claim.failure(
  `${page}#dependency-injection`,
  `an async class middleware or function whose promise rejects, bound through the consumer, ends in the standard 500 and the application keeps serving`,
  async () => {
    @Injectable()
    class Lookup {
      async use(req: any, _res: unknown, next: () => void) {
        if (req.query.fail) throw new Error('user store unreachable');
        next();
      }
    }
    const lookup = async (req: any, _res: unknown, next: () => void) => {
      if (req.query.fail) throw new Error('user store unreachable');
      next();
    };
    const base = await bound((consumer) =>
      consumer.apply(Lookup).forRoutes('cats').apply(lookup).forRoutes('dogs'),
    );
    for (const path of ['/cats?fail=1', '/dogs?fail=1']) {
      const reply = await call(base, 'GET', path);
      expect([reply.status, reply.json()], path).toEqual([
        500,
        {statusCode: 500, message: 'Internal server error'},
      ]);
    }
    expect((await call(base, 'GET', '/cats')).text).toBe('all cats');
  },
);

claim.failure(
  `${page}#global-middleware`,
  `an async middleware registered with app.use() that throws ends the whole process (unhandled rejection), observed in a child process`,
  () => {
    const script = `
      require('reflect-metadata');
      const { Controller, Get, Module } = require('@nestjs/common');
      const { NestFactory } = require('@nestjs/core');
      class CatsController { findAll() { return 'all cats'; } }
      Get()(CatsController.prototype, 'findAll', Object.getOwnPropertyDescriptor(CatsController.prototype, 'findAll'));
      Controller('cats')(CatsController);
      class AppModule {}
      Module({ controllers: [CatsController] })(AppModule);
      (async () => {
        const app = await NestFactory.create(AppModule, { logger: false });
        app.use(async (req, res, next) => {
          if (req.query.fail) throw new Error('user store unreachable');
          next();
        });
        await app.listen(0, '127.0.0.1');
        const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
        console.log('first', (await fetch(url + '/cats')).status);
        fetch(url + '/cats?fail=1').catch(() => undefined);
        setTimeout(() => { console.log('STILL RUNNING'); process.exit(0); }, 2000);
      })();
    `;
    const run = spawnSync(process.execPath, ['-e', script], {
      cwd: resolve(__dirname, '..', '..'),
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.stdout).toContain('first 200');
    expect(run.stdout).not.toContain('STILL RUNNING');
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Error: user store unreachable');
  },
);

claim(
  `${page}#global-middleware`,
  `a global middleware that catches its error and calls next(error) hands it to Nest's exception layer (403 for a ForbiddenException, 500 otherwise)`,
  async () => {
    const guarded = async (req: any, _res: unknown, next: (error?: unknown) => void) => {
      try {
        if (req.query.forbid) throw new common.ForbiddenException();
        if (req.query.fail) throw new Error('user store unreachable');
        next();
      } catch (error) {
        next(error);
      }
    };
    const {base} = await start(AppWithCats(), {setup: (app) => app.use(guarded)});
    expect((await call(base, 'GET', '/cats?forbid=1')).json()).toEqual({
      statusCode: 403,
      message: 'Forbidden',
    });
    expect((await call(base, 'GET', '/cats?fail=1')).json()).toEqual({
      statusCode: 500,
      message: 'Internal server error',
    });
    expect((await call(base, 'GET', '/cats')).text).toBe('all cats');
  },
);

function AppWithCats() {
  @Module({imports: [CatsModule]})
  class AppModule {}
  return AppModule;
}

claim.failure(
  `${page}#class-middleware`,
  `a client that disconnects before the response is finished gets no line from the page's LoggerMiddleware ('finish' never fires)`,
  async () => {
    const {LoggerMiddleware} = samples(page, {pick: {'logger.middleware': 1}}).require(
      'logger.middleware',
    );
    @Controller('cats')
    class Slow {
      @Get('slow')
      async slow() {
        await new Promise((resolve) => setTimeout(resolve, 300));
        return 'done';
      }

      @Get('fast')
      fast() {
        return 'fast';
      }
    }
    @Module({controllers: [Slow]})
    class AppModule {
      configure(consumer: any) {
        consumer.apply(LoggerMiddleware).forRoutes('cats');
      }
    }
    const {base} = await start(AppModule);
    const log = capture();
    try {
      expect(await answersWithin(base, 'GET', '/cats/slow', 50)).toBe('hung');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(log.lines).toEqual([]);
      await call(base, 'GET', '/cats/fast');
      await vi.waitFor(() => expect(log.lines.length).toBe(1));
    } finally {
      log.restore();
    }
  },
);

const preflight = (origin: string) => ({
  headers: {origin, 'access-control-request-method': 'POST'},
});

claim(
  `${page}#multiple-middleware`,
  `helmet() and the logger given to apply() both run for the controller's routes, in the order listed`,
  async () => {
    const snippet = fragment(page, 'multiple-middleware', 'helmet(').value;
    expect(snippet).toContain('consumer.apply(helmet(), logger).forRoutes(CatsController);');
    const {default: helmet} = await import('helmet');
    const base = await bound((consumer) =>
      consumer.apply(helmet(), record('logger')).forRoutes(CatsController),
    );
    const reply = await call(base, 'GET', '/cats');
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    expect(seen).toEqual(['logger GET /cats']);
  },
);

claim.failure(
  `${page}#multiple-middleware`,
  `on Express, cors({ origin }) bound with forRoutes(CatsController) never sees the OPTIONS preflight: even the allowed origin gets a 404 without CORS headers`,
  async () => {
    const cors = require(resolve(__dirname, '..', '..', 'node_modules', 'cors'));
    const base = await bound((consumer) =>
      consumer.apply(cors({origin: 'https://cats.example.com'})).forRoutes(CatsController),
    );
    const own = await call(base, 'OPTIONS', '/cats', preflight('https://cats.example.com'));
    expect([own.status, own.headers['access-control-allow-origin']]).toEqual([404, undefined]);
  },
);

claim.abuse(
  `${page}#multiple-middleware`,
  `app.enableCors({ origin: 'https://cats.example.com' }) names only that origin, never https://evil.example or *, so a browser on the evil page refuses the response`,
  async () => {
    const snippet = fragment(page, 'multiple-middleware', 'enableCors').value;
    const options = /app\.enableCors\((\{[^)]*\})\);/.exec(snippet)![1];
    const corsOptions = new Function(`return (${options});`)();
    const {base} = await start(AppWithCats(), {setup: (app) => app.enableCors(corsOptions)});
    // A fixed origin is sent as it is, whoever asks; the browser compares it with the calling page's origin.
    for (const [method, options] of [
      ['OPTIONS', preflight('https://evil.example')],
      ['GET', {headers: {origin: 'https://evil.example'}}],
      ['OPTIONS', preflight('https://cats.example.com')],
    ] as const) {
      const reply = await call(base, method, '/cats', options);
      expect(reply.headers['access-control-allow-origin'], method).toBe('https://cats.example.com');
    }
  },
);

claim.abuse(
  `${page}#multiple-middleware`,
  `enableCors() without options answers a preflight from any origin, https://evil.example included, with Access-Control-Allow-Origin: *`,
  async () => {
    const {base} = await start(AppWithCats(), {setup: (app) => app.enableCors()});
    const evil = await call(base, 'OPTIONS', '/cats', preflight('https://evil.example'));
    expect(evil.headers['access-control-allow-origin']).toBe('*');
  },
);

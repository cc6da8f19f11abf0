import {expect, vi} from 'vitest';
import {claim, samples, nest, expectOutput} from '../../lib';
import {start, call, platforms, expectGlobalOnlyOverHttp, pageSamples} from './_support';

const common = nest('@nestjs/common');
const {tap} = nest('rxjs');
const {
  Controller,
  Get,
  Module,
  UseInterceptors,
  UseGuards,
  Param,
  ParseIntPipe,
  ForbiddenException,
} = common;
const page = 'docs/interceptors.md';

/** The service the page's controllers call (not shown there): plain JS syntax, so the JS halves load it too. */
function catsService(reportDelayMs = 0) {
  return `
import { Injectable } from '@nestjs/common';
@Injectable()
export class CatsService {
  constructor() { this.finished = false; }
  findAll() { return []; }
  buildReport() { return new Promise((resolve) => setTimeout(() => { this.finished = true; resolve({ report: 'done' }); }, ${reportDelayMs})); }
}
`;
}

function moduleOf(controllers: unknown[], providers: unknown[] = []) {
  @Module({controllers: controllers as any[], providers: providers as any[]})
  class AppModule {}
  return AppModule;
}

function capture() {
  const lines: string[] = [];
  const spy = vi
    .spyOn(console, 'log')
    .mockImplementation((...args: unknown[]) => void lines.push(args.join(' ')));
  return {lines, restore: () => spy.mockRestore()};
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#binding-interceptors`,
    `the LoggingInterceptor bound to CatsController prints Before... then After... Nms for GET /cats (${lang})`,
    async () => {
      const set = pageSamples(page, {
        lang,
        pick: {'cats.controller': 1},
        files: {'cats.service': catsService()},
      });
      const {CatsController} = set.require('cats.controller');
      const {CatsService} = set.require('cats.service');
      const {base} = await start(moduleOf([CatsController], [CatsService]));
      const log = capture();
      try {
        expect((await call(base, 'GET', '/cats')).json()).toEqual([]);
      } finally {
        log.restore();
      }
      expectOutput(page, 'logging-interceptor', log.lines.join('\n'), [[/\d+ms/g, 'Nms']]);
    },
  );

  claim(
    `${page}#response-mapping`,
    `TransformInterceptor wraps the handler's [] as { "data": [] } (${lang})`,
    async () => {
      const {TransformInterceptor} = pageSamples(page, {lang}).require('transform.interceptor');
      @Controller('cats')
      @UseInterceptors(TransformInterceptor)
      class CatsController {
        @Get()
        findAll() {
          return [];
        }
      }
      const {base} = await start([CatsController]);
      expectOutput(page, 'transform-envelope', (await call(base, 'GET', '/cats')).text);
    },
  );

  claim(
    `${page}#exception-mapping`,
    `ErrorsInterceptor turns an unexpected error of the handler into 502 Bad Gateway, lets HTTP exceptions of the handler and of pipes through, and never sees a guard's (${lang})`,
    async () => {
      const {ErrorsInterceptor} = pageSamples(page, {lang}).require('errors.interceptor');
      @Controller('cats')
      @UseInterceptors(ErrorsInterceptor)
      class CatsController {
        @Get('crash')
        crash() {
          throw new TypeError('boom');
        }

        @Get('piped/:id')
        piped(@Param('id', ParseIntPipe) id: number) {
          return id;
        }

        @Get('guarded')
        @UseGuards({canActivate: () => false})
        guarded() {
          return 'never';
        }

        @Get('missing')
        missing() {
          throw new common.NotFoundException('No cat with this id');
        }
      }
      const {base} = await start([CatsController]);
      const crash = await call(base, 'GET', '/cats/crash');
      expect([crash.status, crash.json()]).toEqual([
        502,
        {statusCode: 502, message: 'Bad Gateway'},
      ]);
      expect((await call(base, 'GET', '/cats/piped/abc')).status).toBe(400);
      expect((await call(base, 'GET', '/cats/missing')).json()).toEqual({
        statusCode: 404,
        message: 'No cat with this id',
        error: 'Not Found',
      });
      expect((await call(base, 'GET', '/cats/guarded')).status).toBe(403);
    },
  );

  claim(
    `${page}#stream-overriding`,
    `CacheInterceptor answers [] without running the handler (${lang})`,
    async () => {
      const {CacheInterceptor} = pageSamples(page, {lang}).require('cache.interceptor');
      let ran = false;
      @Controller('cats')
      @UseInterceptors(CacheInterceptor)
      class CatsController {
        @Get()
        findAll() {
          ran = true;
          return ['fresh'];
        }
      }
      const {base} = await start([CatsController]);
      expect((await call(base, 'GET', '/cats')).json()).toEqual([]);
      expect(ran).toBe(false);
    },
  );

  claim(
    `${page}#more-operators`,
    `TimeoutInterceptor turns a slow handler into 504 Gateway Timeout (not a 408, which browsers resend); the handler's work keeps running (${lang})`,
    async () => {
      const set = pageSamples(page, {
        lang,
        pick: {'cats.controller': 2},
        edit: {'timeout.interceptor': [['timeout(5000)', 'timeout(100)']]},
        files: {'cats.service': catsService(400)},
      });
      const {CatsController} = set.require('cats.controller');
      const {CatsService} = set.require('cats.service');
      const {app, base} = await start(moduleOf([CatsController], [CatsService]));
      const reply = await call(base, 'GET', '/cats/report');
      expect([reply.status, reply.json()]).toEqual([
        504,
        {statusCode: 504, message: 'Gateway Timeout'},
      ]);
      const service = app.get(CatsService);
      expect(service.finished).toBe(false);
      await vi.waitFor(() => expect(service.finished).toBe(true), {timeout: 2000, interval: 50});
    },
  );

  claim(
    `${page}#response-mapping`,
    `ExcludeNullInterceptor turns a null result into an empty string (${lang})`,
    async () => {
      const {ExcludeNullInterceptor} = pageSamples(page, {lang}).require(
        'exclude-null.interceptor',
      );
      @Controller('cats')
      @UseInterceptors(ExcludeNullInterceptor)
      class CatsController {
        @Get('null')
        nothing() {
          return null;
        }

        @Get('value')
        value() {
          return {name: 'Tom'};
        }
      }
      const {base} = await start([CatsController]);
      const empty = await call(base, 'GET', '/cats/null');
      expect([empty.status, empty.text]).toEqual([200, '']);
      expect((await call(base, 'GET', '/cats/value')).json()).toEqual({name: 'Tom'});
    },
  );
}

for (const platform of platforms) {
  claim(
    `${page}#binding-interceptors`,
    `global, then controller, then method interceptors on the way in, the reverse on the way out; @UseInterceptors(A, B) wraps in the order listed (${platform})`,
    async () => {
      const order: string[] = [];
      const tagged = (name: string) => ({
        intercept: (_context: unknown, next: any) => {
          order.push(`in:${name}`);
          return next.handle().pipe(tap(() => order.push(`out:${name}`)));
        },
      });
      @Controller('cats')
      @UseInterceptors(tagged('controller'))
      class CatsController {
        @Get()
        @UseInterceptors(tagged('method-A'), tagged('method-B'))
        findAll() {
          order.push('handler');
          return [];
        }
      }
      const {base} = await start([CatsController], {
        platform,
        setup: (app) => app.useGlobalInterceptors(tagged('global')),
      });
      await call(base, 'GET', '/cats');
      expect(order).toEqual([
        'in:global',
        'in:controller',
        'in:method-A',
        'in:method-B',
        'handler',
        'out:method-B',
        'out:method-A',
        'out:controller',
        'out:global',
      ]);
    },
  );
}

claim(
  `${page}#binding-interceptors`,
  `the APP_INTERCEPTOR provider of the page makes the LoggingInterceptor global`,
  async () => {
    const {AppModule} = samples(page).require('app.module');
    @Controller('dogs')
    class DogsController {
      @Get()
      findAll() {
        return [];
      }
    }
    @Module({imports: [AppModule], controllers: [DogsController]})
    class Root {}
    const {base} = await start(Root);
    const log = capture();
    try {
      await call(base, 'GET', '/dogs');
    } finally {
      log.restore();
    }
    expect(log.lines[0]).toBe('Before...');
    expect(log.lines[1]).toMatch(/^After\.\.\. \d+ms$/);
  },
);

claim(
  `${page}#binding-interceptors`,
  `the method-bound TimeoutInterceptor affects only GET /cats/report`,
  async () => {
    const set = samples(page, {
      pick: {'cats.controller': 2},
      files: {'cats.service': catsService()},
    });
    const {CatsController} = set.require('cats.controller');
    const {CatsService} = set.require('cats.service');
    expect(Reflect.getMetadata('__interceptors__', CatsController)).toBeUndefined();
    expect(Reflect.getMetadata('__interceptors__', CatsController.prototype.report)).toHaveLength(
      1,
    );
    const {base} = await start(moduleOf([CatsController], [CatsService]));
    expect((await call(base, 'GET', '/cats/report')).json()).toEqual({report: 'done'});
  },
);

claim(
  `${page}#basics`,
  `an interceptor that does not call next.handle() keeps the handler from running; intercept() may be async`,
  async () => {
    let ran = false;
    const {of} = nest('rxjs');
    @Controller('cats')
    class CatsController {
      @Get('skipped')
      @UseInterceptors({intercept: () => of('from interceptor')})
      skipped() {
        ran = true;
        return 'handler';
      }

      @Get('async')
      @UseInterceptors({
        intercept: async (_c: unknown, next: any) => (await Promise.resolve(), next.handle()),
      })
      viaAsync() {
        return 'handler';
      }
    }
    const {base} = await start([CatsController]);
    expect((await call(base, 'GET', '/cats/skipped')).text).toBe('from interceptor');
    expect(ran).toBe(false);
    expect((await call(base, 'GET', '/cats/async')).text).toBe('handler');
  },
);

claim(
  `${page}#aspect-interception`,
  `the execution context gives the request (method and URL) and the handler's name`,
  async () => {
    const seen: string[] = [];
    @Controller('cats')
    class CatsController {
      @Get(':id')
      @UseInterceptors({
        intercept: (context: any, next: any) => {
          const request = context.switchToHttp().getRequest();
          seen.push(
            `${request.method} ${request.url} ${context.getHandler().name} ${context.getClass().name}`,
          );
          return next.handle();
        },
      })
      findOne() {
        throw new ForbiddenException();
      }
    }
    const {base} = await start([CatsController]);
    await call(base, 'GET', '/cats/3?x=1');
    expect(seen).toEqual(['GET /cats/3?x=1 findOne CatsController']);
  },
);

claim(
  `${page}#binding-interceptors`,
  `global interceptors (useGlobalInterceptors() or APP_INTERCEPTOR) never reach a WebSocket gateway; a connected microservice gets them only with inheritAppConfig: true`,
  async () => {
    await expectGlobalOnlyOverHttp('interceptor', expect);
  },
  30000,
);

// Review 4: failing handlers, handlers that return nothing, and client errors under the error mapping.

for (const lang of ['ts', 'js'] as const) {
  claim.failure(
    `${page}#aspect-interception`,
    `the LoggingInterceptor prints Before... then Failed... Nms for a handler that throws, instead of nothing after Before... (${lang})`,
    async () => {
      const {LoggingInterceptor} = pageSamples(page, {lang}).require('logging.interceptor');
      @Controller('cats')
      @UseInterceptors(LoggingInterceptor)
      class CatsController {
        @Get('broken')
        broken() {
          throw new Error('database unreachable');
        }
      }
      const {base} = await start([CatsController]);
      const log = capture();
      try {
        expect((await call(base, 'GET', '/cats/broken')).status).toBe(500);
      } finally {
        log.restore();
      }
      expectOutput(page, 'logging-interceptor-error', log.lines.join('\n'), [[/\d+ms/g, 'Nms']]);
    },
  );
}

claim.failure(
  `${page}#aspect-interception`,
  `a handler whose observable completes without a value: the LoggingInterceptor prints only Before..., and Nest answers 500 after logging "no elements in sequence"`,
  async () => {
    const {memoryLogger} = await import('../../lib');
    const {EMPTY} = nest('rxjs');
    const {LoggingInterceptor} = samples(page).require('logging.interceptor');
    @Controller('cats')
    @UseInterceptors(LoggingInterceptor)
    class CatsController {
      @Get('none')
      none() {
        return EMPTY;
      }
    }
    const memory = memoryLogger();
    const {base} = await start([CatsController], {logger: memory.logger});
    const log = capture();
    let reply;
    try {
      reply = await call(base, 'GET', '/cats/none');
    } finally {
      log.restore();
    }
    expect([reply.status, reply.json()]).toEqual([
      500,
      {statusCode: 500, message: 'Internal server error'},
    ]);
    expect(log.lines).toEqual(['Before...']);
    expect(memory.lines.some((line) => line.message === 'no elements in sequence')).toBe(true);
  },
);

claim.failure(
  `${page}#response-mapping`,
  `through TransformInterceptor, a handler that returns nothing answers {} (no data property), null answers { "data": null }, and an empty observable a 500`,
  async () => {
    const {EMPTY} = nest('rxjs');
    const {TransformInterceptor} = samples(page).require('transform.interceptor');
    @Controller('cats')
    @UseInterceptors(TransformInterceptor)
    class CatsController {
      @Get('nothing')
      async nothing() {
        // a lookup that found nothing
      }

      @Get('null')
      nullish() {
        return null;
      }

      @Get('empty')
      empty() {
        return EMPTY;
      }
    }
    const {base} = await start([CatsController]);
    expect((await call(base, 'GET', '/cats/nothing')).text).toBe('{}');
    expect((await call(base, 'GET', '/cats/null')).json()).toEqual({data: null});
    expect((await call(base, 'GET', '/cats/empty')).status).toBe(500);
  },
);

claim.abuse(
  `${page}#exception-mapping`,
  `under the ErrorsInterceptor, a client that sends a malformed id still gets the pipe's 400 and its message, not a 502`,
  async () => {
    const {ErrorsInterceptor} = samples(page).require('errors.interceptor');
    @Controller('cats')
    @UseInterceptors(ErrorsInterceptor)
    class CatsController {
      @Get(':id')
      findOne(@Param('id', ParseIntPipe) id: number) {
        return {id};
      }
    }
    const {base} = await start([CatsController]);
    expect((await call(base, 'GET', '/cats/abc')).json()).toEqual({
      statusCode: 400,
      message: 'Validation failed (numeric string is expected)',
      error: 'Bad Request',
    });
  },
);

// Review 5: the page's ExcludeNullInterceptor bound globally in an application that also serves GraphQL.

claim.abuse(
  `${page}#response-mapping`,
  `bound globally (APP_INTERCEPTOR) next to a GraphQL API, the page's ExcludeNullInterceptor leaves resolvers alone: a nullable Int that resolves to null answers null, while an HTTP route's null still becomes ''`,
  async () => {
    const {APP_INTERCEPTOR} = nest('@nestjs/core');
    const {GraphQLModule, Resolver, Query, Int} = nest('@nestjs/graphql');
    const {ExcludeNullInterceptor} = pageSamples(page).require('exclude-null.interceptor');
    @Resolver()
    class CatsResolver {
      @Query(() => Int, {nullable: true})
      age(): number | null {
        return null;
      }
    }
    @Controller('cats')
    class CatsController {
      @Get('null')
      nothing() {
        return null;
      }
    }
    @Module({
      imports: [GraphQLModule.forRoot({autoSchemaFile: true, playground: false})],
      providers: [CatsResolver, {provide: APP_INTERCEPTOR, useClass: ExcludeNullInterceptor}],
      controllers: [CatsController],
    })
    class AppModule {}
    const {base} = await start(AppModule);
    const reply = await call(base, 'POST', '/graphql', {body: {query: '{ age }'}});
    expect(reply.json()).toEqual({data: {age: null}});
    const http = await call(base, 'GET', '/cats/null');
    expect([http.status, http.text]).toEqual([200, '']);
  },
);

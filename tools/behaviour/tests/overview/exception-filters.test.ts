import {expect, vi} from 'vitest';
import {spawnSync} from 'node:child_process';
import {join, resolve} from 'node:path';
import {claim, samples, nest, expectOutput, listen} from '../../lib';
import {start, call, platforms, expectGlobalOnlyOverHttp, onClose, pageSamples} from './_support';

const common = nest('@nestjs/common');
const core = nest('@nestjs/core');
const {
  Controller,
  Get,
  Module,
  Catch,
  UseFilters,
  HttpException,
  BadRequestException,
  ForbiddenException,
} = common;
const {APP_FILTER, HttpAdapterHost, BaseExceptionFilter} = core;
const page = 'docs/exception-filters.md';

@Controller('boom')
class BoomController {
  @Get('type-error')
  typeError() {
    throw new TypeError('undefined is not a function');
  }

  @Get('http-error')
  httpError() {
    throw Object.assign(new Error('Payment Required'), {statusCode: 402});
  }

  @Get('described')
  described() {
    throw new BadRequestException('The age must be a positive number', 'Invalid age');
  }

  @Get('message-only')
  messageOnly() {
    throw new BadRequestException('The age must be a positive number');
  }

  @Get('object')
  object() {
    throw new BadRequestException({reason: 'custom'});
  }
}

for (const platform of platforms) {
  claim(
    `${page}#exception-filters`,
    `an error that is not an HttpException answers 500 with the generic body (${platform})`,
    async () => {
      const {base} = await start([BoomController], {platform});
      const reply = await call(base, 'GET', '/boom/type-error');
      expect(reply.status).toBe(500);
      expectOutput(page, 'unknown-error', reply.text);
    },
  );

  claim(
    `${page}#exception-filters`,
    `a thrown object with statusCode and message (http-errors style) gets those two values (${platform})`,
    async () => {
      const {base} = await start([BoomController], {platform});
      const reply = await call(base, 'GET', '/boom/http-error');
      expect([reply.status, reply.json()]).toEqual([
        402,
        {statusCode: 402, message: 'Payment Required'},
      ]);
    },
  );

  claim(
    `${page}#built-in-http-exceptions`,
    `new BadRequestException(message, description) puts the description in "error" (${platform})`,
    async () => {
      const {base} = await start([BoomController], {platform});
      const reply = await call(base, 'GET', '/boom/described');
      expect(reply.status).toBe(400);
      expectOutput(page, 'bad-request-description', reply.text);
    },
  );
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#throwing-standard-exceptions`,
    `HttpException('Forbidden', FORBIDDEN) answers 403 with statusCode and message (${lang})`,
    async () => {
      const {CatsController} = pageSamples(page, {lang, pick: {'cats.controller': 1}}).require(
        'cats.controller',
      );
      const {base} = await start([CatsController]);
      const reply = await call(base, 'GET', '/cats');
      expect(reply.status).toBe(403);
      expectOutput(page, 'forbidden', reply.text);
    },
  );

  claim(
    `${page}#throwing-standard-exceptions`,
    `an object response is the whole body, the status comes from the second argument (${lang})`,
    async () => {
      const {CatsController} = pageSamples(page, {lang, pick: {'cats.controller': 2}}).require(
        'cats.controller',
      );
      const {base} = await start([CatsController]);
      const reply = await call(base, 'GET', '/cats');
      expect(reply.status).toBe(403);
      expectOutput(page, 'object-response', reply.text);
    },
  );

  claim(
    `${page}#binding-filters`,
    `@UseFilters(new HttpExceptionFilter()) answers the ForbiddenException with statusCode, message, timestamp and path (${lang})`,
    async () => {
      const set = pageSamples(page, {
        lang,
        pick: {'cats.controller': 4},
        files: {'create-cat.dto': 'export class CreateCatDto {}'},
      });
      const {CatsController} = set.require('cats.controller');
      const {base} = await start([CatsController]);
      const reply = await call(base, 'POST', '/cats', {body: {name: 'Tom'}});
      expect(reply.status).toBe(403);
      const body = reply.json();
      expect(Object.keys(body)).toEqual(['statusCode', 'message', 'timestamp', 'path']);
      expect(body).toMatchObject({statusCode: 403, message: 'Forbidden', path: '/cats'});
      expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);
    },
  );

  claim(
    `${page}#binding-filters`,
    `@UseFilters(HttpExceptionFilter) on the controller class covers its handlers (${lang})`,
    async () => {
      const set = pageSamples(page, {lang, pick: {'cats.controller': 5}});
      const {CatsController} = set.require('cats.controller');
      const {HttpExceptionFilter} = set.require('http-exception.filter');
      @Controller('cats')
      class Extended extends CatsController {
        @Get()
        list() {
          throw new ForbiddenException();
        }
      }
      // The decorator sits on the page's (empty) class: read its metadata back onto one with a route.
      Reflect.defineMetadata(
        '__exceptionFilters__',
        Reflect.getMetadata('__exceptionFilters__', CatsController),
        Extended,
      );
      expect(Reflect.getMetadata('__exceptionFilters__', CatsController)).toEqual([
        HttpExceptionFilter,
      ]);
      const {base} = await start([Extended]);
      const reply = await call(base, 'GET', '/cats');
      expect(reply.json()).toMatchObject({statusCode: 403, message: 'Forbidden', path: '/cats'});
    },
  );

  claim(
    `${page}#catch-everything`,
    `the HttpAdapterHost catch-all filter answers any error with statusCode, timestamp and path (${lang})`,
    async () => {
      const set = pageSamples(page, {lang, pick: {'all-exceptions.filter': 1}});
      const {AllExceptionsFilter} = set.require('all-exceptions.filter');
      @Module({
        controllers: [BoomController],
        providers: [{provide: APP_FILTER, useClass: AllExceptionsFilter}],
      })
      class AppModule {}
      for (const platform of platforms) {
        const {base} = await start(AppModule, {platform});
        const crash = await call(base, 'GET', '/boom/type-error?x=1');
        expect(crash.status).toBe(500);
        expect(Object.keys(crash.json())).toEqual(['statusCode', 'timestamp', 'path']);
        expect(crash.json()).toMatchObject({statusCode: 500, path: '/boom/type-error?x=1'});
        const http = await call(base, 'GET', '/boom/described');
        expect([http.status, http.json().statusCode]).toEqual([400, 400]);
      }
    },
  );
}

claim(
  `${page}#custom-exceptions`,
  `CatNotAdoptableException answers 409 with "Tom is not available for adoption"`,
  async () => {
    const {CatsController} = samples(page, {pick: {'cats.controller': 3}}).require(
      'cats.controller',
    );
    const {base} = await start([CatsController]);
    const reply = await call(base, 'POST', '/cats/Tom/adopt');
    expect([reply.status, reply.json()]).toEqual([
      409,
      {statusCode: 409, message: 'Tom is not available for adoption'},
    ]);
  },
);

claim(
  `${page}#built-in-http-exceptions`,
  `each built-in exception of the table answers its status; without arguments the body is statusCode and message`,
  async () => {
    const table: [string, number][] = [
      ['BadRequestException', 400],
      ['UnauthorizedException', 401],
      ['ForbiddenException', 403],
      ['NotFoundException', 404],
      ['MethodNotAllowedException', 405],
      ['NotAcceptableException', 406],
      ['RequestTimeoutException', 408],
      ['ConflictException', 409],
      ['GoneException', 410],
      ['PreconditionFailedException', 412],
      ['PayloadTooLargeException', 413],
      ['UnsupportedMediaTypeException', 415],
      ['ImATeapotException', 418],
      ['MisdirectedException', 421],
      ['UnprocessableEntityException', 422],
      ['InternalServerErrorException', 500],
      ['NotImplementedException', 501],
      ['BadGatewayException', 502],
      ['ServiceUnavailableException', 503],
      ['GatewayTimeoutException', 504],
      ['HttpVersionNotSupportedException', 505],
    ];
    @Controller('built-in')
    class BuiltIn {
      @Get(':name')
      throwIt(@common.Param('name') name: string) {
        throw new common[name]();
      }
    }
    const {base} = await start([BuiltIn]);
    for (const [name, status] of table) {
      const exception = new common[name]();
      expect(exception, name).toBeInstanceOf(HttpException);
      const reply = await call(base, 'GET', `/built-in/${name}`);
      expect(reply.status, name).toBe(status);
      expect(Object.keys(reply.json()), name).toEqual(['statusCode', 'message']);
      expect(reply.json().statusCode, name).toBe(status);
    }
    expect((await call(base, 'GET', '/built-in/ForbiddenException')).json()).toEqual({
      statusCode: 403,
      message: 'Forbidden',
    });
  },
);

claim(
  `${page}#built-in-http-exceptions`,
  `with only a message, "error" holds the standard name; an object replaces the body`,
  async () => {
    const {base} = await start([BoomController]);
    expect((await call(base, 'GET', '/boom/message-only')).json()).toEqual({
      statusCode: 400,
      message: 'The age must be a positive number',
      error: 'Bad Request',
    });
    const object = await call(base, 'GET', '/boom/object');
    expect([object.status, object.json()]).toEqual([400, {reason: 'custom'}]);
  },
);

claim(
  `${page}#binding-filters`,
  `a filter passed as a class is created once and shared by the handlers that name it`,
  async () => {
    const seen = new Set<unknown>();
    @Catch(HttpException)
    class Recording {
      catch(exception: any, host: any) {
        seen.add(this);
        host.switchToHttp().getResponse().status(exception.getStatus()).json({filtered: true});
      }
    }
    @Controller('cats')
    class CatsController {
      @Get('a')
      @UseFilters(Recording)
      a() {
        throw new ForbiddenException();
      }

      @Get('b')
      @UseFilters(Recording)
      b() {
        throw new ForbiddenException();
      }
    }
    const {base} = await start([CatsController]);
    expect((await call(base, 'GET', '/cats/a')).json()).toEqual({filtered: true});
    expect((await call(base, 'GET', '/cats/b')).json()).toEqual({filtered: true});
    expect(seen.size).toBe(1);
  },
);

claim(
  `${page}#binding-filters`,
  `useGlobalFilters() and the APP_FILTER provider of the page both apply to every route`,
  async () => {
    const set = samples(page, {pick: {'app.module': 1}});
    const {HttpExceptionFilter} = set.require('http-exception.filter');
    const {base} = await start([BoomController], {
      setup: (app) => app.useGlobalFilters(new HttpExceptionFilter()),
    });
    expect((await call(base, 'GET', '/boom/described')).json()).toMatchObject({
      statusCode: 400,
      path: '/boom/described',
    });
    const {AppModule} = set.require('app.module');
    @Module({imports: [AppModule], controllers: [BoomController]})
    class Root {}
    const {base: viaProvider} = await start(Root);
    expect((await call(viaProvider, 'GET', '/boom/described')).json()).toMatchObject({
      statusCode: 400,
      message: 'The age must be a positive number',
      path: '/boom/described',
    });
  },
);

claim(
  `${page}#catch-everything`,
  `with the catch-all filter declared first, the specific filter registered after it handles its exceptions`,
  async () => {
    @Catch()
    class CatchAll {
      catch(_exception: unknown, host: any) {
        host.switchToHttp().getResponse().status(500).json({by: 'catch-all'});
      }
    }
    @Catch(BadRequestException)
    class Specific {
      catch(_exception: unknown, host: any) {
        host.switchToHttp().getResponse().status(400).json({by: 'specific'});
      }
    }
    const first = await start([BoomController], {
      setup: (app) => app.useGlobalFilters(new CatchAll(), new Specific()),
    });
    expect((await call(first.base, 'GET', '/boom/described')).json()).toEqual({by: 'specific'});
    expect((await call(first.base, 'GET', '/boom/type-error')).json()).toEqual({by: 'catch-all'});
    const last = await start([BoomController], {
      setup: (app) => app.useGlobalFilters(new Specific(), new CatchAll()),
    });
    expect((await call(last.base, 'GET', '/boom/described')).json()).toEqual({by: 'catch-all'});
  },
);

claim(
  `${page}#inheritance`,
  `a BaseExceptionFilter subclass runs its code, then super.catch() sends the standard body (APP_FILTER, and new ...(httpAdapter) in main.ts)`,
  async () => {
    const {AllExceptionsFilter} = samples(page, {pick: {'all-exceptions.filter': 2}}).require(
      'all-exceptions.filter',
    );
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      @Module({
        controllers: [BoomController],
        providers: [{provide: APP_FILTER, useClass: AllExceptionsFilter}],
      })
      class AppModule {}
      const {base} = await start(AppModule);
      const reply = await call(base, 'GET', '/boom/described');
      expect(reply.json()).toEqual({
        statusCode: 400,
        message: 'The age must be a positive number',
        error: 'Invalid age',
      });
      expect(spy.mock.calls.some((args) => args[0] === 'Unhandled exception')).toBe(true);
      const {base: manual} = await start([BoomController], {
        setup: (app) =>
          app.useGlobalFilters(new AllExceptionsFilter(app.get(HttpAdapterHost).httpAdapter)),
      });
      expect((await call(manual, 'GET', '/boom/type-error')).json()).toEqual({
        statusCode: 500,
        message: 'Internal server error',
      });
    } finally {
      spy.mockRestore();
    }
  },
);

claim(
  `${page}#inheritance`,
  `bound with @UseFilters(TheClass) the derived filter gets the adapter; an instance built with new and no argument has none to reply with`,
  async () => {
    @Catch()
    class Derived extends BaseExceptionFilter {}
    @Controller('cats')
    class CatsController {
      @Get('class')
      @UseFilters(Derived)
      byClass() {
        throw new ForbiddenException();
      }
    }
    const {base} = await start([CatsController]);
    expect((await call(base, 'GET', '/cats/class')).json()).toEqual({
      statusCode: 403,
      message: 'Forbidden',
    });
    const {ExecutionContextHost} = nest('@nestjs/core/helpers/execution-context-host');
    expect(() =>
      new Derived().catch(
        new ForbiddenException(),
        new ExecutionContextHost([{}, {}, () => undefined]),
      ),
    ).toThrow("Cannot read properties of undefined (reading 'reply')");
  },
);

claim(
  `${page}#binding-filters`,
  `global filters (useGlobalFilters() or APP_FILTER) never reach a WebSocket gateway; a connected microservice gets them only with inheritAppConfig: true`,
  async () => {
    await expectGlobalOnlyOverHttp('filter', expect);
  },
  30000,
);

claim(
  `${page}#exception-filters`,
  `the built-in filter keeps an unknown error's details in the server log (ExceptionsHandler) and sends only the generic body; HttpExceptions are not logged`,
  async () => {
    const {memoryLogger} = await import('../../lib');
    const memory = memoryLogger();
    const {base} = await start([BoomController], {logger: memory.logger});
    const reply = await call(base, 'GET', '/boom/type-error');
    expect(reply.text).not.toContain('undefined is not a function');
    const logged = memory.lines.filter((line) => line.level === 'error');
    expect(logged.map((line) => [line.message, line.context])).toEqual([
      ['undefined is not a function', 'ExceptionsHandler'],
    ]);
    await call(base, 'GET', '/boom/described');
    expect(memory.lines.filter((line) => line.level === 'error')).toHaveLength(1);
  },
);

claim(
  `${page}#catch-everything`,
  `in a testing module the filter is built in compile(), before createNestApplication() attaches the adapter: httpAdapter is undefined in its constructor and set by the time catch() runs`,
  async () => {
    const {Test} = nest('@nestjs/testing');
    const {AllExceptionsFilter} = samples(page, {pick: {'all-exceptions.filter': 1}}).require(
      'all-exceptions.filter',
    );
    const atConstruction: unknown[] = [];
    class Recording extends AllExceptionsFilter {
      constructor(host: any) {
        super(host);
        atConstruction.push(host.httpAdapter);
      }
    }
    Reflect.defineMetadata('design:paramtypes', [HttpAdapterHost], Recording);
    Catch()(Recording);
    @Module({
      controllers: [BoomController],
      providers: [{provide: APP_FILTER, useClass: Recording}],
    })
    class AppModule {}
    const moduleRef = await Test.createTestingModule({imports: [AppModule]}).compile();
    expect(atConstruction).toEqual([undefined]);
    const app = moduleRef.createNestApplication(undefined, {logger: false});
    onClose(() => app.close());
    const base = await listen(app);
    const reply = await call(base, 'GET', '/boom/type-error');
    expect(reply.status).toBe(500);
    expect(reply.json()).toMatchObject({statusCode: 500, path: '/boom/type-error'});
  },
);

claim(
  `${page}#exception-filters`,
  `@Catch() with several classes catches each of them and nothing else; a filter that writes no response leaves the request unanswered`,
  async () => {
    const {answersWithin} = await import('./_support');
    class OutOfCats extends Error {}
    class OutOfFood extends Error {}
    @Catch(OutOfCats, OutOfFood)
    class ShortageFilter {
      catch(exception: Error, host: any) {
        host.switchToHttp().getResponse().status(503).json({shortage: exception.constructor.name});
      }
    }
    @Catch(BadRequestException)
    class SilentFilter {
      catch() {
        return undefined;
      }
    }
    @Controller('shop')
    @UseFilters(ShortageFilter)
    class ShopController {
      @Get('cats')
      cats() {
        throw new OutOfCats();
      }

      @Get('food')
      food() {
        throw new OutOfFood();
      }

      @Get('other')
      other() {
        throw new TypeError('other');
      }

      @Get('silent')
      @UseFilters(SilentFilter)
      silent() {
        throw new BadRequestException();
      }
    }
    const {base} = await start([ShopController]);
    expect((await call(base, 'GET', '/shop/cats')).json()).toEqual({shortage: 'OutOfCats'});
    expect((await call(base, 'GET', '/shop/food')).json()).toEqual({shortage: 'OutOfFood'});
    expect((await call(base, 'GET', '/shop/other')).json()).toEqual({
      statusCode: 500,
      message: 'Internal server error',
    });
    expect(await answersWithin(base, 'GET', '/shop/silent', 300)).toBe('hung');
  },
);

// Review 4: filters that crash the process, what a catch-all filter sends and logs, and third-party errors
// that the default filter passes through.

/** Runs a script in a fresh Node.js process (a crash must not take the test worker down). */
function inChild(script: string) {
  return spawnSync(process.execPath, ['-e', script], {
    cwd: resolve(__dirname, '..', '..'),
    encoding: 'utf8',
    env: {...process.env, NO_COLOR: '1'},
    timeout: 20_000,
  });
}

/** An app whose CatsController throws new Error('x') from GET /cats/fail, with the filter bound as `binding`. */
function crashScript(filterFile: string, exportName: string, binding: string) {
  return `
    require('reflect-metadata');
    const { Controller, Get, Module, UseFilters } = require('@nestjs/common');
    const { NestFactory } = require('@nestjs/core');
    const { ${exportName}: Filter } = require(${JSON.stringify(filterFile)});
    class CatsController { fail() { throw new Error('x'); } ok() { return 'ok'; } }
    for (const [name, path] of [['fail', 'fail'], ['ok', 'ok']]) {
      Get(path)(CatsController.prototype, name, Object.getOwnPropertyDescriptor(CatsController.prototype, name));
    }
    UseFilters(${binding})(CatsController.prototype, 'fail', Object.getOwnPropertyDescriptor(CatsController.prototype, 'fail'));
    Controller('cats')(CatsController);
    class AppModule {}
    Module({ controllers: [CatsController] })(AppModule);
    (async () => {
      const app = await NestFactory.create(AppModule, { logger: false });
      await app.listen(0, '127.0.0.1');
      const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
      console.log('ok', (await fetch(url + '/cats/ok')).status);
      fetch(url + '/cats/fail').catch(() => undefined);
      setTimeout(() => { console.log('STILL RUNNING'); process.exit(0); }, 2000);
    })();
  `;
}

claim.failure(
  `${page}#inheritance`,
  `the page's BaseExceptionFilter subclass bound with @UseFilters(new AllExceptionsFilter()) ends the whole process at the first exception (TypeError reading 'reply'), observed in a child process`,
  () => {
    const set = samples(page, {pick: {'all-exceptions.filter': 2}});
    const run = inChild(
      crashScript(join(set.dir, 'all-exceptions.filter.js'), 'AllExceptionsFilter', 'new Filter()'),
    );
    expect(run.stdout).toContain('ok 200');
    expect(run.stdout).not.toContain('STILL RUNNING');
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      "TypeError: Cannot read properties of undefined (reading 'reply')",
    );
  },
);

claim.failure(
  `${page}#exception-filters-1`,
  `a filter whose catch() throws (the page's HttpExceptionFilter widened to @Catch(), calling getStatus() on an Error) ends the whole process`,
  () => {
    const set = samples(page, {
      pick: {'http-exception.filter': 1},
      edit: {'http-exception.filter': [['@Catch(HttpException)', '@Catch()']]},
    });
    const run = inChild(
      crashScript(join(set.dir, 'http-exception.filter.js'), 'HttpExceptionFilter', 'new Filter()'),
    );
    expect(run.stdout).toContain('ok 200');
    expect(run.stdout).not.toContain('STILL RUNNING');
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('TypeError: exception.getStatus is not a function');
  },
);

claim(
  `${page}#exception-filters-1`,
  `for the ValidationPipe's 400, exception.message in HttpExceptionFilter is "Bad Request Exception"; the failed rules are in getResponse()`,
  async () => {
    const {HttpExceptionFilter} = samples(page, {pick: {'http-exception.filter': 1}}).require(
      'http-exception.filter',
    );
    const {IsInt} = nest('class-validator');
    class AgeDto {
      @IsInt()
      age!: number;
    }
    @Controller('cats')
    @UseFilters(HttpExceptionFilter)
    class CatsController {
      @common.Post()
      create(@common.Body(new common.ValidationPipe()) dto: AgeDto) {
        return dto;
      }
    }
    const seenResponses: unknown[] = [];
    const {base} = await start([CatsController], {
      setup: (app) =>
        app.useGlobalInterceptors({
          intercept: (_context: unknown, next: any) => {
            const {catchError, throwError} = nest('rxjs');
            return next.handle().pipe(
              catchError((error: any) => {
                seenResponses.push(error.getResponse());
                return throwError(() => error);
              }),
            );
          },
        }),
    });
    const reply = await call(base, 'POST', '/cats', {body: {age: 'old'}});
    expect([reply.status, reply.json().message]).toEqual([400, 'Bad Request Exception']);
    expect(seenResponses).toEqual([
      {statusCode: 400, message: ['age must be an integer number'], error: 'Bad Request'},
    ]);
  },
);

@Controller('leaky')
class LeakyController {
  @Get('driver')
  driver() {
    throw new Error('password authentication failed for user "cats" at 10.0.4.12:5432');
  }

  @Get('sdk')
  sdk() {
    throw Object.assign(new Error('connect ECONNREFUSED 10.0.4.20:443 (bucket cats-private)'), {
      statusCode: 503,
    });
  }
}

claim.abuse(
  `${page}#catch-everything`,
  `the catch-all filter keeps an unexpected error's message (a database user and address) out of the response, for plain errors and for errors with a statusCode`,
  async () => {
    const {AllExceptionsFilter} = samples(page, {pick: {'all-exceptions.filter': 1}}).require(
      'all-exceptions.filter',
    );
    @Module({
      controllers: [LeakyController],
      providers: [{provide: APP_FILTER, useClass: AllExceptionsFilter}],
    })
    class AppModule {}
    const {base} = await start(AppModule);
    for (const path of ['/leaky/driver', '/leaky/sdk']) {
      const reply = await call(base, 'GET', path);
      expect(reply.status, path).toBe(500);
      expect(reply.text, path).not.toContain('10.0.4');
      expect(Object.keys(reply.json())).toEqual(['statusCode', 'timestamp', 'path']);
    }
  },
);

claim(
  `${page}#catch-everything`,
  `the catch-all filter logs an unexpected error with its stack under the AllExceptionsFilter context, and does not log HttpExceptions`,
  async () => {
    const {memoryLogger} = await import('../../lib');
    const {AllExceptionsFilter} = samples(page, {pick: {'all-exceptions.filter': 1}}).require(
      'all-exceptions.filter',
    );
    @Module({
      controllers: [LeakyController, BoomController],
      providers: [{provide: APP_FILTER, useClass: AllExceptionsFilter}],
    })
    class AppModule {}
    const memory = memoryLogger();
    const {base} = await start(AppModule, {logger: memory.logger});
    await call(base, 'GET', '/boom/described');
    expect(memory.lines.filter((line) => line.level === 'error')).toEqual([]);
    await call(base, 'GET', '/leaky/driver');
    const errors = memory.lines.filter((line) => line.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0].context).toBe('AllExceptionsFilter');
    expect(errors[0].message).toMatch(/^Error: password authentication failed[^\n]*\n\s+at /);
  },
);

claim.abuse(
  `${page}#exception-filters`,
  `without a catch-all filter, an SDK error with statusCode 503 reaches the client with its status and its internal message`,
  async () => {
    const {base} = await start([LeakyController]);
    const reply = await call(base, 'GET', '/leaky/sdk');
    expect([reply.status, reply.json()]).toEqual([
      503,
      {statusCode: 503, message: 'connect ECONNREFUSED 10.0.4.20:443 (bucket cats-private)'},
    ]);
  },
);

// Review 5: the page's filters bound globally meet GraphQL resolvers and inherited microservice handlers, and
// the catch-all filter keeps the body parsers' own 4xx.

claim.failure(
  `${page}#exception-filters-1`,
  `in a hybrid application with inheritAppConfig: true, the page's HttpExceptionFilter (useGlobalFilters) and AllExceptionsFilter (APP_FILTER) let go of a failing message handler: the caller gets Nest's standard error and the process keeps serving (child process)`,
  () => {
    for (const [file, exportName, binding, thrown] of [
      ['http-exception.filter', 'HttpExceptionFilter', 'useGlobal', 'new NotFoundException()'],
      ['all-exceptions.filter', 'AllExceptionsFilter', 'provider', "new Error('db down')"],
    ] as const) {
      const set = samples(page, {pick: {[file]: 1}});
      const run = inChild(`
        require('reflect-metadata');
        const { Controller, Get, Module, NotFoundException } = require('@nestjs/common');
        const { APP_FILTER, NestFactory } = require('@nestjs/core');
        const { ClientProxyFactory, MessagePattern, Transport } = require('@nestjs/microservices');
        const { lastValueFrom } = require('rxjs');
        const { ${exportName}: Filter } = require(${JSON.stringify(join(set.dir, `${file}.js`))});
        class CatsController { lookup() { throw ${thrown}; } ok() { return 'ok'; } }
        MessagePattern('cats.lookup')(CatsController.prototype, 'lookup', Object.getOwnPropertyDescriptor(CatsController.prototype, 'lookup'));
        Get('ok')(CatsController.prototype, 'ok', Object.getOwnPropertyDescriptor(CatsController.prototype, 'ok'));
        Controller('cats')(CatsController);
        class AppModule {}
        Module({ controllers: [CatsController], providers: ${binding === 'provider' ? '[{ provide: APP_FILTER, useClass: Filter }]' : '[]'} })(AppModule);
        (async () => {
          const port = await new Promise((r) => { const s = require('net').createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => r(p)); }); });
          const app = await NestFactory.create(AppModule, { logger: false });
          ${binding === 'useGlobal' ? 'app.useGlobalFilters(new Filter());' : ''}
          app.connectMicroservice({ transport: Transport.TCP, options: { host: '127.0.0.1', port } }, { inheritAppConfig: true });
          await app.startAllMicroservices();
          await app.listen(0, '127.0.0.1');
          const client = ClientProxyFactory.create({ transport: Transport.TCP, options: { host: '127.0.0.1', port } });
          const answer = await lastValueFrom(client.send('cats.lookup', {})).then((v) => ({ v }), (e) => ({ e }));
          console.log('ANSWER ' + JSON.stringify(answer));
          await new Promise((r) => setTimeout(r, 300));
          const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
          console.log('HTTP ' + (await fetch(url + '/cats/ok')).status);
          client.close();
          await app.close();
        })();
      `);
      expect({file, stderr: run.stderr}).toEqual({file, stderr: ''});
      expect(run.stdout).toContain(
        'ANSWER {"e":{"status":"error","message":"Internal server error"}}',
      );
      expect(run.stdout).toContain('HTTP 200');
      expect(run.status).toBe(0);
    }
  },
);

claim.abuse(
  `${page}#catch-everything`,
  `with the page's catch-all filter as APP_FILTER, a GraphQL resolver's NotFoundException still reaches the client as "no cat" with code "404", not as the filter's own TypeError`,
  async () => {
    const {AllExceptionsFilter} = samples(page, {pick: {'all-exceptions.filter': 1}}).require(
      'all-exceptions.filter',
    );
    const {GraphQLModule, Resolver, Query} = nest('@nestjs/graphql');
    @Resolver()
    class CatsResolver {
      @Query(() => String)
      cat(): string {
        throw new common.NotFoundException('no cat');
      }
    }
    @Module({
      imports: [GraphQLModule.forRoot({autoSchemaFile: true, playground: false})],
      providers: [CatsResolver, {provide: APP_FILTER, useClass: AllExceptionsFilter}],
    })
    class AppModule {}
    const {base} = await start(AppModule);
    const reply = await call(base, 'POST', '/graphql', {body: {query: '{ cat }'}});
    const errors = reply.json().errors.map((e: any) => [e.message, e.extensions.code]);
    expect(errors).toEqual([['no cat', '404']]);
  },
);

for (const platform of platforms) {
  claim.abuse(
    `${page}#catch-everything`,
    `with the page's catch-all filter, a body over the parser's limit keeps its 413 and logs no error, while an SDK error carrying statusCode 403 still answers 500 (${platform})`,
    async () => {
      const {memoryLogger} = await import('../../lib');
      const {AllExceptionsFilter} = samples(page, {pick: {'all-exceptions.filter': 1}}).require(
        'all-exceptions.filter',
      );
      @Controller('cats')
      class CatsController {
        @common.Post()
        create(@common.Body() body: unknown) {
          return body;
        }

        @Get('sdk')
        sdk() {
          throw Object.assign(new Error('AccessDenied: bucket cats-private'), {statusCode: 403});
        }
      }
      @Module({
        controllers: [CatsController],
        providers: [{provide: APP_FILTER, useClass: AllExceptionsFilter}],
      })
      class AppModule {}
      const memory = memoryLogger();
      const {base} = await start(AppModule, {platform, logger: memory.logger});
      // Over Express's 100 kb and Fastify's 1 MiB.
      const body = {name: 'x'.repeat(platform === 'express' ? 110 * 1024 : 1100 * 1024)};
      const big = await call(base, 'POST', '/cats', {body});
      expect(big.status).toBe(413);
      expectOutput(page, 'catch-all-too-large', big.text, [
        [/"timestamp":\s*"[^"]+"/, '"timestamp":"T"'],
      ]);
      expect(memory.lines.filter((line) => line.level === 'error')).toEqual([]);
      const sdk = await call(base, 'GET', '/cats/sdk');
      expect([sdk.status, sdk.json().statusCode]).toEqual([500, 500]);
      expect(memory.lines.filter((line) => line.level === 'error')).toHaveLength(1);
    },
  );
}

import {afterAll, beforeAll, expect} from 'vitest';
import {claim, fragment, compileModule, nest, listen, expectOutput} from '../../lib';
import {catchError, map} from 'rxjs/operators';
import {of} from 'rxjs';

const common = nest('@nestjs/common');
const {
  Module,
  Controller,
  Get,
  Param,
  UseGuards,
  UseInterceptors,
  UsePipes,
  UseFilters,
  Catch,
  HttpException,
  ForbiddenException,
  NotFoundException,
  BadRequestException,
} = common;
const {NestFactory, APP_FILTER} = nest('@nestjs/core');
const page = 'docs/faq/request-lifecycle.md';

const log: string[] = [];

/** Nest skips enhancer classes without a name: give each generated class one. */
function named<T>(target: T, name: string): T {
  Object.defineProperty(target, 'name', {value: name.replace(/[^\w]/g, '_')});
  return target;
}

const guard = (name: string, allow: (req: any) => boolean = () => true) =>
  named(
    class {
      canActivate(context: any) {
        log.push(`guard:${name}`);
        const req = context.switchToHttp().getRequest();
        if (req.headers['x-throw-in'] === `guard:${name}`)
          throw new ForbiddenException(`guard ${name}`);
        return allow(req);
      }
    },
    `Guard_${name}`,
  );
const interceptor = (name: string) =>
  named(
    class {
      intercept(_context: any, next: any) {
        log.push(`interceptor-in:${name}`);
        return next.handle().pipe(
          map((value: unknown) => {
            log.push(`interceptor-out:${name}`);
            return value;
          }),
          catchError((error: Error) => {
            log.push(`interceptor-error:${name}:${error.message}`);
            if (name === 'route' && error.message === 'swallow me') return of('swallowed');
            throw error;
          }),
        );
      }
    },
    `Interceptor_${name}`,
  );
const pipe = (name: string) =>
  named(
    class {
      transform(value: unknown, metadata: any) {
        log.push(`pipe:${name}:${metadata.type}`);
        return value;
      }
    },
    `Pipe_${name}`,
  );
const filter = (name: string, ...types: unknown[]) => {
  const target = class {
    catch(exception: any, host: any) {
      log.push(`filter:${name}`);
      const response = host.switchToHttp().getResponse();
      response.status(exception.getStatus?.() ?? 500).json({filter: name});
    }
  };
  Catch(...types)(target);
  return named(target, `Filter_${name}`);
};

const middleware = (name: string) => (req: any, _res: unknown, next: (e?: unknown) => void) => {
  log.push(`middleware:${name}`);
  if (req.headers['x-throw-in'] === `middleware:${name}`)
    return next(new NotFoundException('from middleware'));
  next();
};

@Controller('lifecycle')
@UseGuards(guard('controller'))
@UseInterceptors(interceptor('controller'))
@UsePipes(pipe('controller'))
@UseFilters(filter('controller', HttpException))
class LifecycleController {
  @Get(':id')
  @UseGuards(guard('route-1'), guard('route-2'))
  @UseInterceptors(interceptor('route'))
  @UsePipes(pipe('route'))
  @UseFilters(filter('route-catch-all'), filter('route-not-found', NotFoundException))
  find(@Param('id', pipe('param')) id: string) {
    log.push('handler');
    if (id === 'missing') throw new NotFoundException();
    if (id === 'bad') throw new BadRequestException();
    if (id === 'swallow') throw new Error('swallow me');
    return {id};
  }
}

@Controller('plain')
class PlainController {
  @Get()
  plain() {
    return 'plain';
  }
}

class DeepModule {
  configure(consumer: any) {
    consumer.apply(middleware('deep')).forRoutes('*');
  }
}
Module({})(DeepModule);
class FeatureModule {
  configure(consumer: any) {
    consumer.apply(middleware('feature')).forRoutes('*');
  }
}
Module({imports: [DeepModule]})(FeatureModule);
class AppModule {
  configure(consumer: any) {
    consumer.apply(middleware('root-1'), middleware('root-2')).forRoutes('*');
    consumer.apply(middleware('root-3')).forRoutes('*');
  }
}
Module({
  imports: [FeatureModule],
  controllers: [LifecycleController, PlainController],
  providers: [{provide: APP_FILTER, useValue: new (filter('app-filter-token', HttpException))()}],
})(AppModule);

let app: any;
let base: string;
beforeAll(async () => {
  app = await NestFactory.create(AppModule, {logger: false, abortOnError: false});
  app.use(middleware('global-1'));
  app.use(middleware('global-2'));
  app.useGlobalGuards(new (guard('global'))());
  app.useGlobalInterceptors(new (interceptor('global'))());
  app.useGlobalPipes(new (pipe('global'))());
  app.useGlobalFilters(
    new (filter('global-1', HttpException))(),
    new (filter('global-2', NotFoundException))(),
  );
  base = await listen(app);
});
afterAll(async () => {
  await app?.close();
});

async function call(path: string, headers: Record<string, string> = {}) {
  log.length = 0;
  const response = await fetch(`${base}${path}`, {headers});
  return {status: response.status, body: await response.text(), log: [...log]};
}

claim(
  `${page}#middleware`,
  'global middleware (app.use order) runs first, then module middleware: left to right in apply(), apply() calls in order, root module before the modules it imports (by distance)',
  async () => {
    const {log: seen} = await call('/plain');
    expect(seen.filter((l) => l.startsWith('middleware'))).toEqual([
      'middleware:global-1',
      'middleware:global-2',
      'middleware:root-1',
      'middleware:root-2',
      'middleware:root-3',
      'middleware:feature',
      'middleware:deep',
    ]);
  },
);

claim(
  `${page}#summary`,
  'a request passes middleware, guards (global, controller, route left to right), interceptors, pipes, the handler, then the interceptors in reverse',
  async () => {
    const {status, log: seen} = await call('/lifecycle/1');
    expect(status).toBe(200);
    expect(seen.filter((l) => !l.startsWith('middleware'))).toEqual([
      'guard:global',
      'guard:controller',
      'guard:route-1',
      'guard:route-2',
      'interceptor-in:global',
      'interceptor-in:controller',
      'interceptor-in:route',
      'pipe:global:param',
      'pipe:controller:param',
      'pipe:route:param',
      'pipe:param:param',
      'handler',
      'interceptor-out:route',
      'interceptor-out:controller',
      'interceptor-out:global',
    ]);
  },
);

claim(
  `${page}#guards`,
  'when a guard throws, the remaining guards and every interceptor are skipped; the error goes to the filters',
  async () => {
    const {status, log: seen} = await call('/lifecycle/1', {'x-throw-in': 'guard:controller'});
    expect(status).toBe(403);
    // The route's filters come first for a guard's exception too.
    expect(seen.filter((l) => !l.startsWith('middleware'))).toEqual([
      'guard:global',
      'guard:controller',
      'filter:route-catch-all',
    ]);
  },
);

claim(
  `${page}#interceptors`,
  'an error thrown by the handler travels back through the interceptors (route first) before a filter sees it; catchError() can swallow it',
  async () => {
    const failed = await call('/lifecycle/bad');
    expect(
      failed.log.filter((l) => l.startsWith('interceptor-error') || l.startsWith('filter')),
    ).toEqual([
      'interceptor-error:route:Bad Request',
      'interceptor-error:controller:Bad Request',
      'interceptor-error:global:Bad Request',
      'filter:route-catch-all',
    ]);
    const swallowed = await call('/lifecycle/swallow');
    expect(swallowed.status).toBe(200);
    expect(swallowed.body).toBe('swallowed');
    expect(swallowed.log.some((l) => l.startsWith('filter'))).toBe(false);
  },
);

claim(
  `${page}#exception-filters`,
  'with @UseFilters(CatchAll, NotFound) on the route, NotFound is tried first; the exception is not passed on to other filters',
  async () => {
    const missing = await call('/lifecycle/missing');
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body)).toEqual({filter: 'route-not-found'});
    expect(missing.log.filter((l) => l.startsWith('filter'))).toEqual(['filter:route-not-found']);
    // A 400 does not match NotFoundFilter: the catch-all bound before it answers, not the controller or global ones.
    const bad = await call('/lifecycle/bad');
    expect(JSON.parse(bad.body)).toEqual({filter: 'route-catch-all'});
  },
);

claim(
  `${page}#exception-filters`,
  'an exception thrown in middleware skips controller and route filters; a global filter handles it, the last registered one (useGlobalFilters() after the APP_FILTER provider) tried first',
  async () => {
    const {
      status,
      body,
      log: seen,
    } = await call('/lifecycle/1', {'x-throw-in': 'middleware:root-1'});
    expect(status).toBe(404);
    // APP_FILTER, then useGlobalFilters(global-1, global-2): tried from the end, global-2 (NotFoundException) matches.
    expect(JSON.parse(body)).toEqual({filter: 'global-2'});
    expect(seen.filter((l) => l.startsWith('filter'))).toEqual(['filter:global-2']);
  },
);

claim(
  `${page}#exception-filters`,
  'a filter provided with APP_FILTER is tried after the useGlobalFilters() ones',
  async () => {
    class TokenModule {}
    Module({
      controllers: [PlainController],
      providers: [{provide: APP_FILTER, useValue: new (filter('token', HttpException))()}],
    })(TokenModule);
    const other = await NestFactory.create(TokenModule, {logger: false, abortOnError: false});
    other.useGlobalFilters(new (filter('main', NotFoundException))());
    const url = await listen(other);
    log.length = 0;
    const response = await fetch(`${url}/nothing-here`);
    expect(await response.json()).toEqual({filter: 'main'});
    await other.close();
  },
);

claim(
  `${page}#pipes`,
  "in the page's replaceCats(), each parameter gets TrimStringsPipe before AuditPipe, query before param before body, and the synchronous pipes of different parameters interleave",
  async () => {
    const fence = fragment(page, 'pipes', 'class OwnersController');
    const order: string[] = [];
    (globalThis as any).__pipeOrder = order;
    const {OwnersController} = compileModule(
      `import { Body, Controller, Param, Put, Query, UsePipes, PipeTransform, ArgumentMetadata } from '@nestjs/common';
class ReplaceCatsDto {}
class TrimStringsPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata) { (globalThis as any).__pipeOrder.push('TrimStringsPipe ' + metadata.type); return value; }
}
class AuditPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata) { (globalThis as any).__pipeOrder.push('AuditPipe ' + metadata.type); return value; }
}
${fence.value}`,
      'lifecycle-pipes',
    );
    @Module({controllers: [OwnersController]})
    class PipesModule {}
    const pipesApp = await NestFactory.create(PipesModule, {logger: false, abortOnError: false});
    const url = await listen(pipesApp);
    const response = await fetch(`${url}/owners/7/cats?dryRun=1`, {
      method: 'PUT',
      headers: {'content-type': 'application/json'},
      body: '[{"name":"Tom"}]',
    });
    expect(await response.json()).toEqual({ownerId: '7', dryRun: '1', cats: [{name: 'Tom'}]});
    expectOutput(page, 'pipe-order', order.join('\n'));
    await pipesApp.close();
  },
);

claim(
  `${page}#middleware`,
  'AppModule imports [BModule, AModule], AModule imports CModule, CModule imports BModule: the middleware runs Root, A, C, B (B, one hop from the root, last)',
  async () => {
    const order: string[] = [];
    const mw = (name: string) => (_req: unknown, _res: unknown, next: () => void) => {
      order.push(`mw:${name}`);
      next();
    };
    class BModule {
      configure(consumer: any) {
        consumer.apply(mw('B')).forRoutes('*');
      }
    }
    Module({})(BModule);
    class CModule {
      configure(consumer: any) {
        consumer.apply(mw('C')).forRoutes('*');
      }
    }
    Module({imports: [BModule]})(CModule);
    class AModule {
      configure(consumer: any) {
        consumer.apply(mw('A')).forRoutes('*');
      }
    }
    Module({imports: [CModule]})(AModule);
    class RootModule {
      configure(consumer: any) {
        consumer.apply(mw('Root')).forRoutes('*');
      }
    }
    Module({imports: [BModule, AModule], controllers: [PlainController]})(RootModule);
    const other = await NestFactory.create(RootModule, {logger: false, abortOnError: false});
    const url = await listen(other);
    await fetch(`${url}/plain`);
    expectOutput(page, 'middleware-distance', order.join('\n'));
    await other.close();
  },
);

claim.failure(
  `${page}#middleware`,
  'module-bound middleware, class or function, whose promise rejects: Nest answers 500; an async function passed to app.use() that rejects ends the process (exit code 1) and the request gets no answer',
  async () => {
    const {Injectable} = common;
    @Injectable()
    class LookupMiddleware {
      async use() {
        await new Promise((r) => setTimeout(r, 5));
        throw new Error('session store unreachable');
      }
    }
    @Controller()
    class TwoRoutesController {
      @Get('with-class')
      withClass() {
        return 'class';
      }
      @Get('with-function')
      withFunction() {
        return 'function';
      }
    }
    class FailingModule {
      configure(consumer: any) {
        consumer.apply(LookupMiddleware).forRoutes('with-class');
        consumer
          .apply(async () => {
            await null;
            throw new Error('session store unreachable');
          })
          .forRoutes('with-function');
      }
    }
    Module({controllers: [TwoRoutesController]})(FailingModule);
    const other = await NestFactory.create(FailingModule, {logger: false, abortOnError: false});
    const url = await listen(other);
    for (const path of ['/with-class', '/with-function']) {
      const response = await fetch(`${url}${path}`);
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({statusCode: 500, message: 'Internal server error'});
    }
    await other.close();
    const {mkdtempSync, rmSync} = await import('node:fs');
    const {tmpdir} = await import('node:os');
    const {join} = await import('node:path');
    const {runScript} = await import('../fundamentals/_support');
    const dir = mkdtempSync(join(tmpdir(), 'behaviour-app-use-'));
    try {
      const result = await runScript(
        dir,
        'app-use.js',
        `
const { Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const http = require('http');
class AppModule {}
Module({})(AppModule);
process.on('exit', (code) => console.log('exit ' + code));
(async () => {
  const app = await NestFactory.create(AppModule, { logger: false });
  app.use(async (req, res, next) => { await null; throw new Error('session store unreachable'); });
  await app.listen(0, '127.0.0.1');
  http.get({ host: '127.0.0.1', port: app.getHttpServer().address().port, path: '/' }, (res) => console.log('answered ' + res.statusCode))
    .on('error', (e) => console.log('request failed: ' + e.message));
})();
`,
      );
      expect(result.code).toBe(1);
      expect(result.stdout).not.toContain('answered');
      expect(result.stderr).toContain('Error: session store unreachable');
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  },
);

claim.failure(
  `${page}#guards`,
  'a guard whose dependency fails (a plain Error) refuses the request with 500, an UnauthorizedException with 401, false with 403; the handler never runs',
  async () => {
    const {UnauthorizedException} = common;
    let handled = 0;
    class SessionGuard {
      canActivate(context: any) {
        const mode = context.switchToHttp().getRequest().headers['x-session'];
        if (mode === 'store-down') throw new Error('ECONNREFUSED session store');
        if (mode === 'expired') throw new UnauthorizedException();
        return mode === 'valid';
      }
    }
    @Controller('session')
    @UseGuards(SessionGuard)
    class SessionController {
      @Get()
      find() {
        handled += 1;
        return 'ok';
      }
    }
    @Module({controllers: [SessionController]})
    class SessionModule {}
    const other = await NestFactory.create(SessionModule, {logger: false, abortOnError: false});
    const url = await listen(other);
    const status = async (session: string) =>
      (await fetch(`${url}/session`, {headers: {'x-session': session}})).status;
    expect([await status('store-down'), await status('expired'), await status('none')]).toEqual([
      500, 401, 403,
    ]);
    expect(handled).toBe(0);
    expect(await status('valid')).toBe(200);
    await other.close();
  },
);

claim.failure(
  `${page}#interceptors`,
  'an interceptor that throws after the handler: the client gets 500 although the record was created, and its retry creates a second one',
  async () => {
    const {Post} = common;
    const records: string[] = [];
    class EnvelopeInterceptor {
      intercept(_context: unknown, next: any) {
        return next.handle().pipe(
          map((value: any) => {
            // a bug after the handler: the value has no 'meta'
            return {data: value, total: value.meta.total};
          }),
        );
      }
    }
    @Controller('adoptions')
    class AdoptionsController {
      @Post()
      @UseInterceptors(EnvelopeInterceptor)
      create() {
        records.push(`adoption-${records.length + 1}`);
        return {id: records.length};
      }
    }
    @Module({controllers: [AdoptionsController]})
    class AdoptionsModule {}
    const other = await NestFactory.create(AdoptionsModule, {logger: false, abortOnError: false});
    const url = await listen(other);
    const first = await fetch(`${url}/adoptions`, {method: 'POST'});
    expect(first.status).toBe(500);
    const retry = await fetch(`${url}/adoptions`, {method: 'POST'});
    expect(retry.status).toBe(500);
    expect(records).toEqual(['adoption-1', 'adoption-2']);
    await other.close();
  },
);

claim(
  `${page}#summary`,
  "the summary's main.ts with the HTTP adapter page's AllExceptionsFilter (given app.get(HttpAdapterHost)) answers an error with the filter's body",
  async () => {
    const filterSource = fragment(
      'docs/faq/http-adapter.md',
      'adapter-pattern',
      'class AllExceptionsFilter',
    ).value;
    const main = fragment(page, 'summary', 'useGlobalFilters').value;
    const {bootstrap} = compileModule(
      `${filterSource}
import { CanActivate, Controller, Get, Injectable, Module, NestInterceptor, ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
const requestLogger = (_req: unknown, _res: unknown, next: () => void) => next();
class ApiKeyGuard implements CanActivate { canActivate() { return true; } }
class TimingInterceptor implements NestInterceptor { intercept(_c: unknown, next: any) { return next.handle(); } }
@Controller('boom')
class BoomController { @Get() boom() { throw new Error('db password=hunter2 rejected'); } }
@Module({ controllers: [BoomController] })
class AppModule {}
${main
  .replace('async function bootstrap() {', 'export async function bootstrap() {')
  .replace(
    'NestFactory.create(AppModule)',
    'NestFactory.create(AppModule, { logger: false, abortOnError: false })',
  )
  .replace('await app.listen(3000);', "await app.listen(0, '127.0.0.1');\n  return app;")
  .replace(/\nbootstrap\(\);\s*$/, '\n')}`,
      'lifecycle-summary',
    );
    const other = await bootstrap();
    const url = (await other.getUrl()).replace('[::1]', '127.0.0.1');
    const response = await fetch(`${url}/boom`);
    expect(response.status).toBe(500);
    const body = await response.json();
    expect(Object.keys(body).sort()).toEqual(['path', 'statusCode', 'timestamp']);
    expect(body.path).toBe('/boom');
    await other.close();
  },
);

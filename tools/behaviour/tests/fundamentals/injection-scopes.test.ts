/// <reference types="reflect-metadata" />
import {expect} from 'vitest';
import {
  applyEdits,
  claim,
  samples,
  fragment,
  compileModule,
  nest,
  listen,
  freePort,
  memoryLogger,
} from '../../lib';
import {captureLog} from './_support';

const {Module, Injectable, Controller, Get, Scope, Inject, UseGuards} = nest('@nestjs/common');
const {NestFactory, REQUEST} = nest('@nestjs/core');
const {FastifyAdapter} = nest('@nestjs/platform-fastify');
const page = 'docs/fundamentals/injection-scopes.md';
const options: any = {logger: process.env.DEBUG_NEST ? ['error'] : false, abortOnError: false};

async function get(base: string, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${path}`, {headers});
  return {status: response.status, text: await response.text()};
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#scope-hierarchy`,
    `CatsController becomes request-scoped through the REQUEST-scoped CatsService: a new controller and service per request (${lang})`,
    async () => {
      const set = samples(page, {under: 'scope-hierarchy', lang});
      const {CatsService} = set.require('cats.service');
      const {CatsController} = set.require('cats.controller');
      let controllers = 0;
      let services = 0;
      class CountingController extends CatsController {
        constructor(...args: any[]) {
          super(...args);
          controllers += 1;
        }
      }
      // Same route metadata and dependencies as the page's controller, counted.
      for (const key of Reflect.getMetadataKeys(CatsController))
        Reflect.defineMetadata(key, Reflect.getMetadata(key, CatsController), CountingController);
      class CountingService extends CatsService {
        constructor() {
          super();
          services += 1;
        }
      }
      for (const key of Reflect.getMetadataKeys(CatsService))
        Reflect.defineMetadata(key, Reflect.getMetadata(key, CatsService), CountingService);
      @Module({
        controllers: [CountingController],
        providers: [{provide: CatsService, useClass: CountingService, scope: Scope.REQUEST}],
      })
      class AppModule {}
      const app = await NestFactory.create(AppModule, options);
      const base = await listen(app);
      expect(controllers).toBe(0);
      for (let i = 0; i < 3; i += 1) {
        const response = await get(base, '/cats/timing');
        expect(response.status).toBe(200);
        expect(Number(response.text)).toBeGreaterThanOrEqual(0);
        expect(Number(response.text)).toBeLessThan(1000);
      }
      expect(controllers).toBe(3);
      expect(services).toBe(3);
      await app.close();
    },
  );
}

claim(
  `${page}#scope-hierarchy`,
  'CatsRepository, injected into the request-scoped CatsService, stays one shared singleton',
  async () => {
    let repositories = 0;
    @Injectable()
    class CatsRepository {
      constructor() {
        repositories += 1;
      }
    }
    @Injectable({scope: Scope.REQUEST})
    class CatsService {
      constructor(readonly repository: CatsRepository) {}
    }
    @Controller('cats')
    class CatsController {
      constructor(readonly service: CatsService) {}
      @Get()
      same() {
        return String(this.service.repository === app.get(CatsRepository));
      }
    }
    @Module({controllers: [CatsController], providers: [CatsService, CatsRepository]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    const base = await listen(app);
    expect((await get(base, '/cats')).text).toBe('true');
    expect((await get(base, '/cats')).text).toBe('true');
    expect(repositories).toBe(1);
    await app.close();
  },
);

claim(
  `${page}#controller-scope`,
  'a controller with scope: Scope.REQUEST is created for each request',
  async () => {
    const fence = fragment(page, 'controller-scope', 'scope: Scope.REQUEST');
    const {CatsController} = compileModule(fence.value, 'cats.controller');
    @Module({controllers: [CatsController]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    const base = await listen(app);
    const first = (await get(base, '/cats')).text;
    await new Promise((r) => setTimeout(r, 5));
    const second = (await get(base, '/cats')).text;
    expect(first).toMatch(/^This controller instance was created at \d{4}-\d\d-\d\dT/);
    expect(second).not.toBe(first);
    await app.close();
  },
);

claim(
  `${page}#scope-hierarchy`,
  'a transient LoggerService gives each singleton consumer its own instance: two loggers, created once at startup',
  async () => {
    const fence = fragment(page, 'scope-hierarchy', 'Scope.TRANSIENT');
    const {LoggerService, DogsService, CatsService} = compileModule(fence.value, 'loggers');
    @Module({providers: [LoggerService, DogsService, CatsService]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    await app.init();
    const dogs = app.get(DogsService);
    const cats = app.get(CatsService);
    expect(dogs.logger).toBeInstanceOf(LoggerService);
    expect(cats.logger).toBeInstanceOf(LoggerService);
    expect(dogs.logger).not.toBe(cats.logger);
    expect(app.get(DogsService)).toBe(dogs);
    const {lines} = await captureLog(() => dogs.logger.log('woof'));
    expect(lines[0]).toMatch(/^\[logger created at \d+\] woof$/);
    await app.close();
  },
);

claim(
  `${page}#scope-hierarchy`,
  'a request-scoped provider cannot be fetched with app.get(); resolve() works',
  async () => {
    const {CatsService} = samples(page, {under: 'usage'}).require('cats.service');
    @Module({providers: [CatsService]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    await app.init();
    expect(() => app.get(CatsService)).toThrow(/is marked as a scoped provider/);
    const resolved = await app.resolve(CatsService);
    expect(resolved.elapsed()).toBeGreaterThanOrEqual(0);
    await app.close();
  },
);

function requestApp(CatsService: any) {
  @Controller('cats')
  class CatsController {
    constructor(@Inject(CatsService) private readonly catsService: any) {}
    @Get('who')
    async who() {
      // Another request may run while this one waits: each must still see its own header.
      await new Promise((r) => setTimeout(r, 30));
      return this.catsService.requestId();
    }
  }
  @Module({controllers: [CatsController], providers: [CatsService]})
  class AppModule {}
  return AppModule;
}

/** Raw HTTP, to send a header twice (an array value is sent as repeated header lines). */
function rawGet(
  base: string,
  path: string,
  headers: Record<string, string | string[]>,
): Promise<{status: number; text: string}> {
  const http = nest('http');
  const url = new URL(path, base);
  return new Promise((done, fail) => {
    const request = http.request(
      {host: url.hostname, port: url.port, path: url.pathname, method: 'GET', headers},
      (response: any) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => done({status: response.statusCode, text}));
      },
    );
    request.on('error', fail);
    request.end();
  });
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#request-provider`,
    `CatsService reads the X-Request-ID header of its own request through REQUEST, "none" without it (${lang})`,
    async () => {
      const {CatsService} = samples(page, {lang, pick: {'cats.service': 2}}).require(
        'cats.service',
      );
      const app = await NestFactory.create(requestApp(CatsService), options);
      const base = await listen(app);
      const [a, b] = await Promise.all([
        get(base, '/cats/who', {'x-request-id': 'req-1'}),
        get(base, '/cats/who'),
      ]);
      expect([a.text, b.text]).toEqual(['req-1', 'none']);
      await app.close();
    },
  );
}

claim.abuse(
  `${page}#request-provider`,
  "two callers at the same time: each request-scoped CatsService sees its own request only, never the other caller's header",
  async () => {
    const {CatsService} = samples(page, {pick: {'cats.service': 2}}).require('cats.service');
    const app = await NestFactory.create(requestApp(CatsService), options);
    const base = await listen(app);
    const ids = Array.from({length: 20}, (_, i) => `caller-${i}`);
    const answers = await Promise.all(
      ids.map((id) => get(base, '/cats/who', {'x-request-id': id})),
    );
    expect(answers.map((answer) => answer.text)).toEqual(ids);
    await app.close();
  },
);

claim.abuse(
  `${page}#request-provider`,
  'a caller-chosen X-Request-ID that is oversized, has spaces or quotes, or is sent twice (joined as "a, b") becomes "none"',
  async () => {
    const {CatsService} = samples(page, {pick: {'cats.service': 2}}).require('cats.service');
    const app = await NestFactory.create(requestApp(CatsService), options);
    const base = await listen(app);
    const answers = await Promise.all([
      get(base, '/cats/who', {'x-request-id': 'a'.repeat(65)}),
      get(base, '/cats/who', {'x-request-id': 'admin" injected="1'}),
      rawGet(base, '/cats/who', {'x-request-id': ['first', 'second']}),
      get(base, '/cats/who', {'x-request-id': 'a'.repeat(64)}),
    ]);
    expect(answers.map((answer) => answer.text)).toEqual(['none', 'none', 'none', 'a'.repeat(64)]);
    await app.close();
  },
);

claim(
  `${page}#request-provider`,
  'with Fastify the same CatsService (typed FastifyRequest) reads the header from the Fastify request',
  async () => {
    const fence = fragment(page, 'request-provider', 'FastifyRequest');
    const {CatsService} = compileModule(fence.value, 'cats.service.fastify');
    let seen: any;
    class Spy extends CatsService {
      requestId() {
        seen = (this as any).request;
        return super.requestId();
      }
    }
    for (const key of Reflect.getMetadataKeys(CatsService))
      Reflect.defineMetadata(key, Reflect.getMetadata(key, CatsService), Spy);
    const app = await NestFactory.create(requestApp(Spy), new FastifyAdapter(), options);
    const base = await listen(app);
    expect((await get(base, '/cats/who', {'x-request-id': 'carol-1'})).text).toBe('carol-1');
    expect((await get(base, '/cats/who', {'x-request-id': 'no good'})).text).toBe('none');
    // The native Fastify request (with .raw), not Node's IncomingMessage.
    expect(seen.raw).toBeDefined();
    await app.close();
  },
);

const tenants: Record<string, string[]> = {acme: ['Tom'], globex: ['Felix', 'Garfield']};

/**
 * The page's TenancyModule with a TenantConnections of the test's (one "pool" per known tenant), a controller
 * that reads through TENANT_CONNECTION, and an authentication stand-in that sets request.user from a token.
 * `factoryRuns` records request.user when the factory runs, `calls` each pool lookup (tenant and request.user).
 * `eager` calls the lookup inside the factory, as a factory that returned the pool itself would.
 */
function tenancyApp(guards: 'none' | 'tenant', eager = false) {
  const fence = fragment(page, 'request-scoped-factory-providers', 'TENANT_CONNECTION');
  const calls: {tenant: string; userAtLookupTime: unknown}[] = [];
  const factoryRuns: unknown[] = [];
  (globalThis as any).__tenancy = {tenants, calls, factoryRuns};
  const {TenancyModule} = compileModule(
    applyEdits('tenancy.module', fence.value, [
      [
        "import { TenantConnections } from './tenant-connections';",
        `import { Injectable } from '@nestjs/common';
@Injectable()
export class TenantConnections {
  has(tenant: string) { return Object.prototype.hasOwnProperty.call((globalThis as any).__tenancy.tenants, tenant); }
  forTenant(tenant: string) { return { tenant, cats: (globalThis as any).__tenancy.tenants[tenant] }; }
}`,
      ],
      [
        'useFactory: (request: Request, connections: TenantConnections) => () => {',
        'useFactory: (request: Request, connections: TenantConnections) => ((globalThis as any).__tenancy.factoryRuns.push((request as any).user), () => {',
      ],
      [
        '      },\n      inject: [REQUEST, TenantConnections],',
        `      })${eager ? '()' : ''},\n      inject: [REQUEST, TenantConnections],`,
      ],
      [
        'return connections.forTenant(tenantId);',
        '(globalThis as any).__tenancy.calls.push({ tenant: tenantId, userAtLookupTime: (request as any).user?.name }); return connections.forTenant(tenantId);',
      ],
    ]),
    'tenancy.module',
  );
  const {TenantGuard} = compileModule(
    fragment(page, 'request-scoped-factory-providers', 'class TenantGuard').value,
    'tenant.guard',
  );
  const users: Record<string, {name: string; tenantId: string}> = {
    'token-alice': {name: 'alice', tenantId: 'acme'},
    'token-bob': {name: 'bob', tenantId: 'globex'},
  };
  @Injectable()
  class AuthenticationGuard {
    canActivate(context: any) {
      const request = context.switchToHttp().getRequest();
      request.user = users[String(request.headers.authorization).replace('Bearer ', '')];
      return !!request.user;
    }
  }
  @Controller('cats')
  @UseGuards(...(guards === 'tenant' ? [AuthenticationGuard, TenantGuard] : [AuthenticationGuard]))
  class CatsController {
    constructor(@Inject('TENANT_CONNECTION') private readonly tenantConnection: any) {}
    @Get()
    async findAll() {
      await new Promise((r) => setTimeout(r, 30));
      return eager ? this.tenantConnection : this.tenantConnection();
    }
  }
  @Module({imports: [TenancyModule], controllers: [CatsController]})
  class AppModule {}
  return {AppModule, calls, factoryRuns};
}

claim(
  `${page}#request-scoped-factory-providers`,
  "the REQUEST-scoped TENANT_CONNECTION factory runs once per request, before the guards (request.user is not set yet); the lookup it returns runs in the handler, after them, with that request's X-Tenant-ID",
  async () => {
    const {AppModule, calls, factoryRuns} = tenancyApp('tenant');
    const app = await NestFactory.create(AppModule, options);
    const base = await listen(app);
    const answer = await get(base, '/cats', {
      authorization: 'Bearer token-alice',
      'x-tenant-id': 'acme',
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({tenant: 'acme', cats: ['Tom']});
    expect(factoryRuns).toEqual([undefined]);
    expect(calls).toEqual([{tenant: 'acme', userAtLookupTime: 'alice'}]);
    await app.close();
  },
);

claim.abuse(
  `${page}#request-scoped-factory-providers`,
  'no X-Tenant-ID, an unknown tenant, or the header sent twice: TenantGuard refuses alice (403); without it the lookup answers 400 "Unknown or missing X-Tenant-ID header", never a default tenant',
  async () => {
    const guarded = tenancyApp('tenant');
    const refusing = await NestFactory.create(guarded.AppModule, options);
    const refusingBase = await listen(refusing);
    const alice = {authorization: 'Bearer token-alice'};
    for (const headers of [alice, {...alice, 'x-tenant-id': 'default'}]) {
      expect((await get(refusingBase, '/cats', headers)).status).toBe(403);
    }
    expect(guarded.calls).toEqual([]);
    await refusing.close();
    const {AppModule, calls} = tenancyApp('none');
    const app = await NestFactory.create(AppModule, options);
    const base = await listen(app);
    const auth = {authorization: 'Bearer token-alice'};
    const answers = await Promise.all([
      get(base, '/cats', auth),
      get(base, '/cats', {...auth, 'x-tenant-id': 'default'}),
      get(base, '/cats', {...auth, 'x-tenant-id': 'constructor'}),
      rawGet(base, '/cats', {
        authorization: 'Bearer token-alice',
        'x-tenant-id': ['acme', 'globex'],
      }),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.text)).toEqual({
        statusCode: 400,
        message: 'Unknown or missing X-Tenant-ID header',
        error: 'Bad Request',
      });
    }
    expect(calls).toEqual([]);
    await app.close();
  },
);

claim.abuse(
  `${page}#request-scoped-factory-providers`,
  "alice (tenant acme) sending X-Tenant-ID: globex reads Globex's data with the factory alone, and gets 403 once TenantGuard runs after authentication",
  async () => {
    const forged = {authorization: 'Bearer token-alice', 'x-tenant-id': 'globex'};
    const open = tenancyApp('none');
    const unguarded = await NestFactory.create(open.AppModule, options);
    const leaked = await get(await listen(unguarded), '/cats', forged);
    expect(JSON.parse(leaked.text)).toEqual({tenant: 'globex', cats: ['Felix', 'Garfield']});
    await unguarded.close();
    const guarded = tenancyApp('tenant');
    const app = await NestFactory.create(guarded.AppModule, options);
    const base = await listen(app);
    const refused = await get(base, '/cats', forged);
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.text)).toEqual({
      statusCode: 403,
      message: 'Forbidden resource',
      error: 'Forbidden',
    });
    // No token at all: the authentication guard refuses before TenantGuard.
    expect((await get(base, '/cats', {'x-tenant-id': 'acme'})).status).toBe(403);
    expect(guarded.calls).toEqual([]);
    await app.close();
  },
);

claim.abuse(
  `${page}#request-scoped-factory-providers`,
  "an anonymous caller gets the authentication guard's answer (403 here) whether X-Tenant-ID names a real tenant, an unknown one or none, so it learns no tenant names; no tenant's pool is looked up for it (a factory that looked the tenant up itself answered 403, 400, 400 and looked up acme's pool)",
  async () => {
    const {AppModule, calls, factoryRuns} = tenancyApp('tenant');
    const app = await NestFactory.create(AppModule, options);
    const base = await listen(app);
    const answers = [
      await get(base, '/cats', {'x-tenant-id': 'acme'}),
      await get(base, '/cats', {'x-tenant-id': 'initech'}),
      await get(base, '/cats'),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([403, 403, 403]);
    expect(new Set(answers.map((answer) => answer.text)).size).toBe(1);
    // The factory ran for each of them (it always does), but handed out nothing.
    expect(factoryRuns).toHaveLength(3);
    expect(calls).toEqual([]);
    await app.close();
    // A factory that looks the tenant up itself answers before authentication has a say.
    const eager = tenancyApp('tenant', true);
    const eagerApp = await NestFactory.create(eager.AppModule, options);
    const eagerBase = await listen(eagerApp);
    const eagerAnswers = [
      await get(eagerBase, '/cats', {'x-tenant-id': 'acme'}),
      await get(eagerBase, '/cats', {'x-tenant-id': 'initech'}),
      await get(eagerBase, '/cats'),
    ];
    expect(eagerAnswers.map((answer) => answer.status)).toEqual([403, 400, 400]);
    expect(eager.calls).toEqual([{tenant: 'acme', userAtLookupTime: undefined}]);
    await eagerApp.close();
  },
);

claim.abuse(
  `${page}#request-scoped-factory-providers`,
  "alice (acme) and bob (globex) at the same time, 10 requests each: every response carries the caller's own tenant",
  async () => {
    const {AppModule} = tenancyApp('tenant');
    const app = await NestFactory.create(AppModule, options);
    const base = await listen(app);
    const callers = Array.from({length: 20}, (_, i) =>
      i % 2 ? {token: 'token-bob', tenant: 'globex'} : {token: 'token-alice', tenant: 'acme'},
    );
    const answers = await Promise.all(
      callers.map((c) =>
        get(base, '/cats', {authorization: `Bearer ${c.token}`, 'x-tenant-id': c.tenant}),
      ),
    );
    expect(answers.map((a) => JSON.parse(a.text).tenant)).toEqual(callers.map((c) => c.tenant));
    await app.close();
  },
);

claim(
  `${page}#request-scoped-factory-providers`,
  "the factory works unchanged on Fastify (it reads request.headers; Express's request.header() is not a function there)",
  async () => {
    const {AppModule} = tenancyApp('tenant');
    const app = await NestFactory.create(AppModule, new FastifyAdapter(), options);
    const base = await listen(app);
    const answer = await get(base, '/cats', {
      authorization: 'Bearer token-bob',
      'x-tenant-id': 'globex',
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text).tenant).toBe('globex');
    expect((await get(base, '/cats', {authorization: 'Bearer token-bob'})).status).toBe(403);
    await app.close();
  },
);

claim(
  `${page}#graphql-context`,
  "CONTEXT (@nestjs/graphql), CONTEXT (@nestjs/microservices) and REQUEST are the same string token 'REQUEST'",
  () => {
    expect(REQUEST).toBe('REQUEST');
    expect(nest('@nestjs/graphql').CONTEXT).toBe('REQUEST');
    expect(nest('@nestjs/microservices').CONTEXT).toBe('REQUEST');
  },
);

claim(
  `${page}#microservices`,
  'a request-scoped AuditService gets a RequestContext whose getPattern() is the message pattern (TCP)',
  async () => {
    const {Transport, ClientProxyFactory, MessagePattern} = nest('@nestjs/microservices');
    const {AuditService} = samples(page, {under: 'microservices'}).require('audit.service');
    const port = await freePort();
    @Controller()
    class MathController {
      constructor(@Inject(AuditService) private readonly audit: any) {}
      @MessagePattern({cmd: 'sum'})
      sum() {
        return this.audit.describe();
      }
    }
    @Module({controllers: [MathController], providers: [AuditService]})
    class AppModule {}
    const app = await NestFactory.createMicroservice(AppModule, {
      transport: Transport.TCP,
      options: {host: '127.0.0.1', port},
      ...options,
    });
    await app.listen();
    const client = ClientProxyFactory.create({
      transport: Transport.TCP,
      options: {host: '127.0.0.1', port},
    });
    const {firstValueFrom} = await import('rxjs');
    expect(await firstValueFrom(client.send({cmd: 'sum'}, [1, 2]))).toBe('handling {"cmd":"sum"}');
    client.close();
    await app.close();
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#inquirer-provider`,
    `TaggedLogger injected into CatsService prints "[CatsService] cat created" (${lang})`,
    async () => {
      const {TaggedLogger} = samples(page, {under: 'inquirer-provider', lang}).require(
        'tagged-logger.service',
      );
      @Injectable()
      class CatsService {
        constructor(@Inject(TaggedLogger) readonly logger: any) {}
      }
      @Injectable()
      class DogsService {
        constructor(@Inject(TaggedLogger) readonly logger: any) {}
      }
      @Module({providers: [TaggedLogger, CatsService, DogsService]})
      class AppModule {}
      const app = await NestFactory.create(AppModule, options);
      await app.init();
      const {lines} = await captureLog(() => {
        app.get(CatsService).logger.log('cat created');
        app.get(DogsService).logger.log('dog created');
      });
      expect(lines).toEqual(['[CatsService] cat created', '[DogsService] dog created']);
      await app.close();
    },
  );
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#performance`,
    `the singleton CatsService receives the checked X-Request-ID from the singleton CatsController as an argument and logs it; a malformed one becomes "none" (${lang})`,
    async () => {
      const set = samples(page, {under: 'performance', lang});
      const {CatsService} = set.require('cats.service');
      const {CatsController} = set.require('cats.controller');
      @Module({controllers: [CatsController], providers: [CatsService]})
      class AppModule {}
      const logs = memoryLogger();
      const app = await NestFactory.create(AppModule, {logger: logs.logger, abortOnError: false});
      const base = await listen(app);
      app.get(CatsService).cats.push({name: 'Tom', age: 3, breed: 'Tabby'});
      expect(JSON.parse((await get(base, '/cats', {'x-request-id': 'req-7'})).text)).toEqual([
        {name: 'Tom', age: 3, breed: 'Tabby'},
      ]);
      await get(base, '/cats', {'x-request-id': 'two words'});
      await get(base, '/cats');
      expect(
        logs.lines.filter((line) => line.context === 'CatsService').map((line) => line.message),
      ).toEqual(['[req-7] listing 1 cat(s)', '[none] listing 1 cat(s)', '[none] listing 1 cat(s)']);
      // Both stay singletons: app.get() works for them.
      expect(app.get(CatsController)).toBeInstanceOf(CatsController);
      await app.close();
    },
  );
}

claim(
  `${page}#performance`,
  'transient instances created at startup for singletons get onModuleInit(); request-scoped ones do not',
  async () => {
    const log: string[] = [];
    @Injectable({scope: Scope.TRANSIENT})
    class Helper {
      onModuleInit() {
        log.push('transient');
      }
    }
    @Injectable({scope: Scope.REQUEST})
    class PerRequest {
      onModuleInit() {
        log.push('request');
      }
    }
    @Injectable()
    class Consumer {
      constructor(readonly helper: Helper) {}
    }
    @Controller()
    class HelloController {
      constructor(readonly perRequest: PerRequest) {}
      @Get()
      hello() {
        return 'ok';
      }
    }
    @Module({controllers: [HelloController], providers: [Helper, PerRequest, Consumer]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    const base = await listen(app);
    await get(base, '/');
    expect(log).toEqual(['transient']);
    await app.close();
  },
);

async function graphqlApp(CatsService: any, context?: (arg: any) => unknown, guards: any[] = []) {
  const {GraphQLModule, Resolver, Query} = nest('@nestjs/graphql');
  @Resolver()
  @UseGuards(...guards)
  class CatsResolver {
    constructor(@Inject(CatsService) private readonly cats: any) {}
    @Query('agent')
    agent() {
      return this.cats.userAgent();
    }
    @Query('tenant')
    tenant() {
      return this.cats.context.tenantId ?? null;
    }
  }
  @Module({
    imports: [
      GraphQLModule.forRoot({
        typeDefs: 'type Query { agent: String, tenant: String }',
        ...(context ? {context} : {}),
      }),
    ],
    providers: [CatsService, CatsResolver],
  })
  class AppModule {}
  const app = await NestFactory.create(AppModule, options);
  const base = await listen(app);
  const query = async (q: string, headers: Record<string, string>) =>
    (
      await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: {'content-type': 'application/json', ...headers},
        body: JSON.stringify({query: q}),
      })
    ).json();
  return {app, query};
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#graphql-context`,
    `a request-scoped CatsService injecting CONTEXT reads the request's user agent from context.req, with no context option (${lang})`,
    async () => {
      const {CatsService} = samples(page, {lang, pick: {'cats.service': 3}}).require(
        'cats.service',
      );
      const {app, query} = await graphqlApp(CatsService);
      expect(await query('{ agent }', {'user-agent': 'cat-client/1.0'})).toEqual({
        data: {agent: 'cat-client/1.0'},
      });
      expect(await query('{ agent }', {'user-agent': 'dog-client/2.0'})).toEqual({
        data: {agent: 'dog-client/2.0'},
      });
      await app.close();
    },
  );
}

claim(
  `${page}#graphql-context`,
  "with the page's context function, the returned tenantId and the added req are both on the context",
  async () => {
    const {CatsService} = samples(page, {pick: {'cats.service': 3}}).require('cats.service');
    const fence = fragment(page, 'graphql-context', 'x-tenant-id');
    const context = new Function(
      `return ${/context: (\(\{ req \}\) => \(\{[^\n]*\}\)),/.exec(fence.value)![1]};`,
    )();
    const {app, query} = await graphqlApp(CatsService, context);
    expect(
      await query('{ agent tenant }', {'user-agent': 'cat-client/1.0', 'x-tenant-id': 'acme'}),
    ).toEqual({data: {agent: 'cat-client/1.0', tenant: 'acme'}});
    await app.close();
  },
);

claim.abuse(
  `${page}#graphql-context`,
  "alice (tenant acme) sending X-Tenant-ID: globex: the page's context function hands the resolver tenantId 'globex'; behind an authentication guard, the page's GqlTenantGuard answers her \"Forbidden resource\", for no header too, and serves her own tenant",
  async () => {
    const {GqlExecutionContext} = nest('@nestjs/graphql');
    const {CatsService} = samples(page, {pick: {'cats.service': 3}}).require('cats.service');
    const fence = fragment(page, 'graphql-context', 'x-tenant-id');
    const context = new Function(
      `return ${/context: (\(\{ req \}\) => \(\{[^\n]*\}\)),/.exec(fence.value)![1]};`,
    )();
    const {GqlTenantGuard} = compileModule(
      fragment(page, 'graphql-context', 'class GqlTenantGuard').value,
      'gql-tenant.guard',
    );
    @Injectable()
    class GqlAuthenticationGuard {
      canActivate(executionContext: any) {
        const {req} = GqlExecutionContext.create(executionContext).getContext();
        if (req.headers.authorization === 'Bearer token-alice') {
          req.user = {name: 'alice', tenantId: 'acme'};
        }
        return !!req.user;
      }
    }
    const alice = {authorization: 'Bearer token-alice'};
    const open = await graphqlApp(CatsService, context, [GqlAuthenticationGuard]);
    expect(await open.query('{ tenant }', {...alice, 'x-tenant-id': 'globex'})).toEqual({
      data: {tenant: 'globex'},
    });
    await open.app.close();
    const {app, query} = await graphqlApp(CatsService, context, [
      GqlAuthenticationGuard,
      GqlTenantGuard,
    ]);
    for (const headers of [{...alice, 'x-tenant-id': 'globex'}, alice]) {
      const answer = await query('{ tenant }', headers);
      expect(answer.data).toEqual({tenant: null});
      expect(answer.errors.map((error: any) => error.message)).toEqual(['Forbidden resource']);
    }
    expect(await query('{ tenant }', {...alice, 'x-tenant-id': 'acme'})).toEqual({
      data: {tenant: 'acme'},
    });
    await app.close();
  },
);

claim(
  `${page}#usage`,
  'a gateway that depends on a request-scoped provider still answers events, but from an instance whose constructor never ran (the dependency is undefined)',
  async () => {
    const {WebSocketGateway, SubscribeMessage} = nest('@nestjs/websockets');
    const {io} = require('socket.io-client');
    let constructed = 0;
    @Injectable({scope: Scope.REQUEST})
    class CatsService {
      name() {
        return 'Tom';
      }
    }
    @WebSocketGateway()
    class CatsGateway {
      constructor(@Inject(CatsService) readonly cats: any) {
        constructed += 1;
      }
      @SubscribeMessage('cat')
      cat() {
        return this.cats === undefined ? 'no CatsService' : this.cats.name();
      }
    }
    @Module({providers: [CatsService, CatsGateway]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    const base = await listen(app);
    const client = io(base, {transports: ['websocket'], forceNew: true});
    const answer = await new Promise((done) => client.emit('cat', {}, done));
    expect(answer).toBe('no CatsService');
    expect(constructed).toBe(0);
    client.close();
    await app.close();
  },
);

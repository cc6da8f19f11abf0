/// <reference types="reflect-metadata" />
import {firstValueFrom} from 'rxjs';
import {afterAll, expect} from 'vitest';
import {claim, samples, nest, listen, freePort, expectOutput} from '../../lib';
import {captureLog} from './_support';

const {
  Module,
  Controller,
  Get,
  Post,
  UseGuards,
  UseFilters,
  SetMetadata,
  HttpException,
  BadRequestException,
  createParamDecorator,
  Injectable,
  Inject,
} = nest('@nestjs/common');
const {NestFactory, Reflector} = nest('@nestjs/core');
const {Transport, ClientProxyFactory, MessagePattern, TcpContext} = nest('@nestjs/microservices');
const {WebSocketGateway, SubscribeMessage} = nest('@nestjs/websockets');
const {io} = require('socket.io-client');
const page = 'docs/fundamentals/execution-context.md';
const options: any = {logger: false, abortOnError: false};

function socket(url: string) {
  const client = io(url, {transports: ['websocket'], forceNew: true});
  return new Promise<any>((done, fail) => {
    client.once('connect', () => done(client));
    client.once('connect_error', fail);
  });
}

claim(
  `${page}#current-application-context`,
  "getType() is 'http' for a route, 'rpc' for a message handler and 'ws' for a gateway event; switchTo*() give the request, data, client and context",
  async () => {
    const seen: Record<string, unknown> = {};
    @Injectable()
    class SpyGuard {
      canActivate(context: any) {
        const type = context.getType();
        if (type === 'http') {
          const [req, res, next] = context.getArgs();
          const http = context.switchToHttp();
          seen.http = {
            args:
              req === http.getRequest() &&
              res === http.getResponse() &&
              next === http.getNext() &&
              context.getArgByIndex(0) === req,
            url: http.getRequest().url,
            hasNext: typeof next === 'function',
          };
        } else if (type === 'rpc') {
          const rpc = context.switchToRpc();
          seen.rpc = {data: rpc.getData(), tcp: rpc.getContext() instanceof TcpContext};
        } else if (type === 'ws') {
          const ws = context.switchToWs();
          seen.ws = {data: ws.getData(), client: typeof ws.getClient().emit};
        }
        return true;
      }
    }
    @Controller('cats')
    @UseGuards(SpyGuard)
    class CatsController {
      @Get()
      findAll() {
        return 'ok';
      }
      @MessagePattern('cats.count')
      count() {
        return 3;
      }
    }
    @WebSocketGateway()
    @UseGuards(SpyGuard)
    class CatsGateway {
      @SubscribeMessage('cats')
      cats() {
        return 'ok';
      }
    }
    @Module({controllers: [CatsController], providers: [CatsGateway]})
    class AppModule {}
    const port = await freePort();
    const app = await NestFactory.create(AppModule, options);
    app.connectMicroservice({transport: Transport.TCP, options: {host: '127.0.0.1', port}});
    await app.startAllMicroservices();
    const base = await listen(app);
    await fetch(`${base}/cats?x=1`);
    const client = ClientProxyFactory.create({
      transport: Transport.TCP,
      options: {host: '127.0.0.1', port},
    });
    expect(await firstValueFrom(client.send('cats.count', {n: 1}))).toBe(3);
    const ws = await socket(base);
    await new Promise((done) => ws.emit('cats', {name: 'Tom'}, done));
    expect(seen).toEqual({
      http: {args: true, url: '/cats?x=1', hasNext: true},
      rpc: {data: {n: 1}, tcp: true},
      ws: {data: {name: 'Tom'}, client: 'function'},
    });
    ws.close();
    client.close();
    await app.close();
  },
);

function filterApp(AllContextsFilter: any, bind: 'each' | 'global' | 'none') {
  @Controller('cats')
  class CatsController {
    @Get()
    fail() {
      throw new BadRequestException('bad cat');
    }
    @MessagePattern('cats.fail')
    failRpc() {
      throw new BadRequestException('bad message');
    }
  }
  @WebSocketGateway()
  class CatsGateway {
    @SubscribeMessage('fail')
    fail() {
      throw new BadRequestException('bad event');
    }
  }
  if (bind === 'each') {
    UseFilters(AllContextsFilter)(CatsController);
    UseFilters(AllContextsFilter)(CatsGateway);
  }
  @Module({controllers: [CatsController], providers: [CatsGateway]})
  class AppModule {}
  return AppModule;
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#host-handler-arguments`,
    `AllContextsFilter answers HTTP with the status and JSON, emits "exception" to a socket, and returns an error to an RPC caller (${lang})`,
    async () => {
      const {AllContextsFilter} = samples(page, {under: 'host-handler-arguments', lang}).require(
        'all-contexts.filter',
      );
      const port = await freePort();
      const app = await NestFactory.create(filterApp(AllContextsFilter, 'each'), options);
      app.connectMicroservice({transport: Transport.TCP, options: {host: '127.0.0.1', port}});
      await app.startAllMicroservices();
      const base = await listen(app);
      const response = await fetch(`${base}/cats`);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({status: 400, message: 'bad cat'});
      const client = ClientProxyFactory.create({
        transport: Transport.TCP,
        options: {host: '127.0.0.1', port},
      });
      const error = await firstValueFrom(client.send('cats.fail', {})).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toEqual({status: 400, message: 'bad message'});
      const ws = await socket(base);
      const received = new Promise((done) => ws.once('exception', done));
      ws.emit('fail', {});
      expect(await received).toEqual({status: 400, message: 'bad event'});
      ws.close();
      client.close();
      await app.close();
    },
  );
}

claim(
  `${page}#host-handler-arguments`,
  'a filter passed to useGlobalFilters() covers HTTP routes but not gateways (Nest 8): the socket gets Nest\'s own "exception" payload',
  async () => {
    const {AllContextsFilter} = samples(page, {under: 'host-handler-arguments'}).require(
      'all-contexts.filter',
    );
    const app = await NestFactory.create(filterApp(AllContextsFilter, 'global'), options);
    app.useGlobalFilters(new AllContextsFilter());
    const base = await listen(app);
    expect(await (await fetch(`${base}/cats`)).json()).toEqual({status: 400, message: 'bad cat'});
    const ws = await socket(base);
    const received = new Promise((done) => ws.once('exception', done));
    ws.emit('fail', {});
    expect(await received).toEqual({status: 'error', message: 'Internal server error'});
    ws.close();
    await app.close();
  },
);

claim(
  `${page}#host-handler-arguments`,
  "a global filter covers a hybrid app's message handlers only with inheritAppConfig: true",
  async () => {
    const {AllContextsFilter} = samples(page, {under: 'host-handler-arguments'}).require(
      'all-contexts.filter',
    );
    for (const inheritAppConfig of [false, true]) {
      const port = await freePort();
      const app = await NestFactory.create(filterApp(AllContextsFilter, 'global'), options);
      app.useGlobalFilters(new AllContextsFilter());
      app.connectMicroservice(
        {transport: Transport.TCP, options: {host: '127.0.0.1', port}},
        {inheritAppConfig},
      );
      await app.startAllMicroservices();
      await app.init();
      const client = ClientProxyFactory.create({
        transport: Transport.TCP,
        options: {host: '127.0.0.1', port},
      });
      const error = await firstValueFrom(client.send('cats.fail', {})).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toEqual(
        inheritAppConfig
          ? {status: 400, message: 'bad message'}
          : {status: 'error', message: 'Internal server error'},
      );
      client.close();
      await app.close();
    }
  },
);

claim(
  `${page}#executioncontext-class`,
  'for POST routed to CatsController.create(), getHandler().name is "create" and getClass() is the class; TimingInterceptor logs "CatsController.create took ...ms"',
  async () => {
    const {TimingInterceptor} = samples(page, {under: 'executioncontext-class'}).require(
      'timing.interceptor',
    );
    const {UseInterceptors} = nest('@nestjs/common');
    let target: unknown;
    @Controller('cats')
    @UseInterceptors(TimingInterceptor)
    class CatsController {
      @Post()
      create() {
        return 'created';
      }
    }
    @Injectable()
    class ClassGuard {
      canActivate(context: any) {
        target = context.getClass();
        return true;
      }
    }
    UseGuards(ClassGuard)(CatsController);
    @Module({controllers: [CatsController]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    const base = await listen(app);
    const {lines} = await captureLog(async () =>
      (await fetch(`${base}/cats`, {method: 'POST'})).text(),
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^CatsController\.create took \d+ms$/);
    expect(target).toBe(CatsController);
    await app.close();
  },
);

claim(
  `${page}#where-each-class-shows-up`,
  'a createParamDecorator() factory receives an ExecutionContext (with getHandler()) as its second argument',
  async () => {
    const HandlerName = createParamDecorator(
      (_data: unknown, context: any) => `${context.getType()}:${context.getHandler().name}`,
    );
    @Controller()
    class NameController {
      @Get()
      show(@HandlerName() name: string) {
        return name;
      }
    }
    @Module({controllers: [NameController]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    const base = await listen(app);
    expect(await (await fetch(base)).text()).toBe('http:show');
    await app.close();
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#reflection-and-metadata`,
    `RolesGuard with @Roles('admin') on create(): admins pass, other users get 403, routes without @Roles() are open (${lang})`,
    async () => {
      const set = samples(page, {
        lang,
        pick: {'cats.controller': 2, 'roles.guard': 1},
        files: {
          'cats.service':
            lang === 'ts'
              ? `export class CatsService { create(cat: unknown) {} }`
              : `export class CatsService { create(cat) {} }`,
          'dto/create-cat.dto': `export class CreateCatDto {}`,
        },
      });
      const {CatsController} = set.require('cats.controller');
      const {CatsService} = set.require('cats.service');
      const {RolesGuard} = set.require('roles.guard');
      UseGuards(RolesGuard)(CatsController);
      class OpenController {
        @Get('open')
        open() {
          return 'open';
        }
      }
      Controller('cats')(OpenController);
      UseGuards(RolesGuard)(OpenController);
      @Module({controllers: [CatsController, OpenController], providers: [CatsService]})
      class AppModule {}
      const app = await NestFactory.create(AppModule, options);
      app.use((req: any, _res: unknown, next: () => void) => {
        const roles = req.headers['x-roles'];
        if (roles !== undefined) req.user = {roles: roles ? roles.split(',') : []};
        next();
      });
      const base = await listen(app);
      const post = (roles?: string) =>
        fetch(`${base}/cats`, {
          method: 'POST',
          headers: roles === undefined ? {} : {'x-roles': roles},
        });
      expect((await post('admin')).status).toBe(201);
      expect((await post('user')).status).toBe(403);
      expect((await post()).status).toBe(403);
      expect(await (await fetch(`${base}/cats/open`)).text()).toBe('open');
      await app.close();
    },
  );
}

claim(
  `${page}#class-level-metadata`,
  '@Roles() on the class is read with reflector.get(ROLES_KEY, context.getClass()), not from the handler',
  () => {
    const set = samples(page, {
      under: 'class-level-metadata',
      files: {'cats.service': 'export class CatsService { findAll() { return []; } }'},
    });
    const {CatsController} = set.require('cats.controller');
    const {ROLES_KEY} = set.require('roles.decorator');
    const reflector = new Reflector();
    expect(reflector.get(ROLES_KEY, CatsController)).toEqual(['admin']);
    expect(reflector.get(ROLES_KEY, CatsController.prototype.findAll)).toBeUndefined();
  },
);

/**
 * The page's RolesGuard (both halves) on the page's class-level controller (at /cats) and on its combined
 * controller (moved to /dogs), each bound with @UseGuards() as the page binds it. An x-user header stands in
 * for authentication: its JSON becomes request.user.
 */
async function rolesOnClassApp(lang: 'ts' | 'js', guard?: unknown) {
  const {RolesGuard} = samples(page, {lang, pick: {'roles.guard': 1}, files: {}}).require(
    'roles.guard',
  );
  const service = (body: string) => ({
    'cats.service': `export class CatsService { ${body} }`,
  });
  const classLevel = samples(page, {
    lang,
    under: 'class-level-metadata',
    files: service('findAll() { return ["Tom"]; }'),
  });
  const combined = samples(page, {
    lang,
    under: 'combining-handler-and-class-metadata',
    edit: {'cats.controller': [["@Controller('cats')", "@Controller('dogs')"]]},
    files: service(
      lang === 'ts'
        ? 'findAll() { return ["Rex"]; } remove(id: string) { return `removed ${id}`; }'
        : 'findAll() { return ["Rex"]; } remove(id) { return `removed ${id}`; }',
    ),
  });
  const {CatsController} = classLevel.require('cats.controller');
  const {CatsService} = classLevel.require('cats.service');
  const {CatsController: DogsController} = combined.require('cats.controller');
  const {CatsService: DogsService} = combined.require('cats.service');
  UseGuards(guard ?? RolesGuard)(CatsController);
  UseGuards(guard ?? RolesGuard)(DogsController);
  @Module({
    controllers: [CatsController, DogsController],
    providers: [CatsService, {provide: DogsService, useClass: DogsService}],
  })
  class AppModule {}
  const app = await NestFactory.create(AppModule, options);
  app.use((req: any, _res: unknown, next: () => void) => {
    const user = req.headers['x-user'];
    if (user !== undefined) req.user = JSON.parse(user);
    next();
  });
  const base = await listen(app);
  const call = async (method: string, path: string, user?: unknown) =>
    (
      await fetch(`${base}${path}`, {
        method,
        headers: user === undefined ? {} : {'x-user': JSON.stringify(user)},
      })
    ).status;
  return {app, call};
}

/** One app per half for the three claims below, started by the first of them and closed after the file. */
const pageGuardApps = new Map<'ts' | 'js', ReturnType<typeof rolesOnClassApp>>();
function pageGuardApp(lang: 'ts' | 'js') {
  if (!pageGuardApps.has(lang)) pageGuardApps.set(lang, rolesOnClassApp(lang));
  return pageGuardApps.get(lang)!;
}
afterAll(async () => {
  for (const started of pageGuardApps.values()) await (await started).app.close();
});

for (const lang of ['ts', 'js'] as const) {
  claim.abuse(
    `${page}#class-level-metadata`,
    `@Roles('admin') on the controller class only: the page's RolesGuard refuses anonymous callers and users (403) on findAll(), which has no @Roles() of its own, and lets admins in (${lang})`,
    async () => {
      const {call} = await pageGuardApp(lang);
      expect(await call('GET', '/cats')).toBe(403);
      expect(await call('GET', '/cats', {roles: ['user']})).toBe(403);
      expect(await call('GET', '/cats', {roles: ['admin']})).toBe(200);
    },
  );

  claim.abuse(
    `${page}#combining-handler-and-class-metadata`,
    `@Roles('user') on the class and @Roles('admin') on remove(): with the page's RolesGuard users list but cannot delete (403), admins delete, anonymous callers get 403 on both (${lang})`,
    async () => {
      const {call} = await pageGuardApp(lang);
      expect(await call('GET', '/dogs')).toBe(403);
      expect(await call('GET', '/dogs', {roles: ['user']})).toBe(200);
      expect(await call('DELETE', '/dogs/1')).toBe(403);
      expect(await call('DELETE', '/dogs/1', {roles: ['user']})).toBe(403);
      expect(await call('DELETE', '/dogs/1', {roles: ['admin']})).toBe(200);
    },
  );

  claim.abuse(
    `${page}#reflection-and-metadata`,
    `a user whose roles arrive as a string: 'not-admin' does not pass @Roles('admin') and 'superuser' does not pass @Roles('user') (403), where String.prototype.includes() would match them; ['admin'] does (${lang})`,
    async () => {
      const {call} = await pageGuardApp(lang);
      expect('not-admin'.includes('admin') && 'superuser'.includes('user')).toBe(true);
      expect(await call('GET', '/cats', {roles: 'not-admin'})).toBe(403);
      expect(await call('GET', '/dogs', {roles: 'superuser'})).toBe(403);
      expect(await call('DELETE', '/dogs/1', {roles: 'not-admin'})).toBe(403);
      expect(await call('GET', '/cats', {roles: ['admin']})).toBe(200);
    },
  );
}

claim.abuse(
  `${page}#class-level-metadata`,
  "a guard that reads one target only fails one way or the other: reflector.get() on the handler lets anonymous callers into a class-level @Roles('admin') controller, on the class it lets a user through remove()'s @Roles('admin')",
  async () => {
    const match = (roles: string[] | undefined, context: any) => {
      if (!roles) return true;
      const roles_ = context.switchToHttp().getRequest().user?.roles;
      return Array.isArray(roles_) && roles.some((role) => roles_.includes(role));
    };
    @Injectable()
    class HandlerOnlyGuard {
      constructor(@Inject(Reflector) private readonly reflector: any) {}
      canActivate(context: any) {
        return match(this.reflector.get('roles', context.getHandler()), context);
      }
    }
    @Injectable()
    class ClassOnlyGuard {
      constructor(@Inject(Reflector) private readonly reflector: any) {}
      canActivate(context: any) {
        return match(this.reflector.get('roles', context.getClass()), context);
      }
    }
    const handlerOnly = await rolesOnClassApp('ts', HandlerOnlyGuard);
    expect(await handlerOnly.call('GET', '/cats')).toBe(200);
    await handlerOnly.app.close();
    const classOnly = await rolesOnClassApp('ts', ClassOnlyGuard);
    expect(await classOnly.call('DELETE', '/dogs/1', {roles: ['user']})).toBe(200);
    await classOnly.app.close();
  },
);

claim(
  `${page}#combining-handler-and-class-metadata`,
  "getAllAndOverride(): remove() yields ['admin'], findAll() ['user']; getAllAndMerge(): ['admin', 'user'] and ['user'], as printed",
  () => {
    const set = samples(page, {
      under: 'combining-handler-and-class-metadata',
      files: {
        'cats.service':
          'export class CatsService { findAll() { return []; } remove(id: string) { return id; } }',
      },
    });
    const {CatsController} = set.require('cats.controller');
    const {ROLES_KEY} = set.require('roles.decorator');
    const reflector = new Reflector();
    const targets = (handler: string) => [CatsController.prototype[handler], CatsController];
    expect(reflector.getAllAndOverride(ROLES_KEY, targets('remove'))).toEqual(['admin']);
    expect(reflector.getAllAndOverride(ROLES_KEY, targets('findAll'))).toEqual(['user']);
    const show = (roles: string[]) => `[${roles.map((role) => `'${role}'`).join(', ')}]`;
    expectOutput(
      page,
      'merged-roles',
      `remove():  ${show(reflector.getAllAndMerge(ROLES_KEY, targets('remove')))}\nfindAll(): ${show(reflector.getAllAndMerge(ROLES_KEY, targets('findAll')))}`,
    );
  },
);

claim(
  `${page}#combining-handler-and-class-metadata`,
  'getAllAndMerge() merges objects (later targets win), pairs plain values, returns [] without metadata; getAllAndOverride() then returns undefined; getAll() keeps undefined per target',
  () => {
    const reflector = new Reflector();
    class Target {
      handler() {}
      bare() {}
    }
    SetMetadata('limits', {rate: 1, burst: 5})(Target.prototype.handler);
    SetMetadata('limits', {rate: 2})(Target);
    SetMetadata('label', 'handler')(Target.prototype.handler);
    SetMetadata('label', 'class')(Target);
    expect(reflector.getAllAndMerge('limits', [Target.prototype.handler, Target])).toEqual({
      rate: 2,
      burst: 5,
    });
    expect(reflector.getAllAndMerge('label', [Target.prototype.handler, Target])).toEqual([
      'handler',
      'class',
    ]);
    expect(reflector.getAllAndMerge('missing', [Target.prototype.bare, Target])).toEqual([]);
    expect(reflector.getAllAndOverride('missing', [Target.prototype.bare, Target])).toBeUndefined();
    expect(reflector.getAll('label', [Target.prototype.bare, Target])).toEqual([
      undefined,
      'class',
    ]);
  },
);

claim(
  `${page}#argumentshost-class`,
  "the host passed to a filter's catch() carries the arguments but no handler or class reference",
  async () => {
    let host: any;
    const {Catch} = nest('@nestjs/common');
    @Catch(HttpException)
    class Probe {
      catch(_exception: unknown, argumentsHost: any) {
        host = argumentsHost;
        argumentsHost.switchToHttp().getResponse().status(418).end();
      }
    }
    @Controller()
    class FailController {
      @Get()
      fail() {
        throw new BadRequestException();
      }
    }
    UseFilters(Probe)(FailController);
    @Module({controllers: [FailController]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    const base = await listen(app);
    expect((await fetch(base)).status).toBe(418);
    expect(host.getHandler?.() ?? null).toBeNull();
    expect(host.getClass?.() ?? null).toBeNull();
    expect(host.getType()).toBe('http');
    expect(host.getArgs()).toHaveLength(3);
    await app.close();
  },
);

claim(
  `${page}#host-handler-arguments`,
  'a filter that rethrows in a TCP message handler leaves an unhandled rejection: the process ends with code 1 and the client gets no answer',
  async () => {
    const {runScript} = await import('./_support');
    const {mkdtempSync, rmSync} = await import('node:fs');
    const {tmpdir} = await import('node:os');
    const {join} = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'behaviour-rethrow-'));
    const port = await freePort();
    try {
      const result = await runScript(
        dir,
        'rethrow.js',
        `
const { Module, Controller, Catch, UseFilters, BadRequestException } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { Transport, MessagePattern, ClientProxyFactory } = require('@nestjs/microservices');
const { firstValueFrom } = require('rxjs');
class RethrowFilter { catch(exception) { throw exception; } }
Catch()(RethrowFilter);
class CatsController { fail() { throw new BadRequestException('bad message'); } }
MessagePattern('cats.fail')(CatsController.prototype, 'fail', Object.getOwnPropertyDescriptor(CatsController.prototype, 'fail'));
Controller()(CatsController);
UseFilters(RethrowFilter)(CatsController);
class AppModule {}
Module({ controllers: [CatsController] })(AppModule);
(async () => {
  const app = await NestFactory.createMicroservice(AppModule, { transport: Transport.TCP, options: { host: '127.0.0.1', port: ${port} }, logger: false });
  await app.listen();
  const client = ClientProxyFactory.create({ transport: Transport.TCP, options: { host: '127.0.0.1', port: ${port} } });
  setTimeout(() => { console.log('still running, no answer'); process.exit(0); }, 3000);
  firstValueFrom(client.send('cats.fail', {})).then((v) => console.log('answer ' + JSON.stringify(v)), (e) => console.log('error ' + JSON.stringify(e)));
})();
`,
      );
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('BadRequestException: bad message');
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  },
);

claim(
  `${page}#host-handler-arguments`,
  "in a resolver, getType() is 'graphql', and GqlAuthenticatedGuard reads req.user through GqlExecutionContext (no user: Forbidden resource in errors)",
  async () => {
    const {fragment, compileModule} = await import('../../lib');
    const {GraphQLModule, Resolver, Query} = nest('@nestjs/graphql');
    const {GqlAuthenticatedGuard} = compileModule(
      fragment(page, 'host-handler-arguments', 'class GqlAuthenticatedGuard').value,
      'gql-guard',
    );
    const types: string[] = [];
    @Injectable()
    class TypeSpy {
      canActivate(context: any) {
        types.push(context.getType());
        return true;
      }
    }
    @Resolver()
    class CatsResolver {
      @Query('secret')
      secret() {
        return 'meow';
      }
    }
    UseGuards(TypeSpy, GqlAuthenticatedGuard)(CatsResolver);
    @Module({
      imports: [GraphQLModule.forRoot({typeDefs: 'type Query { secret: String }'})],
      providers: [CatsResolver],
    })
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    app.use((req: any, _res: unknown, next: () => void) => {
      if (req.headers['x-user']) req.user = {name: req.headers['x-user']};
      next();
    });
    const base = await listen(app);
    const ask = async (headers: Record<string, string>) =>
      (
        await fetch(`${base}/graphql`, {
          method: 'POST',
          headers: {'content-type': 'application/json', ...headers},
          body: JSON.stringify({query: '{ secret }'}),
        })
      ).json();
    expect(await ask({'x-user': 'tom'})).toEqual({data: {secret: 'meow'}});
    const denied = await ask({});
    expect(denied.data).toEqual({secret: null});
    expect(denied.errors[0].message).toBe('Forbidden resource');
    expect(types).toEqual(['graphql', 'graphql']);
    await app.close();
  },
);

/** The page's hybrid main.ts (its order of calls), on free ports, in this process. */
async function hybridMain(AllContextsFilter: any, order: 'page' | 'swapped') {
  const {fragment, applyEdits, compileModule} = await import('../../lib');
  const [rpcPort, httpPort] = [await freePort(), await freePort()];
  let body = applyEdits(
    'main',
    fragment(page, 'host-handler-arguments', 'inheritAppConfig: true').value,
    [
      [
        'NestFactory.create(AppModule)',
        'NestFactory.create(AppModule, { logger: false, abortOnError: false })',
      ],
      ['options: { port: 3001 }', `options: { host: '127.0.0.1', port: ${rpcPort} }`],
      ['await app.listen(3000);', `await app.listen(${httpPort}, '127.0.0.1');\n  return app;`],
    ],
  );
  if (order === 'swapped') {
    const filters =
      'app.useGlobalFilters(new AllContextsFilter()); // before connecting, not after\n';
    const connect = body.slice(
      body.indexOf('app.connectMicroservice'),
      body.indexOf('await app.startAllMicroservices'),
    );
    body = body.replace(filters, '').replace(connect, `${connect}${filters}`);
  }
  const {start} = compileModule(
    `import { NestFactory } from '@nestjs/core';
import { MicroserviceOptions, Transport } from '@nestjs/microservices';
export async function start(AppModule: any, AllContextsFilter: any) {
  ${body}
}`,
    `hybrid-main-${order}`,
  );
  const app = await start(filterApp(AllContextsFilter, 'none'), AllContextsFilter);
  return {app, rpcPort, httpPort};
}

async function rpcError(port: number) {
  const client = ClientProxyFactory.create({
    transport: Transport.TCP,
    options: {host: '127.0.0.1', port},
  });
  try {
    return await firstValueFrom(client.send('cats.fail', {})).then(
      () => null,
      (e: unknown) => e,
    );
  } finally {
    client.close();
  }
}

claim(
  `${page}#host-handler-arguments`,
  "the page's hybrid main.ts (useGlobalFilters() before connectMicroservice(..., { inheritAppConfig: true })): the message handler's BadRequestException reaches the client as the filter's { status: 400 }",
  async () => {
    const {AllContextsFilter} = samples(page, {under: 'host-handler-arguments'}).require(
      'all-contexts.filter',
    );
    const {app, rpcPort, httpPort} = await hybridMain(AllContextsFilter, 'page');
    expect(await rpcError(rpcPort)).toEqual({status: 400, message: 'bad message'});
    expect(await (await fetch(`http://127.0.0.1:${httpPort}/cats`)).json()).toEqual({
      status: 400,
      message: 'bad cat',
    });
    await app.close();
  },
);

claim.failure(
  `${page}#host-handler-arguments`,
  'useGlobalFilters() after connectMicroservice(): HTTP still gets the filter, the message handler answers { status: "error", message: "Internal server error" }; APP_FILTER is in time with inheritAppConfig, and not without it',
  async () => {
    const {AllContextsFilter} = samples(page, {under: 'host-handler-arguments'}).require(
      'all-contexts.filter',
    );
    const swapped = await hybridMain(AllContextsFilter, 'swapped');
    expect(await rpcError(swapped.rpcPort)).toEqual({
      status: 'error',
      message: 'Internal server error',
    });
    expect(await (await fetch(`http://127.0.0.1:${swapped.httpPort}/cats`)).json()).toEqual({
      status: 400,
      message: 'bad cat',
    });
    await swapped.app.close();
    const {APP_FILTER} = nest('@nestjs/core');
    for (const inheritAppConfig of [true, false]) {
      @Module({
        imports: [filterApp(AllContextsFilter, 'none')],
        providers: [{provide: APP_FILTER, useClass: AllContextsFilter}],
      })
      class AppModule {}
      const port = await freePort();
      const app = await NestFactory.create(AppModule, options);
      app.connectMicroservice(
        {transport: Transport.TCP, options: {host: '127.0.0.1', port}},
        {inheritAppConfig},
      );
      await app.startAllMicroservices();
      await app.init();
      expect(await rpcError(port)).toEqual(
        inheritAppConfig
          ? {status: 400, message: 'bad message'}
          : {status: 'error', message: 'Internal server error'},
      );
      await app.close();
    }
  },
);

claim.failure(
  `${page}#host-handler-arguments`,
  'a filter that rethrows in a gateway ends the process (exit code 1) through an uncaught exception from RxJS',
  async () => {
    const {runScript} = await import('./_support');
    const {mkdtempSync, rmSync} = await import('node:fs');
    const {tmpdir} = await import('node:os');
    const {join} = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'behaviour-rethrow-ws-'));
    try {
      const result = await runScript(
        dir,
        'rethrow-ws.js',
        `
const { Module, Catch, UseFilters, BadRequestException } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { WebSocketGateway, SubscribeMessage } = require('@nestjs/websockets');
const { io } = require('socket.io-client');
class RethrowFilter { catch(exception) { throw exception; } }
Catch()(RethrowFilter);
class CatsGateway { fail() { throw new BadRequestException('bad event'); } }
SubscribeMessage('fail')(CatsGateway.prototype, 'fail', Object.getOwnPropertyDescriptor(CatsGateway.prototype, 'fail'));
WebSocketGateway()(CatsGateway);
UseFilters(RethrowFilter)(CatsGateway);
class AppModule {}
Module({ providers: [CatsGateway] })(AppModule);
process.on('exit', (code) => console.log('exit ' + code));
(async () => {
  const app = await NestFactory.create(AppModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  const socket = io(await app.getUrl(), { transports: ['websocket'] });
  socket.on('connect', () => socket.emit('fail', {}));
  setTimeout(() => { console.log('still running'); process.exit(0); }, 3000);
})();
`,
      );
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('exit 1\n');
      expect(result.stderr).toContain('BadRequestException: bad event');
      expect(result.stderr).toContain('reportUnhandledError');
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  },
);

/** The page's RolesGuard (global, as a hybrid app with inheritAppConfig shares it) on an HTTP route, a message handler and a gateway event, each with @Roles('admin'). */
async function rolesEverywhere(lang: 'ts' | 'js') {
  const set = samples(page, {lang, pick: {'roles.guard': 1}, files: {}});
  const {RolesGuard} = set.require('roles.guard');
  const {Roles} = set.require('roles.decorator');
  @Controller('cats')
  class CatsController {
    @Post()
    @Roles('admin')
    create() {
      return 'created';
    }
    @MessagePattern('cats.delete')
    @Roles('admin')
    deleteOverRpc() {
      return 'deleted';
    }
  }
  @WebSocketGateway()
  @UseGuards(RolesGuard)
  class CatsGateway {
    @SubscribeMessage('cats.delete')
    @Roles('admin')
    remove() {
      return 'deleted';
    }
  }
  @Module({controllers: [CatsController], providers: [CatsGateway]})
  class AppModule {}
  const app = await NestFactory.create(AppModule, options);
  app.useGlobalGuards(new RolesGuard(app.get(Reflector)));
  const port = await freePort();
  app.connectMicroservice(
    {transport: Transport.TCP, options: {host: '127.0.0.1', port}},
    {inheritAppConfig: true},
  );
  await app.startAllMicroservices();
  const base = await listen(app);
  return {app, port, base};
}

for (const lang of ['ts', 'js'] as const) {
  claim.abuse(
    `${page}#reflection-and-metadata`,
    `a message whose payload says { user: { roles: ['admin'] } } does not pass RolesGuard on an @Roles('admin') message handler: "Forbidden resource" (${lang})`,
    async () => {
      const {app, port} = await rolesEverywhere(lang);
      const client = ClientProxyFactory.create({
        transport: Transport.TCP,
        options: {host: '127.0.0.1', port},
      });
      const outcome = await firstValueFrom(
        client.send('cats.delete', {user: {roles: ['admin']}}),
      ).then(
        (value) => ({value}),
        (error) => ({error}),
      );
      expect(outcome).toEqual({error: {status: 'error', message: 'Forbidden resource'}});
      client.close();
      await app.close();
    },
  );
}

claim.abuse(
  `${page}#reflection-and-metadata`,
  "a socket client calling an @Roles('admin') event gets Nest's \"Forbidden resource\" exception, not the handler's answer",
  async () => {
    const {app, base} = await rolesEverywhere('ts');
    const ws = await socket(base);
    const exception = new Promise((done) => ws.once('exception', done));
    const acknowledged = new Promise((done) =>
      ws.emit('cats.delete', {user: {roles: ['admin']}}, done),
    );
    expect(await Promise.race([exception, acknowledged])).toEqual({
      status: 'error',
      message: 'Forbidden resource',
    });
    ws.close();
    await app.close();
  },
);

claim.failure(
  `${page}#executioncontext-class`,
  'a handler that fails after a wait still gets its TimingInterceptor line (finalize); with tap() it would get none',
  async () => {
    const {TimingInterceptor} = samples(page, {under: 'executioncontext-class'}).require(
      'timing.interceptor',
    );
    const {UseInterceptors, ServiceUnavailableException} = nest('@nestjs/common');
    const {tap} = nest('rxjs/operators');
    class TapTiming {
      intercept(context: any, next: any) {
        const label = `${context.getClass().name}.${context.getHandler().name}`;
        return next.handle().pipe(tap(() => console.log(`${label} took 0ms`)));
      }
    }
    @Controller('cats')
    class CatsController {
      @Post()
      @UseInterceptors(TimingInterceptor)
      async create() {
        await new Promise((r) => setTimeout(r, 20));
        throw new ServiceUnavailableException('database timeout');
      }
      @Post('tap')
      @UseInterceptors(TapTiming)
      async createWithTap() {
        throw new ServiceUnavailableException('database timeout');
      }
    }
    @Module({controllers: [CatsController]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    const base = await listen(app);
    const {lines} = await captureLog(async () => {
      expect((await fetch(`${base}/cats`, {method: 'POST'})).status).toBe(503);
      expect((await fetch(`${base}/cats/tap`, {method: 'POST'})).status).toBe(503);
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^CatsController\.create took \d+ms$/);
    expect(Number(/took (\d+)ms/.exec(lines[0])![1])).toBeGreaterThanOrEqual(15);
    await app.close();
  },
);

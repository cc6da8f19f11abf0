import {spawnSync} from 'node:child_process';
import {createServer} from 'node:http';
import {resolve} from 'node:path';
import {expect, vi} from 'vitest';
import {
  claim,
  samples,
  nest,
  fragment,
  compileModule,
  memoryLogger,
  freePort,
  service,
  applyEdits,
  expectOutput,
  typeErrors,
} from '../../lib';
import {start, call, onClose} from './_support';

const common = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const {Transport} = nest('@nestjs/microservices');
const rxjs = nest('rxjs');
const {Module, Controller, Get} = common;
const page = 'docs/migration-guide.md';
const behaviourDir = resolve(__dirname, '..', '..');

/** TypeScript of a page fragment as CommonJS for a child process (imports become requires). */
function ts2js(source: string): string {
  const ts = nest('typescript');
  const out = ts.transpileModule(source, {
    compilerOptions: {module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2019},
  }).outputText;
  return `const MyLogger = (() => { const exports = {}; ${out}; return exports.MyLogger; })();`;
}

claim(
  `${page}#http-module`,
  `HttpService from @nestjs/common logs a DEPRECATED! warning when created; the @nestjs/axios one does not`,
  async () => {
    const {HttpModule: AxiosHttpModule} = nest('@nestjs/axios');
    for (const [httpModule, expected] of [
      [common.HttpModule, true],
      [AxiosHttpModule, false],
    ] as const) {
      @Module({imports: [httpModule]})
      class AppModule {}
      const memory = memoryLogger();
      const app = await NestFactory.createApplicationContext(AppModule, {logger: memory.logger});
      await app.close();
      expect(
        memory.lines.some(
          (line) =>
            line.level === 'warn' &&
            line.message.startsWith(
              'DEPRECATED! "HttpModule" (from the "@nestjs/common" package) is deprecated',
            ),
        ),
      ).toBe(expected);
    }
  },
);

claim(
  `${page}#http-module`,
  `a test mock provided under the @nestjs/common HttpService token does not replace the @nestjs/axios service the code injects`,
  async () => {
    const axios = nest('@nestjs/axios');
    const {Test} = nest('@nestjs/testing');
    expect(common.HttpService).not.toBe(axios.HttpService);
    @common.Injectable()
    class CatFacts {
      constructor(readonly http: InstanceType<typeof axios.HttpService>) {}
    }
    Reflect.defineMetadata('design:paramtypes', [axios.HttpService], CatFacts);
    const mock = {get: () => 'mocked'};
    const wrong = await Test.createTestingModule({
      imports: [axios.HttpModule],
      providers: [CatFacts],
    })
      .overrideProvider(common.HttpService)
      .useValue(mock)
      .compile();
    expect(wrong.get(CatFacts).http).toBeInstanceOf(axios.HttpService);
    const right = await Test.createTestingModule({
      imports: [axios.HttpModule],
      providers: [CatFacts],
    })
      .overrideProvider(axios.HttpService)
      .useValue(mock)
      .compile();
    expect(right.get(CatFacts).http).toBe(mock);
  },
);

claim(
  `${page}#routes-registered-with-all`,
  `@All('proxy') answers /proxy for any method but not /proxy/anything; @All('proxy/*') answers the nested paths`,
  async () => {
    const {ProxyController} = compileModule(
      fragment(page, 'routes-registered-with-all', 'ProxyController').value,
      'proxy-controller',
    );
    const {base} = await start([ProxyController]);
    for (const method of ['GET', 'POST', 'DELETE']) {
      expect((await call(base, method, '/proxy')).text).toBe('Only /proxy, for any HTTP method');
      expect((await call(base, method, '/proxy/cats/1')).text).toBe(
        'Any path below /proxy, for any HTTP method',
      );
    }
    @Controller()
    class OnlyRoot {
      @common.All('proxy')
      root() {
        return 'root';
      }
    }
    const only = await start([OnlyRoot]);
    expect((await call(only.base, 'GET', '/proxy/anything')).status).toBe(404);
  },
);

claim(
  `${page}#deprecated-async-listen-methods`,
  `startAllMicroservices() and listen() return promises; the deprecated startAllMicroservicesAsync() and listenAsync() still work`,
  async () => {
    @Controller()
    class Hello {
      @Get()
      hello() {
        return 'hello';
      }
    }
    @Module({controllers: [Hello]})
    class AppModule {}
    for (const deprecated of [false, true]) {
      const app = await NestFactory.create(AppModule, {logger: false});
      onClose(() => app.close());
      const port = await freePort();
      app.connectMicroservice({transport: Transport.TCP, options: {host: '127.0.0.1', port}});
      const started = deprecated ? app.startAllMicroservicesAsync() : app.startAllMicroservices();
      expect(started).toBeInstanceOf(Promise);
      await started;
      const listening = deprecated ? app.listenAsync(0, '127.0.0.1') : app.listen(0, '127.0.0.1');
      expect(listening).toBeInstanceOf(Promise);
      await listening;
      const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
      expect(await (await fetch(url)).text()).toBe('hello');
    }
  },
);

claim(
  `${page}#logger`,
  `a subclass of Logger is refused with the "extends Logger" error (logger option and useLogger()); a subclass of ConsoleLogger is accepted (fresh process)`,
  async () => {
    const myLogger = ts2js(fragment(page, 'logger', 'extends ConsoleLogger').value);
    const script = `
    require('reflect-metadata');
    const { Module, Logger } = require('@nestjs/common');
    const { NestFactory } = require('@nestjs/core');
    ${myLogger}
    class OldLogger extends Logger {}
    class AppModule {}
    Module({})(AppModule);
    (async () => {
      try { await NestFactory.createApplicationContext(AppModule, { logger: new OldLogger(), abortOnError: false }); console.log('OPTION ACCEPTED'); }
      catch (e) { console.log('OPTION: ' + e.message); }
      const app = await NestFactory.createApplicationContext(AppModule, { abortOnError: false });
      try { app.useLogger(new OldLogger()); console.log('USELOGGER ACCEPTED'); } catch (e) { console.log('USELOGGER: ' + e.message); }
      app.useLogger(new MyLogger());
      console.log('MYLOGGER ACCEPTED');
      await app.close();
    })();
  `;
    const run = spawnSync(process.execPath, ['-e', script], {
      cwd: behaviourDir,
      encoding: 'utf8',
      env: {...process.env, NO_COLOR: '1'},
    });
    const message =
      'Using the "extends Logger" instruction is not allowed in Nest v8. Please, use "extends ConsoleLogger" instead.';
    const lines = run.stdout
      .split('\n')
      .filter((line) => /^(OPTION|USELOGGER|MYLOGGER)/.test(line));
    expect(lines).toEqual([`OPTION: ${message}`, `USELOGGER: ${message}`, 'MYLOGGER ACCEPTED']);
  },
);

claim(
  `${page}#rxjs-7`,
  `lastValueFrom() and firstValueFrom() reject with EmptyError on an empty stream unless given a defaultValue; firstValueFrom() settles on a stream that never completes`,
  async () => {
    const {lastValueFrom, firstValueFrom, EMPTY, EmptyError, of, interval} = rxjs;
    expect(await lastValueFrom(of(1, 2, 3))).toBe(3);
    await expect(lastValueFrom(EMPTY)).rejects.toBeInstanceOf(EmptyError);
    await expect(firstValueFrom(EMPTY)).rejects.toBeInstanceOf(EmptyError);
    expect(await lastValueFrom(EMPTY, {defaultValue: null})).toBeNull();
    expect(await firstValueFrom(interval(5))).toBe(0);
    expect(await rxjs.EMPTY.toPromise()).toBeUndefined();
  },
);

claim(
  `${page}#httphealthindicator-needs-httpmodule-from-nestjsaxios`,
  `with HttpModule from @nestjs/axios the page's health endpoint reports the ping; without it the endpoint answers a plain 500 and the "HttpService is not available" message only reaches the log`,
  async () => {
    const target = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    onClose(() => new Promise((resolve) => target.close(resolve)));
    const url = `http://127.0.0.1:${(target.address() as {port: number}).port}`;
    const set = samples(page, {
      edit: {'health/health.controller': [["'https://docs.nestjs.com'", `'${url}'`]]},
    });
    const {HealthModule} = set.require('health/health.module');
    const {base} = await start(HealthModule);
    const health = await call(base, 'GET', '/health');
    expect([health.status, health.json()]).toEqual([
      200,
      {status: 'ok', info: {docs: {status: 'up'}}, error: {}, details: {docs: {status: 'up'}}},
    ]);

    const {TerminusModule, HttpHealthIndicator} = nest('@nestjs/terminus');
    const {HealthController} = set.require('health/health.controller');
    @Module({imports: [TerminusModule], controllers: [HealthController]})
    class WithoutHttpModule {}
    const memory = memoryLogger();
    const {app, base: bare} = await start(WithoutHttpModule, {
      options: {abortOnError: false},
      logger: memory.logger,
    });
    const failed = await call(bare, 'GET', '/health');
    expect(failed.status).toBe(500);
    expectOutput(page, 'terminus-without-httpmodule', failed.text);
    // The message only reaches the server log.
    expect(failed.text).not.toContain('HttpService');
    expect(
      memory.lines.some(
        (line) => line.level === 'error' && line.message.includes('"HttpService" is not available'),
      ),
    ).toBe(true);
    await expect((await app.resolve(HttpHealthIndicator)).pingCheck('docs', url)).rejects.toThrow(
      'It seems like "HttpService" is not available in the current context. Are you sure you imported the HttpModule from the @nestjs/axios package?',
    );
  },
);

claim(
  `${page}#updating-packages`,
  `the installed Nest 8 core packages declare rxjs ^7.1.0 as a peer; @nestjs/axios and @nestjs/config accept Nest 7 and 8; @nestjs/graphql 9 wants graphql ^15.5.1`,
  () => {
    const pkg = (name: string) => nest(`${name}/package.json`);
    expect(pkg('@nestjs/core').peerDependencies.rxjs).toBe('^7.1.0');
    expect(pkg('@nestjs/common').peerDependencies.rxjs).toBe('^7.1.0');
    expect(pkg('@nestjs/axios').peerDependencies['@nestjs/common']).toBe('^7.0.0 || ^8.0.0');
    expect(pkg('@nestjs/config').peerDependencies['@nestjs/common']).toBe('^7.0.0 || ^8.0.0');
    expect(pkg('@nestjs/graphql').peerDependencies.graphql).toBe('^15.5.1');
    expect(Object.keys(pkg('@nestjs/graphql').dependencies)).toEqual(
      expect.arrayContaining(['graphql-ws', 'subscriptions-transport-ws']),
    );
  },
);

function graphqlApp(options: Record<string, unknown>) {
  const gql = nest('@nestjs/graphql');
  class CatsResolver {
    badRequest() {
      throw new common.BadRequestException('The age must be a positive number');
    }
    unauthorized() {
      throw new common.UnauthorizedException();
    }
    forbidden() {
      throw new common.ForbiddenException();
    }
    notFound() {
      throw new common.NotFoundException('No cat with this id');
    }
    plain() {
      throw new common.HttpException('A plain string', 404);
    }
  }
  for (const name of ['badRequest', 'unauthorized', 'forbidden', 'notFound', 'plain']) {
    gql.Query(() => String)(
      CatsResolver.prototype,
      name,
      Object.getOwnPropertyDescriptor(CatsResolver.prototype, name),
    );
  }
  gql.Resolver()(CatsResolver);
  @Module({
    imports: [gql.GraphQLModule.forRoot({autoSchemaFile: true, cache: 'bounded', ...options})],
    providers: [CatsResolver],
  })
  class AppModule {}
  return AppModule;
}

async function firstError(base: string, field: string) {
  const reply = await call(base, 'POST', '/graphql', {body: {query: `{ ${field} }`}});
  return reply.json().errors[0];
}

claim(
  `${page}#http-exceptions-in-resolvers`,
  `HTTP exceptions become Apollo errors: 400 BAD_USER_INPUT, 401 UNAUTHENTICATED, 403 FORBIDDEN, other statuses their number; message kept, body in extensions.response; a plain-string HttpException passes unchanged`,
  async () => {
    const {base} = await start(graphqlApp({}));
    expect(await firstError(base, 'badRequest')).toEqual({
      message: 'The age must be a positive number',
      extensions: {
        code: 'BAD_USER_INPUT',
        response: {
          statusCode: 400,
          message: 'The age must be a positive number',
          error: 'Bad Request',
        },
      },
    });
    expect((await firstError(base, 'unauthorized')).extensions).toEqual({
      code: 'UNAUTHENTICATED',
      response: {statusCode: 401, message: 'Unauthorized'},
    });
    expect((await firstError(base, 'forbidden')).extensions).toEqual({
      code: 'FORBIDDEN',
      response: {statusCode: 403, message: 'Forbidden'},
    });
    expect(await firstError(base, 'notFound')).toEqual({
      message: 'No cat with this id',
      extensions: {
        code: '404',
        response: {statusCode: 404, message: 'No cat with this id', error: 'Not Found'},
      },
    });
    const plain = await firstError(base, 'plain');
    expect(plain.message).toBe('A plain string');
    expect(plain.extensions.code).toBe('INTERNAL_SERVER_ERROR');
    expect(plain.path).toEqual(['plain']);
  },
);

claim(
  `${page}#http-exceptions-in-resolvers`,
  `with autoTransformHttpErrors: false the previous format stays (INTERNAL_SERVER_ERROR, extensions.exception.status); a formatError of your own runs on the converted error`,
  async () => {
    const {base} = await start(graphqlApp({autoTransformHttpErrors: false}));
    const raw = await firstError(base, 'notFound');
    expect(raw.extensions.code).toBe('INTERNAL_SERVER_ERROR');
    expect(raw.extensions.exception.status).toBe(404);
    const seen: unknown[] = [];
    const {base: custom} = await start(
      graphqlApp({formatError: (error: any) => (seen.push(error.extensions.code), error)}),
    );
    await firstError(custom, 'forbidden');
    expect(seen).toEqual(['FORBIDDEN']);
  },
);

claim(
  `${page}#the-playground`,
  `with playground unset, GET /graphql serves GraphQL Playground unless NODE_ENV is production; playground: false disables the landing page`,
  async () => {
    const page = async (options: Record<string, unknown>) => {
      const {base} = await start(graphqlApp(options));
      const reply = await call(base, 'GET', '/graphql', {headers: {accept: 'text/html'}});
      return reply.text.includes('GraphQL Playground')
        ? 'playground'
        : reply.status === 400 || !reply.text.includes('<html')
          ? 'no landing page'
          : 'other';
    };
    const before = process.env.NODE_ENV;
    try {
      process.env.NODE_ENV = 'development';
      expect(await page({})).toBe('playground');
      expect(await page({playground: false})).toBe('no landing page');
      process.env.NODE_ENV = 'production';
      expect(await page({})).toBe('no landing page');
      expect(await page({playground: true})).toBe('playground');
    } finally {
      process.env.NODE_ENV = before;
    }
  },
);

claim(
  `${page}#the-playground`,
  `your own landing page plugin makes Apollo refuse to start ("Only one plugin can implement renderLandingPage.") while the playground is on; with it off, your page is served`,
  async () => {
    const {ApolloServerPluginLandingPageLocalDefault} = nest('apollo-server-core');
    const before = process.env.NODE_ENV;
    const outcome = async (env: string, options: Record<string, unknown>) => {
      process.env.NODE_ENV = env;
      const app = await NestFactory.create(
        graphqlApp({...options, plugins: [ApolloServerPluginLandingPageLocalDefault()]}),
        {logger: false, abortOnError: false},
      );
      onClose(() => app.close());
      try {
        await app.listen(0, '127.0.0.1');
      } catch (error) {
        return (error as Error).message;
      }
      const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
      const html = await (await fetch(`${url}/graphql`, {headers: {accept: 'text/html'}})).text();
      return /apollo/i.test(html) && !html.includes('GraphQL Playground')
        ? 'your landing page'
        : 'another page';
    };
    try {
      expect(await outcome('development', {})).toBe(
        'Only one plugin can implement renderLandingPage.',
      );
      expect(await outcome('production', {playground: true})).toBe(
        'Only one plugin can implement renderLandingPage.',
      );
      expect(await outcome('development', {playground: false})).toBe('your landing page');
      expect(await outcome('production', {})).toBe('your landing page');
    } finally {
      process.env.NODE_ENV = before;
    }
  },
);

claim(
  `${page}#order-of-the-generated-schema`,
  `an enum listed in buildSchemaOptions.orphanedTypes is printed though no field uses it; sortSchema: true prints types and fields alphabetically`,
  async () => {
    const gql = nest('@nestjs/graphql');
    enum Mood {
      Calm = 'Calm',
      Grumpy = 'Grumpy',
    }
    gql.registerEnumType(Mood, {name: 'Mood'});
    class Zebra {
      b!: string;
      a!: string;
    }
    gql.Field(() => String)(Zebra.prototype, 'b');
    gql.Field(() => String)(Zebra.prototype, 'a');
    gql.ObjectType()(Zebra);
    class ZooResolver {
      zebra() {
        return {a: 'a', b: 'b'};
      }
      animals() {
        return 1;
      }
    }
    gql.Query(() => Zebra)(
      ZooResolver.prototype,
      'zebra',
      Object.getOwnPropertyDescriptor(ZooResolver.prototype, 'zebra'),
    );
    gql.Query(() => gql.Int)(
      ZooResolver.prototype,
      'animals',
      Object.getOwnPropertyDescriptor(ZooResolver.prototype, 'animals'),
    );
    gql.Resolver()(ZooResolver);
    const printed = async (options: Record<string, unknown>) => {
      @Module({
        imports: [
          gql.GraphQLModule.forRoot({
            autoSchemaFile: true,
            buildSchemaOptions: {orphanedTypes: [Mood]},
            ...options,
          }),
        ],
        providers: [ZooResolver],
      })
      class AppModule {}
      const {app} = await start(AppModule);
      const {printSchema} = nest('graphql');
      return printSchema(app.get(gql.GraphQLSchemaHost).schema) as string;
    };
    const unsorted = await printed({});
    expect(unsorted).toContain('enum Mood {');
    expect(unsorted.indexOf('zebra: Zebra!')).toBeLessThan(unsorted.indexOf('animals: Int!'));
    const sorted = await printed({sortSchema: true});
    const typeNames = [...sorted.matchAll(/^(?:type|enum) (\w+)/gm)].map((m) => m[1]);
    expect(typeNames).toEqual([...typeNames].sort());
    expect(sorted.indexOf('animals: Int!')).toBeLessThan(sorted.indexOf('zebra: Zebra!'));
    expect(sorted.indexOf('  a: String!')).toBeLessThan(sorted.indexOf('  b: String!'));
  },
);

claim(
  `${page}#configuration-package`,
  `in @nestjs/config 1.2.1, registerAs<DatabaseConfig>() returns a factory with asProvider() giving imports, useFactory and inject`,
  async () => {
    const {registerAs, ConfigModule} = nest('@nestjs/config');
    const source = fragment(page, 'configuration-package', 'registerAs<DatabaseConfig>').value;
    const databaseConfig = compileModule(source, 'database-config').default;
    expect(databaseConfig()).toEqual({
      host: process.env.DATABASE_HOST || 'localhost',
      port: parseInt(process.env.DATABASE_PORT || '5432', 10),
    });
    expect(databaseConfig.KEY).toBe('CONFIGURATION(database)');
    const provider = databaseConfig.asProvider();
    expect(Object.keys(provider).sort()).toEqual(['imports', 'inject', 'useFactory']);
    expect(provider.imports[0].module).toBe(ConfigModule);
    expect(typeof registerAs).toBe('function');
  },
);

claim(
  `${page}#terminusmoduleforrootasync-is-gone`,
  `TerminusModule 8 has no static forRootAsync() (no static registration methods at all)`,
  () => {
    const {TerminusModule} = nest('@nestjs/terminus');
    expect((TerminusModule as any).forRootAsync).toBeUndefined();
    expect(
      Object.getOwnPropertyNames(TerminusModule).filter(
        (name) => typeof (TerminusModule as any)[name] === 'function',
      ),
    ).toEqual([]);
  },
);

claim(
  `${page}#nats`,
  `over NATS 2 (servers array, queue option), the page's NatsRecordBuilder sends an x-version header that NatsContext.getHeaders() reads, with getSubject()`,
  async () => {
    const nats = await service('nats');
    onClose(() => nats.stop());
    const ms = nest('@nestjs/microservices');
    const {CatsController} = compileModule(
      fragment(page, 'nats', 'NatsContext').value,
      'nats-controller',
    );
    const {CatsPublisher} = compileModule(
      fragment(page, 'nats', 'NatsRecordBuilder').value,
      'nats-publisher',
    );
    @Module({controllers: [CatsController]})
    class ServiceModule {}
    const options = fragment(page, 'nats', 'Transport.NATS').value;
    expect(options).toContain("servers: ['nats://localhost:4222']");
    expect(options).toContain("queue: 'cats_queue'");
    const server = await NestFactory.createMicroservice(ServiceModule, {
      transport: Transport.NATS,
      options: {servers: [nats.url], queue: 'cats_queue'},
      logger: false,
    });
    onClose(() => server.close());
    await server.listen();
    @Module({
      imports: [
        ms.ClientsModule.register([
          {name: 'CATS_SERVICE', transport: Transport.NATS, options: {servers: [nats.url]}},
        ]),
      ],
      providers: [CatsPublisher],
    })
    class ClientModule {}
    const client = await NestFactory.createApplicationContext(ClientModule, {logger: false});
    onClose(() => client.close());
    const lines: string[] = [];
    const spy = vi
      .spyOn(console, 'log')
      .mockImplementation((...args: unknown[]) => void lines.push(args.join(' ')));
    try {
      const answer = await rxjs.lastValueFrom(
        client.get(CatsPublisher).publishCreated({name: 'Tom'}),
      );
      expect(answer).toEqual({name: 'Tom'});
    } finally {
      spy.mockRestore();
    }
    expect(lines).toEqual(['Subject: cats.created', 'Version: 1.0.0']);
  },
  20000,
);

claim(
  `${page}#socketio-v4`,
  `the gateway's cors option answers the handshake for its origin, app.enableCors() does not reach the gateway, and allowEIO3 admits Engine.IO 3 (2.x) clients`,
  async () => {
    const {EventsGateway} = compileModule(
      fragment(page, 'socketio-v4', '@WebSocketGateway(').value,
      'events-gateway',
    );
    const handshake = (base: string, eio: number, origin?: string) =>
      call(base, 'GET', `/socket.io/?EIO=${eio}&transport=polling`, {
        headers: origin ? {origin} : {},
      });
    @Module({providers: [EventsGateway]})
    class WithGatewayCors {}
    const {base} = await start(WithGatewayCors);
    const allowed = await handshake(base, 4, 'https://cats.example.com');
    expect([allowed.status, allowed.headers['access-control-allow-origin']]).toEqual([
      200,
      'https://cats.example.com',
    ]);
    expect((await handshake(base, 3)).status).toBe(200);

    const ws = nest('@nestjs/websockets');
    class PlainGateway {}
    ws.WebSocketGateway()(PlainGateway);
    @Module({providers: [PlainGateway]})
    class HttpCorsOnly {}
    const {base: plain} = await start(HttpCorsOnly, {
      setup: (app) => app.enableCors({origin: 'https://cats.example.com'}),
    });
    const notAllowed = await handshake(plain, 4, 'https://cats.example.com');
    expect(notAllowed.status).toBe(200);
    expect(notAllowed.headers['access-control-allow-origin']).toBeUndefined();
    const old = await handshake(plain, 3);
    expect(old.status).toBe(400);
  },
);

/** Opens a WebSocket announcing `protocol`, runs `{ hello }` the way that protocol does, and says what came back. */
async function subscriptionRoundTrip(
  url: string,
  protocol: 'graphql-transport-ws' | 'graphql-ws',
): Promise<string> {
  const WebSocket = nest('ws');
  const socket = new WebSocket(url, protocol);
  onClose(async () => socket.terminate());
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('no answer'), 2000);
    socket.on('open', () => socket.send(JSON.stringify({type: 'connection_init', payload: {}})));
    socket.on('close', (code: number) => (clearTimeout(timer), resolve(`closed ${code}`)));
    socket.on('error', () => undefined);
    socket.on('message', (raw: Buffer) => {
      const message = JSON.parse(String(raw));
      if (message.type === 'connection_ack') {
        const start = protocol === 'graphql-transport-ws' ? 'subscribe' : 'start';
        socket.send(
          JSON.stringify({id: '1', type: start, payload: {query: 'subscription { catAdded }'}}),
        );
        setTimeout(() => publish(), 200);
      } else if (message.type === 'next' || message.type === 'data') {
        clearTimeout(timer);
        resolve(`${message.type}: ${JSON.stringify(message.payload.data)}`);
      } else if (message.type === 'error' || message.type === 'connection_error') {
        clearTimeout(timer);
        resolve(`error: ${JSON.stringify(message.payload)}`);
      }
    });
  });
}

let publish: () => void = () => undefined;

function subscriptionsApp(options: Record<string, unknown>) {
  const gql = nest('@nestjs/graphql');
  const {PubSub} = nest('graphql-subscriptions');
  const pubSub = new PubSub();
  publish = () => void pubSub.publish('catAdded', {catAdded: 'Tom'});
  class CatsResolver {
    hello() {
      return 'hi';
    }
    catAdded() {
      return pubSub.asyncIterator('catAdded');
    }
  }
  gql.Query(() => String)(
    CatsResolver.prototype,
    'hello',
    Object.getOwnPropertyDescriptor(CatsResolver.prototype, 'hello'),
  );
  gql.Subscription(() => String)(
    CatsResolver.prototype,
    'catAdded',
    Object.getOwnPropertyDescriptor(CatsResolver.prototype, 'catAdded'),
  );
  gql.Resolver()(CatsResolver);
  @Module({
    imports: [gql.GraphQLModule.forRoot({autoSchemaFile: true, cache: 'bounded', ...options})],
    providers: [CatsResolver],
  })
  class AppModule {}
  return AppModule;
}

claim(
  `${page}#subscriptions`,
  `installSubscriptionHandlers serves the legacy protocol only; subscriptions { 'graphql-ws': true } the new one; both keys serve each client in the protocol it announces`,
  async () => {
    const url = (base: string) => `${base.replace('http', 'ws')}/graphql`;
    const legacy = await start(subscriptionsApp({installSubscriptionHandlers: true}));
    expect(await subscriptionRoundTrip(url(legacy.base), 'graphql-ws')).toBe(
      'data: {"catAdded":"Tom"}',
    );
    expect(await subscriptionRoundTrip(url(legacy.base), 'graphql-transport-ws')).not.toMatch(
      /^next/,
    );

    const modern = await start(subscriptionsApp({subscriptions: {'graphql-ws': true}}));
    expect(await subscriptionRoundTrip(url(modern.base), 'graphql-transport-ws')).toBe(
      'next: {"catAdded":"Tom"}',
    );
    // graphql-ws prints a protocol warning for the legacy client it turns away: keep the run quiet.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    onClose(async () => (warn.mockRestore(), error.mockRestore()));
    expect(await subscriptionRoundTrip(url(modern.base), 'graphql-ws')).toMatch(/^closed 4406/);

    const both = await start(
      subscriptionsApp({subscriptions: {'graphql-ws': true, 'subscriptions-transport-ws': true}}),
    );
    expect(await subscriptionRoundTrip(url(both.base), 'graphql-transport-ws')).toBe(
      'next: {"catAdded":"Tom"}',
    );
    expect(await subscriptionRoundTrip(url(both.base), 'graphql-ws')).toBe(
      'data: {"catAdded":"Tom"}',
    );
  },
  20000,
);

claim(
  `${page}#grpc`,
  `the page's gRPC microservice (package, protoPath, url, ServerCredentials from @grpc/grpc-js) starts and answers a @grpc/grpc-js client`,
  async () => {
    const {mkdtempSync, writeFileSync, mkdirSync} = await import('node:fs');
    const {tmpdir} = await import('node:os');
    const {join} = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'overview-grpc-'));
    mkdirSync(join(dir, 'cats'));
    const proto = join(dir, 'cats', 'cats.proto');
    writeFileSync(
      proto,
      'syntax = "proto3";\npackage cats;\nservice CatsService { rpc FindOne (CatById) returns (Cat) {} }\nmessage CatById { int32 id = 1; }\nmessage Cat { int32 id = 1; string name = 2; }\n',
    );
    const ms = nest('@nestjs/microservices');
    class CatsController {
      findOne(data: {id: number}) {
        return {id: data.id, name: 'Tom'};
      }
    }
    ms.GrpcMethod('CatsService', 'FindOne')(
      CatsController.prototype,
      'findOne',
      Object.getOwnPropertyDescriptor(CatsController.prototype, 'findOne'),
    );
    common.Controller()(CatsController);
    @Module({controllers: [CatsController]})
    class AppModule {}
    (globalThis as any).__overviewGrpc = {AppModule, dir};
    const port = await freePort();
    const main = fragment(page, 'grpc', 'ServerCredentials.createInsecure()').value;
    const set = samples(page, {
      files: {
        main: applyEdits('main', main, [
          [
            "import { AppModule } from './app.module';",
            'const { AppModule } = (globalThis as any).__overviewGrpc;',
          ],
          [
            "join(__dirname, 'cats/cats.proto')",
            "join((globalThis as any).__overviewGrpc.dir, 'cats/cats.proto')",
          ],
          ["url: '0.0.0.0:5000'", `url: '127.0.0.1:${port}'`],
          [
            'const app = await NestFactory.createMicroservice',
            'const app = (globalThis as any).__overviewGrpc.app = await NestFactory.createMicroservice',
          ],
          [
            'await app.listen();',
            'await app.listen(); (globalThis as any).__overviewGrpc.listening = true;',
          ],
        ]),
      },
    });
    const {Logger} = common;
    Logger.overrideLogger(false);
    set.require('main');
    await vi.waitFor(() => expect((globalThis as any).__overviewGrpc.listening).toBe(true), {
      timeout: 5000,
    });
    const app = (globalThis as any).__overviewGrpc.app;
    onClose(() => app.close());
    const grpc = nest('@grpc/grpc-js');
    const loader = nest('@grpc/proto-loader');
    const definition = grpc.loadPackageDefinition(loader.loadSync(proto));
    const client = new definition.cats.CatsService(
      `127.0.0.1:${port}`,
      grpc.credentials.createInsecure(),
    );
    onClose(async () => client.close());
    const cat = await new Promise((resolve, reject) =>
      client.FindOne({id: 3}, (error: unknown, value: unknown) =>
        error ? reject(error) : resolve(value),
      ),
    );
    expect(cat).toEqual({id: 3, name: 'Tom'});
  },
);

claim(
  `${page}#new-in-version-8`,
  `8.4.7 exports LazyModuleLoader, whose load() brings in a module on demand, and VersioningType.CUSTOM with a custom extractor`,
  async () => {
    const {LazyModuleLoader} = nest('@nestjs/core');
    const {VersioningType, Injectable, VERSION_NEUTRAL} = common;
    expect(VersioningType.CUSTOM).toBeDefined();
    @Injectable()
    class ReportsService {
      report() {
        return 'lazy report';
      }
    }
    @Module({providers: [ReportsService], exports: [ReportsService]})
    class ReportsModule {}
    @Module({})
    class AppModule {}
    const app = await NestFactory.createApplicationContext(AppModule, {logger: false});
    onClose(() => app.close());
    const moduleRef = await app.get(LazyModuleLoader).load(() => ReportsModule);
    expect(moduleRef.get(ReportsService).report()).toBe('lazy report');

    @Controller({path: 'cats', version: '2'})
    class CatsV2 {
      @Get()
      list() {
        return 'v2';
      }
    }
    @Controller({path: 'cats', version: VERSION_NEUTRAL})
    class CatsAny {
      @Get()
      list() {
        return 'neutral';
      }
    }
    const {base} = await start([CatsV2, CatsAny], {
      setup: (a) =>
        a.enableVersioning({
          type: VersioningType.CUSTOM,
          extractor: (req: any) => String(req.headers['x-cats-version'] ?? ''),
        }),
    });
    expect((await call(base, 'GET', '/cats', {headers: {'x-cats-version': '2'}})).text).toBe('v2');
    expect((await call(base, 'GET', '/cats')).text).toBe('neutral');
  },
);

// Review 4: test mocks under the old token, the microservice listen() callback, string tokens for class
// providers, and errors with a statusCode.

claim.failure(
  `${page}#http-module`,
  `a unit test that provides its mock under the @nestjs/common HttpService token fails loudly: compile() rejects for CatFactsService`,
  async () => {
    const {CatFactsService} = compileModule(
      fragment(page, 'rxjs-7', 'CatFactsService').value,
      'cat-facts-service',
    );
    const {Test} = nest('@nestjs/testing');
    const builder = Test.createTestingModule({
      providers: [CatFactsService, {provide: common.HttpService, useValue: {get: () => 'mocked'}}],
    }).setLogger({log() {}, error() {}, warn() {}, debug() {}, verbose() {}});
    await expect(builder.compile()).rejects.toThrow(
      "Nest can't resolve dependencies of the CatFactsService (?)",
    );
  },
);

claim(
  `${page}#deprecated-async-listen-methods`,
  `INestMicroservice.listen() takes no argument in Nest 8: a callback is a type error (Expected 0 arguments, but got 1)`,
  () => {
    const snippet = fragment(page, 'deprecated-async-listen-methods', 'createMicroservice').value;
    expect(snippet).toContain('await app.listen();');
    const errors = typeErrors({
      main: `
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MicroserviceOptions, Transport } from '@nestjs/microservices';
@Module({})
class AppModule {}
async function bootstrap() {
  const app = await NestFactory.createMicroservice<MicroserviceOptions>(AppModule, {
    transport: Transport.TCP,
  });
  app.listen(() => console.log('Microservice is listening'));
}
bootstrap();
`,
    });
    expect(errors.map((e) => [e.code, e.message])).toEqual([
      ['TS2554', 'Expected 0 arguments, but got 1.'],
    ]);
  },
);

claim.failure(
  `${page}#deprecated-async-listen-methods`,
  `in JavaScript, a callback given to a microservice's listen() is never called, although the microservice serves messages`,
  async () => {
    @Controller()
    class Ping {
      @(nest('@nestjs/microservices').MessagePattern('ping'))
      ping() {
        return 'pong';
      }
    }
    @Module({controllers: [Ping]})
    class AppModule {}
    const port = await freePort();
    const app = await NestFactory.createMicroservice(AppModule, {
      transport: Transport.TCP,
      options: {host: '127.0.0.1', port},
      logger: false,
    });
    onClose(() => app.close());
    let called = false;
    await (app as any).listen(() => {
      called = true;
    });
    const client = nest('@nestjs/microservices').ClientProxyFactory.create({
      transport: Transport.TCP,
      options: {host: '127.0.0.1', port},
    });
    onClose(async () => client.close());
    expect(await rxjs.lastValueFrom(client.send('ping', {}))).toBe('pong');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(called).toBe(false);
  },
);

claim.failure(
  `${page}#providers-are-keyed-by-class`,
  `app.get('TasksService') with the class name as a string throws UnknownElementException; app.get(TasksService) finds it`,
  async () => {
    @common.Injectable()
    class TasksService {}
    @Module({providers: [TasksService]})
    class AppModule {}
    const app = await NestFactory.createApplicationContext(AppModule, {logger: false});
    try {
      expect(() => app.get('TasksService')).toThrow('Nest could not find TasksService element');
      expect(app.get(TasksService)).toBeInstanceOf(TasksService);
    } finally {
      await app.close();
    }
  },
);

claim.failure(
  `${page}#providers-are-keyed-by-class`,
  `@Inject('CatsService') for a class provider stops the application at startup; { provide: 'CatsService', useClass } makes the string token work`,
  async () => {
    @common.Injectable()
    class CatsService {}
    @common.Injectable()
    class CatsConsumer {
      constructor(@common.Inject('CatsService') readonly cats: CatsService) {}
    }
    @Module({providers: [CatsService, CatsConsumer]})
    class AppModule {}
    const error = await NestFactory.createApplicationContext(AppModule, {
      logger: false,
      abortOnError: false,
    }).then(
      () => null,
      (e: Error) => e,
    );
    expectOutput(page, 'string-token-error', String(error?.message).split('\n')[0]);
    @Module({providers: [{provide: 'CatsService', useClass: CatsService}, CatsConsumer]})
    class Explicit {}
    const app = await NestFactory.createApplicationContext(Explicit, {logger: false});
    expect(app.get(CatsConsumer).cats).toBeInstanceOf(CatsService);
    await app.close();
  },
);

claim.abuse(
  `${page}#errors-with-a-status-code`,
  `an SDK error with a statusCode and a message reaches the client with that status and message through the built-in filter`,
  async () => {
    @Controller('cats')
    class CatsController {
      @Get('photo')
      photo() {
        throw Object.assign(
          new Error('The AWS Access Key Id AKIAEXAMPLE123 does not exist in our records.'),
          {statusCode: 403},
        );
      }
    }
    const {base} = await start([CatsController]);
    const reply = await call(base, 'GET', '/cats/photo');
    expect([reply.status, reply.json()]).toEqual([
      403,
      {
        statusCode: 403,
        message: 'The AWS Access Key Id AKIAEXAMPLE123 does not exist in our records.',
      },
    ]);
  },
);

/** Connects with socket.io-client over the websocket transport only, announcing `origin`; resolves 'connected' or the error. */
function connectOverWebSocket(base: string, origin: string): Promise<string> {
  const {io} = nest('socket.io-client');
  const socket = io(base, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    extraHeaders: {origin},
  });
  onClose(async () => void socket.close());
  return new Promise((resolve) => {
    socket.once('connect', () => resolve('connected'));
    socket.once('connect_error', (error: Error) => resolve(`refused: ${error.message}`));
  });
}

claim.abuse(
  `${page}#socketio-v4`,
  `the gateway's cors option does not stop a WebSocket-transport connection from https://evil.example; allowRequest checking the Origin header does`,
  async () => {
    const {EventsGateway} = compileModule(
      fragment(page, 'socketio-v4', '@WebSocketGateway(').value,
      'events-gateway-origin',
    );
    @Module({providers: [EventsGateway]})
    class WithGatewayCors {}
    const {base} = await start(WithGatewayCors);
    expect(await connectOverWebSocket(base, 'https://evil.example')).toBe('connected');

    const {Checked} = compileModule(
      `${fragment(page, 'socketio-v4', 'allowRequest').value}\nexport { EventsGateway as Checked };`,
      'events-gateway-checked',
    );
    @Module({providers: [Checked]})
    class WithOriginCheck {}
    const checked = await start(WithOriginCheck);
    expect(await connectOverWebSocket(checked.base, 'https://evil.example')).toMatch(/^refused/);
    expect(await connectOverWebSocket(checked.base, 'https://cats.example.com')).toBe('connected');
  },
);

// Review 5: the registerAs() sample when the variables are set but empty.

claim.failure(
  `${page}#configuration-package`,
  `with DATABASE_HOST and DATABASE_PORT set to empty strings, the page's registerAs() factory falls back to localhost:5432 instead of '' and NaN`,
  () => {
    const source = fragment(page, 'configuration-package', 'registerAs<DatabaseConfig>').value;
    const databaseConfig = compileModule(source, 'database-config-empty').default;
    const saved = {host: process.env.DATABASE_HOST, port: process.env.DATABASE_PORT};
    process.env.DATABASE_HOST = '';
    process.env.DATABASE_PORT = '';
    try {
      expect(databaseConfig()).toEqual({host: 'localhost', port: 5432});
    } finally {
      for (const [key, value] of [
        ['DATABASE_HOST', saved.host],
        ['DATABASE_PORT', saved.port],
      ] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  },
);

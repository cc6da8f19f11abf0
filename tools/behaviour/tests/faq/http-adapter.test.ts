import {Server} from 'node:http';
import {expect} from 'vitest';
import {
  claim,
  samples,
  fragment,
  compileModule,
  nest,
  listen,
  freePort,
  applyEdits,
} from '../../lib';

const {Module, Injectable} = nest('@nestjs/common');
const {NestFactory, HttpAdapterHost, APP_FILTER} = nest('@nestjs/core');
const {FastifyAdapter} = nest('@nestjs/platform-fastify');
const {Transport} = nest('@nestjs/microservices');
const page = 'docs/faq/http-adapter.md';
const options: any = {logger: false, abortOnError: false};

const platforms = [
  ['express', () => undefined],
  ['fastify', () => new FastifyAdapter()],
] as const;

function create(module: unknown, adapter: unknown) {
  return adapter
    ? NestFactory.create(module, adapter, options)
    : NestFactory.create(module, options);
}

for (const [platform, adapter] of platforms) {
  claim(
    `${page}#outside-the-application-context`,
    `app.getHttpAdapter().getType() is '${platform}'`,
    async () => {
      @Module({})
      class AppModule {}
      const app = await create(AppModule, adapter());
      expect(app.getHttpAdapter().getType()).toBe(platform);
      await app.close();
    },
  );

  for (const lang of ['ts', 'js'] as const) {
    claim(
      `${page}#inside-the-application-context`,
      `CatsService reads the platform through HttpAdapterHost: '${platform}' (${lang})`,
      async () => {
        const {CatsService} = samples(page, {
          under: 'inside-the-application-context',
          lang,
        }).require('cats.service');
        @Module({providers: [CatsService]})
        class AppModule {}
        const app = await create(AppModule, adapter());
        await app.init();
        expect(app.get(CatsService).describePlatform()).toBe(platform);
        await app.close();
      },
    );
  }

  claim(
    `${page}#adapter-pattern`,
    `AllExceptionsFilter, registered with APP_FILTER, answers through the adapter on ${platform}: { statusCode, path, timestamp }`,
    async () => {
      const {AllExceptionsFilter} = compileModule(
        fragment(page, 'adapter-pattern', 'class AllExceptionsFilter').value,
        `all-exceptions-${platform}`,
      );
      @Module({providers: [{provide: APP_FILTER, useClass: AllExceptionsFilter}]})
      class AppModule {}
      const app = await create(AppModule, adapter());
      const base = await listen(app);
      const response = await fetch(`${base}/missing?x=1`);
      expect(response.status).toBe(404);
      const body = await response.json();
      expect(body).toEqual({
        statusCode: 404,
        path: '/missing?x=1',
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      });
      await app.close();
    },
  );
}

claim(
  `${page}#inside-the-application-context`,
  "in an HTTP application, HttpAdapterHost.httpAdapter is already set in a provider's constructor",
  async () => {
    let seen: unknown;
    @Injectable()
    class Early {
      constructor(host: any) {
        seen = host.httpAdapter?.getType();
      }
    }
    Reflect.defineMetadata('design:paramtypes', [HttpAdapterHost], Early);
    @Module({providers: [Early]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    expect(seen).toBe('express');
    await app.close();
  },
);

claim(
  `${page}#inside-the-application-context`,
  'in a standalone application and in a microservice, HttpAdapterHost is injectable and its httpAdapter is null',
  async () => {
    @Injectable()
    class Probe {
      constructor(readonly host: any) {}
    }
    Reflect.defineMetadata('design:paramtypes', [HttpAdapterHost], Probe);
    @Module({providers: [Probe]})
    class AppModule {}
    const context = await NestFactory.createApplicationContext(AppModule, options);
    expect(context.get(Probe).host.httpAdapter).toBeNull();
    await context.close();
    const microservice = await NestFactory.createMicroservice(AppModule, {
      transport: Transport.TCP,
      options: {host: '127.0.0.1', port: await freePort()},
      ...options,
    });
    await microservice.init();
    expect(microservice.get(Probe).host.httpAdapter).toBeNull();
    await microservice.close();
  },
);

claim(
  `${page}#adapter-pattern`,
  'app.useGlobalFilters(new AllExceptionsFilter(app.get(HttpAdapterHost))) works the same way',
  async () => {
    const {AllExceptionsFilter} = compileModule(
      fragment(page, 'adapter-pattern', 'class AllExceptionsFilter').value,
      'all-exceptions-manual',
    );
    @Module({})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    app.useGlobalFilters(new AllExceptionsFilter(app.get(HttpAdapterHost)));
    const base = await listen(app);
    const body = await (await fetch(`${base}/nope`)).json();
    expect(body.statusCode).toBe(404);
    expect(body.path).toBe('/nope');
    await app.close();
  },
);

claim(
  `${page}#the-native-instance`,
  'getInstance() is the Express application: AppInfoService reads its "trust proxy" setting',
  async () => {
    const {AppInfoService} = compileModule(
      fragment(page, 'the-native-instance', 'class AppInfoService').value,
      'app-info',
    );
    @Module({providers: [AppInfoService]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    await app.init();
    const instance = app.getHttpAdapter().getInstance();
    expect(typeof instance.use).toBe('function');
    expect(typeof instance.listen).toBe('function');
    expect(app.get(AppInfoService).isTrustingProxy()).toBe(false);
    instance.set('trust proxy', 1);
    expect(app.get(AppInfoService).isTrustingProxy()).toBe(true);
    await app.close();
  },
);

claim(
  `${page}#the-nodejs-server`,
  'app.getHttpServer() is the Node.js http.Server; a keepAliveTimeout set before listen() stays on the listening server',
  async () => {
    @Module({})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    const server = app.getHttpServer();
    expect(server).toBeInstanceOf(Server);
    server.keepAliveTimeout = 65000;
    await listen(app);
    expect(app.getHttpServer()).toBe(server);
    expect(server.listening).toBe(true);
    expect(server.keepAliveTimeout).toBe(65000);
    await app.close();
  },
);

/** The page's filter as the global filter of an app whose routes fail in different ways. */
async function failingApp(logger: unknown) {
  const {Controller, Get, Post, Body, UsePipes, ValidationPipe} = nest('@nestjs/common');
  const {IsString} = nest('class-validator');
  const {AllExceptionsFilter} = compileModule(
    fragment(page, 'adapter-pattern', 'class AllExceptionsFilter').value,
    'all-exceptions-failing',
  );
  class CreateCatDto {
    @IsString()
    name!: string;
  }
  @Controller('cats')
  class CatsController {
    @Get()
    findAll() {
      throw new Error(
        'password authentication failed for user "cats_admin" (postgres://cats_admin:hunter2@db:5432/cats)',
      );
    }
    @Post()
    @UsePipes(new ValidationPipe())
    create(@Body() cat: CreateCatDto) {
      return cat;
    }
  }
  @Module({
    controllers: [CatsController],
    providers: [{provide: APP_FILTER, useClass: AllExceptionsFilter}],
  })
  class AppModule {}
  const app = await NestFactory.create(AppModule, {logger, abortOnError: false});
  return {app, base: await listen(app)};
}

claim.abuse(
  `${page}#adapter-pattern`,
  "an error whose message holds a connection string and password: the client's 500 body has only statusCode, path and timestamp",
  async () => {
    const {app, base} = await failingApp(false);
    const response = await fetch(`${base}/cats`);
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toMatch(/hunter2|cats_admin|postgres/);
    expect(Object.keys(JSON.parse(text)).sort()).toEqual(['path', 'statusCode', 'timestamp']);
    await app.close();
  },
);

claim.failure(
  `${page}#adapter-pattern`,
  "a service that fails (the database refuses the login): the filter logs the error's stack at the error level, so the 500 does not go unnoticed",
  async () => {
    const {memoryLogger} = await import('../../lib');
    const logs = memoryLogger();
    const {app, base} = await failingApp(logs.logger);
    await fetch(`${base}/cats`);
    const errors = logs.lines.filter((line) => line.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0].context).toBe('AllExceptionsFilter');
    expect(errors[0].message).toMatch(
      /^Error: password authentication failed for user "cats_admin"/,
    );
    expect(errors[0].message).toContain('at CatsController.findAll');
    await app.close();
  },
);

claim(
  `${page}#adapter-pattern`,
  'a ValidationPipe rejection passes the filter as a bare 400: no message array, nothing logged',
  async () => {
    const {memoryLogger} = await import('../../lib');
    const logs = memoryLogger();
    const {app, base} = await failingApp(logs.logger);
    const response = await fetch(`${base}/cats`, {
      method: 'POST',
      headers: {'content-type': 'application/json'},
      body: JSON.stringify({name: 7}),
    });
    expect(response.status).toBe(400);
    expect(Object.keys(await response.json()).sort()).toEqual(['path', 'statusCode', 'timestamp']);
    expect(logs.lines.filter((line) => line.level === 'error')).toEqual([]);
    await app.close();
  },
);

/**
 * A hybrid application in a child process (a crash must not end the test worker): the page's filter as
 * APP_FILTER, a TCP microservice connected with inheritAppConfig: true, handlers that throw. `first`
 * is what the client sends first: two messages ('message') or an event ('event').
 */
async function hybridRun(first: 'message' | 'event', filterEdits: [string, string][] = []) {
  const {mkdtempSync, rmSync} = await import('node:fs');
  const {tmpdir} = await import('node:os');
  const {join} = await import('node:path');
  const {compileInto, runScript, plain} = await import('../fundamentals/_support');
  const dir = mkdtempSync(join(tmpdir(), 'behaviour-filter-hybrid-'));
  try {
    compileInto(
      dir,
      'all-exceptions.filter',
      applyEdits(
        `${page}#adapter-pattern`,
        fragment(page, 'adapter-pattern', 'class AllExceptionsFilter').value,
        filterEdits,
      ),
    );
    compileInto(
      dir,
      'main',
      `import { Controller, Get, Module, NotFoundException, Param } from '@nestjs/common';
import { APP_FILTER, NestFactory } from '@nestjs/core';
import { ClientProxyFactory, EventPattern, MessagePattern, RpcException, Transport } from '@nestjs/microservices';
import { lastValueFrom } from 'rxjs';
import { AllExceptionsFilter } from './all-exceptions.filter';

@Controller('cats')
class CatsController {
  @Get(':id')
  findOne(@Param('id') id: string) { throw new NotFoundException('no cat ' + id); }
  @MessagePattern('cats.find')
  find() { throw new NotFoundException('no such cat'); }
  @MessagePattern('cats.query')
  query() { throw new Error('password authentication failed (postgres://cats_admin:hunter2@db/cats)'); }
  @MessagePattern('cats.adopt')
  adopt() { throw new RpcException('cat already adopted'); }
  @EventPattern('cats.seen')
  seen() { throw new Error('could not record the sighting'); }
}
@Module({ controllers: [CatsController], providers: [{ provide: APP_FILTER, useClass: AllExceptionsFilter }] })
class AppModule {}

process.on('exit', (code) => console.log('exit ' + code));
async function main() {
  const port = Number(process.argv[2]);
  const app = await NestFactory.create(AppModule, { logger: ['error'] });
  app.connectMicroservice({ transport: Transport.TCP, options: { host: '127.0.0.1', port } }, { inheritAppConfig: true });
  await app.startAllMicroservices();
  await app.listen(0, '127.0.0.1');
  const client = ClientProxyFactory.create({ transport: Transport.TCP, options: { host: '127.0.0.1', port } });
  const ask = (pattern: string) =>
    lastValueFrom(client.send(pattern, {})).then(
      (value) => console.log(pattern + ' answered ' + JSON.stringify(value)),
      (error) => console.log(pattern + ' failed ' + JSON.stringify(error)),
    );
  if (process.argv[3] === 'event') {
    await lastValueFrom(client.emit('cats.seen', {}));
    await new Promise((r) => setTimeout(r, 300));
  } else {
    await ask('cats.find');
    await ask('cats.query');
    await ask('cats.adopt');
  }
  const response = await fetch((await app.getUrl()).replace('[::1]', '127.0.0.1') + '/cats/7');
  console.log('http ' + response.status + ' ' + Object.keys(await response.json()).sort().join(','));
  client.close();
  await app.close();
}
main();
`,
    );
    const port = await freePort();
    const result = await runScript(
      dir,
      'run.js',
      `process.argv.push(${JSON.stringify(String(port))}, ${JSON.stringify(first)});\nrequire('./main');`,
    );
    return {...result, output: plain(result.stdout + result.stderr)};
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
}

claim.abuse(
  `${page}#exceptions-outside-http`,
  "a hybrid app with inheritAppConfig: true and the page's filter: TCP messages whose handlers throw (a NotFoundException, an error holding a password) get { status: 'error', message: 'Internal server error' }, and the process goes on serving HTTP",
  async () => {
    const result = await hybridRun('message');
    const failed = '{"status":"error","message":"Internal server error"}';
    expect(result.stdout).toBe(
      `cats.find failed ${failed}\ncats.query failed ${failed}\n` +
        'cats.adopt failed {"status":"error","message":"cat already adopted"}\n' +
        'http 404 path,statusCode,timestamp\nexit 0\n',
    );
    expect(result.code).toBe(0);
    expect(result.output).not.toContain('TypeError');
    // Nest's own handling logs what the client does not get.
    expect(result.output).toMatch(/ERROR \[RpcExceptionsHandler\] password authentication failed/);
  },
);

claim.failure(
  `${page}#exceptions-outside-http`,
  'the same filter rethrowing instead of returning for other contexts: the first TCP message handler that throws ends the process with exit code 1',
  async () => {
    const result = await hybridRun('message', [
      [
        '      return;\n    }\n    const { httpAdapter }',
        '      throw exception;\n    }\n    const { httpAdapter }',
      ],
    ]);
    expect(result.stdout).toBe('exit 1\n');
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/NotFoundException: no such cat\n\s+at CatsController\.find/);
  },
);

claim.failure(
  `${page}#exceptions-outside-http`,
  "an event handler that throws in the same hybrid app: Nest's RPC handling logs the error with its stack, and the process goes on serving HTTP",
  async () => {
    const result = await hybridRun('event');
    expect(result.stdout).toBe('http 404 path,statusCode,timestamp\nexit 0\n');
    expect(result.code).toBe(0);
    expect(result.output).toMatch(
      /ERROR \[RpcExceptionsHandler\] could not record the sighting\nError: could not record the sighting\n\s+at CatsController\.seen/,
    );
  },
);

claim.failure(
  `${page}#exceptions-outside-http`,
  "a GraphQL resolver that throws, with the page's filter global: a NotFoundException reaches the client with its message and 404, another error is logged by ExceptionsHandler and GraphQL sends its message",
  async () => {
    const {memoryLogger} = await import('../../lib');
    const {NotFoundException} = nest('@nestjs/common');
    const {GraphQLModule, Resolver, Query, Args} = nest('@nestjs/graphql');
    const {AllExceptionsFilter} = compileModule(
      fragment(page, 'adapter-pattern', 'class AllExceptionsFilter').value,
      'all-exceptions-graphql',
    );
    @Resolver()
    class CatsResolver {
      @Query('cat')
      cat(@Args('id') id: string) {
        if (id === 'db') throw new Error('connect ECONNREFUSED 10.0.0.5:5432');
        throw new NotFoundException(`no cat ${id}`);
      }
    }
    Reflect.defineMetadata('design:paramtypes', [String], CatsResolver.prototype, 'cat');
    @Module({
      imports: [GraphQLModule.forRoot({typeDefs: 'type Query { cat(id: String!): String }'})],
      providers: [CatsResolver, {provide: APP_FILTER, useClass: AllExceptionsFilter}],
    })
    class AppModule {}
    const logs = memoryLogger();
    const app = await NestFactory.create(AppModule, {logger: logs.logger, abortOnError: false});
    const base = await listen(app);
    const ask = async (id: string) =>
      (
        await fetch(`${base}/graphql`, {
          method: 'POST',
          headers: {'content-type': 'application/json'},
          body: JSON.stringify({query: `{ cat(id: "${id}") }`}),
        })
      ).json();
    try {
      const missing = await ask('7');
      expect(missing.errors[0].message).toBe('no cat 7');
      expect(missing.errors[0].extensions.response.statusCode).toBe(404);
      const failed = await ask('db');
      expect(failed.errors[0].message).toBe('connect ECONNREFUSED 10.0.0.5:5432');
      expect(JSON.stringify([missing, failed])).not.toMatch(/originalUrl|TypeError/);
      const errors = logs.lines.filter((line) => line.level === 'error');
      expect(errors.map((line) => [line.context, line.message])).toEqual([
        ['ExceptionsHandler', 'connect ECONNREFUSED 10.0.0.5:5432'],
      ]);
    } finally {
      await app.close();
    }
  },
);

import {afterAll, afterEach, beforeAll, describe, expect} from 'vitest';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {
  claim,
  samples,
  nest,
  listen,
  fragment,
  compileModule,
  expectOutput,
  service,
  repoRoot,
  type Service,
} from '../../lib';
import {ioConnect, collect, emitAck} from '../websockets/_support';

const {Module, Controller, Get, UseGuards} = nest('@nestjs/common');
const {NestFactory, APP_GUARD} = nest('@nestjs/core');
const {ThrottlerModule, ThrottlerGuard} = nest('@nestjs/throttler');
const page = 'docs/security/rate-limiting.md';

@Controller()
class PetsController {
  @Get('cats')
  cats() {
    return 'cats';
  }
  @Get('dogs')
  dogs() {
    return 'dogs';
  }
}

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.reverse()) await close();
  closers = [];
});

async function start(
  module: unknown,
  setup?: (app: any) => unknown,
  adapter?: unknown,
): Promise<string> {
  const app = adapter
    ? await NestFactory.create(module, adapter, {logger: false})
    : await NestFactory.create(module, {logger: false});
  await setup?.(app);
  closers.push(() => app.close());
  return listen(app);
}

/** A module with the given throttler options, a global guard of the given class, and controllers. */
function throttled(
  options: Record<string, unknown>,
  guard: unknown,
  controllers: unknown[],
  providers: unknown[] = [],
) {
  @Module({
    imports: [ThrottlerModule.forRoot(options)],
    controllers: controllers as any[],
    providers: [{provide: APP_GUARD, useClass: guard}, ...(providers as any[])],
  })
  class TestModule {}
  return TestModule;
}

/** Runs a class fragment of the page (its imports are resolved by compileModule). */
function pageClass<T = any>(section: string, contains: string, name: string): T {
  const source = fragment(page, section, contains).value;
  return compileModule(source.replace(/^(export )?class /m, 'export class '), name)[name] as T;
}

describe('Getting started: the page app.module', () => {
  let base: string;
  beforeAll(async () => {
    const {AppModule} = samples(page, {under: 'getting-started'}).require('app.module');
    @Module({imports: [AppModule], controllers: [PetsController]})
    class RootModule {}
    const app = await NestFactory.create(RootModule, {logger: false});
    base = await listen(app);
    closersAll.push(() => app.close());
  });
  const closersAll: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closersAll) await close();
  });

  claim(
    `${page}#getting-started`,
    'ttl 60, limit 10: ten calls pass with X-RateLimit headers counting down, the eleventh gets 429 with Retry-After',
    async () => {
      const remaining: (string | null)[] = [];
      for (let i = 0; i < 10; i += 1) {
        const response = await fetch(`${base}/cats`);
        expect(response.status).toBe(200);
        expect(response.headers.get('x-ratelimit-limit')).toBe('10');
        remaining.push(response.headers.get('x-ratelimit-remaining'));
      }
      expect(remaining).toEqual(['9', '8', '7', '6', '5', '4', '3', '2', '1', '0']);
      const eleventh = await fetch(`${base}/cats`);
      expect(eleventh.status).toBe(429);
      expect(Number(eleventh.headers.get('retry-after'))).toBeGreaterThan(55);
      expect(eleventh.headers.get('x-ratelimit-remaining')).toBeNull();
      expectOutput(page, 'throttled', await eleventh.json());
    },
  );

  claim(
    `${page}#getting-started`,
    'each route has its own budget per client: GET /dogs still answers after /cats is used up',
    async () => {
      expect((await fetch(`${base}/cats`)).status).toBe(429);
      const dogs = await fetch(`${base}/dogs`);
      expect(dogs.status).toBe(200);
      expect(Number(dogs.headers.get('x-ratelimit-reset'))).toBe(0);
    },
  );
});

claim(
  `${page}#getting-started`,
  'the window slides and rejected requests are not recorded: with ttl 1, limit 1, hammering does not delay the next accepted call',
  async () => {
    const base = await start(throttled({ttl: 1, limit: 1}, ThrottlerGuard, [PetsController]));
    const started = Date.now();
    expect((await fetch(`${base}/cats`)).status).toBe(200);
    let status = 429;
    while (status === 429 && Date.now() - started < 3000) {
      status = (await fetch(`${base}/cats`)).status;
      if (status === 429) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1600);
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#customization`,
    `@SkipThrottle() on the controller frees GET /cats; @SkipThrottle(false) + @Throttle(3, 60) gives POST /cats 3 calls (${lang})`,
    async () => {
      const {CatsController} = samples(page, {lang}).require('cats.controller');
      const base = await start(throttled({ttl: 60, limit: 10}, ThrottlerGuard, [CatsController]));
      for (let i = 0; i < 12; i += 1) expect((await fetch(`${base}/cats`)).status).toBe(200);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1)
        statuses.push((await fetch(`${base}/cats`, {method: 'POST'})).status);
      expect(statuses).toEqual([201, 201, 201, 429]);
    },
  );
}

claim(
  `${page}#proxies`,
  'behind trust proxy 1, ThrottlerBehindProxyGuard counts per X-Forwarded-For client (and a client can pick a fresh one)',
  async () => {
    const Guard = pageClass(
      `proxies`,
      'class ThrottlerBehindProxyGuard',
      'ThrottlerBehindProxyGuard',
    );
    const base = await start(throttled({ttl: 60, limit: 1}, Guard, [PetsController]), (app) => {
      const code = fragment(page, 'proxies', "app.set('trust proxy', 1);").value;
      new Function('app', /app\.set\([^)]*\);/.exec(code)![0])(app);
    });
    const as = (ip: string) => fetch(`${base}/cats`, {headers: {'x-forwarded-for': ip}});
    expect((await as('203.0.113.1')).status).toBe(200);
    expect((await as('203.0.113.1')).status).toBe(429);
    expect((await as('203.0.113.2')).status).toBe(200);
  },
);

claim(
  `${page}#proxies`,
  'without trust proxy, every client behind the proxy shares one budget',
  async () => {
    const Guard = pageClass(
      `proxies`,
      'class ThrottlerBehindProxyGuard',
      'ThrottlerBehindProxyGuard',
    );
    const base = await start(throttled({ttl: 60, limit: 1}, Guard, [PetsController]));
    expect(
      (await fetch(`${base}/cats`, {headers: {'x-forwarded-for': '203.0.113.1'}})).status,
    ).toBe(200);
    expect(
      (await fetch(`${base}/cats`, {headers: {'x-forwarded-for': '203.0.113.2'}})).status,
    ).toBe(429);
  },
);

claim(
  `${page}#proxies`,
  'on Fastify with trustProxy: true, the default tracker counts per forwarded client; the Express guard (ips[0]) shares one budget',
  async () => {
    const {FastifyAdapter} = nest('@nestjs/platform-fastify');
    const Guard = pageClass(
      `proxies`,
      'class ThrottlerBehindProxyGuard',
      'ThrottlerBehindProxyGuard',
    );
    for (const [guard, expected] of [
      [ThrottlerGuard, [200, 429, 200]],
      [Guard, [200, 429, 429]],
    ] as const) {
      const base = await start(
        throttled({ttl: 60, limit: 1}, guard, [PetsController]),
        undefined,
        new FastifyAdapter({trustProxy: true}),
      );
      const as = (ip: string) => fetch(`${base}/cats`, {headers: {'x-forwarded-for': ip}});
      expect([
        (await as('203.0.113.1')).status,
        (await as('203.0.113.1')).status,
        (await as('203.0.113.2')).status,
      ]).toEqual(expected);
    }
  },
);

claim(
  `${page}#tracking-authenticated-users`,
  'UserThrottlerGuard after an auth guard counts per user, whatever the address',
  async () => {
    const UserThrottlerGuard = pageClass(
      'tracking-authenticated-users',
      'class UserThrottlerGuard',
      'UserThrottlerGuard',
    );
    const auth = {
      canActivate(context: any) {
        const req = context.switchToHttp().getRequest();
        req.user = req.headers['x-user'] ? {id: req.headers['x-user']} : undefined;
        return true;
      },
    };
    @Controller()
    class MeController {
      @UseGuards(auth, UserThrottlerGuard)
      @Get('me')
      me() {
        return 'me';
      }
    }
    @Module({imports: [ThrottlerModule.forRoot({ttl: 60, limit: 1})], controllers: [MeController]})
    class M {}
    const base = await start(M);
    const as = (user?: string) => fetch(`${base}/me`, {headers: user ? {'x-user': user} : {}});
    expect((await as('1')).status).toBe(200);
    expect((await as('1')).status).toBe(429);
    expect((await as('2')).status).toBe(200);
    expect((await as()).status).toBe(200);
    expect((await as()).status).toBe(429);
  },
);

describe('WebSockets', () => {
  const {WebSocketGateway, SubscribeMessage, MessageBody} = nest('@nestjs/websockets');
  const {Throttle} = nest('@nestjs/throttler');
  const WsThrottlerGuard = () =>
    pageClass('websockets', 'class WsThrottlerGuard', 'WsThrottlerGuard');

  claim(
    `${page}#websockets`,
    'WsThrottlerGuard with @UseGuards() on a gateway: over the limit, the client gets an exception event "Too many requests"',
    async () => {
      const Guard = WsThrottlerGuard();
      @WebSocketGateway()
      class EventsGateway {
        @UseGuards(Guard)
        @Throttle(2, 60)
        @SubscribeMessage('events')
        events(@MessageBody() data: unknown) {
          return data;
        }
      }
      @Module({
        imports: [ThrottlerModule.forRoot({ttl: 60, limit: 10})],
        providers: [EventsGateway],
      })
      class M {}
      const base = await start(M);
      const socket = await ioConnect(base);
      expect(await emitAck(socket, 'events', 1)).toBe(1);
      expect(await emitAck(socket, 'events', 2)).toBe(2);
      const errors = collect(socket, 'exception');
      expect(await emitAck(socket, 'events', 3, 300)).toBe('timeout');
      expect(await errors).toEqual([{status: 'error', message: 'Too many requests'}]);
      socket.close();
    },
  );

  claim(
    `${page}#websockets`,
    'registered with APP_GUARD it throttles no gateway message, and every HTTP request fails (500: no socket to read)',
    async () => {
      const Guard = WsThrottlerGuard();
      @WebSocketGateway()
      class EventsGateway {
        @SubscribeMessage('events')
        events(@MessageBody() data: unknown) {
          return data;
        }
      }
      const base = await start(
        throttled({ttl: 60, limit: 1}, Guard, [PetsController], [EventsGateway]),
      );
      expect((await fetch(`${base}/cats`)).status).toBe(500);
      const socket = await ioConnect(base);
      for (let i = 0; i < 3; i += 1) expect(await emitAck(socket, 'events', i)).toBe(i);
      socket.close();
    },
  );
});

claim(
  `${page}#graphql`,
  'GqlThrottlerGuard with the req/res context function: headers on the response, then the ThrottlerException as a GraphQL error',
  async () => {
    const GqlThrottlerGuard = pageClass('graphql', 'class GqlThrottlerGuard', 'GqlThrottlerGuard');
    const contextFn = /context: (.*),\n/.exec(
      fragment(page, 'graphql', 'context: ({ req, res })').value,
    )![1];
    const {build} = compileModule(
      `
import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { GraphQLModule, Query, Resolver } from '@nestjs/graphql';
import { ThrottlerModule } from '@nestjs/throttler';
@Resolver()
class HelloResolver { @Query(() => String) hello() { return 'hi'; } }
export function build(guard: any) {
  @Module({
    imports: [ThrottlerModule.forRoot({ ttl: 60, limit: 2 }), GraphQLModule.forRoot({ autoSchemaFile: true, context: ${contextFn} })],
    providers: [HelloResolver, { provide: APP_GUARD, useClass: guard }],
  })
  class GqlModule {}
  return GqlModule;
}
`,
      'gql-throttle-2',
    );
    const base = await start(build(GqlThrottlerGuard));
    const query = () =>
      fetch(`${base}/graphql`, {
        method: 'POST',
        headers: {'content-type': 'application/json'},
        body: JSON.stringify({query: '{ hello }'}),
      });
    const first = await query();
    expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
    expect((await first.json()).data).toEqual({hello: 'hi'});
    await query();
    const third = await (await query()).json();
    expect(third.errors[0].message).toBe('ThrottlerException: Too Many Requests');
  },
);

claim(
  `${page}#graphql`,
  "on Fastify, the context maps { request, reply } to req and res, and the guard's headers reach the reply",
  async () => {
    const {FastifyAdapter} = nest('@nestjs/platform-fastify');
    const GqlThrottlerGuard = pageClass('graphql', 'class GqlThrottlerGuard', 'GqlThrottlerGuard');
    // The page gives this context function inline, in its note on Apollo's Fastify integration.
    const contextFn = /`context: (\(\{ request, reply \}\) => \(\{[^`]*\}\))`/.exec(
      readFileSync(join(repoRoot, page), 'utf8'),
    )![1];
    const {build} = compileModule(
      `
import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { GraphQLModule, Query, Resolver } from '@nestjs/graphql';
import { ThrottlerModule } from '@nestjs/throttler';
@Resolver()
class HelloResolver { @Query(() => String) hello() { return 'hi'; } }
export function build(guard: any) {
  @Module({
    imports: [ThrottlerModule.forRoot({ ttl: 60, limit: 1 }), GraphQLModule.forRoot({ autoSchemaFile: true, context: ${contextFn} })],
    providers: [HelloResolver, { provide: APP_GUARD, useClass: guard }],
  })
  class GqlModule {}
  return GqlModule;
}
`,
      'gql-throttle-fastify',
    );
    const base = await start(build(GqlThrottlerGuard), undefined, new FastifyAdapter());
    const query = () =>
      fetch(`${base}/graphql`, {
        method: 'POST',
        headers: {'content-type': 'application/json'},
        body: JSON.stringify({query: '{ hello }'}),
      });
    const first = await query();
    expect(first.headers.get('x-ratelimit-limit')).toBe('1');
    expect((await first.json()).data).toEqual({hello: 'hi'});
    expect((await (await query()).json()).errors[0].message).toBe(
      'ThrottlerException: Too Many Requests',
    );
  },
);

claim(
  `${page}#configuration`,
  'ignoreUserAgents: a matching User-Agent is never throttled, others are',
  async () => {
    const options = new Function(
      `return ${/ThrottlerModule\.forRoot\(([\s\S]*?)\);/.exec(fragment(page, 'configuration', 'ignoreUserAgents: [').value)![1]}`,
    )();
    const base = await start(throttled({...options, limit: 1}, ThrottlerGuard, [PetsController]));
    for (let i = 0; i < 3; i += 1) {
      expect(
        (
          await fetch(`${base}/cats`, {
            headers: {'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1)'},
          })
        ).status,
      ).toBe(200);
    }
    expect((await fetch(`${base}/cats`, {headers: {'user-agent': 'curl/8'}})).status).toBe(200);
    expect((await fetch(`${base}/cats`, {headers: {'user-agent': 'curl/8'}})).status).toBe(429);
  },
);

claim(
  `${page}#async-configuration`,
  'forRootAsync() with ConfigService: the env strings converted with Number() set the limit',
  async () => {
    process.env.THROTTLE_TTL = '60';
    process.env.THROTTLE_LIMIT = '2';
    try {
      const {AppModule} = compileModule(
        fragment(page, 'async-configuration', 'useFactory: (config: ConfigService)').value,
        'throttle-async',
      );
      @Module({
        imports: [AppModule],
        controllers: [PetsController],
        providers: [{provide: APP_GUARD, useClass: ThrottlerGuard}],
      })
      class RootModule {}
      const base = await start(RootModule);
      const statuses: number[] = [];
      for (let i = 0; i < 3; i += 1) statuses.push((await fetch(`${base}/cats`)).status);
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      delete process.env.THROTTLE_TTL;
      delete process.env.THROTTLE_LIMIT;
    }
  },
);

claim(
  `${page}#async-configuration`,
  'useClass: ThrottlerConfigService.createThrottlerOptions() supplies the options',
  async () => {
    const {ThrottlerConfigService} = compileModule(
      fragment(page, 'async-configuration', 'class ThrottlerConfigService').value,
      'throttle-class',
    );
    @Module({
      imports: [ThrottlerModule.forRootAsync({useClass: ThrottlerConfigService})],
      controllers: [PetsController],
      providers: [{provide: APP_GUARD, useClass: ThrottlerGuard}],
    })
    class M {}
    const base = await start(M);
    expect((await fetch(`${base}/cats`)).headers.get('x-ratelimit-limit')).toBe('10');
  },
);

describe('Storages', () => {
  let redis: Service;
  beforeAll(async () => {
    redis = await service('redis');
  });
  afterAll(async () => redis?.stop());

  async function connections(): Promise<number> {
    const client = nest('redis4').createClient({url: redis.url});
    await client.connect();
    const list: string = await client.sendCommand(['CLIENT', 'LIST']);
    await client.quit();
    return list.trim().split('\n').length - 1;
  }

  claim(
    `${page}#storages`,
    'nestjs-throttler-storage-redis 0.1.18: two instances share one budget, and a storage that opened its connection closes it with the app',
    async () => {
      const before = await connections();
      const source = fragment(page, 'storages', 'new ThrottlerStorageRedisService(')
        .value.replace("'redis://localhost:6379'", `'${redis.url}'`)
        .replace('limit: 10', 'limit: 3');
      const urls: string[] = [];
      for (let i = 0; i < 2; i += 1) {
        const {AppModule} = compileModule(source, `throttle-redis-${i}`);
        @Module({
          imports: [AppModule],
          controllers: [PetsController],
          providers: [{provide: APP_GUARD, useClass: ThrottlerGuard}],
        })
        class RootModule {}
        urls.push(await start(RootModule));
      }
      const statuses: number[] = [];
      for (const url of [urls[0], urls[1], urls[0], urls[1]])
        statuses.push((await fetch(`${url}/cats`)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(await connections()).toBe(before + 2);
      for (const close of closers.splice(0).reverse()) await close();
      const deadline = Date.now() + 2000;
      while ((await connections()) !== before && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await connections()).toBe(before);
    },
  );
});

describe('Custom error response', () => {
  claim(
    `${page}#custom-error-response`,
    'FriendlyThrottlerGuard: the 429 carries its own message',
    async () => {
      const Guard = pageClass(
        'custom-error-response',
        'class FriendlyThrottlerGuard',
        'FriendlyThrottlerGuard',
      );
      const base = await start(throttled({ttl: 60, limit: 1}, Guard, [PetsController]));
      await fetch(`${base}/cats`);
      const response = await fetch(`${base}/cats`);
      expect(response.status).toBe(429);
      expect(await response.json()).toEqual({
        statusCode: 429,
        message: 'Slow down a little, and try again in a minute.',
      });
    },
  );

  claim(
    `${page}#custom-error-response`,
    'the protected errorMessage and headerPrefix properties change the message and the header names',
    async () => {
      class Renamed extends ThrottlerGuard {
        errorMessage = 'Easy there';
        headerPrefix = 'RateLimit';
      }
      const base = await start(throttled({ttl: 60, limit: 1}, Renamed, [PetsController]));
      const first = await fetch(`${base}/cats`);
      expect(first.headers.get('ratelimit-limit')).toBe('1');
      expect(first.headers.get('x-ratelimit-limit')).toBeNull();
      expect((await (await fetch(`${base}/cats`)).json()).message).toBe('Easy there');
    },
  );
});

claim(
  `${page}#customization`,
  '@Throttle() on the class and on a method: the method wins',
  async () => {
    const {Throttle} = nest('@nestjs/throttler');
    @Throttle(1, 60)
    @Controller()
    class MixedController {
      @Get('class')
      byClass() {
        return 'class';
      }
      @Throttle(3, 60)
      @Get('method')
      byMethod() {
        return 'method';
      }
    }
    const base = await start(throttled({ttl: 60, limit: 10}, ThrottlerGuard, [MixedController]));
    expect((await fetch(`${base}/class`)).headers.get('x-ratelimit-limit')).toBe('1');
    expect((await fetch(`${base}/method`)).headers.get('x-ratelimit-limit')).toBe('3');
  },
);

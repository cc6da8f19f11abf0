import {afterAll, afterEach, beforeAll, describe, expect, vi} from 'vitest';
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
  applyEdits,
  memoryLogger,
  type Service,
} from '../../lib';
import {ioConnect, collect, emitAck} from '../websockets/_support';
import {burst, restartableRedis, runChild, testSecret} from './_security';

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

claim.abuse(
  `${page}#customization`,
  '@Throttle(3, 60) without the @SkipThrottle(false) under a skipped controller: POST /cats is not throttled at all',
  async () => {
    const {CatsController} = samples(page, {
      edit: {'cats.controller': [['  @SkipThrottle(false)\n', '']]},
    }).require('cats.controller');
    const base = await start(throttled({ttl: 60, limit: 10}, ThrottlerGuard, [CatsController]));
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1)
      statuses.push((await fetch(`${base}/cats`, {method: 'POST'})).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201]);
  },
);

claim.abuse(
  `${page}#getting-started`,
  'two controllers with the same class name share the budget of a handler name: calls to one use up the other',
  async () => {
    const make = (path: string) => {
      @Controller(path)
      class AdminController {
        @Get()
        findAll() {
          return path;
        }
      }
      return AdminController;
    };
    const base = await start(
      throttled({ttl: 60, limit: 2}, ThrottlerGuard, [make('billing'), make('users')]),
    );
    expect([
      (await fetch(`${base}/billing`)).status,
      (await fetch(`${base}/billing`)).status,
      (await fetch(`${base}/users`)).status,
    ]).toEqual([200, 200, 429]);
  },
);

claim.abuse(
  `${page}#customization`,
  '@Throttle(60, 3), the arguments swapped for "3 per minute": 60 calls pass within 3 seconds',
  async () => {
    const {Throttle} = nest('@nestjs/throttler');
    @Controller()
    class LoginController {
      @Throttle(60, 3)
      @Get('login')
      login() {
        return 'ok';
      }
    }
    const base = await start(throttled({ttl: 60, limit: 10}, ThrottlerGuard, [LoginController]));
    const first = await fetch(`${base}/login`);
    expect(first.headers.get('x-ratelimit-limit')).toBe('60');
    const statuses = await burst(base, 40, '/login');
    expect(statuses.every((status) => status === 200)).toBe(true);
  },
);

claim.failure(
  `${page}#getting-started`,
  'ThrottlerGuard registered without ThrottlerModule.forRoot(): the application does not start (the guard cannot get its options)',
  async () => {
    @Module({
      controllers: [PetsController],
      providers: [{provide: APP_GUARD, useClass: ThrottlerGuard}],
    })
    class WithoutModule {}
    await expect(
      NestFactory.create(WithoutModule, {logger: false, abortOnError: false}),
    ).rejects.toThrow(/THROTTLER:MODULE_OPTIONS/);
  },
);

/** The page's bootstrap line that sets trust proxy, run against an app. */
function pageTrustProxy(app: any) {
  const code = fragment(page, 'proxies', "app.set('trust proxy'").value;
  new Function('app', /app\.set\([^)]*\);/.exec(code)![0])(app);
}
/** What a proxy sends on: the entries the client wrote, then the address the proxy saw. */
const forwarded = (forged: string, client = '203.0.113.9') => ({
  'x-forwarded-for': `${forged}, ${client}`,
});

claim.abuse(
  `${page}#proxies`,
  "behind trust proxy 1 (the page's line), entries a client forges in front of its X-Forwarded-For are ignored: one budget, 200 then 429",
  async () => {
    const base = await start(
      throttled({ttl: 60, limit: 1}, ThrottlerGuard, [PetsController]),
      pageTrustProxy,
    );
    const statuses: number[] = [];
    for (const forged of ['198.51.100.1', '198.51.100.2', '198.51.100.3'])
      statuses.push((await fetch(`${base}/cats`, {headers: forwarded(forged)})).status);
    expect(statuses).toEqual([200, 429, 429]);
  },
);

claim.abuse(
  `${page}#proxies`,
  "with trust proxy = true, req.ip is the client's first, forged entry: a new forged address per request is never throttled (so is a req.ips[0] tracker)",
  async () => {
    class IpsZeroGuard extends ThrottlerGuard {
      protected getTracker(req: Record<string, any>): string {
        return req.ips.length ? req.ips[0] : req.ip;
      }
    }
    for (const guard of [ThrottlerGuard, IpsZeroGuard]) {
      const base = await start(throttled({ttl: 60, limit: 1}, guard, [PetsController]), (app) =>
        app.set('trust proxy', true),
      );
      const statuses: number[] = [];
      for (const forged of ['198.51.100.1', '198.51.100.2', '198.51.100.3'])
        statuses.push((await fetch(`${base}/cats`, {headers: forwarded(forged)})).status);
      expect(statuses, guard.name).toEqual([200, 200, 200]);
    }
  },
);

claim.abuse(
  `${page}#proxies`,
  'with a hop count, a tracker that returns req.ips[0] gets the same address as req.ip: the override changes nothing',
  async () => {
    @Controller()
    class EchoController {
      @Get('echo')
      echo(@(nest('@nestjs/common').Req()) req: any) {
        return {ip: req.ip, first: req.ips[0]};
      }
    }
    const base = await start(
      throttled({ttl: 60, limit: 10}, ThrottlerGuard, [EchoController]),
      pageTrustProxy,
    );
    const body = await (await fetch(`${base}/echo`, {headers: forwarded('198.51.100.1')})).json();
    expect(body).toEqual({ip: '203.0.113.9', first: '203.0.113.9'});
  },
);

claim.abuse(
  `${page}#proxies`,
  'on Fastify, trustProxy: 1 ignores forged entries (200, 429, 429); trustProxy: true lets each forged address through',
  async () => {
    const {FastifyAdapter} = nest('@nestjs/platform-fastify');
    for (const [trustProxy, expected] of [
      [1, [200, 429, 429]],
      [true, [200, 200, 200]],
    ] as const) {
      const base = await start(
        throttled({ttl: 60, limit: 1}, ThrottlerGuard, [PetsController]),
        undefined,
        new FastifyAdapter({trustProxy}),
      );
      const statuses: number[] = [];
      for (const forged of ['198.51.100.1', '198.51.100.2', '198.51.100.3'])
        statuses.push((await fetch(`${base}/cats`, {headers: forwarded(forged)})).status);
      expect(statuses, String(trustProxy)).toEqual(expected);
    }
  },
);

claim(
  `${page}#proxies`,
  'without trust proxy, every client behind the proxy shares one budget',
  async () => {
    const base = await start(throttled({ttl: 60, limit: 1}, ThrottlerGuard, [PetsController]));
    expect((await fetch(`${base}/cats`, {headers: forwarded('', '203.0.113.1')})).status).toBe(200);
    expect((await fetch(`${base}/cats`, {headers: forwarded('', '203.0.113.2')})).status).toBe(429);
  },
);

claim.abuse(
  `${page}#proxies`,
  'IPv6: addresses of one /64 network count as different clients, so one client can start a fresh budget per request',
  async () => {
    const base = await start(
      throttled({ttl: 60, limit: 1}, ThrottlerGuard, [PetsController]),
      pageTrustProxy,
    );
    const statuses: number[] = [];
    for (const address of ['2001:db8:5:7::1', '2001:db8:5:7::2', '2001:db8:5:7:abcd::3'])
      statuses.push((await fetch(`${base}/cats`, {headers: {'x-forwarded-for': address}})).status);
    expect(statuses).toEqual([200, 200, 200]);
  },
);

claim.abuse(
  `${page}#proxies`,
  'two people behind one address (one NAT) share a budget: the second is refused after the first used it up',
  async () => {
    const base = await start(
      throttled({ttl: 60, limit: 2}, ThrottlerGuard, [PetsController]),
      pageTrustProxy,
    );
    const office = forwarded('', '203.0.113.50');
    expect(
      (await fetch(`${base}/cats`, {headers: {...office, 'user-agent': 'alice'}})).status,
    ).toBe(200);
    expect(
      (await fetch(`${base}/cats`, {headers: {...office, 'user-agent': 'alice'}})).status,
    ).toBe(200);
    expect((await fetch(`${base}/cats`, {headers: {...office, 'user-agent': 'bob'}})).status).toBe(
      429,
    );
  },
);

describe('Tracking authenticated users, with the authentication chapter (JwtStrategy, JwtAuthGuard)', () => {
  const authPage = 'docs/security/authentication.md';
  process.env.JWT_SECRET = testSecret;
  /** The authentication chapter's app with the page's UserThrottlerGuard, wired as `wiring` says. */
  async function app(
    wiring: 'route' | 'global-throttler' | 'both-global' | 'split-global',
    guardSource?: string,
  ) {
    const guard =
      guardSource ??
      fragment(page, 'tracking-authenticated-users', 'class UserThrottlerGuard').value;
    const set = samples(authPage, {
      under: 'protecting-routes',
      edit: {
        'auth/auth.module': [
          [
            'providers: [AuthService, LocalStrategy]',
            'providers: [AuthService, LocalStrategy, JwtStrategy]',
          ],
          [
            "import { LocalStrategy } from './local.strategy';",
            "import { LocalStrategy } from './local.strategy';\nimport { JwtStrategy } from './jwt.strategy';",
          ],
          // 'split-global': the JWT guard made global in AuthModule, the throttler in AppModule
          ...(wiring === 'split-global'
            ? ([
                [
                  'providers: [AuthService, LocalStrategy, JwtStrategy]',
                  'providers: [AuthService, LocalStrategy, JwtStrategy, { provide: APP_GUARD, useClass: JwtAuthGuard }]',
                ],
                [
                  "import { JwtStrategy } from './jwt.strategy';",
                  "import { JwtStrategy } from './jwt.strategy';\nimport { APP_GUARD } from '@nestjs/core';\nimport { JwtAuthGuard } from './jwt-auth.guard';",
                ],
              ] as [string, string][])
            : []),
        ],
      },
      files: {
        'auth/constants': fragment(authPage, 'jwt-functionality', 'export const jwtConstants')
          .value,
        'user-throttler.guard': guard,
        'app.module': `
import { Controller, Get, Module, UseGuards } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { AuthModule } from './auth/auth.module';
import { AppController } from './app.controller';
import { JwtAuthGuard } from './auth/jwt-auth.guard';
import { UserThrottlerGuard } from './user-throttler.guard';
const wiring = ${JSON.stringify(wiring)};
@Controller()
class ReportsController {
  @UseGuards(...(wiring === 'route' ? [JwtAuthGuard, UserThrottlerGuard] : wiring === 'global-throttler' ? [JwtAuthGuard] : []))
  @Get('reports') reports() { return 'reports'; }
}
const globals = wiring === 'route' ? [] : wiring === 'global-throttler' || wiring === 'split-global'
  ? [{ provide: APP_GUARD, useClass: UserThrottlerGuard }]
  : [{ provide: APP_GUARD, useClass: JwtAuthGuard }, { provide: APP_GUARD, useClass: UserThrottlerGuard }];
@Module({
  imports: [AuthModule, ThrottlerModule.forRoot({ ttl: 60, limit: 3 })],
  controllers: wiring === 'both-global' ? [ReportsController] : [AppController, ReportsController],
  providers: globals,
})
export class AppModule {}
`,
      },
    });
    const base = await start(set.require('app.module').AppModule);
    // Tokens as the chapter's AuthService.login() signs them (sub = the user id), with the
    // secret its JwtStrategy reads (the app of 'both-global' has no open login route).
    const tokenOf = (username: 'alice' | 'bob') =>
      new (nest('@nestjs/jwt').JwtService)({secret: testSecret}).sign({
        username,
        sub: {alice: 1, bob: 2}[username],
      });
    const as = async (username: 'alice' | 'bob') =>
      (
        await fetch(`${base}/reports`, {
          headers: {authorization: `Bearer ${tokenOf(username)}`},
        })
      ).status;
    return {base, as};
  }

  claim.abuse(
    `${page}#tracking-authenticated-users`,
    'a second user: after alice used up her 3 calls, bob (same address) still gets his own 3',
    async () => {
      const {as} = await app('route');
      const statuses = [await as('alice'), await as('alice'), await as('alice'), await as('alice')];
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect([await as('bob'), await as('bob'), await as('bob'), await as('bob')]).toEqual([
        200, 200, 200, 429,
      ]);
    },
  );

  claim.abuse(
    `${page}#tracking-authenticated-users`,
    "a user object without userId (req.user.id style) falls back to the address instead of one 'user-undefined' budget for everyone",
    async () => {
      const UserThrottlerGuard = pageClass(
        'tracking-authenticated-users',
        'class UserThrottlerGuard',
        'UserThrottlerGuard',
      );
      const tracker = (req: unknown) =>
        (UserThrottlerGuard.prototype as any).getTracker.call({}, req);
      expect(tracker({user: {id: 7, username: 'carol'}, ip: '203.0.113.7'})).toBe('203.0.113.7');
      expect(tracker({user: {userId: 7}, ip: '203.0.113.7'})).toBe('user-7');
      expect(tracker({ip: '203.0.113.8'})).toBe('203.0.113.8');
    },
  );

  claim.abuse(
    `${page}#tracking-authenticated-users`,
    "a global UserThrottlerGuard with JwtAuthGuard bound by @UseGuards() runs before it: users are counted by address and bob shares alice's budget",
    async () => {
      const {as} = await app('global-throttler');
      expect([await as('alice'), await as('alice'), await as('alice'), await as('bob')]).toEqual([
        200, 200, 200, 429,
      ]);
    },
  );

  claim.abuse(
    `${page}#tracking-authenticated-users`,
    "both global, but the JWT guard in AuthModule and the throttler in AppModule: AppModule's guard runs first, so bob shares alice's budget (counted by address)",
    async () => {
      const {as} = await app('split-global');
      expect([await as('alice'), await as('alice'), await as('alice'), await as('bob')]).toEqual([
        200, 200, 200, 429,
      ]);
    },
  );

  claim(
    `${page}#tracking-authenticated-users`,
    'both global, JwtAuthGuard registered first: each user has a budget of their own',
    async () => {
      const {as} = await app('both-global');
      expect([await as('alice'), await as('alice'), await as('alice'), await as('bob')]).toEqual([
        200, 200, 200, 200,
      ]);
    },
  );
});

/** The page's guard fragments compiled together with its OneAtATime helper (they import it). */
function guardSet(section: string, contains: string, name: string): any {
  const set = samples(page, {
    files: {
      'one-at-a-time': fragment(page, 'websockets', 'export class OneAtATime').value,
      [name]: fragment(page, section, contains).value,
    },
  });
  return set.require(name);
}

describe('WebSockets', () => {
  const {WebSocketGateway, SubscribeMessage, MessageBody} = nest('@nestjs/websockets');
  const {Throttle} = nest('@nestjs/throttler');
  const WsThrottlerGuard = () =>
    guardSet('websockets', 'class WsThrottlerGuard', 'ws-throttler.guard').WsThrottlerGuard;
  /** A gateway whose `events` handler is limited to 2 calls per minute by the page's guard. */
  function gatewayModule(answer: 'ack' | 'event' = 'ack') {
    const Guard = WsThrottlerGuard();
    @WebSocketGateway()
    class EventsGateway {
      @UseGuards(Guard)
      @Throttle(2, 60)
      @SubscribeMessage('events')
      events(@MessageBody() data: unknown) {
        // The ws adapter sends only { event, data } answers.
        return answer === 'ack' ? data : {event: 'events', data};
      }
    }
    @Module({
      imports: [ThrottlerModule.forRoot({ttl: 60, limit: 10})],
      providers: [EventsGateway],
    })
    class M {}
    return M;
  }

  claim(
    `${page}#websockets`,
    'WsThrottlerGuard with @UseGuards() on a gateway: over the limit, the client gets an exception event "Too many requests"',
    async () => {
      const base = await start(gatewayModule());
      const socket = await ioConnect(base);
      expect(await emitAck(socket, 'events', 1)).toBe(1);
      expect(await emitAck(socket, 'events', 2)).toBe(2);
      const errors = collect(socket, 'exception');
      expect(await emitAck(socket, 'events', 3, 300)).toBe('timeout');
      expect(await errors).toEqual([{status: 'error', message: 'Too many requests'}]);
      socket.close();
    },
  );

  claim.abuse(
    `${page}#websockets`,
    'six messages emitted at once without waiting: two are answered and four get the exception (the queue counts them one by one)',
    async () => {
      const base = await start(gatewayModule());
      const socket = await ioConnect(base);
      const errors = collect(socket, 'exception', 4, 1500);
      const acks = await Promise.all(
        Array.from({length: 6}, (_, i) => emitAck(socket, 'events', i, 800)),
      );
      expect(acks.filter((ack) => ack !== 'timeout')).toHaveLength(2);
      expect(await errors).toHaveLength(4);
      socket.close();
    },
  );

  claim.abuse(
    `${page}#websockets`,
    "the guard without its queue, on the in-memory storage: a new client's first burst of six passes whole (limit 2); a burst after those calls expired is counted (two pass)",
    async () => {
      const Guard = WsThrottlerGuard();
      // The page's handleRequest(), with a queue that runs each task at once
      class Unqueued extends Guard {
        queue = {run: (_key: string, task: () => Promise<boolean>) => task()};
      }
      @WebSocketGateway()
      class EventsGateway {
        @UseGuards(Unqueued)
        @Throttle(2, 1)
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
      const socket = await ioConnect(await start(M));
      const answered = async () =>
        (
          await Promise.all(Array.from({length: 6}, (_, i) => emitAck(socket, 'events', i, 500)))
        ).filter((ack) => ack !== 'timeout').length;
      expect(await answered()).toBe(6);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect(await answered()).toBe(2);
      socket.close();
    },
  );

  claim.abuse(
    `${page}#websockets`,
    'two clients from one address share the budget: after the first used it up, the second gets the exception on its first message',
    async () => {
      const base = await start(gatewayModule());
      const first = await ioConnect(base);
      const second = await ioConnect(base);
      expect([await emitAck(first, 'events', 1), await emitAck(first, 'events', 2)]).toEqual([
        1, 2,
      ]);
      const errors = collect(second, 'exception');
      expect(await emitAck(second, 'events', 3, 300)).toBe('timeout');
      expect(await errors).toEqual([{status: 'error', message: 'Too many requests'}]);
      first.close();
      second.close();
    },
  );

  claim.abuse(
    `${page}#websockets`,
    'closing the socket and connecting again does not give a fresh budget: the key is the address, not the connection',
    async () => {
      const base = await start(gatewayModule());
      const first = await ioConnect(base);
      expect([await emitAck(first, 'events', 1), await emitAck(first, 'events', 2)]).toEqual([
        1, 2,
      ]);
      first.close();
      const again = await ioConnect(base);
      const errors = collect(again, 'exception');
      expect(await emitAck(again, 'events', 3, 300)).toBe('timeout');
      expect(await errors).toEqual([{status: 'error', message: 'Too many requests'}]);
      again.close();
    },
  );

  claim(
    `${page}#websockets`,
    'with the ws library (WsAdapter), the guard reads client._socket and throttles, but the exception never reaches the client: a throttled message gets no answer',
    async () => {
      const {WsAdapter} = nest('@nestjs/platform-ws');
      const WebSocket = nest('ws');
      const app = await NestFactory.create(gatewayModule('event'), {logger: false});
      app.useWebSocketAdapter(new WsAdapter(app));
      closers.push(() => app.close());
      const base = await listen(app);
      const socket = new WebSocket(base.replace('http', 'ws'));
      const received: string[] = [];
      socket.on('message', (raw: Buffer) => received.push(raw.toString()));
      await new Promise((resolve, reject) => {
        socket.once('open', resolve);
        socket.once('error', reject);
      });
      for (let i = 0; i < 4; i += 1) socket.send(JSON.stringify({event: 'events', data: i}));
      await new Promise((resolve) => setTimeout(resolve, 500));
      socket.close();
      expect(received.map((text) => JSON.parse(text))).toEqual([
        {event: 'events', data: 0},
        {event: 'events', data: 1},
      ]);
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

/** A GraphQL app with the page's context function and guard; `limit` calls per field. */
function gqlModule(guard: any, limit: number, contextFn: string, extra = '') {
  const {build} = compileModule(
    `
import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { GraphQLModule, Query, Resolver } from '@nestjs/graphql';
import { ThrottlerModule } from '@nestjs/throttler';
@Resolver()
class HelloResolver { @Query(() => String, { nullable: true }) hello() { return 'hi'; } }
export function build(guard: any) {
  @Module({
    imports: [ThrottlerModule.forRoot({ ttl: 60, limit: ${limit} }), GraphQLModule.forRoot({ autoSchemaFile: true, context: ${contextFn} })],
    providers: [HelloResolver, { provide: APP_GUARD, useClass: guard }],
  })
  class GqlModule {}
  return GqlModule;
}
${extra}
`,
    `gql-throttle-${limit}-${Math.random().toString(36).slice(2, 8)}`,
  );
  return build(guard);
}
const gqlContext = () =>
  /context: (.*),\n/.exec(fragment(page, 'graphql', 'context: ({ req, res })').value)![1];
const GqlThrottlerGuard = () =>
  guardSet('graphql', 'class GqlThrottlerGuard', 'gql-throttler.guard').GqlThrottlerGuard;
const graphql = (base: string, query: string, headers: Record<string, string> = {}) =>
  fetch(`${base}/graphql`, {
    method: 'POST',
    headers: {'content-type': 'application/json', ...headers},
    body: JSON.stringify({query}),
  });

claim(
  `${page}#graphql`,
  'GqlThrottlerGuard with the req/res context function: headers on the response, then the ThrottlerException as a GraphQL error',
  async () => {
    const base = await start(gqlModule(GqlThrottlerGuard(), 2, gqlContext()));
    const first = await graphql(base, '{ hello }');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
    expect((await first.json()).data).toEqual({hello: 'hi'});
    await graphql(base, '{ hello }');
    const third = await (await graphql(base, '{ hello }')).json();
    expect(third.errors[0].message).toBe('ThrottlerException: Too Many Requests');
  },
);

claim.abuse(
  `${page}#graphql`,
  'one query with five aliases of a field limited to 3: three are answered, two get the ThrottlerException (without the queue, all five were)',
  async () => {
    const query = '{ a: hello b: hello c: hello d: hello e: hello }';
    const base = await start(gqlModule(GqlThrottlerGuard(), 3, gqlContext()));
    const body = await (await graphql(base, query)).json();
    expect(Object.values(body.data ?? {}).filter((value) => value === 'hi')).toHaveLength(3);
    expect(body.errors.map((error: any) => error.message)).toEqual([
      'ThrottlerException: Too Many Requests',
      'ThrottlerException: Too Many Requests',
    ]);
    // The same guard without its handleRequest() override: every alias passes.
    const Queueless = GqlThrottlerGuard();
    class WithoutQueue extends ThrottlerGuard {
      getRequestResponse(context: any) {
        return Queueless.prototype.getRequestResponse.call(this, context);
      }
    }
    const open = await start(gqlModule(WithoutQueue, 3, gqlContext()));
    const all = await (await graphql(open, query)).json();
    expect(all.errors).toBeUndefined();
    expect(Object.keys(all.data)).toHaveLength(5);
  },
);

claim.abuse(
  `${page}#graphql`,
  'a batch of four operations in one HTTP request is counted per operation: with a limit of 2, two answers and two ThrottlerExceptions',
  async () => {
    const base = await start(gqlModule(GqlThrottlerGuard(), 2, gqlContext()));
    const response = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: {'content-type': 'application/json'},
      body: JSON.stringify(Array.from({length: 4}, () => ({query: '{ hello }'}))),
    });
    const results = await response.json();
    expect(results.map((result: any) => result.data?.hello ?? result.errors[0].message)).toEqual([
      'hi',
      'hi',
      'ThrottlerException: Too Many Requests',
      'ThrottlerException: Too Many Requests',
    ]);
  },
);

claim.abuse(
  `${page}#graphql`,
  'a second client (another forwarded address) keeps its own budget after the first was throttled: the context is built per request',
  async () => {
    const base = await start(gqlModule(GqlThrottlerGuard(), 1, gqlContext()), pageTrustProxy);
    const as = async (client: string) =>
      (await (await graphql(base, '{ hello }', {'x-forwarded-for': client})).json()).data?.hello ??
      'throttled';
    expect([await as('203.0.113.1'), await as('203.0.113.1'), await as('203.0.113.2')]).toEqual([
      'hi',
      'throttled',
      'hi',
    ]);
  },
);

claim(
  `${page}#graphql`,
  "on Fastify, the context maps { request, reply } to req and res, and the guard's headers reach the reply",
  async () => {
    const {FastifyAdapter} = nest('@nestjs/platform-fastify');
    // The page gives this context function inline, in its note on Apollo's Fastify integration.
    const contextFn = /`context: (\(\{ request, reply \}\) => \(\{[^`]*\}\))`/.exec(
      readFileSync(join(repoRoot, page), 'utf8'),
    )![1];
    const base = await start(
      gqlModule(GqlThrottlerGuard(), 1, contextFn),
      undefined,
      new FastifyAdapter(),
    );
    const first = await graphql(base, '{ hello }');
    expect(first.headers.get('x-ratelimit-limit')).toBe('1');
    expect((await first.json()).data).toEqual({hello: 'hi'});
    expect((await (await graphql(base, '{ hello }')).json()).errors[0].message).toBe(
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

const asyncSource = () =>
  fragment(page, 'async-configuration', 'useFactory: (config: ConfigService)').value;
/** The page's forRootAsync() module with the environment `env`, under a root with a guard. */
async function startAsync(env: Record<string, string | undefined>) {
  const saved = {
    THROTTLE_TTL: process.env.THROTTLE_TTL,
    THROTTLE_LIMIT: process.env.THROTTLE_LIMIT,
  };
  Object.assign(process.env, env);
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete process.env[key];
  try {
    const {AppModule} = compileModule(asyncSource(), `throttle-async-${Date.now()}`);
    @Module({
      imports: [AppModule],
      controllers: [PetsController],
      providers: [{provide: APP_GUARD, useClass: ThrottlerGuard}],
    })
    class RootModule {}
    const app = await NestFactory.create(RootModule, {logger: false, abortOnError: false});
    closers.push(() => app.close());
    return listen(app);
  } finally {
    for (const [key, value] of Object.entries(saved))
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
  }
}

claim(
  `${page}#async-configuration`,
  'forRootAsync() with ConfigService: the env strings converted with Number() set the limit',
  async () => {
    const base = await startAsync({THROTTLE_TTL: '60', THROTTLE_LIMIT: '2'});
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await fetch(`${base}/cats`)).status);
    expect(statuses).toEqual([200, 200, 429]);
  },
);

claim.failure(
  `${page}#async-configuration`,
  "THROTTLE_LIMIT missing: the application does not start; Nest logs the factory's message and the process ends",
  async () => {
    const {dir} = samples(page, {
      files: {'throttle-async.module': asyncSource()},
    });
    const child = await runChild(
      `
require('reflect-metadata');
const { NestFactory } = require('@nestjs/core');
const { AppModule } = require(${JSON.stringify(join(dir, 'throttle-async.module.js'))});
NestFactory.create(AppModule).then(() => console.log('STARTED'), () => console.log('REJECTED'));
`,
      {THROTTLE_TTL: '60', THROTTLE_LIMIT: undefined},
    );
    expect(child.stdout).not.toContain('STARTED');
    expect(child.code).toBe(1);
    const line = child.stderr.split('\n').find((text) => text.includes('ERROR'))!;
    expectOutput(
      page,
      'throttle-config-error',
      line.replace(/^.*?ERROR/, 'ERROR').replace(/\s+/g, ' '),
    );
  },
);

claim.failure(
  `${page}#async-configuration`,
  "a mistyped value ('ten', '', '2.5') or a zero is refused at startup too, where Number() alone would have turned the limit off (NaN, ttl 0) or rejected everything (limit 0)",
  async () => {
    for (const env of [
      {THROTTLE_TTL: '60', THROTTLE_LIMIT: 'ten'},
      {THROTTLE_TTL: '60', THROTTLE_LIMIT: ''},
      {THROTTLE_TTL: '2.5', THROTTLE_LIMIT: '3'},
      {THROTTLE_TTL: '0', THROTTLE_LIMIT: '3'},
      {THROTTLE_TTL: '60', THROTTLE_LIMIT: '0'},
    ]) {
      await expect(startAsync(env), JSON.stringify(env)).rejects.toThrow(
        'THROTTLE_TTL and THROTTLE_LIMIT must be whole numbers of 1 or more',
      );
    }
    // What the check prevents: NaN and a ttl of 0 let every request through, a limit of 0 none.
    for (const [options, expected] of [
      [{ttl: 60, limit: NaN}, [200, 200, 200, 200]],
      [{ttl: 0, limit: 2}, [200, 200, 200, 200]],
      [{ttl: 60, limit: 0}, [429, 429, 429, 429]],
    ] as const) {
      const base = await start(throttled(options, ThrottlerGuard, [PetsController]));
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) statuses.push((await fetch(`${base}/cats`)).status);
      expect(statuses, JSON.stringify(options)).toEqual(expected);
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

claim.failure(
  `${page}#storages`,
  'the in-memory storage keeps an empty list for every tracker it has seen: 200 forged addresses leave 200 keys after their calls expired',
  async () => {
    const {getStorageToken} = nest('@nestjs/throttler');
    let storage: any;
    const base = await start(
      throttled({ttl: 1, limit: 5}, ThrottlerGuard, [PetsController]),
      (app) => {
        pageTrustProxy(app);
        storage = app.get(getStorageToken());
      },
    );
    for (let i = 0; i < 200; i += 1)
      await fetch(`${base}/cats`, {headers: {'x-forwarded-for': `10.9.${i >> 8}.${i & 255}`}});
    await new Promise((resolve) => setTimeout(resolve, 1200));
    const lists = Object.values(storage.storage) as number[][];
    expect(lists).toHaveLength(200);
    expect(lists.every((list) => list.length === 0)).toBe(true);
  },
);

describe('Storages: Redis', () => {
  let redis: Service;
  let admin: any;
  const Redis = nest('ioredis');
  beforeAll(async () => {
    redis = await service('redis');
    admin = new Redis(redis.url);
  });
  afterAll(async () => {
    admin?.disconnect();
    await redis?.stop();
  });

  async function connections(): Promise<number> {
    const list: string = await admin.client('LIST');
    return list.trim().split('\n').length - 1;
  }
  /** `count` keys that have nothing to do with throttling (cache entries, jobs, sessions). */
  async function fill(count: number) {
    const pipeline = admin.pipeline();
    for (let i = 0; i < count; i += 1) pipeline.set(`cache:item:${i}`, 'x');
    await pipeline.exec();
  }

  /** The page's storage, guard and app.module, pointed at `url`, limited to `limit` calls. */
  function pageApp(url: string | undefined, limit = 3, lang: 'ts' | 'js' = 'ts') {
    const set = samples(page, {
      lang,
      under: 'redis',
      edit: {'app.module': [['limit: 10', `limit: ${limit}`]]},
    });
    const {AppModule} = set.require('app.module');
    @Module({imports: [AppModule], controllers: [PetsController]})
    class RootModule {}
    return {RootModule, set};
  }
  async function startPage(
    url: string | undefined,
    limit = 3,
    lang: 'ts' | 'js' = 'ts',
    logger: unknown = false,
  ) {
    const saved = process.env.REDIS_URL;
    if (url === undefined) delete process.env.REDIS_URL;
    else process.env.REDIS_URL = url;
    try {
      const {RootModule} = pageApp(url, limit, lang);
      // The storage listens for the client's errors itself (its warnings go to `logger`).
      const app = await NestFactory.create(RootModule, {logger, abortOnError: false});
      closers.push(() => app.close());
      return {app, base: await listen(app)};
    } finally {
      if (saved === undefined) delete process.env.REDIS_URL;
      else process.env.REDIS_URL = saved;
    }
  }
  const statuses = async (base: string, n: number) => {
    const out: number[] = [];
    for (let i = 0; i < n; i += 1) out.push((await fetch(`${base}/cats`)).status);
    return out;
  };

  claim(
    `${page}#redis`,
    'two instances with the page storage and guard share one budget, with the headers of ThrottlerGuard; keys carry the throttler: prefix',
    async () => {
      await admin.flushall();
      const one = await startPage(redis.url);
      const two = await startPage(redis.url);
      const first = await fetch(`${one.base}/cats`);
      expect(first.headers.get('x-ratelimit-limit')).toBe('3');
      expect(first.headers.get('x-ratelimit-remaining')).toBe('2');
      expect([
        (await fetch(`${two.base}/cats`)).status,
        (await fetch(`${one.base}/cats`)).status,
      ]).toEqual([200, 200]);
      const refused = await fetch(`${two.base}/cats`);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(55);
      const keys: string[] = await admin.keys('*');
      expect(keys).toHaveLength(1);
      expect(keys[0]).toMatch(/^throttler:[0-9a-f]{32}$/);
    },
  );

  claim(
    `${page}#redis`,
    'the JavaScript halves of the storage, the guard and app.module count the same way',
    async () => {
      await admin.flushall();
      const {base} = await startPage(redis.url, 2, 'js');
      expect(await statuses(base, 3)).toEqual([200, 200, 429]);
    },
  );

  claim.abuse(
    `${page}#redis`,
    'with 20,000 unrelated keys in the database, the page storage still throttles at 3',
    async () => {
      await admin.flushall();
      await fill(20_000);
      const {base} = await startPage(redis.url);
      expect(await statuses(base, 6)).toEqual([200, 200, 200, 429, 429, 429]);
    },
  );

  claim.abuse(
    `${page}#redis`,
    'nestjs-throttler-storage-redis 0.1.18 (the warning): with 20,000 unrelated keys, six requests to a route limited to three all succeed',
    async () => {
      await admin.flushall();
      await fill(20_000);
      const {ThrottlerStorageRedisService} = nest('nestjs-throttler-storage-redis');
      expect(nest('nestjs-throttler-storage-redis/package.json').version).toBe('0.1.18');
      const storage = new ThrottlerStorageRedisService(redis.url);
      const base = await start(
        throttled({ttl: 60, limit: 3, storage}, ThrottlerGuard, [PetsController]),
      );
      expect(await statuses(base, 6)).toEqual([200, 200, 200, 200, 200, 200]);
    },
  );

  claim.abuse(
    `${page}#redis`,
    '50 requests sent at once to each of two instances: exactly 3 of the 100 pass',
    async () => {
      const one = await startPage(redis.url);
      const two = await startPage(redis.url);
      for (let trial = 0; trial < 3; trial += 1) {
        await admin.flushall();
        const results = await Promise.all([burst(one.base, 50), burst(two.base, 50)]);
        expect(results.flat().filter((status) => status === 200)).toHaveLength(3);
      }
    },
  );

  claim.abuse(
    `${page}#storages`,
    'with plain ThrottlerGuard (getRecord, then addRecord), the same storage lets a parallel burst pass beyond the limit',
    async () => {
      const {set} = pageApp(redis.url);
      const {RedisThrottlerStorage} = set.require('redis-throttler.storage');
      const bases: string[] = [];
      for (let i = 0; i < 2; i += 1) {
        const storage = new RedisThrottlerStorage(redis.url);
        bases.push(
          await start(throttled({ttl: 60, limit: 3, storage}, ThrottlerGuard, [PetsController])),
        );
      }
      let most = 0;
      for (let trial = 0; trial < 5 && most <= 3; trial += 1) {
        await admin.flushall();
        const results = await Promise.all(bases.map((base) => burst(base, 50)));
        most = Math.max(most, results.flat().filter((status) => status === 200).length);
      }
      expect(most).toBeGreaterThan(3);
    },
  );

  claim.failure(
    `${page}#redis`,
    'Redis unreachable at startup: the app starts, each request fails fast with 500; once Redis listens, requests pass and are counted',
    async () => {
      const server = await restartableRedis();
      try {
        const {base} = await startPage(server.url);
        const started = Date.now();
        const down = await fetch(`${base}/cats`);
        expect(down.status).toBe(500);
        expect(await down.json()).toEqual({statusCode: 500, message: 'Internal server error'});
        expect(Date.now() - started).toBeLessThan(3000);
        await server.start();
        let status = 0;
        for (let i = 0; i < 40 && status !== 200; i += 1) {
          status = (await fetch(`${base}/cats`)).status;
          if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(status).toBe(200);
        expect(await statuses(base, 3)).toEqual([200, 200, 429]);
      } finally {
        await server.kill();
      }
    },
  );

  claim.failure(
    `${page}#redis`,
    'Redis that keeps the connection but stops answering (SIGSTOP, as in a partition): each request fails with 500 after the one-second command timeout, and app.close() still ends',
    async () => {
      const server = await restartableRedis();
      await server.start();
      try {
        const {app, base} = await startPage(server.url);
        expect((await fetch(`${base}/cats`)).status).toBe(200);
        server.pause();
        const started = Date.now();
        // Without commandTimeout the request waits as long as Redis is silent: the client gives up.
        const response = await fetch(`${base}/cats`, {signal: AbortSignal.timeout(5000)});
        expect(response.status).toBe(500);
        expect(Date.now() - started).toBeLessThan(2500);
        closers.pop();
        const closing = Date.now();
        await app.close();
        expect(Date.now() - closing).toBeLessThan(2500);
      } finally {
        server.resume();
        await server.kill();
      }
    },
  );

  claim.failure(
    `${page}#redis`,
    'while Redis refuses connections, the storage logs each failed reconnection as a RedisThrottlerStorage warning, and ioredis prints nothing of its own (TS and JS halves)',
    async () => {
      const server = await restartableRedis();
      const printed: string[] = [];
      const spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
        printed.push(args.map(String).join(' '));
      });
      try {
        for (const lang of ['ts', 'js'] as const) {
          const logged = memoryLogger();
          const {base} = await startPage(server.url, 3, lang, logged.logger);
          expect((await fetch(`${base}/cats`)).status).toBe(500);
          const warnings = logged.lines.filter(
            (line) => line.level === 'warn' && line.context === 'RedisThrottlerStorage',
          );
          expect(warnings.length, lang).toBeGreaterThan(0);
          expect(warnings[0].message).toMatch(/^Redis: connect ECONNREFUSED 127\.0\.0\.1:\d+$/);
        }
        expect(printed.filter((line) => line.includes('[ioredis]'))).toEqual([]);
      } finally {
        spy.mockRestore();
        await server.kill();
      }
    },
  );

  claim.failure(
    `${page}#redis`,
    'Redis killed while the app runs: requests fail with 500; restarted without persistence, it has forgotten the calls and the client has a full budget',
    async () => {
      const server = await restartableRedis();
      await server.start();
      try {
        const {base} = await startPage(server.url);
        expect(await statuses(base, 4)).toEqual([200, 200, 200, 429]);
        await server.kill();
        expect((await fetch(`${base}/cats`)).status).toBe(500);
        await server.start();
        let status = 0;
        for (let i = 0; i < 40 && status !== 200; i += 1) {
          status = (await fetch(`${base}/cats`)).status;
          if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(status).toBe(200);
        expect(await statuses(base, 3)).toEqual([200, 200, 429]);
      } finally {
        await server.kill();
      }
    },
  );

  claim.abuse(
    `${page}#redis`,
    'GqlThrottlerGuard extending RedisThrottlerGuard (as the page suggests): five aliases of a field limited to 3 get three answers',
    async () => {
      await admin.flushall();
      const {set} = pageApp(redis.url);
      const {RedisThrottlerStorage} = set.require('redis-throttler.storage');
      const gql = fragment(page, 'graphql', 'class GqlThrottlerGuard').value;
      const {GqlThrottlerGuard} = samples(page, {
        files: {
          'one-at-a-time': fragment(page, 'websockets', 'export class OneAtATime').value,
          'gql-throttler.guard': applyEdits('gql-throttler.guard', gql, [
            [
              "import { ThrottlerGuard } from '@nestjs/throttler';",
              "import { RedisThrottlerGuard } from './redis-throttler.guard';",
            ],
            ['extends ThrottlerGuard', 'extends RedisThrottlerGuard'],
          ]),
        },
      }).require('gql-throttler.guard');
      const storage = new RedisThrottlerStorage(redis.url);
      const {build} = compileModule(
        `
import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { GraphQLModule, Query, Resolver } from '@nestjs/graphql';
import { ThrottlerModule } from '@nestjs/throttler';
@Resolver()
class HelloResolver { @Query(() => String, { nullable: true }) hello() { return 'hi'; } }
export function build(guard: any, storage: any) {
  @Module({
    imports: [ThrottlerModule.forRoot({ ttl: 60, limit: 3, storage }), GraphQLModule.forRoot({ autoSchemaFile: true, context: ({ req, res }) => ({ req, res }) })],
    providers: [HelloResolver, { provide: APP_GUARD, useClass: guard }],
  })
  class GqlModule {}
  return GqlModule;
}
`,
        'gql-redis-throttle',
      );
      const base = await start(build(GqlThrottlerGuard, storage));
      const body = await (
        await graphql(base, '{ a: hello b: hello c: hello d: hello e: hello }')
      ).json();
      expect(Object.values(body.data).filter((value) => value === 'hi')).toHaveLength(3);
      expect(body.errors).toHaveLength(2);
    },
  );

  claim(
    `${page}#redis`,
    "a key's calls expire in Redis too: with ttl 1, the key is gone a moment after its last call expired (no key left behind)",
    async () => {
      await admin.flushall();
      const {set} = pageApp(redis.url);
      const {RedisThrottlerStorage} = set.require('redis-throttler.storage');
      const storage = new RedisThrottlerStorage(redis.url);
      try {
        expect(await storage.hit('probe', 1, 5)).toEqual([]);
        expect(await storage.hit('probe', 1, 5)).toHaveLength(1);
        expect(await admin.exists('throttler:probe')).toBe(1);
        await new Promise((resolve) => setTimeout(resolve, 1200));
        expect(await admin.exists('throttler:probe')).toBe(0);
      } finally {
        await storage.onApplicationShutdown();
      }
    },
  );

  claim.failure(
    `${page}#redis`,
    "REDIS_URL missing: the application does not start, with the storage's message",
    async () => {
      await expect(startPage(undefined)).rejects.toThrow(
        'RedisThrottlerStorage needs the URL of a Redis server',
      );
    },
  );

  claim(
    `${page}#redis`,
    'app.close() calls onApplicationShutdown(), which closes the connection; ioredis keeps a command through 20 reconnection attempts by default',
    async () => {
      const before = await connections();
      const {app, base} = await startPage(redis.url);
      await fetch(`${base}/cats`);
      expect(await connections()).toBe(before + 1);
      closers.pop();
      await app.close();
      const deadline = Date.now() + 2000;
      while ((await connections()) !== before && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await connections()).toBe(before);
      const probe = new Redis({lazyConnect: true});
      expect(probe.options.maxRetriesPerRequest).toBe(20);
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

import {copyFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterAll, afterEach, beforeAll, expect} from 'vitest';
import {
  applyEdits,
  claim,
  compileModule,
  expectOutput,
  fragment,
  freePort,
  listen,
  nest,
  samples,
  service,
  type Service,
} from '../../lib';
import {listeningScript, restartableRedis, startChild, type ChildApp} from './_child-app';

const common = nest('@nestjs/common');
const {Module, Controller, CacheModule, CacheInterceptor, CACHE_MANAGER, UseInterceptors} = common;
const {NestFactory} = nest('@nestjs/core');
const {Transport, ClientProxyFactory} = nest('@nestjs/microservices');
const {io} = nest('socket.io-client');
const redisClient = nest('redis');
const page = 'docs/techniques/caching.md';

let redis: Service;
beforeAll(async () => {
  redis = await service('redis');
});
afterAll(async () => {
  await redis?.stop();
});

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function start(AppModule: unknown): Promise<{base: string; app: any}> {
  const app = await NestFactory.create(AppModule, {logger: false});
  close = () => app.close();
  return {base: await listen(app), app};
}

/** Entries of the memory store with their time-to-live in ms (lru-cache's dump()). */
async function ttls(cache: any): Promise<Record<string, number>> {
  const entries: [string, {ttl: number}][] = await cache.store.dump();
  return Object.fromEntries(entries.map(([key, entry]) => [key, entry.ttl]));
}

/** Counts the calls of a decorated method, keeping its decorators' metadata (stored on the function). */
function spy(prototype: any, name: string): {calls: number} {
  const counter = {calls: 0};
  const original = prototype[name];
  const wrapped = function (this: unknown, ...args: unknown[]) {
    counter.calls += 1;
    return original.apply(this, args);
  };
  const reflect = Reflect as any;
  for (const key of reflect.getMetadataKeys(original))
    reflect.defineMetadata(key, reflect.getMetadata(key, original), wrapped);
  prototype[name] = wrapped;
  return counter;
}

const until = async (condition: () => Promise<boolean> | boolean, ms = 3000) => {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > ms) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
};

/** A counting controller: how often each handler really ran. */
function counting(extra = ''): any {
  return compileModule<any>(`
import { CacheInterceptor, CacheKey, CacheTTL, Controller, Get, Post, Query, UseInterceptors } from '@nestjs/common';
export const calls: Record<string, number> = {};
const count = (name: string) => (calls[name] = (calls[name] ?? 0) + 1);
@Controller('cats')
@UseInterceptors(CacheInterceptor)
export class CatsController {
  @Get('breeds') breeds() { return { call: count('breeds') }; }
  @Get('nothing') nothing() { count('nothing'); return null; }
  @Post('breeds') create() { return { call: count('post') }; }
  @Post('keyed') @CacheKey('keyed_post') keyed() { return { call: count('keyed') }; }
  ${extra}
}
`);
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#auto-caching-responses`,
    `the CacheInterceptor answers repeated GETs from the cache without calling the handler (${lang})`,
    async () => {
      const set = samples(page, {under: 'auto-caching-responses', lang, pick: {'app.module': 1}});
      const {CatsService} = set.require('cats.service');
      const {CatsController} = set.require('cats.controller');
      let calls = 0;
      const original = CatsService.prototype.findBreeds;
      CatsService.prototype.findBreeds = function (this: unknown) {
        calls += 1;
        return original.call(this);
      };
      @Module({
        imports: [CacheModule.register()],
        controllers: [CatsController],
        providers: [CatsService],
      })
      class AppModule {}
      const {base} = await start(AppModule);
      for (let i = 0; i < 3; i++)
        expect(await (await fetch(`${base}/cats/breeds`)).json()).toEqual([
          'Abyssinian',
          'Bengal',
          'Siamese',
        ]);
      expect(calls).toBe(1);
    },
  );
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#interacting-with-the-cache-store`,
    `the read-through service stores the breeds for 60 s under 'breeds' and reads them back (${lang})`,
    async () => {
      const {CatsService} = samples(page, {
        under: 'interacting-with-the-cache-store',
        lang,
      }).require('cats.service');
      @Module({imports: [CacheModule.register()], providers: [CatsService]})
      class AppModule {}
      const app = await NestFactory.createApplicationContext(AppModule, {logger: false});
      close = () => app.close();
      const cache = app.get(CACHE_MANAGER);
      expect(await app.get(CatsService).findBreeds()).toEqual(['Abyssinian', 'Bengal', 'Siamese']);
      expect((await ttls(cache)).breeds).toBe(60_000);
      await cache.set('breeds', ['Cached']);
      expect(await app.get(CatsService).findBreeds()).toEqual(['Cached']);
    },
  );
}

claim(
  `${page}#in-memory-cache`,
  'register() without options: memory store, 5 s time-to-live, at most 100 entries',
  async () => {
    @Module({imports: [CacheModule.register()]})
    class AppModule {}
    const app = await NestFactory.createApplicationContext(AppModule, {logger: false});
    close = () => app.close();
    const cache = app.get(CACHE_MANAGER);
    expect(cache.store.name).toBe('memory');
    await cache.set('key', 'value');
    expect((await ttls(cache)).key).toBe(5000);
    for (let i = 0; i < 100; i++) await cache.set(`k${i}`, i);
    expect(await cache.get('key')).toBeUndefined();
    expect(cache.store.keyCount()).toBe(100);
  },
);

claim(
  `${page}#interacting-with-the-cache-store`,
  'get() of a missing key is undefined; set() with { ttl } is in seconds; ttl 0 never expires; del() and reset() remove',
  async () => {
    @Module({imports: [CacheModule.register()]})
    class AppModule {}
    const app = await NestFactory.createApplicationContext(AppModule, {logger: false});
    close = () => app.close();
    const cache = app.get(CACHE_MANAGER);
    expect(await cache.get('missing')).toBeUndefined();
    await cache.set('key', 'value', {ttl: 1000});
    await cache.set('forever', 'value', {ttl: 0});
    await cache.set('short', 'value', {ttl: 1});
    expect(await ttls(cache)).toMatchObject({key: 1_000_000, forever: 0});
    await until(async () => (await cache.get('short')) === undefined, 2500);
    await cache.del('key');
    expect(await cache.get('key')).toBeUndefined();
    expect(await cache.get('forever')).toBe('value');
    await cache.reset();
    expect(await cache.get('forever')).toBeUndefined();
  },
);

claim(
  `${page}#auto-caching-responses`,
  'the URL is the key (?page=2 is separate); POST is not cached; a cached null is a miss',
  async () => {
    const {CatsController, calls} = counting();
    @Module({imports: [CacheModule.register()], controllers: [CatsController]})
    class AppModule {}
    const {base, app} = await start(AppModule);
    await fetch(`${base}/cats/breeds`);
    await fetch(`${base}/cats/breeds`);
    await fetch(`${base}/cats/breeds?page=2`);
    expect(calls.breeds).toBe(2);
    expect(Object.keys(await ttls(app.get(CACHE_MANAGER))).sort()).toEqual([
      '/cats/breeds',
      '/cats/breeds?page=2',
    ]);
    await fetch(`${base}/cats/breeds`, {method: 'POST'});
    await fetch(`${base}/cats/breeds`, {method: 'POST'});
    expect(calls.post).toBe(2);
    await fetch(`${base}/cats/nothing`);
    await fetch(`${base}/cats/nothing`);
    expect(calls.nothing).toBe(2);
  },
);

claim(
  `${page}#auto-caching-responses`,
  'if the store throws on read, the handler runs uncached',
  async () => {
    const {CatsController, calls} = counting();
    @Module({imports: [CacheModule.register()], controllers: [CatsController]})
    class AppModule {}
    const {base, app} = await start(AppModule);
    app.get(CACHE_MANAGER).get = async () => {
      throw new Error('store down');
    };
    expect((await fetch(`${base}/cats/breeds`)).status).toBe(200);
    expect((await fetch(`${base}/cats/breeds`)).status).toBe(200);
    expect(calls.breeds).toBe(2);
  },
);

claim(
  `${page}#per-handler-settings`,
  'a fixed @CacheKey() bypasses the GET-only check: a POST handler with one is cached',
  async () => {
    const {CatsController, calls} = counting();
    @Module({imports: [CacheModule.register()], controllers: [CatsController]})
    class AppModule {}
    const {base} = await start(AppModule);
    await fetch(`${base}/cats/keyed`, {method: 'POST'});
    expect(await (await fetch(`${base}/cats/keyed`, {method: 'POST'})).json()).toEqual({call: 1});
    expect(calls.keyed).toBe(1);
  },
);

claim(
  `${page}#auto-caching-responses`,
  'with @Res() the handler writes the response itself and runs on every request (no value to cache)',
  async () => {
    const {CatsController: WithRes, calls: resCalls} = compileModule<any>(`
import { CacheInterceptor, Controller, Get, Res, UseInterceptors } from '@nestjs/common';
export const calls = { raw: 0 };
@Controller('cats')
@UseInterceptors(CacheInterceptor)
export class CatsController {
  @Get('raw') raw(@Res() res: any) { calls.raw += 1; res.json({ call: calls.raw }); }
}
`);
    @Module({imports: [CacheModule.register()], controllers: [WithRes]})
    class AppModule {}
    const {base, app} = await start(AppModule);
    expect(await (await fetch(`${base}/cats/raw`)).json()).toEqual({call: 1});
    expect(await (await fetch(`${base}/cats/raw`)).json()).toEqual({call: 2});
    expect(resCalls.raw).toBe(2);
    // The interceptor only ever stores undefined for such a handler, which counts as a miss.
    expect(await app.get(CACHE_MANAGER).get('/cats/raw')).toBeUndefined();
  },
);

claim(
  `${page}#global-cache`,
  'APP_INTERCEPTOR with CacheInterceptor caches the GET endpoints of every controller',
  async () => {
    const {AppModule: GlobalModule} = samples(page, {under: 'global-cache'}).require('app.module');
    const {CatsController: Plain, calls} = compileModule<any>(`
import { Controller, Get } from '@nestjs/common';
export const calls = { n: 0 };
@Controller('dogs')
export class CatsController { @Get() all() { calls.n += 1; return ['Rex']; } }
`);
    @Module({imports: [GlobalModule], controllers: [Plain]})
    class AppModule {}
    const {base} = await start(AppModule);
    await fetch(`${base}/dogs`);
    await fetch(`${base}/dogs`);
    expect(calls.n).toBe(1);
  },
);

claim(
  `${page}#customize-caching`,
  'register({ ttl, max }) sets the default time-to-live and the entry limit (least recently used evicted)',
  async () => {
    const options = new Function(
      `return ${fragment(page, 'customize-caching', 'max: 10')
        .value.replace(/^CacheModule\.register\(/, '')
        .replace(/\);\s*$/, '')}`,
    )();
    @Module({imports: [CacheModule.register(options)]})
    class AppModule {}
    const app = await NestFactory.createApplicationContext(AppModule, {logger: false});
    close = () => app.close();
    const cache = app.get(CACHE_MANAGER);
    for (let i = 0; i < 10; i++) await cache.set(`k${i}`, i);
    await cache.get('k0');
    await cache.set('k10', 10);
    expect(await cache.get('k0')).toBe(0);
    expect(await cache.get('k1')).toBeUndefined();
    expect((await ttls(cache)).k10).toBe(5000);
  },
);

claim(
  `${page}#customize-caching`,
  'isCacheableValue is not consulted by set() (what the interceptor uses), only by wrap()',
  async () => {
    @Module({
      imports: [CacheModule.register({isCacheableValue: (value: unknown) => value !== 'skip'})],
    })
    class AppModule {}
    const app = await NestFactory.createApplicationContext(AppModule, {logger: false});
    close = () => app.close();
    const cache = app.get(CACHE_MANAGER);
    await cache.set('set', 'skip');
    expect(await cache.get('set')).toBe('skip');
    await cache.wrap('wrapped', async () => 'skip');
    expect(await cache.get('wrapped')).toBeUndefined();
  },
);

claim(
  `${page}#customize-caching`,
  'isGlobal: CACHE_MANAGER is injectable in a module that does not import CacheModule',
  async () => {
    const {Injectable, Inject} = common;
    @Injectable()
    class Reader {
      constructor(@Inject(CACHE_MANAGER) readonly cache: any) {}
    }
    @Module({providers: [Reader], exports: [Reader]})
    class FeatureModule {}
    @Module({imports: [CacheModule.register({isGlobal: true}), FeatureModule]})
    class AppModule {}
    const app = await NestFactory.createApplicationContext(AppModule, {logger: false});
    close = () => app.close();
    expect(app.get(Reader).cache).toBe(app.get(CACHE_MANAGER));
  },
);

claim(
  `${page}#per-handler-settings`,
  "@CacheTTL(600) and @CacheKey('cat_stats') set the time-to-live and the key of a handler",
  async () => {
    const {CatsController} = samples(page, {under: 'per-handler-settings'}).require(
      'cats.controller',
    );
    @Module({imports: [CacheModule.register()], controllers: [CatsController]})
    class AppModule {}
    const {base, app} = await start(AppModule);
    await fetch(`${base}/cats/breeds`);
    expect(await (await fetch(`${base}/cats/stats`)).json()).toEqual({count: 3});
    expect(await ttls(app.get(CACHE_MANAGER))).toEqual({
      '/cats/breeds': 600_000,
      cat_stats: 30_000,
    });
  },
);

claim(
  `${page}#per-handler-settings`,
  '@CacheTTL() accepts a function of the ExecutionContext',
  async () => {
    const method = fragment(
      page,
      'per-handler-settings',
      '@CacheTTL((context: ExecutionContext)',
    ).value;
    const {CatsController} = compileModule<any>(`
import { CacheInterceptor, CacheTTL, Controller, ExecutionContext, Get, UseInterceptors } from '@nestjs/common';
@Controller('cats')
@UseInterceptors(CacheInterceptor)
export class CatsController {
${method}
}
`);
    @Module({imports: [CacheModule.register()], controllers: [CatsController]})
    class AppModule {}
    const {base, app} = await start(AppModule);
    await fetch(`${base}/cats/breeds`);
    await fetch(`${base}/cats/breeds?fresh=1`);
    expect(await ttls(app.get(CACHE_MANAGER))).toEqual({
      '/cats/breeds': 600_000,
      '/cats/breeds?fresh=1': 1000,
    });
  },
);

claim(
  `${page}#use-with-websockets-and-microservices`,
  'a gateway handler with @CacheKey() is answered from the cache for 10 s',
  async () => {
    const {EventsGateway} = samples(page, {under: 'use-with-websockets-and-microservices'}).require(
      'events.gateway',
    );
    const findRecent = spy(EventsGateway.prototype, 'findRecent');
    @Module({imports: [CacheModule.register()], providers: [EventsGateway]})
    class AppModule {}
    const {base, app} = await start(AppModule);
    const socket = io(base, {transports: ['websocket']});
    try {
      const ask = () => new Promise((resolve) => socket.emit('recent_events', {}, resolve));
      expect(await ask()).toEqual(['login', 'logout', 'purchase']);
      expect(await ask()).toEqual(['login', 'logout', 'purchase']);
      expect(findRecent.calls).toBe(1);
      expect(await ttls(app.get(CACHE_MANAGER))).toEqual({recent_events: 10_000});
    } finally {
      socket.close();
    }
  },
);

claim(
  `${page}#use-with-websockets-and-microservices`,
  'with the fixed key, a handler that reads @MessageBody() shares one entry: asking for 1 after another asked for 3 gives the 3 cached events',
  async () => {
    const gateway = fragment(
      page,
      'use-with-websockets-and-microservices',
      "@CacheKey('recent_events')",
    )
      .ts!.replace(
        'findRecent(): string[] {',
        'findRecent(@MessageBody() limit: number): string[] {',
      )
      .replace(
        "return ['login', 'logout', 'purchase'];",
        "return ['login', 'logout', 'purchase'].slice(0, limit);",
      )
      .replace(
        "import { SubscribeMessage, WebSocketGateway } from '@nestjs/websockets';",
        "import { MessageBody, SubscribeMessage, WebSocketGateway } from '@nestjs/websockets';",
      );
    expect(gateway).toContain('.slice(0, limit)');
    expect(gateway).toContain('@MessageBody() limit');
    const {EventsGateway} = compileModule(gateway, 'events.gateway');
    @Module({imports: [CacheModule.register()], providers: [EventsGateway]})
    class AppModule {}
    const {base} = await start(AppModule);
    const first = io(base, {transports: ['websocket']});
    const second = io(base, {transports: ['websocket']});
    try {
      const ask = (socket: typeof first, limit: number) =>
        new Promise((resolve) => socket.emit('recent_events', limit, resolve));
      expect(await ask(first, 3)).toEqual(['login', 'logout', 'purchase']);
      expect(await ask(second, 1)).toEqual(['login', 'logout', 'purchase']);
    } finally {
      first.close();
      second.close();
    }
  },
);

claim(
  `${page}#use-with-websockets-and-microservices`,
  'a microservice message handler with @CacheKey() is cached; without one it is not',
  async () => {
    const {MathController} = samples(page, {
      under: 'use-with-websockets-and-microservices',
    }).require('math.controller');
    const {MessagePattern} = nest('@nestjs/microservices');
    const primes = spy(MathController.prototype, 'primes');
    let uncached = 0;
    @Controller()
    @UseInterceptors(CacheInterceptor)
    class OtherController {
      @MessagePattern('squares')
      squares() {
        uncached += 1;
        return [1, 4, 9];
      }
    }
    @Module({imports: [CacheModule.register()], controllers: [MathController, OtherController]})
    class AppModule {}
    const port = await freePort();
    const app = await NestFactory.createMicroservice(AppModule, {
      transport: Transport.TCP,
      options: {host: '127.0.0.1', port},
      logger: false,
    });
    await app.listen();
    const client = ClientProxyFactory.create({
      transport: Transport.TCP,
      options: {host: '127.0.0.1', port},
    });
    close = async () => {
      await client.close();
      await app.close();
    };
    const {lastValueFrom} = nest('rxjs');
    for (let i = 0; i < 2; i++) {
      expect(await lastValueFrom(client.send('primes', {n: i}))).toEqual([2, 3, 5, 7, 11, 13]);
      expect(await lastValueFrom(client.send('squares', {}))).toEqual([1, 4, 9]);
    }
    expect([primes.calls, uncached]).toEqual([1, 2]);
  },
);

/** The authentication chapter's JwtStrategy (request.user = { userId, username }) and a token per user. */
let authenticationSet: ReturnType<typeof loadAuthentication> | undefined;
const authentication = () => (authenticationSet ??= loadAuthentication());
function loadAuthentication(): {
  JwtStrategy: any;
  secret: string;
  token: (sub: number, username: string) => string;
} {
  const authPage = 'docs/security/authentication.md';
  // The chapter reads its secret from the environment and refuses a missing or short one.
  process.env.JWT_SECRET ??= 'caching-test-secret-of-at-least-32-characters';
  const constants = fragment(authPage, 'jwt-functionality', 'export const jwtConstants').value;
  const {JwtStrategy} = samples(authPage, {
    under: 'implementing-passport-jwt',
    files: {'auth/constants': constants},
  }).require('auth/jwt.strategy');
  const {jwtConstants} = compileModule<any>(constants, 'constants');
  const jwt = nest('jsonwebtoken');
  return {
    JwtStrategy,
    secret: jwtConstants.secret,
    token: (sub, username) =>
      jwt.sign({sub, username}, jwtConstants.secret, {expiresIn: '60s'}) as string,
  };
}

/** GET /profile as the authentication chapter writes it, and a public GET /news. */
function profileController(): any {
  return compileModule<any>(`
import { Controller, Get, Request, UseGuards } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
export const calls = { news: 0 };
@Controller()
export class ProfileController {
  @UseGuards(AuthGuard('jwt'))
  @Get('profile')
  getProfile(@Request() req) { return req.user; }

  @Get('news')
  news() { calls.news += 1; return { edition: calls.news }; }
}
`);
}

async function startWithAuth(CacheRoot: unknown) {
  const {JwtStrategy, token, secret} = authentication();
  const {ProfileController, calls} = profileController();
  const {PassportModule} = nest('@nestjs/passport');
  @Module({
    imports: [CacheRoot, PassportModule],
    controllers: [ProfileController],
    providers: [JwtStrategy],
  })
  class AppModule {}
  const {base, app} = await start(AppModule);
  const profile = async (bearer?: string) => {
    const response = await fetch(`${base}/profile`, {
      headers: bearer ? {authorization: `Bearer ${bearer}`} : {},
    });
    return {status: response.status, body: await response.json()};
  };
  return {base, app, calls, profile, secret, alice: token(1, 'alice'), bob: token(2, 'bob')};
}

claim.abuse(
  `${page}#global-cache`,
  "with the global CacheInterceptor, bob's GET /profile with his own token answers alice's cached profile",
  async () => {
    const {AppModule: CacheRoot} = samples(page, {under: 'global-cache'}).require('app.module');
    const {profile, alice, bob} = await startWithAuth(CacheRoot);
    expect(await profile(alice)).toEqual({status: 200, body: {userId: 1, username: 'alice'}});
    const answer = await profile(bob);
    expect(answer.status).toBe(200);
    expectOutput(page, 'global-cache-other-user', answer.body);
  },
);

claim.abuse(
  `${page}#global-cache`,
  'guards still run before the global CacheInterceptor: no token, a forged token or an expired one get 401, not the cached profile',
  async () => {
    const {AppModule: CacheRoot} = samples(page, {under: 'global-cache'}).require('app.module');
    const {profile, alice, secret} = await startWithAuth(CacheRoot);
    expect((await profile(alice)).status).toBe(200);
    const jwt = nest('jsonwebtoken');
    const forged = jwt.sign({sub: 1, username: 'alice'}, 'not-the-secret');
    const expired = jwt.sign(
      {sub: 1, username: 'alice', exp: Math.floor(Date.now() / 1000) - 10},
      secret,
    );
    for (const bearer of [undefined, forged, expired, ''])
      expect(await profile(bearer)).toEqual({
        status: 401,
        body: {statusCode: 401, message: 'Unauthorized'},
      });
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim.abuse(
    `${page}#adjust-tracking`,
    `with the page's HttpCacheInterceptor and the authentication chapter's JwtStrategy, alice and bob each get their own cached profile (${lang})`,
    async () => {
      const set = samples(page, {under: 'adjust-tracking', lang});
      const {AppModule: CacheRoot} = samples(page, {under: 'adjust-tracking'}).require(
        'app.module',
      );
      // The global registration of the page, with the interceptor of the language under test.
      const {HttpCacheInterceptor} = set.require('http-cache.interceptor');
      const {APP_INTERCEPTOR} = nest('@nestjs/core');
      @Module({
        imports: [CacheModule.register()],
        providers: [{provide: APP_INTERCEPTOR, useClass: HttpCacheInterceptor}],
      })
      class LangRoot {}
      const {app, profile, alice, bob} = await startWithAuth(lang === 'ts' ? CacheRoot : LangRoot);
      for (let i = 0; i < 2; i++) {
        expect(await profile(alice)).toEqual({status: 200, body: {userId: 1, username: 'alice'}});
        expect(await profile(bob)).toEqual({status: 200, body: {userId: 2, username: 'bob'}});
      }
      expect(Object.keys(await ttls(app.get(CACHE_MANAGER))).sort()).toEqual([
        'user:1:/profile',
        'user:2:/profile',
      ]);
    },
  );
}

claim.abuse(
  `${page}#adjust-tracking`,
  'requests without a user are not cached: an anonymous GET of a public route runs the handler every time and writes no entry',
  async () => {
    const {AppModule: CacheRoot} = samples(page, {under: 'adjust-tracking'}).require('app.module');
    const {base, app, calls} = await startWithAuth(CacheRoot);
    expect(await (await fetch(`${base}/news`)).json()).toEqual({edition: 1});
    expect(await (await fetch(`${base}/news`)).json()).toEqual({edition: 2});
    expect(calls.news).toBe(2);
    expect(await ttls(app.get(CACHE_MANAGER))).toEqual({});
  },
);

claim.abuse(
  `${page}#adjust-tracking`,
  "a key built from a property the auth layer does not set (request.user.id) is the same for every user: bob gets alice's profile",
  async () => {
    const source = samples(page, {under: 'adjust-tracking'}).sources.get('http-cache.interceptor')!;
    const wrong = applyEdits('http-cache.interceptor', source, [
      ['request.user.userId', 'request.user.id'],
      [
        "if (request.method !== 'GET' || userId === undefined || userId === null) {",
        "if (request.method !== 'GET') {",
      ],
    ]);
    const {HttpCacheInterceptor} = compileModule<any>(wrong, 'http-cache.interceptor');
    const {APP_INTERCEPTOR} = nest('@nestjs/core');
    @Module({
      imports: [CacheModule.register()],
      providers: [{provide: APP_INTERCEPTOR, useClass: HttpCacheInterceptor}],
    })
    class WrongRoot {}
    const {profile, alice, bob} = await startWithAuth(WrongRoot);
    await profile(alice);
    expect(await profile(bob)).toEqual({status: 200, body: {userId: 1, username: 'alice'}});
  },
);

claim(
  `${page}#adjust-tracking`,
  'the HttpCacheInterceptor skips non-GET requests, even for a signed-in user',
  async () => {
    const {AppModule: CacheRoot} = samples(page, {under: 'adjust-tracking'}).require('app.module');
    const {CatsController} = compileModule<any>(`
import { Controller, Post } from '@nestjs/common';
@Controller('cats')
export class CatsController {
  @Post() create() { return {}; }
}
`);
    @Module({imports: [CacheRoot], controllers: [CatsController]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, {logger: false});
    app.use((req: any, _res: unknown, next: () => void) => {
      req.user = {userId: 7, username: 'carol'};
      next();
    });
    close = () => app.close();
    const base = await listen(app);
    expect((await fetch(`${base}/cats`, {method: 'POST'})).status).toBe(201);
    expect(await ttls(app.get(CACHE_MANAGER))).toEqual({});
  },
);

/** A cached controller for the Redis claims: a lookup that finds nothing (undefined or null) and a counter. */
const cachedController = `
const { __decorate, __param } = require('tslib');
const { CacheInterceptor, Controller, Get, Query, UseInterceptors } = require('@nestjs/common');
let count = 0;
let AppController = class AppController {
  find(id) { return id === 'null' ? null : id === 'known' ? { id } : undefined; }
  count() { count += 1; return { count }; }
};
__decorate([Get('find'), __param(0, Query('id'))], AppController.prototype, 'find', null);
__decorate([Get('count')], AppController.prototype, 'count', null);
AppController = __decorate([Controller(), UseInterceptors(CacheInterceptor)], AppController);
exports.AppController = AppController;
`;

/** The page's Redis app.module and safeRedisStore (TS or JS halves), on a Redis at `port`. */
function redisSet(port: number, lang: 'ts' | 'js' = 'ts', extra: [string, string][] = []) {
  const set = samples(page, {
    under: 'different-stores',
    edit: {
      'app.module': [
        ["host: 'localhost'", "host: '127.0.0.1'"],
        ['port: 6379', `port: ${port}`],
        ...extra,
      ],
    },
    files: {'app.controller': cachedController},
  });
  if (lang === 'js') {
    // The page shows app.module in TypeScript only: the JavaScript half of the store replaces the TS one.
    const js = samples(page, {under: 'different-stores', lang: 'js'});
    copyFileSync(join(js.dir, 'redis-cache.store.js'), join(set.dir, 'redis-cache.store.js'));
  }
  return set;
}

/** The registration the page warns about: cache-manager-redis-store as it is, without the wrapper. */
const bare: [string, string][] = [
  ['store: safeRedisStore,', 'store: redisStore,'],
  ['      enable_offline_queue: false,\n', ''],
  [
    "import { safeRedisStore } from './redis-cache.store';",
    "import * as redisStore from 'cache-manager-redis-store';",
  ],
];

const get = async (url: string) => {
  const response = await fetch(url, {signal: AbortSignal.timeout(3000)});
  const text = await response.text();
  return {status: response.status, body: text ? JSON.parse(text) : null};
};

claim(
  `${page}#different-stores`,
  'with safeRedisStore the interceptor and CACHE_MANAGER work against Redis (values stored as JSON, a Date comes back as a string)',
  async () => {
    const set = redisSet(redis.port);
    const {AppModule} = set.require('app.module');
    const {base, app} = await start(AppModule);
    const cache = app.get(CACHE_MANAGER);
    const client = cache.store.getClient();
    await until(() => client.ready);
    expect(await get(`${base}/count`)).toEqual({status: 200, body: {count: 1}});
    expect(await get(`${base}/count`)).toEqual({status: 200, body: {count: 1}});
    const raw = redisClient.createClient({host: '127.0.0.1', port: redis.port, db: 1});
    const stored = await new Promise<string>((resolve, reject) =>
      raw.get('/count', (error: Error | null, value: string) =>
        error ? reject(error) : resolve(value),
      ),
    );
    const ttl = await new Promise<number>((resolve, reject) =>
      raw.ttl('/count', (error: Error | null, value: number) =>
        error ? reject(error) : resolve(value),
      ),
    );
    raw.quit();
    expect(JSON.parse(stored)).toEqual({count: 1});
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(5);
    await cache.set('when', new Date(0));
    expect(await cache.get('when')).toBe('1970-01-01T00:00:00.000Z');
    await new Promise((resolve) => client.quit(resolve));
  },
);

/** The set's app.module started in a child process (what ends it must not end the test worker). */
async function childApp(set: {dir: string}, env: Record<string, string> = {}) {
  const child = startChild(set.dir, 'main.js', listeningScript('app.module.js'), env);
  children.push(child);
  const [, base] = await child.waitFor(/READY (\S+)/);
  return {child, base};
}
const children: ChildApp[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) await child.stop('SIGKILL');
});

claim.failure(
  `${page}#different-stores`,
  'with the bare cache-manager-redis-store, a cached GET handler that returns undefined answers 200 and then the process exits ("undefined" is not a cacheable value)',
  async () => {
    const {child, base} = await childApp(redisSet(redis.port, 'ts', bare));
    expect((await get(`${base}/find?id=missing`)).status).toBe(200);
    expect(await child.exited()).toEqual({code: 1, signal: null});
    expect(child.output()).toContain('"undefined" is not a cacheable value');
  },
);

claim.failure(
  `${page}#different-stores`,
  "with the bare cache-manager-redis-store, Redis going away ends the process (Unhandled 'error' event)",
  async () => {
    const restartable = await restartableRedis();
    await restartable.start();
    try {
      const {child, base} = await childApp(redisSet(restartable.port, 'ts', bare));
      expect(await get(`${base}/count`)).toEqual({status: 200, body: {count: 1}});
      await restartable.stop();
      expect(await child.exited()).toEqual({code: 1, signal: null});
      expect(child.output()).toContain("Unhandled 'error' event");
      expect(child.output()).toContain('ECONNREFUSED');
    } finally {
      await restartable.stop();
    }
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim.failure(
    `${page}#different-stores`,
    `with safeRedisStore, cached handlers that return undefined or null answer 200 every time and the process stays up (${lang})`,
    async () => {
      const {child, base} = await childApp(redisSet(redis.port, lang));
      for (const id of ['missing', 'null', 'missing', 'null']) {
        const answer = await get(`${base}/find?id=${id}`);
        expect(answer.status).toBe(200);
      }
      expect(await get(`${base}/find?id=known`)).toEqual({status: 200, body: {id: 'known'}});
      expect(await child.exited(500)).toBeNull();
      expect(child.alive()).toBe(true);
    },
  );
}

claim.failure(
  `${page}#different-stores`,
  'with safeRedisStore and Redis restarted while the app runs: the process stays up, requests are answered uncached at once during the outage, and caching resumes when Redis is back',
  async () => {
    const restartable = await restartableRedis();
    await restartable.start();
    try {
      const {child, base} = await childApp(redisSet(restartable.port));
      expect((await get(`${base}/count`)).body).toEqual({count: 1});
      expect((await get(`${base}/count`)).body).toEqual({count: 1});
      await restartable.stop();
      await child.waitFor(/WARN.*RedisCache.*ECONNREFUSED/);
      const started = Date.now();
      expect((await get(`${base}/count`)).body).toEqual({count: 2});
      expect((await get(`${base}/count`)).body).toEqual({count: 3});
      expect(Date.now() - started).toBeLessThan(1000);
      await restartable.start();
      // The client reconnects by itself: soon two requests in a row get the same (cached) answer.
      await until(async () => {
        const first = (await get(`${base}/count`)).body.count;
        return (await get(`${base}/count`)).body.count === first;
      }, 8000);
      expect(child.alive()).toBe(true);
    } finally {
      await restartable.stop();
    }
  },
  30_000,
);

claim.failure(
  `${page}#different-stores`,
  'with safeRedisStore and Redis down at start, the app starts and answers cached routes uncached, without waiting',
  async () => {
    const restartable = await restartableRedis();
    const {child, base} = await childApp(redisSet(restartable.port));
    const started = Date.now();
    expect((await get(`${base}/count`)).body).toEqual({count: 1});
    expect((await get(`${base}/count`)).body).toEqual({count: 2});
    expect(Date.now() - started).toBeLessThan(1000);
    expect(child.alive()).toBe(true);
  },
);

claim.failure(
  `${page}#different-stores`,
  'without enable_offline_queue: false, a request to a cached route waits while Redis is down, and is answered only once Redis is back',
  async () => {
    const restartable = await restartableRedis();
    try {
      const {base} = await childApp(
        redisSet(restartable.port, 'ts', [['      enable_offline_queue: false,\n', '']]),
      );
      const waiting = fetch(`${base}/count`).then(async (response) => ({
        at: Date.now(),
        body: await response.json(),
      }));
      const outcome = await Promise.race([
        waiting,
        new Promise((done) => setTimeout(() => done('still waiting'), 1500)),
      ]);
      expect(outcome).toBe('still waiting');
      const back = Date.now();
      await restartable.start();
      const answered = await waiting;
      expect(answered.body).toEqual({count: 1});
      expect(answered.at).toBeGreaterThanOrEqual(back);
    } finally {
      await restartable.stop();
    }
  },
  20_000,
);

claim(
  `${page}#async-configuration`,
  'registerAsync: useFactory, useClass (createCacheOptions()) and useExisting set the options; extraProviders are injectable',
  async () => {
    const {CacheConfigService} = samples(page, {under: 'async-configuration'}).require(
      'cache-config.service',
    );
    @Module({providers: [CacheConfigService], exports: [CacheConfigService]})
    class SharedConfigModule {}
    const {Injectable, Inject} = common;
    @Injectable()
    class Options {
      constructor(@Inject('TTL') readonly ttl: number) {}
      createCacheOptions() {
        return {ttl: this.ttl};
      }
    }
    for (const [registration, expected] of [
      [CacheModule.registerAsync({useFactory: () => ({ttl: 5})}), 5000],
      [CacheModule.registerAsync({useClass: CacheConfigService}), 5000],
      [
        CacheModule.registerAsync({imports: [SharedConfigModule], useExisting: CacheConfigService}),
        5000,
      ],
      [
        CacheModule.registerAsync({
          useClass: Options,
          extraProviders: [{provide: 'TTL', useValue: 7}],
        }),
        7000,
      ],
    ] as const) {
      @Module({imports: [registration]})
      class AppModule {}
      const app = await NestFactory.createApplicationContext(AppModule, {logger: false});
      const cache = app.get(CACHE_MANAGER);
      await cache.set('k', 1);
      expect((await ttls(cache)).k).toBe(expected);
      await app.close();
    }
  },
);

claim.failure(
  `${page}#async-configuration`,
  "CACHE_TTL missing, empty or not a number: with get<number>() alone the entries never expire; the page's Number(...) || 5 keeps 5 s (and '60' gives 60 s)",
  async () => {
    const factory = fragment(page, 'async-configuration', "configService.get('CACHE_TTL')").value;
    const {ConfigModule} = nest('@nestjs/config');
    const registration = (source: string) =>
      compileModule<any>(`
import { CacheModule } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
export const registration = ${source.trim().replace(/;$/, '')};
`).registration;
    const withoutConversion = factory.replace(
      "Number(configService.get('CACHE_TTL')) || 5",
      "configService.get<number>('CACHE_TTL')",
    );
    expect(withoutConversion).not.toBe(factory);
    const ttlOf = async (source: string, value: string | undefined) => {
      const previous = process.env.CACHE_TTL;
      if (value === undefined) delete process.env.CACHE_TTL;
      else process.env.CACHE_TTL = value;
      try {
        @Module({imports: [ConfigModule.forRoot({ignoreEnvFile: true}), registration(source)]})
        class AppModule {}
        const app = await NestFactory.createApplicationContext(AppModule, {logger: false});
        const cache = app.get(CACHE_MANAGER);
        await cache.set('k', 1);
        const ttl = (await ttls(cache)).k;
        await app.close();
        return ttl;
      } finally {
        if (previous === undefined) delete process.env.CACHE_TTL;
        else process.env.CACHE_TTL = previous;
      }
    };
    for (const value of [undefined, '', 'abc']) {
      expect(await ttlOf(withoutConversion, value), `get<number>() with ${value}`).toBeFalsy();
      expect(await ttlOf(factory, value), `the page's factory with ${value}`).toBe(5000);
    }
    expect(await ttlOf(factory, '60')).toBe(60_000);
  },
);

// ---- Review 5 (techniques-a): the Redis store in production ----

/** The page's Redis app.module with more compiled files of the page registered in it. */
function redisSetWith(
  port: number,
  lang: 'ts' | 'js',
  files: {
    from: {dir: string};
    name: string;
    cls: string;
    kind: 'controllers' | 'providers' | 'file';
  }[],
) {
  const set = redisSet(port, lang, [
    [
      "import { AppController } from './app.controller';",
      [
        "import { AppController } from './app.controller';",
        ...files
          .filter((f) => f.kind !== 'file')
          .map((f) => `import { ${f.cls} } from './${f.name}';`),
      ].join('\n'),
    ],
    [
      'controllers: [AppController],',
      `controllers: [AppController, ${files
        .filter((f) => f.kind === 'controllers')
        .map((f) => f.cls)
        .join(', ')}],\n  providers: [${files
        .filter((f) => f.kind === 'providers')
        .map((f) => f.cls)
        .join(', ')}],`,
    ],
  ]);
  for (const f of files)
    copyFileSync(join(f.from.dir, `${f.name}.js`), join(set.dir, `${f.name}.js`));
  return set;
}

/** The page's store, module, CatsService and CatsController in this worker; the client is ended afterwards (Nest leaves it open). */
async function redisApp(port: number, lang: 'ts' | 'js' = 'ts') {
  const service = samples(page, {under: 'interacting-with-the-cache-store', lang});
  const controller = samples(page, {
    under: 'auto-caching-responses',
    lang,
    pick: {'app.module': 1},
  });
  const set = redisSetWith(port, lang, [
    {from: service, name: 'cats.service', cls: 'CatsService', kind: 'providers'},
    {from: controller, name: 'cats.controller', cls: 'CatsController', kind: 'controllers'},
  ]);
  const {AppModule} = set.require('app.module');
  const app = await NestFactory.create(AppModule, {logger: false, abortOnError: false});
  const client = app.get(CACHE_MANAGER).store.getClient();
  close = async () => {
    await app.close();
    client.end(false);
  };
  return {app, base: await listen(app), client, cache: app.get(CACHE_MANAGER)};
}

claim(
  `${page}#interacting-with-the-cache-store`,
  'get() of a missing key: undefined with safeRedisStore, as with the memory store (the bare Redis store resolves null)',
  async () => {
    const {cache, client} = await redisApp(redis.port);
    await until(() => client.ready);
    expect(await cache.get('missing')).toBeUndefined();
    const bare = nest('cache-manager-redis-store').create({host: '127.0.0.1', port: redis.port});
    expect(await bare.get('missing')).toBeNull();
    bare.getClient().quit();
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim.failure(
    `${page}#different-stores`,
    `Redis down: the page's read-through CatsService answers 200 with the breeds and del() resolves with safeRedisStore; get() of the bare store rejects (${lang})`,
    async () => {
      const restartable = await restartableRedis(); // never started: nothing listens on the port
      const {base, cache} = await redisApp(restartable.port, lang);
      for (let i = 0; i < 2; i++)
        expect(await get(`${base}/cats/breeds`)).toEqual({
          status: 200,
          body: ['Abyssinian', 'Bengal', 'Siamese'],
        });
      await expect(cache.del('breeds')).resolves.toBeUndefined();
      const bare = nest('cache-manager-redis-store').create({
        host: '127.0.0.1',
        port: restartable.port,
        enable_offline_queue: false,
      });
      bare.getClient().on('error', () => {});
      await expect(bare.get('breeds')).rejects.toThrow(/GET can't be processed/);
      bare.getClient().end(false);
    },
  );
}

claim.failure(
  `${page}#different-stores`,
  "safeRedisStore's retry_strategy: Redis stopped for 7 s and started again, responses are cached again within 3 s (the client's own pauses, 200 ms x 1.7^n, would come 4 s later)",
  async () => {
    const restartable = await restartableRedis();
    await restartable.start();
    try {
      const {child, base} = await childApp(redisSet(restartable.port));
      expect((await get(`${base}/count`)).body).toEqual({count: 1});
      await restartable.stop();
      await child.waitFor(/WARN.*RedisCache.*Redis unavailable/);
      await new Promise((r) => setTimeout(r, 7000));
      await restartable.start();
      const back = Date.now();
      await until(async () => {
        const first = (await get(`${base}/count`)).body.count;
        return (await get(`${base}/count`)).body.count === first;
      }, 6000);
      expect(Date.now() - back).toBeLessThan(3000);
    } finally {
      await restartable.stop();
    }
  },
  30_000,
);

claim.failure(
  `${page}#redis-store-in-production`,
  'after connect_timeout of failed attempts (1.5 s here, an hour by default) the client gives up: "connection timeout exceeded" is logged and, Redis back, nothing is cached any more',
  async () => {
    const restartable = await restartableRedis();
    await restartable.start();
    try {
      const {child, base} = await childApp(
        redisSet(restartable.port, 'ts', [
          ['enable_offline_queue: false,', 'enable_offline_queue: false, connect_timeout: 1500,'],
        ]),
      );
      expect((await get(`${base}/count`)).body).toEqual({count: 1});
      expect((await get(`${base}/count`)).body).toEqual({count: 1});
      await restartable.stop();
      await child.waitFor(/Redis connection in broken state: connection timeout exceeded/, 8000);
      await restartable.start();
      await new Promise((r) => setTimeout(r, 2500));
      const counts: number[] = [];
      for (let i = 0; i < 3; i++) counts.push((await get(`${base}/count`)).body.count);
      expect(counts).toEqual([2, 3, 4]);
      expect(child.alive()).toBe(true);
    } finally {
      await restartable.stop();
    }
  },
  30_000,
);

claim(
  `${page}#redis-store-in-production`,
  "reset() is FLUSHDB: on database 0 it deletes a Bull queue's jobs; with the page's db: 1 the jobs survive",
  async () => {
    const Bull = nest('bull');
    const queue = new Bull('audio', {redis: {host: '127.0.0.1', port: redis.port}});
    try {
      await queue.empty();
      await queue.add({file: 'a.wav'}, {delay: 60_000});
      await queue.add({file: 'b.wav'});
      const {cache, client} = await redisApp(redis.port);
      await until(() => client.ready);
      expect(client.selected_db ?? client.options.db).toBe(1);
      await cache.set('k', 1);
      await cache.reset();
      expect(await cache.get('k')).toBeUndefined();
      expect(await queue.getJobCounts()).toMatchObject({waiting: 1, delayed: 1});
      // The same reset() on the queue's database.
      const onZero = nest('cache-manager').caching({
        store: nest('cache-manager-redis-store'),
        host: '127.0.0.1',
        port: redis.port,
      });
      await onZero.reset();
      expect(await queue.getJobCounts()).toMatchObject({waiting: 0, delayed: 0});
      onZero.store.getClient().quit();
    } finally {
      await queue.close();
    }
  },
);

claim.abuse(
  `${page}#redis-store-in-production`,
  'one caller, 1000 distinct query strings on a cached route: 1000 entries in Redis; the memory store keeps 100',
  async () => {
    const {base, cache, client} = await redisApp(redis.port);
    await until(() => client.ready);
    await cache.reset();
    // Entries live 5 s (the page's ttl): on a loaded machine the first ones may expire before the
    // last request, so count what Redis holds plus what it expired meanwhile.
    const expired = () =>
      new Promise<number>((resolve, reject) =>
        cache.store
          .getClient()
          .info('stats', (error: Error | null, info: string) =>
            error ? reject(error) : resolve(Number(/expired_keys:(\d+)/.exec(info)![1])),
          ),
      );
    const expiredBefore = await expired();
    for (let i = 0; i < 1000; i += 20) {
      await Promise.all(
        Array.from({length: 20}, async (_, j) =>
          (await fetch(`${base}/cats/breeds?x=${i + j}`)).text(),
        ),
      );
    }
    const keys: string[] = await cache.store.keys('/cats/breeds?x=*');
    expect(keys.length + (await expired()) - expiredBefore).toBe(1000);
    await cache.reset();
    const {CatsController, calls} = counting();
    @Module({imports: [CacheModule.register()], controllers: [CatsController]})
    class MemoryModule {}
    const memory = await NestFactory.create(MemoryModule, {logger: false});
    const memoryBase = await listen(memory);
    for (let i = 0; i < 1000; i++) await (await fetch(`${memoryBase}/cats/breeds?x=${i}`)).text();
    expect(calls.breeds).toBe(1000);
    expect(memory.get(CACHE_MANAGER).store.keyCount()).toBe(100);
    await memory.close();
  },
  30_000,
);

claim(
  `${page}#redis-store-in-production`,
  'app.close() leaves the Redis connection of the store open: the script keeps running; with getClient().quit() it ends',
  async () => {
    const set = redisSet(redis.port);
    const script = (quit: boolean) => `
const { NestFactory } = require('@nestjs/core');
const { CACHE_MANAGER } = require('@nestjs/common');
const { AppModule } = require('./app.module.js');
NestFactory.create(AppModule, { logger: false }).then(async (app) => {
  await app.listen(0, '127.0.0.1');
  const cache = app.get(CACHE_MANAGER);
  await app.close();
  ${quit ? 'app.get(CACHE_MANAGER).store.getClient().quit();' : ''}
  console.log('CLOSED');
});
`;
    const open = startChild(set.dir, 'close-only.js', script(false));
    const quitting = startChild(set.dir, 'close-and-quit.js', script(true));
    children.push(open, quitting);
    await open.waitFor(/CLOSED/);
    await quitting.waitFor(/CLOSED/);
    expect(await quitting.exited(3000)).toEqual({code: 0, signal: null});
    expect(await open.exited(1500)).toBeNull();
  },
);

// The serialization chapter's UserEntity behind a CacheInterceptor on safeRedisStore.
const serialization = 'docs/techniques/serialization.md';

async function serializedUsers(order: 'global-serializer' | 'cache-first') {
  const entity = samples(serialization, {under: 'exclude-properties'});
  const controller =
    order === 'global-serializer'
      ? // the caching chapter's controller-level CacheInterceptor on the serialization chapter's controller
        samples(serialization, {
          under: 'exclude-properties',
          edit: {
            'users.controller': [
              ['  ClassSerializerInterceptor,\n', '  CacheInterceptor,\n'],
              [
                '@UseInterceptors(ClassSerializerInterceptor)',
                '@UseInterceptors(CacheInterceptor)',
              ],
            ],
          },
        })
      : samples(serialization, {
          under: 'exclude-properties',
          edit: {
            'users.controller': [
              [
                '  ClassSerializerInterceptor,\n',
                '  CacheInterceptor,\n  ClassSerializerInterceptor,\n',
              ],
              [
                '@UseInterceptors(ClassSerializerInterceptor)',
                '@UseInterceptors(CacheInterceptor, ClassSerializerInterceptor)',
              ],
            ],
          },
        });
  const set = redisSetWith(redis.port, 'ts', [
    {from: entity, name: 'user.entity', cls: 'UserEntity', kind: 'file'},
    {from: controller, name: 'users.controller', cls: 'UsersController', kind: 'controllers'},
  ]);
  const {AppModule} = set.require('app.module');
  const app = await NestFactory.create(AppModule, {logger: false, abortOnError: false});
  if (order === 'global-serializer') {
    const {Reflector} = nest('@nestjs/core');
    app.useGlobalInterceptors(new common.ClassSerializerInterceptor(app.get(Reflector)));
  }
  const client = app.get(CACHE_MANAGER).store.getClient();
  close = async () => {
    await app.close();
    client.end(false);
  };
  await until(() => client.ready);
  await app.get(CACHE_MANAGER).reset();
  const base = await listen(app);
  const answers: any[] = [];
  for (let i = 0; i < 2; i++) {
    answers.push(await (await fetch(`${base}/users/1`)).json());
    await new Promise((r) => setTimeout(r, 100)); // set() is not awaited by the interceptor
  }
  const stored = await new Promise<string>((resolve, reject) =>
    client.get('/users/1', (error: Error | null, value: string) =>
      error ? reject(error) : resolve(value),
    ),
  );
  return {answers, stored};
}

claim.abuse(
  `${page}#different-stores`,
  "the serialization chapter's global ClassSerializerInterceptor with a controller-level CacheInterceptor on Redis: the first GET /users/1 hides the password, the cached second one sends it (output), and Redis holds it",
  async () => {
    const {answers, stored} = await serializedUsers('global-serializer');
    expect(answers[0]).not.toHaveProperty('password');
    expectOutput(page, 'cached-entity-without-class', answers[1]);
    expect(stored).toContain('$2b$10$');
  },
);

claim.abuse(
  `${page}#different-stores`,
  '@UseInterceptors(CacheInterceptor, ClassSerializerInterceptor): the cache stores the serialized user, neither answer nor Redis holds the password',
  async () => {
    const {answers, stored} = await serializedUsers('cache-first');
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[0]).not.toHaveProperty('password');
    expect(stored).not.toContain('$2b$10$');
  },
);

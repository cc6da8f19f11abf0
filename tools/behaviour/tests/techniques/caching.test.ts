import {afterAll, afterEach, beforeAll, expect} from 'vitest';
import {
  claim,
  compileModule,
  fragment,
  freePort,
  listen,
  nest,
  samples,
  service,
  type Service,
} from '../../lib';

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

claim(
  `${page}#adjust-tracking`,
  'a trackBy() override keys the cache per user and skips non-GET requests',
  async () => {
    const set = samples(page, {under: 'adjust-tracking'});
    const {AppModule: CacheRoot} = set.require('app.module');
    const {CatsController} = compileModule<any>(`
import { Controller, Get, Post, Req } from '@nestjs/common';
@Controller('cats')
export class CatsController {
  @Get() mine(@Req() req: any) { return { user: req.user?.id ?? null }; }
  @Post() create() { return {}; }
}
`);
    @Module({imports: [CacheRoot], controllers: [CatsController]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, {logger: false});
    app.use((req: any, _res: unknown, next: () => void) => {
      if (req.headers['x-user']) req.user = {id: req.headers['x-user']};
      next();
    });
    close = () => app.close();
    const base = await listen(app);
    await fetch(`${base}/cats`, {headers: {'x-user': '42'}});
    await fetch(`${base}/cats`);
    await fetch(`${base}/cats`, {method: 'POST'});
    expect(Object.keys(await ttls(app.get(CACHE_MANAGER))).sort()).toEqual([
      '42:/cats',
      'anonymous:/cats',
    ]);
  },
);

claim(
  `${page}#different-stores`,
  'with cache-manager-redis-store the interceptor and CACHE_MANAGER work against Redis (values stored as JSON)',
  async () => {
    const {AppModule: RedisCacheModule} = samples(page, {
      under: 'different-stores',
      edit: {
        'app.module': [
          ["host: 'localhost'", "host: '127.0.0.1'"],
          ['port: 6379', `port: ${redis.port}`],
        ],
      },
      files: {
        'app.controller':
          "import { Controller } from '@nestjs/common';\n@Controller()\nexport class AppController {}\n",
      },
    }).require('app.module');
    const {CatsController, calls} = counting();
    const redisStore = nest('cache-manager-redis-store');
    @Module({
      imports: [CacheModule.register({store: redisStore, host: '127.0.0.1', port: redis.port})],
      controllers: [CatsController],
    })
    class RedisApp {}
    const {base, app} = await start(RedisApp);
    await fetch(`${base}/cats/breeds`);
    expect(await (await fetch(`${base}/cats/breeds`)).json()).toEqual({call: 1});
    expect(calls.breeds).toBe(1);
    const raw = redisClient.createClient({host: '127.0.0.1', port: redis.port});
    const stored = await new Promise<string>((resolve, reject) =>
      raw.get('/cats/breeds', (error: Error | null, value: string) =>
        error ? reject(error) : resolve(value),
      ),
    );
    const ttl = await new Promise<number>((resolve, reject) =>
      raw.ttl('/cats/breeds', (error: Error | null, value: number) =>
        error ? reject(error) : resolve(value),
      ),
    );
    raw.quit();
    expect(JSON.parse(stored)).toEqual({call: 1});
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(5);
    // A Date survives the memory store but comes back from Redis as a string.
    const cache = app.get(CACHE_MANAGER);
    await cache.set('when', new Date(0));
    expect(await cache.get('when')).toBe('1970-01-01T00:00:00.000Z');
    const redisCache = cache.store.getClient();
    await new Promise((resolve) => redisCache.quit(resolve));
    // the sample module itself compiles and starts against this Redis
    const sampleApp = await NestFactory.createApplicationContext(RedisCacheModule, {logger: false});
    const sampleCache = sampleApp.get(CACHE_MANAGER);
    await sampleCache.set('ping', 'pong');
    expect(await sampleCache.get('ping')).toBe('pong');
    await new Promise((resolve) => sampleCache.store.getClient().quit(resolve));
    await sampleApp.close();
  },
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

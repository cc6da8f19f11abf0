/**
 * The caching chapter's CacheInterceptor (global, and the per-user HttpCacheInterceptor of "Adjust
 * tracking", in memory and on the Redis store of "Different stores") with the authentication chapter's
 * JWT application (login, GET /profile), as a reader who follows both chapters assembles it.
 */
import {afterAll, beforeAll, describe, expect} from 'vitest';
import {claim, nest, listen, service, expectOutput, type Service} from '../../lib';
import {listeningScript, restartableRedis, startChild} from '../techniques/_child-app';
import {authPart, combine, combinedSecret, getAs, login, sign, users} from './_support';

process.env.JWT_SECRET = combinedSecret;
const {NestFactory} = nest('@nestjs/core');
const {CACHE_MANAGER} = nest('@nestjs/common');
const Redis = nest('ioredis');
const cachePage = 'docs/techniques/caching.md';

/** The caching page's root module (its interceptor registration) imported next to AuthModule. */
function inMemory(under: 'global-cache' | 'adjust-tracking') {
  return combine(
    [
      authPart(),
      {
        page: cachePage,
        options: {under},
        take: {
          'app.module': 'cache-root.module',
          ...(under === 'adjust-tracking'
            ? {'http-cache.interceptor': 'http-cache.interceptor'}
            : {}),
        },
      },
    ],
    {
      'app.module': `
import { Module } from '@nestjs/common';
import { AuthModule } from './auth/auth.module';
import { AppController } from './app.controller';
import { AppModule as CacheRoot } from './cache-root.module';

@Module({ imports: [CacheRoot, AuthModule], controllers: [AppController] })
export class AppModule {}
`,
    },
  );
}

const alicesProfile = {userId: 1, username: 'alice'};
const bobsProfile = {userId: 2, username: 'bob'};

describe('the global CacheInterceptor of "Global cache" in front of GET /profile', () => {
  let app: any;
  let base: string;
  beforeAll(async () => {
    app = await NestFactory.create(inMemory('global-cache').require('app.module').AppModule, {
      logger: false,
    });
    base = await listen(app);
  });
  afterAll(async () => app?.close());

  claim.abuse(
    `${cachePage}#global-cache`,
    "alice reads her profile, then bob with his own token from the login route receives alice's (the output the warning shows)",
    async () => {
      const alice = await login(base, ...users.alice);
      const bob = await login(base, ...users.bob);
      expect(await getAs(`${base}/profile`, alice)).toEqual({status: 200, body: alicesProfile});
      const answer = await getAs(`${base}/profile`, bob);
      expect(answer.status).toBe(200);
      expectOutput(cachePage, 'global-cache-other-user', answer.body);
    },
  );

  claim.abuse(
    `${cachePage}#global-cache`,
    "anonymous after alice, while her profile is cached: JwtAuthGuard runs before the interceptor and answers 401, and so it does for a token that expired or another secret's",
    async () => {
      const alice = await login(base, ...users.alice);
      expect((await getAs(`${base}/profile`, alice)).status).toBe(200);
      const expired = sign({sub: 1, username: 'alice', exp: Math.floor(Date.now() / 1000) - 5});
      const foreign = sign({sub: 1, username: 'alice'}, {secret: 'x'.repeat(40)});
      for (const token of [undefined, expired, foreign]) {
        expect(await getAs(`${base}/profile`, token)).toEqual({
          status: 401,
          body: {statusCode: 401, message: 'Unauthorized'},
        });
      }
    },
  );
});

describe('the per-user HttpCacheInterceptor of "Adjust tracking", global, in memory', () => {
  let app: any;
  let base: string;
  let tokens: {alice: string; bob: string};
  beforeAll(async () => {
    app = await NestFactory.create(inMemory('adjust-tracking').require('app.module').AppModule, {
      logger: false,
    });
    base = await listen(app);
    tokens = {alice: await login(base, ...users.alice), bob: await login(base, ...users.bob)};
  });
  afterAll(async () => app?.close());

  claim(
    `${cachePage}#adjust-tracking`,
    'alice then bob: each receives their own profile, cached under user:<userId>:/profile',
    async () => {
      const cache = app.get(CACHE_MANAGER);
      await cache.reset();
      expect(await getAs(`${base}/profile`, tokens.alice)).toEqual({
        status: 200,
        body: alicesProfile,
      });
      expect(await getAs(`${base}/profile`, tokens.bob)).toEqual({status: 200, body: bobsProfile});
      expect((await cache.store.keys()).sort()).toEqual(['user:1:/profile', 'user:2:/profile']);
      expect(await cache.get('user:1:/profile')).toEqual(alicesProfile);
    },
  );

  claim.abuse(
    `${cachePage}#adjust-tracking`,
    'alice, bob and anonymous callers at the same time (30 requests at once): every user gets their own profile, every anonymous caller 401',
    async () => {
      await app.get(CACHE_MANAGER).reset();
      const callers = Array.from(
        {length: 30},
        (_, i) => [tokens.alice, tokens.bob, undefined][i % 3],
      );
      const answers = await Promise.all(callers.map((token) => getAs(`${base}/profile`, token)));
      answers.forEach((answer, i) => {
        const expected =
          i % 3 === 0
            ? {status: 200, body: alicesProfile}
            : i % 3 === 1
              ? {status: 200, body: bobsProfile}
              : {status: 401, body: {statusCode: 401, message: 'Unauthorized'}};
        expect(answer, String(i)).toEqual(expected);
      });
    },
  );

  claim.abuse(
    `${cachePage}#adjust-tracking`,
    "a token signed for a user id that is not bob's cannot reach bob's cached entry, and an expired token of alice's gets 401 while her entry is cached",
    async () => {
      await app.get(CACHE_MANAGER).reset();
      expect((await getAs(`${base}/profile`, tokens.bob)).body).toEqual(bobsProfile);
      // Another user id (a user the store does not know, signed as the application signs)
      const carol = sign({sub: 3, username: 'carol'}, {expiresIn: '60s'});
      expect(await getAs(`${base}/profile`, carol)).toEqual({
        status: 200,
        body: {userId: 3, username: 'carol'},
      });
      expect((await getAs(`${base}/profile`, tokens.alice)).body).toEqual(alicesProfile);
      const expired = sign({sub: 1, username: 'alice', exp: Math.floor(Date.now() / 1000) - 5});
      expect((await getAs(`${base}/profile`, expired)).status).toBe(401);
    },
  );
});

/** The Redis database the page's app.module selects (its `db` option, 0 without one). */
function databaseOf(set: {sources: Map<string, string>}): number {
  return Number(/\bdb: (\d+)/.exec(set.sources.get('app.module')!)?.[1] ?? 0);
}

/** The Redis app.module of "Different stores", importing AuthModule, with the per-user interceptor. */
function onRedis(port: number, interceptor: 'HttpCacheInterceptor' | 'CacheInterceptor') {
  return combine([
    {
      page: cachePage,
      options: {
        under: 'different-stores',
        edit: {
          'app.module': [
            ["host: 'localhost'", "host: '127.0.0.1'"],
            ['port: 6379', `port: ${port}`],
            // "Make sure the AppModule imports AuthModule" (authentication, Login route)
            [
              "import { AppController } from './app.controller';",
              `import { AppController } from './app.controller';\nimport { AuthModule } from './auth/auth.module';\nimport { APP_INTERCEPTOR } from '@nestjs/core';\nimport { HttpCacheInterceptor } from './http-cache.interceptor';\nimport { CacheInterceptor } from '@nestjs/common';`,
            ],
            // "Use the subclass wherever you used CacheInterceptor before" (Adjust tracking)
            [
              '  controllers: [AppController],',
              `  controllers: [AppController],\n  providers: [{ provide: APP_INTERCEPTOR, useClass: ${interceptor} }],`,
            ],
            ['    }),\n  ],', '    }),\n    AuthModule,\n  ],'],
          ],
        },
      },
      take: ['app.module', 'redis-cache.store', 'http-cache.interceptor'],
    },
    authPart(),
  ]);
}

describe('the per-user HttpCacheInterceptor on the Redis store of "Different stores"', () => {
  let redis: Service;
  let client: any;
  const apps: any[] = [];
  beforeAll(async () => {
    redis = await service('redis');
    const db = databaseOf(onRedis(redis.port, 'HttpCacheInterceptor'));
    client = new Redis(redis.port, '127.0.0.1', {db});
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    client?.disconnect();
    await redis?.stop();
  });

  async function instance(interceptor: 'HttpCacheInterceptor' | 'CacheInterceptor') {
    const set = onRedis(redis.port, interceptor);
    const app = await NestFactory.create(set.require('app.module').AppModule, {logger: false});
    apps.push(app);
    const base = await listen(app);
    const store = app.get(CACHE_MANAGER).store.getClient();
    for (let i = 0; !store.ready && i < 60; i += 1) await new Promise((r) => setTimeout(r, 50));
    return base;
  }

  claim(
    `${cachePage}#different-stores`,
    'alice then bob: each gets their own profile, and Redis holds user:1:/profile and user:2:/profile with the 5-second default',
    async () => {
      await client.flushall();
      const base = await instance('HttpCacheInterceptor');
      const alice = await login(base, ...users.alice);
      const bob = await login(base, ...users.bob);
      expect((await getAs(`${base}/profile`, alice)).body).toEqual(alicesProfile);
      expect((await getAs(`${base}/profile`, bob)).body).toEqual(bobsProfile);
      expect((await client.keys('*')).sort()).toEqual(['user:1:/profile', 'user:2:/profile']);
      expect(JSON.parse(await client.get('user:1:/profile'))).toEqual(alicesProfile);
      const ttl = await client.ttl('user:2:/profile');
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(5);
    },
  );

  claim.abuse(
    `${cachePage}#different-stores`,
    "two instances on one Redis, per-user keys: alice's entry written by the first instance serves alice on the second, and bob on the second gets his own",
    async () => {
      await client.flushall();
      const first = await instance('HttpCacheInterceptor');
      const second = await instance('HttpCacheInterceptor');
      const alice = await login(first, ...users.alice);
      const bob = await login(second, ...users.bob);
      expect((await getAs(`${first}/profile`, alice)).body).toEqual(alicesProfile);
      // A marker in alice's entry shows that the second instance answers from Redis
      await client.set(
        'user:1:/profile',
        JSON.stringify({...alicesProfile, from: 'redis'}),
        'EX',
        5,
      );
      expect((await getAs(`${second}/profile`, alice)).body).toEqual({
        ...alicesProfile,
        from: 'redis',
      });
      expect((await getAs(`${second}/profile`, bob)).body).toEqual(bobsProfile);
    },
  );

  claim.abuse(
    `${cachePage}#global-cache`,
    'with the plain global CacheInterceptor on the Redis store, the leak crosses instances: bob on the second instance receives the profile alice read on the first',
    async () => {
      await client.flushall();
      const first = await instance('CacheInterceptor');
      const second = await instance('CacheInterceptor');
      const alice = await login(first, ...users.alice);
      const bob = await login(second, ...users.bob);
      expect((await getAs(`${first}/profile`, alice)).body).toEqual(alicesProfile);
      expect(await client.keys('*')).toEqual(['/profile']);
      expect((await getAs(`${second}/profile`, bob)).body).toEqual(alicesProfile);
    },
  );
});

claim.failure(
  `${cachePage}#different-stores`,
  'Redis killed while the per-user cache runs (in a child process): alice and bob still get their own profiles, uncached, the process stays up, and caching resumes when Redis is back',
  async () => {
    const restartable = await restartableRedis();
    await restartable.start();
    const set = onRedis(restartable.port, 'HttpCacheInterceptor');
    const child = startChild(set.dir, 'main.js', listeningScript('app.module.js'), {
      JWT_SECRET: combinedSecret,
    });
    const probe = new Redis(restartable.port, '127.0.0.1', {
      lazyConnect: true,
      db: databaseOf(set),
    });
    probe.on('error', () => undefined);
    try {
      const base = (await child.waitFor(/READY (\S+)/))[1];
      const alice = await login(base, ...users.alice);
      const bob = await login(base, ...users.bob);
      expect((await getAs(`${base}/profile`, alice)).body).toEqual(alicesProfile);
      await restartable.stop();
      await child.waitFor(/RedisCache/);
      for (let i = 0; i < 3; i += 1) {
        expect((await getAs(`${base}/profile`, bob)).body).toEqual(bobsProfile);
        expect((await getAs(`${base}/profile`, alice)).body).toEqual(alicesProfile);
        expect((await getAs(`${base}/profile`)).status).toBe(401);
      }
      await restartable.start();
      await probe.connect();
      const deadline = Date.now() + 8000;
      while (!(await probe.exists('user:2:/profile'))) {
        if (Date.now() > deadline) throw new Error('bob was not cached again after the restart');
        expect((await getAs(`${base}/profile`, bob)).body).toEqual(bobsProfile);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(await probe.exists('user:1:/profile')).toBe(0);
      expect(child.alive()).toBe(true);
    } finally {
      probe.disconnect();
      await child.stop();
      await restartable.stop();
    }
  },
  30_000,
);

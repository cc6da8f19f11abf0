import {afterAll, describe, expect} from 'vitest';
import {claim, samples, fragment, nest, listen, readPage} from '../../lib';

const {Module, Controller, Get, Version, VersioningType, VERSION_NEUTRAL} = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const {FastifyAdapter} = nest('@nestjs/platform-fastify');
const page = 'docs/techniques/versioning.md';

const apps: any[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
});

type Platform = 'express' | 'fastify';

async function start(
  controllers: unknown[],
  versioning: Record<string, unknown> | null,
  platform: Platform = 'express',
  prefix?: string,
): Promise<string> {
  @Module({controllers})
  class AppModule {}
  const app =
    platform === 'fastify'
      ? await NestFactory.create(AppModule, new FastifyAdapter(), {logger: false})
      : await NestFactory.create(AppModule, {logger: false});
  apps.push(app);
  if (prefix) app.setGlobalPrefix(prefix);
  if (versioning) app.enableVersioning(versioning);
  return listen(app);
}

/** The options object of an `app.enableVersioning({...})` call shown in a section (evaluated with VersioningType in scope). */
function optionsFrom(section: string, contains: string): Record<string, unknown> {
  const code = fragment(page, section, contains).value;
  const match = /enableVersioning\((\{[\s\S]*?\})\);/.exec(code);
  if (!match) throw new Error(`no enableVersioning() in ${section}`);
  return new Function('VersioningType', 'extractVersion', `return (${match[1]});`)(
    VersioningType,
    undefined,
  );
}

async function text(
  base: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<[number, string]> {
  const response = await fetch(`${base}${path}`, {headers});
  return [response.status, await response.text()];
}

// The page's controllers.
const {CatsControllerV1} = samples(page, {under: 'controller-versions'}).require('cats.controller');
const {CatsController} = samples(page, {under: 'route-versions'}).require('cats.controller');
const {OwnersController} = samples(page).require('owners.controller');
const {HealthController} = samples(page).require('health.controller');

@Controller({path: 'cats', version: '2'})
class CatsControllerV2 {
  @Get()
  findAll() {
    return 'All cats, version 2 format';
  }
}

for (const platform of ['express', 'fastify'] as Platform[]) {
  describe(`${platform}`, () => {
    claim(
      `${page}#uri-versioning`,
      `URI versioning: version 1 answers on /v1/cats, the bare path is 404 (${platform})`,
      async () => {
        const base = await start(
          [CatsControllerV1, CatsControllerV2],
          optionsFrom('uri-versioning', 'VersioningType.URI,\n  });'),
          platform,
        );
        expect(await text(base, '/v1/cats')).toEqual([200, 'All cats, version 1 format']);
        expect(await text(base, '/v2/cats')).toEqual([200, 'All cats, version 2 format']);
        expect((await text(base, '/cats'))[0]).toBe(404);
        expect((await text(base, '/v3/cats'))[0]).toBe(404);
      },
    );

    claim(
      `${page}#uri-versioning`,
      `prefix 'version-' serves /version-1/cats; prefix false serves /1/cats; the version goes after the global prefix (${platform})`,
      async () => {
        const custom = await start(
          [CatsControllerV1],
          optionsFrom('uri-versioning', "prefix: 'version-'"),
          platform,
        );
        expect(await text(custom, '/version-1/cats')).toEqual([200, 'All cats, version 1 format']);
        const bare = await start(
          [CatsControllerV1],
          {type: VersioningType.URI, prefix: false},
          platform,
        );
        expect(await text(bare, '/1/cats')).toEqual([200, 'All cats, version 1 format']);
        const prefixed = await start(
          [CatsControllerV1],
          {type: VersioningType.URI},
          platform,
          'api',
        );
        expect(await text(prefixed, '/api/v1/cats')).toEqual([200, 'All cats, version 1 format']);
      },
    );

    claim(
      `${page}#header-versioning`,
      `X-API-Version: 2 selects version 2, in any letter case; "2.0" is another version (404) (${platform})`,
      async () => {
        const base = await start(
          [CatsControllerV1, CatsControllerV2],
          optionsFrom('header-versioning', "header: 'X-API-Version'"),
          platform,
        );
        expect(await text(base, '/cats', {'X-API-Version': '2'})).toEqual([
          200,
          'All cats, version 2 format',
        ]);
        expect(await text(base, '/cats', {'x-api-version': '1'})).toEqual([
          200,
          'All cats, version 1 format',
        ]);
        expect((await text(base, '/cats', {'X-API-Version': '2.0'}))[0]).toBe(404);
        expect((await text(base, '/cats', {'X-API-Version': 'v2'}))[0]).toBe(404);
      },
    );

    claim(
      `${page}#media-type-versioning`,
      `Accept: application/json;v=2 selects version 2; the key must be the first parameter (${platform})`,
      async () => {
        const base = await start(
          [CatsControllerV1, CatsControllerV2],
          optionsFrom('media-type-versioning', "key: 'v='"),
          platform,
        );
        expect(await text(base, '/cats', {Accept: 'application/json;v=2'})).toEqual([
          200,
          'All cats, version 2 format',
        ]);
        expect(await text(base, '/cats', {Accept: 'application/json;v=1'})).toEqual([
          200,
          'All cats, version 1 format',
        ]);
        expect((await text(base, '/cats', {Accept: 'application/json;charset=utf-8;v=2'}))[0]).toBe(
          404,
        );
        expect(await text(base, '/cats', {Accept: 'application/json;v=2;charset=utf-8'})).toEqual([
          200,
          'All cats, version 2 format',
        ]);
      },
    );

    claim(
      `${page}#route-versions`,
      `@Version('1') and @Version('2') on two handlers of GET /cats answer on /v1/cats and /v2/cats (${platform})`,
      async () => {
        const base = await start([CatsController], {type: VersioningType.URI}, platform);
        expect(await text(base, '/v1/cats')).toEqual([200, 'All cats, version 1 format']);
        expect(await text(base, '/v2/cats')).toEqual([200, 'All cats, version 2 format']);
      },
    );

    claim(
      `${page}#route-versions`,
      `a route version overrides the controller's version (${platform})`,
      async () => {
        @Controller({path: 'dogs', version: '1'})
        class DogsController {
          @Get()
          list() {
            return 'controller version';
          }
          @Version('2')
          @Get('new')
          fresh() {
            return 'route version';
          }
        }
        const base = await start([DogsController], {type: VersioningType.URI}, platform);
        expect(await text(base, '/v1/dogs')).toEqual([200, 'controller version']);
        expect(await text(base, '/v2/dogs/new')).toEqual([200, 'route version']);
        expect((await text(base, '/v1/dogs/new'))[0]).toBe(404);
      },
    );

    claim(
      `${page}#multiple-versions`,
      `version: ['1', '2'] serves both; @Version(['2', '3']) serves stats on 2 and 3 only (${platform})`,
      async () => {
        const base = await start([OwnersController], {type: VersioningType.URI}, platform);
        expect(await text(base, '/v1/owners')).toEqual([
          200,
          'Owners, unchanged between versions 1 and 2',
        ]);
        expect(await text(base, '/v2/owners')).toEqual([
          200,
          'Owners, unchanged between versions 1 and 2',
        ]);
        expect((await text(base, '/v3/owners'))[0]).toBe(404);
        expect(await text(base, '/v3/owners/stats')).toEqual([
          200,
          'Owner statistics, available from version 2',
        ]);
        expect((await text(base, '/v1/owners/stats'))[0]).toBe(404);
      },
    );

    claim(
      `${page}#version-neutral`,
      `a VERSION_NEUTRAL controller is /health with URI versioning, and answers with or without the header (${platform})`,
      async () => {
        const uri = await start([HealthController], {type: VersioningType.URI}, platform);
        expect(await text(uri, '/health')).toEqual([200, '{"status":"ok"}']);
        expect((await text(uri, '/v1/health'))[0]).toBe(404);
        const header = await start(
          [HealthController],
          {type: VersioningType.HEADER, header: 'X-API-Version'},
          platform,
        );
        expect((await text(header, '/health'))[0]).toBe(200);
        expect((await text(header, '/health', {'X-API-Version': '7'}))[0]).toBe(200);
        const media = await start(
          [HealthController],
          {type: VersioningType.MEDIA_TYPE, key: 'v='},
          platform,
        );
        expect((await text(media, '/health'))[0]).toBe(200);
        expect((await text(media, '/health', {Accept: 'application/json;v=4'}))[0]).toBe(200);
      },
    );

    claim(
      `${page}#version-neutral`,
      `[VERSION_NEUTRAL, '1'] is registered at /cats and at /v1/cats (${platform})`,
      async () => {
        @Controller({path: 'cats', version: [VERSION_NEUTRAL, '1']})
        class MixedController {
          @Get()
          list() {
            return 'mixed';
          }
        }
        const base = await start([MixedController], {type: VersioningType.URI}, platform);
        expect(await text(base, '/cats')).toEqual([200, 'mixed']);
        expect(await text(base, '/v1/cats')).toEqual([200, 'mixed']);
        expect((await text(base, '/v2/cats'))[0]).toBe(404);
      },
    );

    claim(
      `${page}#default-version`,
      `defaultVersion '1' puts a plain @Controller('cats') on /v1/cats; a route @Version() still wins (${platform})`,
      async () => {
        @Controller('cats')
        class PlainController {
          @Get()
          list() {
            return 'plain';
          }
          @Version('2')
          @Get('new')
          fresh() {
            return 'route v2';
          }
        }
        const base = await start(
          [PlainController],
          optionsFrom('default-version', "defaultVersion: '1'"),
          platform,
        );
        expect(await text(base, '/v1/cats')).toEqual([200, 'plain']);
        expect((await text(base, '/cats'))[0]).toBe(404);
        expect(await text(base, '/v2/cats/new')).toEqual([200, 'route v2']);
      },
    );

    claim(
      `${page}#default-version`,
      `without defaultVersion an unversioned controller keeps /cats and ignores the version a client sends (${platform})`,
      async () => {
        @Controller('plain')
        class PlainController {
          @Get()
          list() {
            return 'unversioned';
          }
        }
        const uri = await start([PlainController], {type: VersioningType.URI}, platform);
        expect(await text(uri, '/plain')).toEqual([200, 'unversioned']);
        const header = await start(
          [PlainController],
          {type: VersioningType.HEADER, header: 'X-API-Version'},
          platform,
        );
        expect(await text(header, '/plain', {'X-API-Version': '9'})).toEqual([200, 'unversioned']);
      },
    );

    claim(
      `${page}#custom-versioning`,
      `the page's extractor: application/vnd.example.v2+json selects version 2; no match is 404 (${platform})`,
      async () => {
        const {extractVersion} = samples(page, {
          under: 'custom-versioning',
          files: {'app.module': 'export class AppModule {}'},
          edit: {
            main: [
              ['bootstrap();', ''],
              ['function extractVersion', 'export function extractVersion'],
            ],
          },
        }).require('main');
        const base = await start(
          [CatsControllerV1, CatsControllerV2],
          {type: VersioningType.CUSTOM, extractor: extractVersion},
          platform,
        );
        expect(await text(base, '/cats', {Accept: 'application/vnd.example.v2+json'})).toEqual([
          200,
          'All cats, version 2 format',
        ]);
        expect(await text(base, '/cats', {Accept: 'application/vnd.example.v1+json'})).toEqual([
          200,
          'All cats, version 1 format',
        ]);
        expect((await text(base, '/cats', {Accept: 'application/json'}))[0]).toBe(404);
      },
    );

    claim(
      `${page}#choosing-a-strategy`,
      `a version no handler serves is 404 Not Found (${platform})`,
      async () => {
        const base = await start(
          [CatsControllerV1],
          {type: VersioningType.HEADER, header: 'X-API-Version'},
          platform,
        );
        const [status] = await text(base, '/cats', {'X-API-Version': '9'});
        expect(status).toBe(404);
      },
    );
  });
}

claim(
  `${page}#custom-versioning`,
  'an array from the extractor: Express takes the first registered handler that serves any listed version',
  async () => {
    const extractor = () => ['1', '2'];
    const v2First = await start([CatsControllerV2, CatsControllerV1], {
      type: VersioningType.CUSTOM,
      extractor,
    });
    expect(await text(v2First, '/cats')).toEqual([200, 'All cats, version 2 format']);
    const v1First = await start([CatsControllerV1, CatsControllerV2], {
      type: VersioningType.CUSTOM,
      extractor,
    });
    expect(await text(v1First, '/cats')).toEqual([200, 'All cats, version 1 format']);
  },
);

claim(
  `${page}#custom-versioning`,
  'an array from the extractor: Fastify takes the first element that some handler serves',
  async () => {
    const v1Wanted = await start(
      [CatsControllerV2, CatsControllerV1],
      {type: VersioningType.CUSTOM, extractor: () => ['1', '2']},
      'fastify',
    );
    expect(await text(v1Wanted, '/cats')).toEqual([200, 'All cats, version 1 format']);
    const v2Wanted = await start(
      [CatsControllerV1, CatsControllerV2],
      {type: VersioningType.CUSTOM, extractor: () => ['3', '2', '1']},
      'fastify',
    );
    expect(await text(v2Wanted, '/cats')).toEqual([200, 'All cats, version 2 format']);
  },
);

claim(
  `${page}#controller-versions`,
  'without enableVersioning(): Express answers every request with the first registered handler',
  async () => {
    const base = await start([CatsControllerV1, CatsControllerV2], null);
    expect(await text(base, '/cats')).toEqual([200, 'All cats, version 1 format']);
    expect((await text(base, '/v1/cats'))[0]).toBe(404);
  },
);

claim(
  `${page}#controller-versions`,
  'without enableVersioning(): Fastify refuses the duplicate route and the application fails to start',
  async () => {
    @Module({controllers: [CatsControllerV1, CatsControllerV2]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, new FastifyAdapter(), {logger: false});
    await expect(app.listen(0, '127.0.0.1')).rejects.toThrow(/GET|already declared|duplicate/i);
    await app.close().catch(() => undefined);
  },
);

claim(
  `${page}#versioning`,
  'versioning belongs to the HTTP application: a microservice has no enableVersioning()',
  async () => {
    @Module({})
    class AppModule {}
    const {Transport} = nest('@nestjs/microservices');
    const micro = await NestFactory.createMicroservice(AppModule, {
      transport: Transport.TCP,
      options: {port: 0},
      logger: false,
    });
    expect(typeof (micro as any).enableVersioning).toBe('undefined');
    await micro.close();
  },
);

@Controller('dogs')
class DogsController {
  @Get()
  findAll() {
    return 'All dogs';
  }
}

claim.abuse(
  `${page}#header-versioning`,
  'a request without the header, or with the header sent twice (joined into "1, 2"), reaches no versioned route: 404 on Express and Fastify',
  async () => {
    for (const platform of ['express', 'fastify'] as Platform[]) {
      const base = await start(
        [CatsControllerV1, CatsControllerV2, HealthController],
        optionsFrom('header-versioning', "header: 'X-API-Version'"),
        platform,
      );
      expect((await text(base, '/cats'))[0], platform).toBe(404);
      const twice = await fetch(`${base}/cats`, {
        headers: [
          ['X-API-Version', '1'],
          ['X-API-Version', '2'],
        ],
      });
      expect(twice.status, platform).toBe(404);
      expect(await text(base, '/health')).toEqual([200, '{"status":"ok"}']);
    }
  },
);

claim.abuse(
  `${page}#default-version`,
  "a client that leaves the header out gets 404 even with defaultVersion: '1'; with the page's [VERSION_NEUTRAL, '1'] the controllers without a version answer it",
  async () => {
    const code = fragment(page, 'default-version', 'defaultVersion: [VERSION_NEUTRAL').value;
    const match = /enableVersioning\((\{[\s\S]*?\})\);/.exec(code)!;
    const neutralDefault = new Function(
      'VersioningType',
      'VERSION_NEUTRAL',
      `return (${match[1]});`,
    )(VersioningType, VERSION_NEUTRAL);
    const plain = await start([CatsControllerV2, DogsController], {
      type: VersioningType.HEADER,
      header: 'X-API-Version',
      defaultVersion: '1',
    });
    expect((await text(plain, '/dogs'))[0]).toBe(404);
    expect(await text(plain, '/dogs', {'X-API-Version': '1'})).toEqual([200, 'All dogs']);
    const neutral = await start([CatsControllerV2, DogsController], neutralDefault);
    expect(await text(neutral, '/dogs')).toEqual([200, 'All dogs']);
    expect(await text(neutral, '/dogs', {'X-API-Version': '1'})).toEqual([200, 'All dogs']);
    expect(await text(neutral, '/cats', {'X-API-Version': '2'})).toEqual([
      200,
      'All cats, version 2 format',
    ]);
    expect((await text(neutral, '/cats'))[0]).toBe(404);
  },
);

claim.abuse(
  `${page}#uri-versioning`,
  'an upper-case version segment or a trailing slash (/V1/cats, /v1/cats/) reaches version 1 on Express and is 404 on Fastify',
  async () => {
    const options = optionsFrom('uri-versioning', 'VersioningType.URI,\n  });');
    const express = await start([CatsControllerV1], options, 'express');
    const fastify = await start([CatsControllerV1], options, 'fastify');
    for (const path of ['/V1/cats', '/v1/cats/']) {
      expect(await text(express, path)).toEqual([200, 'All cats, version 1 format']);
      expect((await text(fastify, path))[0]).toBe(404);
    }
  },
);

describe('#versions-and-caching', () => {
  const {CacheModule, CacheInterceptor, CACHE_MANAGER} = nest('@nestjs/common');
  const {APP_INTERCEPTOR} = nest('@nestjs/core');
  const headerOptions = () => optionsFrom('header-versioning', "header: 'X-API-Version'");

  /** The page's app.module (global VersionedCacheInterceptor, route-versions CatsController) and the health controller. */
  async function cachedApp(
    platform: Platform,
    lang: 'ts' | 'js' = 'ts',
    cors?: Record<string, unknown>,
    extra: {controllers?: unknown[]; options?: Record<string, unknown>} = {},
  ): Promise<{base: string; keys: () => Promise<string[]>}> {
    // app.module is shown in TypeScript only; its code is valid JavaScript too.
    const moduleSource = readPage(page).fences.find((f) => f.filename === 'app.module')!.ts!;
    const set = samples(page, {
      under: 'versions-and-caching',
      lang,
      files: lang === 'js' ? {'app.module': moduleSource} : {},
    });
    const {AppModule} = set.require('app.module');
    @Module({imports: [AppModule], controllers: [HealthController, ...(extra.controllers ?? [])]})
    class Root {}
    const app =
      platform === 'fastify'
        ? await NestFactory.create(Root, new FastifyAdapter(), {logger: false})
        : await NestFactory.create(Root, {logger: false});
    apps.push(app);
    if (cors) app.enableCors(cors);
    app.enableVersioning({...headerOptions(), ...extra.options});
    const base = await listen(app);
    const cache = app.get(CACHE_MANAGER);
    return {base, keys: async () => ((await cache.store.keys()) as string[]).sort()};
  }

  claim.abuse(
    `${page}#versions-and-caching`,
    "header versioning with a global cache: with the plain CacheInterceptor, a client asking for version 2 after another asked for version 1 receives version 1 (no Vary); with the page's VersionedCacheInterceptor each gets its version, cached as 1:/cats and 2:/cats, with Vary: X-API-Version (Express, Fastify; ts and js)",
    async () => {
      // The hazard: the caching chapter's global CacheInterceptor with the page's CatsController.
      @Module({
        imports: [CacheModule.register()],
        controllers: [CatsController],
        providers: [{provide: APP_INTERCEPTOR, useClass: CacheInterceptor}],
      })
      class PlainCache {}
      const plain = await NestFactory.create(PlainCache, {logger: false});
      apps.push(plain);
      plain.enableVersioning(headerOptions());
      const plainBase = await listen(plain);
      expect(await text(plainBase, '/cats', {'X-API-Version': '1'})).toEqual([
        200,
        'All cats, version 1 format',
      ]);
      const second = await fetch(`${plainBase}/cats`, {headers: {'X-API-Version': '2'}});
      expect([await second.text(), second.headers.get('vary')]).toEqual([
        'All cats, version 1 format',
        null,
      ]);

      for (const [platform, lang] of [
        ['express', 'ts'],
        ['fastify', 'ts'],
        ['express', 'js'],
      ] as const) {
        const {base, keys} = await cachedApp(platform, lang);
        for (const version of ['1', '2', '1', '2']) {
          const response = await fetch(`${base}/cats`, {headers: {'X-API-Version': version}});
          expect(
            [await response.text(), response.headers.get('vary')],
            `${platform} ${lang}`,
          ).toEqual([`All cats, version ${version} format`, 'X-API-Version']);
        }
        expect(await keys()).toEqual(['1:/cats', '2:/cats']);
      }
    },
  );

  claim.abuse(
    `${page}#versions-and-caching`,
    'a neutral route asked with X-API-Version a, b, c and none: one cache entry (neutral:/health), not one per header value',
    async () => {
      const {base, keys} = await cachedApp('express');
      const values: Record<string, string>[] = [
        {'X-API-Version': 'a'},
        {'X-API-Version': 'b'},
        {'X-API-Version': 'c'},
        {},
      ];
      for (const headers of values)
        expect(await text(base, '/health', headers)).toEqual([200, '{"status":"ok"}']);
      expect(await keys()).toEqual(['neutral:/health']);
    },
  );

  claim(
    `${page}#versions-and-caching`,
    "a controller versioned by defaultVersion: '1' (no metadata) is cached as none:/dogs, apart from a version 2 handler of the same path (2:/dogs)",
    async () => {
      @Controller('dogs')
      class DogsController {
        @Get()
        findAll() {
          return 'Dogs, version 1';
        }
      }
      @Controller({path: 'dogs', version: '2'})
      class DogsControllerV2 {
        @Get()
        findAll() {
          return 'Dogs, version 2';
        }
      }
      const {base, keys} = await cachedApp('express', 'ts', undefined, {
        controllers: [DogsController, DogsControllerV2],
        options: {defaultVersion: '1'},
      });
      for (const version of ['1', '2', '1', '2'])
        expect(await text(base, '/dogs', {'X-API-Version': version})).toEqual([
          200,
          `Dogs, version ${version}`,
        ]);
      expect(await keys()).toEqual(['2:/dogs', 'none:/dogs']);
    },
  );

  claim(
    `${page}#versions-and-caching`,
    'Vary is appended to: with CORS for a list of origins, the response carries Vary: Origin, X-API-Version (Express)',
    async () => {
      const {base} = await cachedApp('express', 'ts', {origin: ['https://app.example']});
      const response = await fetch(`${base}/cats`, {
        headers: {'X-API-Version': '2', Origin: 'https://app.example'},
      });
      expect([
        response.status,
        response.headers.get('access-control-allow-origin'),
        response.headers.get('vary'),
      ]).toEqual([200, 'https://app.example', 'Origin, X-API-Version']);
    },
  );
});

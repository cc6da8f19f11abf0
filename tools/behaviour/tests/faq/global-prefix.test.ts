import {afterAll, beforeAll, expect} from 'vitest';
import {claim, fragment, nest, listen} from '../../lib';

const {Module, Controller, Get, Post, Delete, Param, RequestMethod} = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const page = 'docs/faq/global-prefix.md';

const seenByMiddleware: string[] = [];

@Controller('cats')
class CatsController {
  @Get()
  findAll() {
    return 'cats';
  }
  @Get(':id')
  findOne(@Param('id') id: string) {
    return `cat ${id}`;
  }
  @Delete(':id')
  remove(@Param('id') id: string) {
    return `removed ${id}`;
  }
}

@Controller()
class OpsController {
  @Get('health')
  health() {
    return 'healthy';
  }
  @Post('health')
  healthPost() {
    return 'healthy (post)';
  }
  @Get('metrics')
  metrics() {
    return 'metrics';
  }
  @Post('metrics')
  metricsPost() {
    return 'metrics (post)';
  }
}

class AppModule {
  configure(consumer: any) {
    consumer
      .apply((req: any, _res: unknown, next: () => void) => {
        seenByMiddleware.push(`cats-mw ${req.originalUrl}`);
        next();
      })
      .forRoutes('cats');
    consumer
      .apply((req: any, _res: unknown, next: () => void) => {
        seenByMiddleware.push(`all-mw ${req.originalUrl}`);
        next();
      })
      .forRoutes('*');
  }
}
Module({controllers: [CatsController, OpsController]})(AppModule);

let app: any;
let base: string;
beforeAll(async () => {
  app = await NestFactory.create(AppModule, {logger: false, abortOnError: false});
  // The page's call, with the cats/:id entry of its hint added.
  const call = fragment(page, 'global-prefix', "app.setGlobalPrefix('v1', {").value;
  const [prefix, given] = new Function(
    'RequestMethod',
    `const out = []; const app = {setGlobalPrefix: (p, o) => out.push(p, o)}; ${call.replace(/^import.*$/m, '')}; return out;`,
  )(RequestMethod) as [string, {exclude: unknown[]}];
  expect(prefix).toBe('v1');
  app.setGlobalPrefix('v1', {
    exclude: [...given.exclude, {path: 'cats/:id', method: RequestMethod.GET}],
  });
  base = await listen(app);
});
afterAll(async () => {
  await app?.close();
});

async function hit(method: string, path: string) {
  const response = await fetch(`${base}${path}`, {method});
  return `${response.status} ${response.status < 300 ? await response.text() : ''}`.trim();
}

claim(
  `${page}#global-prefix`,
  "@Controller('cats') answers on /v1/cats after setGlobalPrefix('v1'), no longer on /cats",
  async () => {
    expect(await hit('GET', '/v1/cats')).toBe('200 cats');
    expect(await hit('GET', '/cats')).toBe('404');
  },
);

claim(
  `${page}#global-prefix`,
  'a path string in exclude keeps the route at the root for every method',
  async () => {
    expect(await hit('GET', '/health')).toBe('200 healthy');
    expect(await hit('POST', '/health')).toBe('201 healthy (post)');
    expect(await hit('GET', '/v1/health')).toBe('404');
  },
);

claim(
  `${page}#global-prefix`,
  "{ path: 'metrics', method: RequestMethod.GET } excludes GET only: POST stays under the prefix",
  async () => {
    expect(await hit('GET', '/metrics')).toBe('200 metrics');
    expect(await hit('POST', '/v1/metrics')).toBe('201 metrics (post)');
    expect(await hit('POST', '/metrics')).toBe('404');
  },
);

claim(
  `${page}#global-prefix`,
  "{ path: 'cats/:id', method: GET } excludes GET /cats/1 and /cats/2 but leaves DELETE /cats/1 under the prefix",
  async () => {
    expect(await hit('GET', '/cats/1')).toBe('200 cat 1');
    expect(await hit('GET', '/cats/2')).toBe('200 cat 2');
    expect(await hit('DELETE', '/v1/cats/1')).toBe('200 removed 1');
    expect(await hit('DELETE', '/cats/1')).toBe('404');
  },
);

claim(
  `${page}#global-prefix`,
  "forRoutes('cats') middleware runs for /v1/cats; middleware bound to '*' runs for every path, excluded ones included",
  async () => {
    seenByMiddleware.length = 0;
    await hit('GET', '/v1/cats');
    await hit('GET', '/health');
    expect(seenByMiddleware).toEqual(['cats-mw /v1/cats', 'all-mw /v1/cats', 'all-mw /health']);
  },
);

claim(
  `${page}#global-prefix`,
  'setGlobalPrefix() after the application has initialized changes nothing',
  async () => {
    @Module({controllers: [CatsController]})
    class LateModule {}
    const late = await NestFactory.create(LateModule, {logger: false, abortOnError: false});
    const url = await listen(late);
    late.setGlobalPrefix('v2');
    expect((await fetch(`${url}/cats`)).status).toBe(200);
    expect((await fetch(`${url}/v2/cats`)).status).toBe(404);
    await late.close();
  },
);

claim(
  `${page}#global-prefix`,
  'the GraphQL endpoint stays at /graphql, and moves to /v1/graphql with useGlobalPrefix: true',
  async () => {
    const {GraphQLModule, Resolver, Query} = nest('@nestjs/graphql');
    @Resolver()
    class HelloResolver {
      @Query('hello')
      hello() {
        return 'world';
      }
    }
    const query = JSON.stringify({query: '{ hello }'});
    for (const useGlobalPrefix of [false, true]) {
      @Module({
        imports: [
          GraphQLModule.forRoot({typeDefs: 'type Query { hello: String }', useGlobalPrefix}),
        ],
        providers: [HelloResolver],
      })
      class GqlModule {}
      const gql = await NestFactory.create(GqlModule, {logger: false, abortOnError: false});
      gql.setGlobalPrefix('v1');
      const url = await listen(gql);
      const post = (path: string) =>
        fetch(`${url}${path}`, {
          method: 'POST',
          headers: {'content-type': 'application/json'},
          body: query,
        });
      const [at, other] = useGlobalPrefix
        ? ['/v1/graphql', '/graphql']
        : ['/graphql', '/v1/graphql'];
      expect(await (await post(at)).json()).toEqual({data: {hello: 'world'}});
      expect((await post(other)).status).toBe(404);
      await gql.close();
    }
  },
);

claim(
  `${page}#global-prefix`,
  'a gateway keeps its path: the socket.io handshake answers at /socket.io, not under the prefix',
  async () => {
    const {WebSocketGateway, SubscribeMessage} = nest('@nestjs/websockets');
    @WebSocketGateway()
    class EventsGateway {
      @SubscribeMessage('ping')
      ping() {
        return 'pong';
      }
    }
    @Module({providers: [EventsGateway]})
    class GatewayModule {}
    const gw = await NestFactory.create(GatewayModule, {logger: false, abortOnError: false});
    gw.setGlobalPrefix('v1');
    const url = await listen(gw);
    expect((await fetch(`${url}/socket.io/?EIO=4&transport=polling`)).status).toBe(200);
    expect((await fetch(`${url}/v1/socket.io/?EIO=4&transport=polling`)).status).toBe(404);
    await gw.close();
  },
);

/** The page's prefix and exclusions on Express or Fastify, with a global guard and a token middleware bound to 'cats'. */
async function guardedApp(platform: 'express' | 'fastify') {
  const {FastifyAdapter} = nest('@nestjs/platform-fastify');
  class GuardedModule {
    configure(consumer: any) {
      consumer
        .apply((req: any, res: any, next: () => void) => {
          if (req.headers.authorization !== 'Bearer token') {
            res.statusCode = 401;
            return res.end('no token');
          }
          next();
        })
        .forRoutes('cats');
    }
  }
  Module({controllers: [CatsController, OpsController]})(GuardedModule);
  const guarded =
    platform === 'fastify'
      ? await NestFactory.create(GuardedModule, new FastifyAdapter(), {
          logger: false,
          abortOnError: false,
        })
      : await NestFactory.create(GuardedModule, {logger: false, abortOnError: false});
  guarded.setGlobalPrefix('v1', {
    exclude: ['health', {path: 'metrics', method: RequestMethod.GET}],
  });
  guarded.useGlobalGuards({
    canActivate: (context: any) =>
      context.switchToHttp().getRequest().headers['x-api-key'] === 'ops-key',
  });
  return {app: guarded, url: await listen(guarded)};
}

claim.abuse(
  `${page}#global-prefix`,
  'a caller without credentials on the excluded /health gets 403 from the global guard; /v1/health is 404',
  async () => {
    const {app: guarded, url} = await guardedApp('express');
    expect((await fetch(`${url}/health`)).status).toBe(403);
    expect((await fetch(`${url}/health`, {headers: {'x-api-key': 'ops-key'}})).status).toBe(200);
    expect((await fetch(`${url}/v1/health`, {headers: {'x-api-key': 'ops-key'}})).status).toBe(404);
    await guarded.close();
  },
);

claim.abuse(
  `${page}#global-prefix`,
  "writing the prefixed path differently never skips the middleware bound to 'cats': Express runs it for /V1/CATS and /v1/cats/ and serves them, Fastify runs it and answers 404 for the upper-case ones, an encoded letter or a double slash is 404 on both",
  async () => {
    const variants = ['/V1/CATS', '/v1/Cats', '/v1/cats/', '/v1/%63ats', '/v1//cats'];
    const seen: Record<string, string[]> = {};
    for (const platform of ['express', 'fastify'] as const) {
      const {app: guarded, url} = await guardedApp(platform);
      const key = {'x-api-key': 'ops-key'};
      const row: string[] = [];
      for (const path of variants) {
        const anonymous = await fetch(`${url}${path}`, {headers: key});
        const withToken = await fetch(`${url}${path}`, {
          headers: {...key, authorization: 'Bearer token'},
        });
        row.push(`${path} ${anonymous.status}/${withToken.status}`);
      }
      seen[platform] = row;
      await guarded.close();
    }
    expect(seen).toEqual({
      express: [
        '/V1/CATS 401/200',
        '/v1/Cats 401/200',
        '/v1/cats/ 401/200',
        '/v1/%63ats 404/404',
        '/v1//cats 404/404',
      ],
      fastify: [
        '/V1/CATS 401/404',
        '/v1/Cats 401/404',
        // an empty id for the 'cats/:id' route, reached after the middleware
        '/v1/cats/ 401/200',
        '/v1/%63ats 404/404',
        '/v1//cats 404/404',
      ],
    });
  },
);

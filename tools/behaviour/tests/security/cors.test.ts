import {afterEach, describe, expect} from 'vitest';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {claim, nest, listen, fragment, memoryLogger, expectOutput, repoRoot} from '../../lib';

const {Module, Controller, Get} = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const {FastifyAdapter} = nest('@nestjs/platform-fastify');
const page = 'docs/security/cors.md';

const {Post} = nest('@nestjs/common');
let transfers = 0;
@Controller()
class CatsController {
  @Get('cats')
  findAll() {
    return [];
  }
  @Post('transfer')
  transfer() {
    transfers += 1;
    return 'done';
  }
}
@Module({controllers: [CatsController]})
class AppModule {}

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** Runs a fragment of the page against `app` (its import lines and the create/listen lines are the test's). */
function run(code: string, app: any, extra: Record<string, unknown> = {}) {
  const body = code
    .replace(/^import .*$/gm, '')
    .replace(/^const app = await .*$/m, '')
    .replace(/^await app\.listen.*$/m, '');
  return new Function('app', ...Object.keys(extra), body)(app, ...Object.values(extra));
}

async function create(options: Record<string, unknown> = {}, adapter?: unknown) {
  const app = adapter
    ? await NestFactory.create(AppModule, adapter, {logger: false, ...options})
    : await NestFactory.create(AppModule, {logger: false, ...options});
  close = () => app.close();
  return app;
}

const preflight = (url: string, origin: string) =>
  fetch(url, {method: 'OPTIONS', headers: {origin, 'access-control-request-method': 'PATCH'}});

for (const platform of ['express', 'fastify'] as const) {
  claim(
    `${page}#getting-started`,
    `enableCors() without arguments allows every origin (${platform})`,
    async () => {
      const app = await create({}, platform === 'fastify' ? new FastifyAdapter() : undefined);
      run(fragment(page, 'getting-started', 'app.enableCors();').value, app);
      const base = await listen(app);
      const response = await fetch(`${base}/cats`, {
        headers: {origin: 'https://anywhere.example.com'},
      });
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      const pre = await preflight(`${base}/cats`, 'https://anywhere.example.com');
      expect(pre.status).toBe(204);
    },
  );

  claim(
    `${page}#getting-started`,
    `an origin function: listed origins and requests without Origin pass; others get no CORS headers; methods and maxAge reach the preflight (${platform})`,
    async () => {
      const app = await create({}, platform === 'fastify' ? new FastifyAdapter() : undefined);
      run(fragment(page, 'getting-started', 'const allowedOrigins').value, app);
      const base = await listen(app);
      const allowed = await fetch(`${base}/cats`, {headers: {origin: 'https://admin.example.com'}});
      expect(allowed.headers.get('access-control-allow-origin')).toBe('https://admin.example.com');
      const other = await fetch(`${base}/cats`, {headers: {origin: 'https://evil.example.com'}});
      expect(other.status).toBe(200);
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
      expect((await fetch(`${base}/cats`)).status).toBe(200);
      const pre = await preflight(`${base}/cats`, 'https://app.example.com');
      expect(pre.headers.get('access-control-allow-methods')?.replace(/ /g, '')).toBe(
        'GET,POST,PATCH,DELETE',
      );
      expect(pre.headers.get('access-control-max-age')).toBe('600');
    },
  );
}

claim(
  `${page}#getting-started`,
  "an error passed to the origin callback: Nest's exception layer answers 500 with its JSON body and logs [ExceptionsHandler]",
  async () => {
    const memory = memoryLogger();
    const app = await create({logger: memory.logger});
    app.enableCors({
      origin: (_origin: string, callback: (error: Error | null, allow?: boolean) => void) =>
        callback(new Error('origin not served')),
    });
    const base = await listen(app);
    const response = await fetch(`${base}/cats`, {headers: {origin: 'https://evil.example.com'}});
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expectOutput(page, 'cors-error', await response.json());
    expect(memory.lines).toContainEqual(
      expect.objectContaining({
        level: 'error',
        context: 'ExceptionsHandler',
        message: 'origin not served',
      }),
    );
  },
);

claim(`${page}#getting-started`, 'the per-request options function works on Express', async () => {
  const app = await create();
  app.enableCors((req: any, callback: (error: Error | null, options: unknown) => void) =>
    callback(null, {origin: req.url.startsWith('/cats') ? 'https://app.example.com' : false}),
  );
  const base = await listen(app);
  const response = await fetch(`${base}/cats`, {headers: {origin: 'https://app.example.com'}});
  expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
});

claim(
  `${page}#getting-started`,
  'on Fastify, the options function is called once at startup, with the Fastify instance and no callback: calling it throws a TypeError',
  async () => {
    const app = await create({}, new FastifyAdapter());
    const calls: unknown[][] = [];
    const errors: unknown[] = [];
    app.enableCors((...args: any[]) => {
      calls.push(args);
      try {
        args[1](null, {origin: true});
      } catch (error) {
        errors.push(error);
      }
      return {};
    });
    await listen(app);
    expect(calls).toHaveLength(1);
    expect(typeof (calls[0][0] as any).register).toBe('function');
    expect(calls[0][1]).toBeUndefined();
    expect(errors[0]).toBeInstanceOf(TypeError);
  },
);

claim(
  `${page}#getting-started`,
  'the cors option of NestFactory.create(): the named origin with credentials is allowed, another is not',
  async () => {
    const code = fragment(page, 'getting-started', 'credentials: true').value;
    const options = new Function(
      `return ${/NestFactory\.create\(AppModule, ([\s\S]*?)\);/.exec(code)![1]};`,
    )();
    const app = await create(options);
    const base = await listen(app);
    const allowed = await fetch(`${base}/cats`, {headers: {origin: 'https://app.example.com'}});
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');
    const other = await fetch(`${base}/cats`, {headers: {origin: 'https://evil.example.com'}});
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  },
);

describe('GraphQL', () => {
  async function graphqlApp(graphqlOptions: string) {
    const {compileModule} = await import('../../lib');
    const {GqlModule} = compileModule(`
import { Module } from '@nestjs/common';
import { GraphQLModule, Query, Resolver } from '@nestjs/graphql';
@Resolver()
class HelloResolver { @Query(() => String) hello() { return 'hi'; } }
@Module({ imports: [GraphQLModule.forRoot({ autoSchemaFile: true, ${graphqlOptions} })], providers: [HelloResolver] })
export class GqlModule {}
`);
    const app = await NestFactory.create(GqlModule, {logger: false});
    close = () => app.close();
    app.enableCors({origin: ['https://app.example.com'], credentials: true});
    const base = await listen(app);
    const query = (origin: string) =>
      fetch(`${base}/graphql`, {
        method: 'POST',
        headers: {origin, 'content-type': 'application/json'},
        body: JSON.stringify({query: '{ hello }'}),
      });
    return {
      evil: (await query('https://evil.example.com')).headers.get('access-control-allow-origin'),
      own: (await query('https://app.example.com')).headers.get('access-control-allow-origin'),
    };
  }

  claim(
    `${page}#graphql`,
    "by default Apollo's own cors() answers on /graphql with Access-Control-Allow-Origin: *, overriding enableCors()",
    async () => {
      expect(await graphqlApp('')).toEqual({evil: '*', own: '*'});
    },
  );

  claim(
    `${page}#graphql`,
    'with cors: false in GraphQLModule.forRoot(), enableCors() applies to /graphql',
    async () => {
      expect(await graphqlApp('cors: false')).toEqual({evil: null, own: 'https://app.example.com'});
    },
  );

  claim(`${page}#graphql`, 'or the same options in its cors property', async () => {
    expect(
      await graphqlApp("cors: { origin: ['https://app.example.com'], credentials: true }"),
    ).toEqual({evil: null, own: 'https://app.example.com'});
  });
});

claim(
  `${page}#cors`,
  'the platform packages bring the cors package (Express) and fastify-cors (Fastify) themselves',
  () => {
    expect(nest('@nestjs/platform-express/package.json').dependencies.cors).toBeDefined();
    expect(
      nest('@nestjs/platform-fastify/package.json').dependencies['fastify-cors'],
    ).toBeDefined();
  },
);

const allowOrigin = (response: Response) => response.headers.get('access-control-allow-origin');
const pageText = () => readFileSync(join(repoRoot, page), 'utf8');

claim.abuse(
  `${page}#getting-started`,
  'origin: true with credentials: true (what the page forbids) hands any site, and Origin: null, a credentialed response',
  async () => {
    const app = await create();
    app.enableCors({origin: true, credentials: true});
    const base = await listen(app);
    for (const origin of ['https://evil.example.com', 'null']) {
      const response = await fetch(`${base}/cats`, {headers: {origin}});
      expect(allowOrigin(response)).toBe(origin);
      expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    }
  },
);

claim.abuse(
  `${page}#getting-started`,
  "an unanchored /example\\.com/ allows https://evil-example.com.attacker.net; the page's anchored expression refuses it and allows the two named hosts",
  async () => {
    const anchored = /`(\/\^https:[^`]+\/)`/.exec(pageText())![1];
    const pattern = new Function(`return ${anchored}`)() as RegExp;
    for (const [origin, expected] of [
      [/example\.com/, 'https://evil-example.com.attacker.net'],
      [pattern, null],
    ] as const) {
      const app = await create();
      app.enableCors({origin});
      const base = await listen(app);
      const response = await fetch(`${base}/cats`, {
        headers: {origin: 'https://evil-example.com.attacker.net'},
      });
      expect(allowOrigin(response), String(origin)).toBe(expected);
      await close?.();
      close = undefined;
    }
    const app = await create();
    app.enableCors({origin: pattern});
    const base = await listen(app);
    for (const origin of ['https://app.example.com', 'https://admin.example.com'])
      expect(allowOrigin(await fetch(`${base}/cats`, {headers: {origin}}))).toBe(origin);
    for (const origin of ['http://app.example.com', 'https://app.example.com.evil.net'])
      expect(allowOrigin(await fetch(`${base}/cats`, {headers: {origin}}))).toBeNull();
  },
);

claim.abuse(
  `${page}#getting-started`,
  "the cors option's origin list compares whole origins: a longer host, another scheme or another port is refused",
  async () => {
    const code = fragment(page, 'getting-started', 'credentials: true').value;
    const options = new Function(
      `return ${/NestFactory\.create\(AppModule, ([\s\S]*?)\);/.exec(code)![1]};`,
    )();
    const app = await create(options);
    const base = await listen(app);
    for (const origin of [
      'https://app.example.com.evil.net',
      'http://app.example.com',
      'https://app.example.com:8443',
      'https://evilapp.example.com',
    ])
      expect(allowOrigin(await fetch(`${base}/cats`, {headers: {origin}})), origin).toBeNull();
  },
);

for (const platform of ['express', 'fastify'] as const) {
  claim.abuse(
    `${page}#getting-started`,
    `the page's origin function refuses Origin: null, and a foreign preflight gets no Access-Control-Allow-Origin (404: CORS steps aside and no route answers OPTIONS) (${platform})`,
    async () => {
      const app = await create({}, platform === 'fastify' ? new FastifyAdapter() : undefined);
      run(fragment(page, 'getting-started', 'const allowedOrigins').value, app);
      const base = await listen(app);
      expect(allowOrigin(await fetch(`${base}/cats`, {headers: {origin: 'null'}}))).toBeNull();
      const pre = await preflight(`${base}/cats`, 'https://evil.example.com');
      expect(pre.status).toBe(404);
      expect(allowOrigin(pre)).toBeNull();
      expect(pre.headers.get('access-control-allow-methods')).toBeNull();
      const own = await preflight(`${base}/cats`, 'https://app.example.com');
      expect(own.status).toBe(204);
    },
  );
}

claim.abuse(
  `${page}#getting-started`,
  'CORS is not access control: a simple text/plain POST from a refused origin runs the handler (Express and Fastify); only the response lacks the header',
  async () => {
    for (const platform of ['express', 'fastify'] as const) {
      const app = await create({}, platform === 'fastify' ? new FastifyAdapter() : undefined);
      run(fragment(page, 'getting-started', 'const allowedOrigins').value, app);
      const base = await listen(app);
      transfers = 0;
      const response = await fetch(`${base}/transfer`, {
        method: 'POST',
        headers: {origin: 'https://evil.example.com', 'content-type': 'text/plain'},
        body: 'amount=100',
      });
      expect(response.status, platform).toBe(201);
      expect(allowOrigin(response)).toBeNull();
      expect(transfers, platform).toBe(1);
      await close?.();
      close = undefined;
    }
  },
);

claim.failure(
  `${page}#getting-started`,
  'an origin function that throws fails every request, allowed origin, foreign origin or none, with 500, before the handler (Express and Fastify)',
  async () => {
    for (const platform of ['express', 'fastify'] as const) {
      const app = await create({}, platform === 'fastify' ? new FastifyAdapter() : undefined);
      app.enableCors({
        origin: () => {
          throw new Error('allow-list unavailable');
        },
      });
      const base = await listen(app);
      transfers = 0;
      for (const origin of ['https://app.example.com', 'https://evil.example.com']) {
        const response = await fetch(`${base}/transfer`, {
          method: 'POST',
          headers: {origin, 'content-type': 'text/plain'},
          body: 'x',
        });
        expect(response.status, `${platform} ${origin}`).toBe(500);
      }
      expect(transfers).toBe(0);
      expect((await fetch(`${base}/cats`)).status).toBe(500);
      await close?.();
      close = undefined;
    }
  },
);

claim(
  `${page}#getting-started`,
  'a per-origin answer carries Vary: Origin; the wildcard of enableCors() does not need it and has none',
  async () => {
    const app = await create();
    run(fragment(page, 'getting-started', 'const allowedOrigins').value, app);
    const base = await listen(app);
    const response = await fetch(`${base}/cats`, {headers: {origin: 'https://app.example.com'}});
    expect(response.headers.get('vary')).toBe('Origin');
    await close?.();
    close = undefined;
    const open = await create();
    open.enableCors();
    const wildcard = await fetch(`${await listen(open)}/cats`, {
      headers: {origin: 'https://app.example.com'},
    });
    expect(allowOrigin(wildcard)).toBe('*');
    expect(wildcard.headers.get('vary')).toBeNull();
  },
);

claim.abuse(
  `${page}#getting-started`,
  "the page's origin function on Express: a refused origin gets no CORS header at all, Vary: Origin included (the output the page shows); the list form sends Vary: Origin on refusals, and on Fastify the function's refusals carry it too",
  async () => {
    const headers = (response: Response, name: string) => response.headers.get(name) ?? '(none)';
    const answers = async (base: string) => {
      const lines: string[] = [];
      for (const origin of ['https://app.example.com', 'https://evil.example.com']) {
        const response = await fetch(`${base}/cats`, {headers: {origin}});
        await response.text();
        lines.push(
          `Origin: ${origin} -> Access-Control-Allow-Origin: ${headers(response, 'access-control-allow-origin')}, Vary: ${headers(response, 'vary')}`,
        );
      }
      return lines;
    };
    const sample = fragment(page, 'getting-started', 'const allowedOrigins').value;
    const express = await create();
    run(sample, express);
    expectOutput(page, 'cors-vary-express', (await answers(await listen(express))).join('\n'));
    await close?.();
    const list = await create();
    list.enableCors({origin: ['https://app.example.com']});
    expect((await answers(await listen(list)))[1]).toBe(
      'Origin: https://evil.example.com -> Access-Control-Allow-Origin: (none), Vary: Origin',
    );
    await close?.();
    const fastify = await create({}, new FastifyAdapter());
    run(sample, fastify);
    expect((await answers(await listen(fastify)))[1]).toBe(
      'Origin: https://evil.example.com -> Access-Control-Allow-Origin: (none), Vary: Origin',
    );
  },
);

claim(
  `${page}#getting-started`,
  'enableCors({ credentials: true }) alone answers Access-Control-Allow-Origin: * with Allow-Credentials: true, which browsers reject',
  async () => {
    const app = await create();
    app.enableCors({credentials: true});
    const response = await fetch(`${await listen(app)}/cats`, {
      headers: {origin: 'https://app.example.com'},
    });
    expect(allowOrigin(response)).toBe('*');
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
  },
);

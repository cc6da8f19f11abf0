import {afterEach, expect} from 'vitest';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {claim, nest, listen, fragment, repoRoot, compileModule} from '../../lib';
import {runChild} from './_security';

const {Module, Controller, Get} = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const {FastifyAdapter} = nest('@nestjs/platform-fastify');
const page = 'docs/security/helmet.md';

@Controller()
class CatsController {
  @Get('cats')
  findAll() {
    return [];
  }
  @Get('boom')
  boom() {
    throw new Error('database unreachable');
  }
}
@Module({controllers: [CatsController]})
class AppModule {}

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

function run(code: string, app: any, packages: Record<string, unknown>) {
  const body = code.replace(/^import .*$/gm, '');
  return new Function('app', ...Object.keys(packages), `return (async () => {\n${body}\n})();`)(
    app,
    ...Object.values(packages),
  );
}

const helmet = nest('helmet').default;

claim(
  `${page}#use-with-express-default`,
  "app.use(helmet()) (Helmet 5, default import) sets nosniff, SAMEORIGIN, a CSP allowing only 'self' scripts, and COEP",
  async () => {
    const app = await NestFactory.create(AppModule, {logger: false});
    close = () => app.close();
    const bootstrap = fragment(page, 'use-with-express-default', 'app.use(helmet());').value;
    expect(bootstrap).toContain("import helmet from 'helmet';");
    app.use(helmet());
    const base = await listen(app);
    const headers = (await fetch(`${base}/cats`)).headers;
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(headers.get('content-security-policy')).toContain("script-src-attr 'none'");
    expect(headers.get('cross-origin-embedder-policy')).toBe('require-corp');
    expect(
      JSON.parse(
        readFileSync(join(repoRoot, 'tools/behaviour/node_modules/helmet/package.json'), 'utf8'),
      ).version,
    ).toMatch(/^5\./);
  },
);

claim(
  `${page}#use-with-express-default`,
  'contentSecurityPolicy: false drops only the CSP header',
  async () => {
    const app = await NestFactory.create(AppModule, {logger: false});
    close = () => app.close();
    await run(
      fragment(page, 'use-with-express-default', 'contentSecurityPolicy: false').value,
      app,
      {helmet},
    );
    const base = await listen(app);
    const headers = (await fetch(`${base}/cats`)).headers;
    expect(headers.get('content-security-policy')).toBeNull();
    expect(headers.get('x-content-type-options')).toBe('nosniff');
  },
);

claim(
  `${page}#helmet`,
  "a route registered on the HTTP adapter before app.use(helmet()) misses the headers; Nest's controllers (registered at init) get them",
  async () => {
    const app = await NestFactory.create(AppModule, {logger: false});
    close = () => app.close();
    app.getHttpAdapter().get('/early', (_req: unknown, res: any) => res.send('early'));
    app.use(helmet());
    const base = await listen(app);
    expect((await fetch(`${base}/early`)).headers.get('x-content-type-options')).toBeNull();
    expect((await fetch(`${base}/cats`)).headers.get('x-content-type-options')).toBe('nosniff');
  },
);

claim(
  `${page}#use-with-fastify`,
  'fastify-helmet 7.0.1 (Helmet 5 inside, Fastify 3.x in its metadata) registers with the CSP directives of the page',
  async () => {
    const pkg = nest('fastify-helmet/package.json');
    expect(pkg.version).toBe('7.0.1');
    expect(pkg.dependencies.helmet).toMatch(/^\^5/);
    const app = await NestFactory.create(AppModule, new FastifyAdapter(), {logger: false});
    close = () => app.close();
    await run(fragment(page, 'use-with-fastify', 'await app.register(fastifyHelmet').value, app, {
      fastifyHelmet: nest('fastify-helmet').fastifyHelmet,
    });
    const base = await listen(app);
    const headers = (await fetch(`${base}/cats`)).headers;
    const csp = headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self' 'unsafe-inline' cdn.jsdelivr.net");
    expect(csp).toContain("img-src 'self' data: cdn.jsdelivr.net");
    expect(headers.get('cross-origin-embedder-policy')).toBe('require-corp');
  },
);

claim(
  `${page}#use-with-fastify`,
  'crossOriginEmbedderPolicy: false removes the COEP header',
  async () => {
    const app = await NestFactory.create(AppModule, new FastifyAdapter(), {logger: false});
    close = () => app.close();
    await app.register(nest('fastify-helmet').fastifyHelmet, {crossOriginEmbedderPolicy: false});
    const base = await listen(app);
    expect((await fetch(`${base}/cats`)).headers.get('cross-origin-embedder-policy')).toBeNull();
  },
);

/** The headers Helmet 5 sets by default that the claims below look for. */
const helmetHeaders = [
  'content-security-policy',
  'x-content-type-options',
  'x-frame-options',
  'strict-transport-security',
  'cross-origin-resource-policy',
];

claim.abuse(
  `${page}#use-with-express-default`,
  'a 404 for an unknown path and the 500 of a failing handler carry the same headers, and X-Powered-By: Express (sent without Helmet) is gone',
  async () => {
    const bare = await NestFactory.create(AppModule, {logger: false});
    expect((await fetch(`${await listen(bare)}/cats`)).headers.get('x-powered-by')).toBe('Express');
    await bare.close();
    const app = await NestFactory.create(AppModule, {logger: false});
    close = () => app.close();
    app.use(helmet());
    const base = await listen(app);
    for (const path of ['/nowhere', '/boom', '/cats']) {
      const response = await fetch(`${base}${path}`);
      for (const header of helmetHeaders)
        expect(response.headers.get(header), `${path} ${header}`).not.toBeNull();
      expect(response.headers.get('x-powered-by'), path).toBeNull();
    }
  },
);

claim(
  `${page}#use-with-express-default`,
  'the default Strict-Transport-Security is max-age=15552000 (180 days) with includeSubDomains; hsts: false drops it',
  async () => {
    const app = await NestFactory.create(AppModule, {logger: false});
    close = () => app.close();
    app.use(helmet());
    const base = await listen(app);
    expect((await fetch(`${base}/cats`)).headers.get('strict-transport-security')).toBe(
      'max-age=15552000; includeSubDomains',
    );
    expect(15552000 / 86400).toBe(180);
    await close();
    const off = await NestFactory.create(AppModule, {logger: false});
    close = () => off.close();
    off.use(helmet({hsts: false}));
    expect(
      (await fetch(`${await listen(off)}/cats`)).headers.get('strict-transport-security'),
    ).toBeNull();
  },
);

claim.abuse(
  `${page}#helmet`,
  'app.use(helmet()) after app.listen() reaches no controller: the routes were registered at initialization',
  async () => {
    const app = await NestFactory.create(AppModule, {logger: false});
    close = () => app.close();
    const base = await listen(app);
    app.use(helmet());
    const response = await fetch(`${base}/cats`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toBeNull();
    expect(response.headers.get('x-powered-by')).toBe('Express');
  },
);

/** A GraphQL app with the Playground (Apollo 3 on @nestjs/graphql 9) and Swagger UI, with `setup`. */
async function toolsApp(setup: (app: any) => unknown, adapter?: unknown) {
  const {GqlModule} = compileModule(`
import { Module } from '@nestjs/common';
import { GraphQLModule, Query, Resolver } from '@nestjs/graphql';
@Resolver()
class HelloResolver { @Query(() => String) hello() { return 'hi'; } }
@Module({ imports: [GraphQLModule.forRoot({ autoSchemaFile: true, playground: true })], providers: [HelloResolver] })
export class GqlModule {}
`);
  const app = adapter
    ? await NestFactory.create(GqlModule, adapter, {logger: false})
    : await NestFactory.create(GqlModule, {logger: false});
  close = () => app.close();
  await setup(app);
  const {SwaggerModule, DocumentBuilder} = nest('@nestjs/swagger');
  SwaggerModule.setup('api', app, SwaggerModule.createDocument(app, new DocumentBuilder().build()));
  return listen(app);
}
/** Where a page's scripts, styles and linked files come from: 'inline', 'self' or a host. */
function sources(html: string) {
  const origin = (url: string) =>
    /^(https?:)?\/\//.test(url) ? new URL(url, 'https://x').host : 'self';
  const scripts = [...html.matchAll(/<script([^>]*)>/g)].map(([, attributes]) => {
    const src = /src="([^"]+)"/.exec(attributes);
    return src ? origin(src[1]) : 'inline';
  });
  const styles = [
    ...html.matchAll(
      /<link[^>]*rel="stylesheet"[^>]*>|<link[^>]*href="[^"]+"[^>]*rel="stylesheet"[^>]*>/g,
    ),
  ].map(([tag]) => origin(/href="([^"]+)"/.exec(tag)![1]));
  return {scripts: [...new Set(scripts)], styles: [...new Set(styles)]};
}
/** The sources a CSP directive lets through, with 'self' and 'unsafe-inline' as written. */
function directive(csp: string, name: string): string[] {
  const entry = csp.split(';').find((part) => part.trim().startsWith(`${name} `));
  return entry ? entry.trim().split(/\s+/).slice(1) : [];
}
const allows = (list: string[], source: string) =>
  source === 'inline'
    ? list.includes("'unsafe-inline'")
    : source === 'self'
      ? list.includes("'self'")
      : list.includes(source);

claim(
  `${page}#use-with-express-default`,
  "the GraphQL Playground's page loads its script from cdn.jsdelivr.net and has an inline script, which the default script-src 'self' blocks; the Swagger UI of @nestjs/swagger 5 uses only its own files",
  async () => {
    const base = await toolsApp((app) => app.use(helmet()));
    const playground = await fetch(`${base}/graphql`, {headers: {accept: 'text/html'}});
    const csp = playground.headers.get('content-security-policy')!;
    const page = sources(await playground.text());
    expect(page.scripts.sort()).toEqual(['cdn.jsdelivr.net', 'inline']);
    expect(page.scripts.filter((source) => !allows(directive(csp, 'script-src'), source))).toEqual([
      'cdn.jsdelivr.net',
      'inline',
    ]);
    const swagger = sources(await (await fetch(`${base}/api/`)).text());
    expect(swagger.scripts).toEqual(['self']);
    expect(swagger.styles).toEqual(['self']);
  },
);

claim(
  `${page}#use-with-fastify`,
  "the page's relaxed policy on Fastify allows every script and style source of the Playground page",
  async () => {
    const base = await toolsApp(
      (app) =>
        run(fragment(page, 'use-with-fastify', 'await app.register(fastifyHelmet').value, app, {
          fastifyHelmet: nest('fastify-helmet').fastifyHelmet,
        }),
      new FastifyAdapter(),
    );
    const playground = await fetch(`${base}/graphql`, {headers: {accept: 'text/html'}});
    const csp = playground.headers.get('content-security-policy')!;
    const {scripts, styles} = sources(await playground.text());
    expect(scripts.filter((source) => !allows(directive(csp, 'script-src'), source))).toEqual([]);
    expect(styles.filter((source) => !allows(directive(csp, 'style-src'), source))).toEqual([]);
    expect(directive(csp, 'script-src')).toContain("'unsafe-inline'");
  },
);

claim.abuse(
  `${page}#use-with-fastify`,
  "on Fastify, a 404 for an unknown path and a failing handler's 500 carry fastify-helmet's headers too",
  async () => {
    const app = await NestFactory.create(AppModule, new FastifyAdapter(), {logger: false});
    close = () => app.close();
    await app.register(nest('fastify-helmet').fastifyHelmet);
    const base = await listen(app);
    for (const path of ['/nowhere', '/boom']) {
      const response = await fetch(`${base}${path}`);
      expect(response.status).toBe(path === '/boom' ? 500 : 404);
      for (const header of helmetHeaders)
        expect(response.headers.get(header), `${path} ${header}`).not.toBeNull();
    }
  },
);

claim.abuse(
  `${page}#use-with-express-default`,
  "helmet() together with the CORS chapter's enableCors(): an allowed origin still gets its Access-Control-Allow-Origin next to Helmet's headers, a refused one gets none",
  async () => {
    const app = await NestFactory.create(AppModule, {logger: false});
    close = () => app.close();
    app.use(helmet());
    app.enableCors({origin: ['https://app.example.com']});
    const base = await listen(app);
    const own = await fetch(`${base}/cats`, {headers: {origin: 'https://app.example.com'}});
    expect(own.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(own.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    const foreign = await fetch(`${base}/cats`, {headers: {origin: 'https://evil.example.com'}});
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  },
);

claim.failure(
  `${page}#use-with-fastify`,
  'fastify-helmet registered after app.listen(): Nest logs "root plugin has already booted" and the process ends with exit code 1',
  async () => {
    const child = await runChild(`
require('reflect-metadata');
const { Controller, Get, Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { FastifyAdapter } = require('@nestjs/platform-fastify');
const { fastifyHelmet } = require('fastify-helmet');
class AppModule {}
Module({})(AppModule);
(async () => {
  const app = await NestFactory.create(AppModule, new FastifyAdapter(), { logger: ['error'] });
  await app.listen(0, '127.0.0.1');
  await app.register(fastifyHelmet);
  console.log('REGISTERED');
  await app.close();
})();
`);
    expect(child.code).toBe(1);
    expect(child.stdout).not.toContain('REGISTERED');
    expect(child.stderr).toContain('ERROR [ExceptionHandler] root plugin has already booted');
  },
);

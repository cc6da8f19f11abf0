import {afterEach, expect} from 'vitest';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {claim, nest, listen, fragment, repoRoot} from '../../lib';

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

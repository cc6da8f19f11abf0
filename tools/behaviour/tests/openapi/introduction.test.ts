import {afterAll, expect} from 'vitest';
import {createHash} from 'node:crypto';
import {claim, samples, nest, fragment, compileModule} from '../../lib';
import {documentFor, featureFiles, mainEdits} from './_support';

const page = 'docs/openapi/introduction.md';
const {NestFactory} = nest('@nestjs/core');
const {SwaggerModule, DocumentBuilder} = nest('@nestjs/swagger');
const {FastifyAdapter} = nest('@nestjs/platform-fastify');

const apps: any[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
});

async function startMain(
  pick: number,
  extra: [string, string][] = [],
): Promise<{app: any; base: string}> {
  const set = samples(page, {
    pick: {main: pick},
    files: featureFiles,
    edit: {
      main: [
        ...mainEdits,
        ['NestFactory.create(AppModule)', 'NestFactory.create(AppModule, { logger: false })'],
        ...extra,
      ],
    },
  });
  const app = await set.require('main').started;
  apps.push(app);
  return {app, base: (await app.getUrl()).replace('[::1]', '127.0.0.1')};
}

claim(
  `${page}#bootstrap`,
  'setup("api") serves Swagger UI at /api and, on Express, the JSON document at /api-json',
  async () => {
    const {base} = await startMain(1);
    const ui = await fetch(`${base}/api`);
    expect(ui.status).toBe(200);
    expect(ui.headers.get('content-type')).toMatch(/text\/html/);
    expect(await ui.text()).toContain('swagger-ui');
    const json = await fetch(`${base}/api-json`);
    expect(json.status).toBe(200);
    const document = await json.json();
    expect(document.openapi).toBe('3.0.0');
    expect(document.info).toEqual({
      title: 'Cats API',
      description: 'Manage the cats of the shelter and their adoption records',
      version: '1.0',
      contact: {},
    });
    expect(document.tags).toEqual([{name: 'cats', description: ''}]);
    expect(Object.keys(document.paths).sort()).toEqual(['/admin/stats', '/cats', '/owners']);
  },
);

claim(
  `${page}#document-options`,
  'include limits the document to the listed module and operationIdFactory sets the ids',
  async () => {
    const {base} = await startMain(2);
    const document = await (await fetch(`${base}/api-json`)).json();
    expect(Object.keys(document.paths)).toEqual(['/cats']);
    expect(document.paths['/cats'].get.operationId).toBe('findAll');
  },
);

claim(
  `${page}#document-options`,
  'the default operationId is ControllerName_methodName',
  async () => {
    const {CatsController} = samples(page, {files: featureFiles}).require('cats.module');
    const document = await documentFor([CatsController]);
    expect(document.paths['/cats'].get.operationId).toBe('CatsController_findAll');
  },
);

claim(
  `${page}#document-options`,
  'include matches only the listed module; deepScanRoutes adds the routes of the modules it imports',
  async () => {
    const set = samples(page, {files: featureFiles});
    const {AppModule} = set.require('app.module');
    const {CatsModule} = set.require('cats.module');
    const app = await NestFactory.create(AppModule, {logger: false});
    apps.push(app);
    const config = new DocumentBuilder().build();
    expect(
      Object.keys(SwaggerModule.createDocument(app, config, {include: [CatsModule]}).paths),
    ).toEqual(['/cats']);
    expect(
      Object.keys(
        SwaggerModule.createDocument(app, config, {include: [CatsModule], deepScanRoutes: true})
          .paths,
      ).sort(),
    ).toEqual(['/cats', '/owners']);
  },
);

claim(
  `${page}#document-options`,
  'paths carry the global prefix unless ignoreGlobalPrefix is true',
  async () => {
    const {CatsController} = samples(page, {files: featureFiles}).require('cats.module');
    expect(Object.keys((await documentFor([CatsController], {prefix: 'v1'})).paths)).toEqual([
      '/v1/cats',
    ]);
    expect(
      Object.keys(
        (
          await documentFor([CatsController], {
            prefix: 'v1',
            documentOptions: {ignoreGlobalPrefix: true},
          })
        ).paths,
      ),
    ).toEqual(['/cats']);
  },
);

claim(
  `${page}#setup-options`,
  'on Express, customSiteTitle, customfavIcon and customCss end up in the served page',
  async () => {
    const set = samples(page, {files: featureFiles});
    const {AppModule} = set.require('app.module');
    const {setupSwaggerUi} = compileModule(
      `import { INestApplication } from '@nestjs/common';\nimport { OpenAPIObject, SwaggerCustomOptions, SwaggerModule } from '@nestjs/swagger';\n` +
        fragment(page, 'setup-options', 'setupSwaggerUi').value.replace(/^import .*$/gm, ''),
    );
    const app = await NestFactory.create(AppModule, {logger: false});
    apps.push(app);
    setupSwaggerUi(app, SwaggerModule.createDocument(app, new DocumentBuilder().build()));
    await app.listen(0, '127.0.0.1');
    const html = await (
      await fetch(`${(await app.getUrl()).replace('[::1]', '127.0.0.1')}/api`)
    ).text();
    expect(html).toContain('<title>Cats API docs</title>');
    expect(html).toContain('href="/static/cat.ico"');
    expect(html).toContain('.swagger-ui .topbar { display: none }');
  },
);

claim(
  `${page}#setup-options`,
  'useGlobalPrefix serves the UI and the JSON below the global prefix',
  async () => {
    const set = samples(page, {files: featureFiles});
    const app = await NestFactory.create(set.require('app.module').AppModule, {logger: false});
    apps.push(app);
    app.setGlobalPrefix('v1');
    SwaggerModule.setup(
      'api',
      app,
      SwaggerModule.createDocument(app, new DocumentBuilder().build()),
      {useGlobalPrefix: true},
    );
    await app.listen(0, '127.0.0.1');
    const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    expect((await fetch(`${base}/v1/api`)).status).toBe(200);
    expect((await fetch(`${base}/v1/api-json`)).status).toBe(200);
    expect((await fetch(`${base}/api`)).status).toBe(404);
  },
);

function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
}
function scriptSrc(csp: string): string {
  return /script-src ([^;]*)/.exec(csp)?.[1] ?? '';
}

claim(
  `${page}#swagger-ui-and-helmet`,
  "on Express, helmet's default CSP allows the UI: the page has no inline script, its scripts (swagger-ui-init.js too) come from the UI's path",
  async () => {
    const helmet = require('helmet').default ?? require('helmet');
    const set = samples(page, {files: featureFiles});
    const app = await NestFactory.create(set.require('app.module').AppModule, {logger: false});
    apps.push(app);
    app.use(helmet());
    SwaggerModule.setup(
      'api',
      app,
      SwaggerModule.createDocument(app, new DocumentBuilder().build()),
    );
    await app.listen(0, '127.0.0.1');
    const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    const response = await fetch(`${base}/api/`);
    const html = await response.text();
    expect(scriptSrc(response.headers.get('content-security-policy') ?? '')).toBe("'self'");
    expect(inlineScripts(html).filter((code) => code.trim())).toEqual([]);
    expect(html).toContain('src="./swagger-ui-init.js"');
    const init = await fetch(`${base}/api/swagger-ui-init.js`);
    expect(init.status).toBe(200);
    expect(await init.text()).toContain('SwaggerUIBundle');
  },
);

async function fastifyWithHelmet(options?: any): Promise<string> {
  const {fastifyHelmet} = require('fastify-helmet');
  const set = samples(page, {files: featureFiles});
  const app = await NestFactory.create(set.require('app.module').AppModule, new FastifyAdapter(), {
    logger: false,
  });
  apps.push(app);
  await app.register(fastifyHelmet);
  SwaggerModule.setup(
    'api',
    app,
    SwaggerModule.createDocument(app, new DocumentBuilder().build()),
    options,
  );
  await app.listen(0, '127.0.0.1');
  return (await app.getUrl()).replace('[::1]', '127.0.0.1');
}

claim(
  `${page}#swagger-ui-and-helmet`,
  "on Fastify, fastify-helmet's default CSP does not allow the inline script that starts fastify-swagger's UI",
  async () => {
    const base = await fastifyWithHelmet();
    const response = await fetch(`${base}/api/static/index.html`);
    expect(response.status).toBe(200);
    const scripts = inlineScripts(await response.text()).filter((code) => code.trim());
    expect(scripts.length).toBeGreaterThan(0);
    const allowed = scriptSrc(response.headers.get('content-security-policy') ?? '');
    expect(allowed).toBe("'self'");
    for (const code of scripts)
      expect(allowed).not.toContain(createHash('sha256').update(code).digest('base64'));
  },
);

claim(
  `${page}#swagger-ui-and-helmet`,
  "with staticCSP: true the UI routes get a policy that allows the inline script by its hash; other routes keep Helmet's",
  async () => {
    const base = await fastifyWithHelmet({staticCSP: true});
    const response = await fetch(`${base}/api/static/index.html`);
    const scripts = inlineScripts(await response.text()).filter((code) => code.trim());
    const allowed = scriptSrc(response.headers.get('content-security-policy') ?? '');
    for (const code of scripts)
      expect(allowed).toContain(`'sha256-${createHash('sha256').update(code).digest('base64')}'`);
    const other = await fetch(`${base}/cats`);
    expect(other.status).toBe(200);
    expect(scriptSrc(other.headers.get('content-security-policy') ?? '')).toBe("'self'");
  },
);

claim.abuse(
  `${page}#exposing-the-documentation`,
  'an anonymous caller reads the whole API map at /api-json, admin routes included; with the page’s main.ts and SWAGGER_ENABLED unset, /api and /api-json are 404',
  async () => {
    const open = await startMain(1);
    const document = await (await fetch(`${open.base}/api-json`)).json();
    expect(Object.keys(document.paths)).toContain('/admin/stats');
    const previous = process.env.SWAGGER_ENABLED;
    try {
      delete process.env.SWAGGER_ENABLED;
      const closed = await startMain(3);
      for (const path of ['/api', '/api-json']) {
        expect((await fetch(`${closed.base}${path}`)).status).toBe(404);
      }
      expect((await fetch(`${closed.base}/admin/stats`)).status).toBe(200);
      process.env.SWAGGER_ENABLED = 'true';
      const enabled = await startMain(3);
      expect((await fetch(`${enabled.base}/api-json`)).status).toBe(200);
      expect((await fetch(`${enabled.base}/api`)).status).toBe(200);
      // The alternative the page names: a middleware for the two paths, registered before setup().
      const guarded = await startMain(3, [
        [
          'SwaggerModule.setup(',
          "app.use(['/api', '/api-json'], (req: any, res: any, next: any) => req.headers.authorization === 'Bearer docs' ? next() : res.status(401).end());\n    SwaggerModule.setup(",
        ],
      ]);
      for (const path of ['/api', '/api-json', '/api/swagger-ui.css']) {
        expect((await fetch(`${guarded.base}${path}`)).status).toBe(401);
      }
      const withToken = await fetch(`${guarded.base}/api-json`, {
        headers: {authorization: 'Bearer docs'},
      });
      expect(withToken.status).toBe(200);
    } finally {
      if (previous === undefined) delete process.env.SWAGGER_ENABLED;
      else process.env.SWAGGER_ENABLED = previous;
    }
  },
);

claim.abuse(
  `${page}#exposing-the-documentation`,
  "middleware bound in configure() never runs for setup()'s routes (the document leaks, swagger-ui-init.js too); the page's app.use() check before setup() refuses anonymous and wrong credentials, and everyone while DOCS_CREDENTIALS is unset",
  async () => {
    // What the page warns about: the check bound the usual Nest way, in the root module's configure().
    const set = samples(page, {
      pick: {main: 1},
      files: {
        ...featureFiles,
        'app.module': `
    import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
    import { CatsModule } from './cats.module';
    import { AdminModule } from './admin.module';
    @Module({ imports: [CatsModule, AdminModule] })
    export class AppModule implements NestModule {
      configure(consumer: MiddlewareConsumer) {
        consumer
          .apply((req: any, res: any, next: any) => (req.headers.authorization === 'Bearer docs' ? next() : res.status(401).end()))
          .forRoutes('api', 'api-json', 'admin');
      }
    }`,
      },
      edit: {
        main: [
          ...mainEdits,
          ['NestFactory.create(AppModule)', 'NestFactory.create(AppModule, { logger: false })'],
        ],
      },
    });
    const consumerApp = await set.require('main').started;
    apps.push(consumerApp);
    const consumerBase = (await consumerApp.getUrl()).replace('[::1]', '127.0.0.1');
    expect((await fetch(`${consumerBase}/admin/stats`)).status).toBe(401);
    for (const path of ['/api-json', '/api/swagger-ui-init.js']) {
      const response = await fetch(`${consumerBase}${path}`);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('/admin/stats');
    }

    const previous = process.env.DOCS_CREDENTIALS;
    try {
      delete process.env.DOCS_CREDENTIALS;
      const unset = await startMain(4);
      for (const authorization of [undefined, `Basic ${Buffer.from(':').toString('base64')}`]) {
        const response = await fetch(`${unset.base}/api-json`, {
          headers: authorization ? {authorization} : {},
        });
        expect(response.status).toBe(401);
      }
      process.env.DOCS_CREDENTIALS = 'partner:s3cret-docs';
      const guarded = await startMain(4);
      const paths = ['/api', '/api-json', '/api/swagger-ui-init.js', '/API-JSON'];
      for (const path of paths) {
        const response = await fetch(`${guarded.base}${path}`);
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toBe('Basic realm="API documentation"');
      }
      const wrong = `Basic ${Buffer.from('partner:guess').toString('base64')}`;
      expect(
        (await fetch(`${guarded.base}/api-json`, {headers: {authorization: wrong}})).status,
      ).toBe(401);
      const right = `Basic ${Buffer.from('partner:s3cret-docs').toString('base64')}`;
      for (const path of ['/api', '/api-json', '/api/swagger-ui-init.js']) {
        const response = await fetch(`${guarded.base}${path}`, {headers: {authorization: right}});
        expect(response.status).toBe(200);
      }
      // The API itself is not behind the documentation's check.
      expect((await fetch(`${guarded.base}/cats`)).status).toBe(200);
    } finally {
      if (previous === undefined) delete process.env.DOCS_CREDENTIALS;
      else process.env.DOCS_CREDENTIALS = previous;
    }
  },
);

import {afterAll, beforeAll, describe, expect} from 'vitest';
import {mkdtempSync, mkdirSync, writeFileSync, rmSync} from 'node:fs';
import {join} from 'node:path';
import {tmpdir} from 'node:os';
import {claim, samples, nest, listen} from '../../lib';

const page = 'docs/recipes/serve-static.md';
const {NestFactory} = nest('@nestjs/core');
const {Module} = nest('@nestjs/common');
const {FastifyAdapter} = nest('@nestjs/platform-fastify');
const {ServeStaticModule} = nest('@nestjs/serve-static');

let root: string;
const client = () => join(root, 'client');
const docsSite = () => join(root, 'docs-site');
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'serve-static-'));
  mkdirSync(join(client(), 'assets'), {recursive: true});
  writeFileSync(join(client(), 'index.html'), '<html>spa</html>');
  writeFileSync(join(client(), 'assets', 'logo.png'), 'PNG');
  mkdirSync(docsSite(), {recursive: true});
  writeFileSync(join(docsSite(), 'index.html'), '<html>docs</html>');
  writeFileSync(join(docsSite(), 'guide.html'), '<html>guide</html>');
});
const apps: any[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
  rmSync(root, {recursive: true, force: true});
});

/** The app.module's controller and service, not shown on the page: an API under /api. */
const api: Record<string, string> = {
  'app.controller': `
    import { Controller, Get } from '@nestjs/common';
    import { AppService } from './app.service';
    @Controller('api/cats')
    export class AppController {
      constructor(private readonly service: AppService) {}
      @Get() list() { return this.service.cats(); }
    }`,
  'app.service': `
    import { Injectable } from '@nestjs/common';
    @Injectable()
    export class AppService { cats() { return ['tom']; } }`,
};

async function start(module: unknown, adapter?: unknown): Promise<string> {
  const app = adapter
    ? await NestFactory.create(module, adapter, {logger: false})
    : await NestFactory.create(module, {logger: false});
  apps.push(app);
  return listen(app);
}
const get = async (base: string, path: string, init?: RequestInit) => {
  const response = await fetch(`${base}${path}`, init);
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    body: await response.text(),
    headers: response.headers,
  };
};

describe('the bootstrap sample', () => {
  let base: string;
  beforeAll(async () => {
    const set = samples(page, {
      pick: {'app.module': 1},
      files: api,
      edit: {'app.module': [["join(__dirname, '..', 'client')", 'process.env.SPA_CLIENT']]},
    });
    process.env.SPA_CLIENT = client();
    base = await start(set.require('app.module').AppModule);
  });

  claim(
    `${page}#bootstrap`,
    'a file request returns the file; a path that matches no file returns index.html',
    async () => {
      expect(await get(base, '/assets/logo.png')).toMatchObject({status: 200, body: 'PNG'});
      expect(await get(base, '/settings/profile')).toMatchObject({
        status: 200,
        body: '<html>spa</html>',
      });
      expect((await get(base, '/settings/profile')).type).toMatch(/text\/html/);
    },
  );

  claim(
    `${page}#bootstrap`,
    'API routes keep working, and with /api* excluded a mistyped API URL gets the 404 error',
    async () => {
      expect(await get(base, '/api/cats')).toMatchObject({status: 200, body: '["tom"]'});
      const missing = await get(base, '/api/catz');
      expect(missing.status).toBe(404);
      expect(JSON.parse(missing.body)).toEqual({
        statusCode: 404,
        message: 'Cannot GET /api/catz',
        error: 'Not Found',
      });
    },
  );

  claim.abuse(
    `${page}#bootstrap`,
    'paths that climb out of client/ (.., %2e%2e, ..%2f, ..%5c) never return a file outside it',
    async () => {
      writeFileSync(join(root, 'secret.txt'), 'DB_PASSWORD=hunter2');
      for (const path of [
        '/../secret.txt',
        '/%2e%2e/secret.txt',
        '/..%2fsecret.txt',
        '/assets/..%2f..%2fsecret.txt',
        '/..%5csecret.txt',
      ]) {
        const response = await get(base, path);
        expect(response.body, path).not.toContain('hunter2');
        expect([200, 400, 403, 404], path).toContain(response.status);
      }
    },
  );

  claim.abuse(
    `${page}#bootstrap`,
    'a dotfile left in client/ (.env) is not served: the request gets index.html',
    async () => {
      writeFileSync(join(client(), '.env'), 'API_KEY=abc123');
      const response = await get(base, '/.env');
      expect(response).toMatchObject({status: 200, body: '<html>spa</html>'});
    },
  );

  claim(
    `${page}#bootstrap`,
    'the fallback is registered for GET only: other methods get a 404',
    async () => {
      expect((await get(base, '/settings/profile', {method: 'POST'})).status).toBe(404);
    },
  );
});

claim(
  `${page}#bootstrap`,
  'without exclude, a GET to a mistyped API URL returns the HTML page with 200',
  async () => {
    @Module({imports: [ServeStaticModule.forRoot({rootPath: client()})]})
    class AppModule {}
    const base = await start(AppModule);
    expect(await get(base, '/api/catz')).toMatchObject({status: 200, body: '<html>spa</html>'});
  },
);

claim(
  `${page}#options`,
  "the default rootPath 'client' is relative: on Express every fallback request fails with 500",
  async () => {
    @Module({imports: [ServeStaticModule.forRoot({})]})
    class AppModule {}
    const base = await start(AppModule);
    expect((await get(base, '/settings/profile')).status).toBe(500);
  },
);

claim(
  `${page}#options`,
  'serveRoot serves the files under the prefix and the fallback covers only paths below it',
  async () => {
    @Module({imports: [ServeStaticModule.forRoot({rootPath: client(), serveRoot: '/app'})]})
    class AppModule {}
    const base = await start(AppModule);
    expect(await get(base, '/app/assets/logo.png')).toMatchObject({status: 200, body: 'PNG'});
    expect(await get(base, '/app/settings')).toMatchObject({status: 200, body: '<html>spa</html>'});
    expect((await get(base, '/assets/logo.png')).status).toBe(404);
    expect((await get(base, '/settings')).status).toBe(404);
  },
);

claim(
  `${page}#options`,
  'a setHeaders function in serveStaticOptions is also called for the index.html fallback (Express)',
  async () => {
    const seen: string[] = [];
    @Module({
      imports: [
        ServeStaticModule.forRoot({
          rootPath: client(),
          serveStaticOptions: {
            setHeaders: (res: any, path: string) => {
              seen.push(path);
              res.setHeader('x-static', 'yes');
            },
          },
        }),
      ],
    })
    class AppModule {}
    const base = await start(AppModule);
    const response = await get(base, '/deep/link');
    expect(response.headers.get('x-static')).toBe('yes');
    expect(seen).toContain(join(client(), 'index.html'));
  },
);

claim(
  `${page}#options`,
  'on Fastify, exclude is ignored in 2.2.2: an excluded path still gets index.html',
  async () => {
    @Module({imports: [ServeStaticModule.forRoot({rootPath: client(), exclude: ['/api*']})]})
    class AppModule {}
    const base = await start(AppModule, new FastifyAdapter());
    expect(await get(base, '/api/catz')).toMatchObject({status: 200, body: '<html>spa</html>'});
    expect(await get(base, '/assets/logo.png')).toMatchObject({status: 200, body: 'PNG'});
  },
);

claim(
  `${page}#options`,
  'several option objects: /docs is served from its own folder with its own fallback, everything else by the root entry',
  async () => {
    const set = samples(page, {
      pick: {'app.module': 2},
      edit: {
        'app.module': [
          ["join(__dirname, '..', 'docs-site')", 'process.env.DOCS_SITE'],
          ["join(__dirname, '..', 'client')", 'process.env.SPA_CLIENT'],
        ],
      },
    });
    process.env.SPA_CLIENT = client();
    process.env.DOCS_SITE = docsSite();
    const base = await start(set.require('app.module').AppModule);
    expect(await get(base, '/docs/guide.html')).toMatchObject({
      status: 200,
      body: '<html>guide</html>',
    });
    expect(await get(base, '/docs/anything')).toMatchObject({
      status: 200,
      body: '<html>docs</html>',
    });
    expect(await get(base, '/settings')).toMatchObject({status: 200, body: '<html>spa</html>'});
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#async-configuration`,
    `forRootAsync's factory returns an array of options, read from ConfigService (${lang})`,
    async () => {
      process.env.CLIENT_DIST = client();
      const set = samples(page, {lang, pick: {'app.module': lang === 'ts' ? 3 : 1}});
      const base = await start(set.require('app.module').AppModule);
      expect(await get(base, '/settings')).toMatchObject({status: 200, body: '<html>spa</html>'});
      delete process.env.CLIENT_DIST;
    },
  );
}

claim(
  `${page}#async-configuration`,
  'with useClass, the module calls createLoggerOptions() on the class',
  async () => {
    class StaticConfig {
      createLoggerOptions() {
        return [{rootPath: client()}];
      }
    }
    @Module({imports: [ServeStaticModule.forRootAsync({useClass: StaticConfig})]})
    class AppModule {}
    const base = await start(AppModule);
    expect(await get(base, '/x')).toMatchObject({status: 200, body: '<html>spa</html>'});
  },
);

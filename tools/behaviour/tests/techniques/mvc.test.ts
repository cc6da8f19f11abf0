import {afterAll, afterEach, beforeAll, describe, expect} from 'vitest';
import {mkdtempSync, mkdirSync, writeFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {claim, samples, fragment, compileModule, nest, memoryLogger, expectOutput} from '../../lib';
import {startChild} from './_child-app';

const {Module} = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const page = 'docs/techniques/mvc.md';

// The project layout the page describes: views/ and public/ next to the compiled code's parent folder.
let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'behaviour-mvc-'));
  mkdirSync(join(root, 'views', 'partials'), {recursive: true});
  mkdirSync(join(root, 'public'));
  const template = fragment(page, 'templates', '{{#each cats}}').value;
  writeFileSync(join(root, 'views', 'index.hbs'), template);
  writeFileSync(join(root, 'views', 'arrivals.hbs'), '<h1>New arrivals: {{title}}</h1>');
  writeFileSync(
    join(root, 'views', 'partials', 'header.hbs'),
    fragment(page, 'partials', 'Signed in as').value,
  );
  writeFileSync(join(root, 'views', 'page.hbs'), '{{> header}}<main>{{title}}</main>');
  writeFileSync(join(root, 'public', 'styles.css'), 'h1 { color: teal; }');
});
afterAll(() => rmSync(root, {recursive: true, force: true}));

let toClose: any[] = [];
afterEach(async () => {
  for (const app of toClose) await app.close();
  toClose = [];
});

/** The cats service the page's controllers use (not shown on the page). */
function catsService(
  lang: 'ts' | 'js',
  cats = "[{ name: 'Tom', age: 3, breed: 'Siamese' }]",
  arrivals = false,
): string {
  return lang === 'ts'
    ? `import { Injectable } from '@nestjs/common';
@Injectable() export class CatsService { findAll(): any[] { return ${cats}; } hasNewArrivals(): boolean { return ${arrivals}; } }`
    : `import { Injectable } from '@nestjs/common';
@Injectable() export class CatsService { findAll() { return ${cats}; } hasNewArrivals() { return ${arrivals}; } }`;
}

/** main.ts as the page shows it, with the folders pointed at the test project and the app handed back instead of listening on 3000. */
function mainEdits(): [string, string][] {
  return [
    ["join(__dirname, '..', 'public')", JSON.stringify(join(root, 'public'))],
    ["join(__dirname, '..', 'views')", JSON.stringify(join(root, 'views'))],
    ['await app.listen(3000);', "await app.listen(0, '127.0.0.1'); return app;"],
    ['bootstrap();', 'export { bootstrap };'],
  ];
}

async function boot(set: any): Promise<string> {
  const {bootstrap} = set.require('main');
  const app = await bootstrap();
  toClose.push(app);
  return (await app.getUrl()).replace('[::1]', '127.0.0.1').replace('localhost', '127.0.0.1');
}

describe('Express with hbs', () => {
  for (const lang of ['ts', 'js'] as const) {
    claim(
      `${page}#rendering-a-view`,
      `GET / renders index.hbs with the handler's data; public/ is served as it is (${lang})`,
      async () => {
        const set = samples(page, {
          lang,
          under: 'rendering-a-view',
          pick: {main: 1},
          edit: {main: mainEdits()},
          files: {'cats/cats.service': catsService(lang), 'app.module': appModule(lang)},
        });
        const base = await boot(set);
        const response = await fetch(`${base}/`);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toMatch(/^text\/html/);
        const html = await response.text();
        expect(html).toContain('<h1>Our cats</h1>');
        expect(html).toMatch(/<li>Tom, 3 years old \(Siamese\)<\/li>/);
        const css = await fetch(`${base}/styles.css`);
        expect(await css.text()).toBe('h1 { color: teal; }');
      },
    );
  }

  claim(`${page}#templates`, 'Handlebars escapes inserted values', async () => {
    const set = samples(page, {
      under: 'rendering-a-view',
      pick: {main: 1},
      edit: {main: mainEdits()},
      files: {
        'cats/cats.service': catsService(
          'ts',
          "[{ name: '<script>x()</script>', age: 1, breed: 'b' }]",
        ),
        'app.module': appModule('ts'),
      },
    });
    const html = await (await fetch(`${await boot(set)}/`)).text();
    expect(html).toContain('&lt;script&gt;x()&lt;/script&gt;');
    expect(html).not.toContain('<script>x()');
  });

  claim(
    `${page}#partials`,
    'registerPartials() makes views/partials/header.hbs the partial "header", which sees the data of the including template',
    async () => {
      const hbs = nest('hbs');
      const code = fragment(page, 'partials', 'hbs.registerPartials').value;
      expect(code).toContain("hbs.registerPartials(join(__dirname, '..', 'views', 'partials'));");
      await new Promise<void>((done) =>
        hbs.registerPartials(join(root, 'views', 'partials'), () => done()),
      );
      const {PartialController} = compileModule(
        `import { Controller, Get, Render } from '@nestjs/common';
@Controller() export class PartialController { @Get('page') @Render('page') page() { return { title: 'Home', userName: 'ada' }; } }`,
        'mvc-partial',
      );
      @Module({controllers: [PartialController]})
      class PartialModule {}
      const app = await NestFactory.create(PartialModule, {logger: false});
      toClose.push(app);
      app.setBaseViewsDir(join(root, 'views'));
      app.setViewEngine('hbs');
      await app.listen(0, '127.0.0.1');
      const html = await (
        await fetch(`${(await app.getUrl()).replace('[::1]', '127.0.0.1')}/page`)
      ).text();
      expect(html).toContain('<span>Signed in as ada</span>');
      expect(html).toContain('<main>Home</main>');
    },
  );

  for (const lang of ['ts', 'js'] as const) {
    claim(
      `${page}#dynamic-template-rendering`,
      `with @Res(), res.render() picks the template at runtime (${lang})`,
      async () => {
        const set = samples(page, {
          lang,
          under: 'dynamic-template-rendering',
          pick: {main: 1},
          edit: {main: mainEdits()},
          files: {
            'cats/cats.service': catsService(lang, '[]', true),
            'app.module': appModule(lang),
          },
        });
        const html = await (await fetch(`${await boot(set)}/`)).text();
        expect(html).toBe('<h1>New arrivals: Our cats</h1>');
      },
    );
  }
});

function appModule(lang: 'ts' | 'js', controller = 'app.controller'): string {
  void lang;
  return `import { Module } from '@nestjs/common';
import { AppController } from './${controller}';
import { CatsService } from './cats/cats.service';
@Module({ controllers: [AppController], providers: [CatsService] })
export class AppModule {}`;
}

describe('Fastify', () => {
  for (const lang of ['ts', 'js'] as const) {
    claim(
      `${page}#example`,
      `point-of-view renders @Render('index.hbs'); static files are served under /public/ (${lang})`,
      async () => {
        const set = samples(page, {
          lang,
          pick: {main: 2},
          edit: {main: mainEdits()},
          files: {'cats/cats.service': catsService(lang), 'app.module': appModule(lang)},
        });
        const base = await boot(set);
        const html = await (await fetch(`${base}/`)).text();
        expect(html).toContain('<h1>Our cats</h1>');
        expect(html).toMatch(/<li>Tom, 3 years old \(Siamese\)<\/li>/);
        expect(await (await fetch(`${base}/public/styles.css`)).text()).toBe('h1 { color: teal; }');
        expect((await fetch(`${base}/styles.css`)).status).toBe(404);
      },
    );
  }

  claim(
    `${page}#example`,
    'on Fastify, res.view() renders a template chosen at runtime',
    async () => {
      const code = fragment(page, 'example', 'res.view(view').value;
      const {ViewController, CatsService} = compileModule(
        `import { Controller, Get, Injectable, Res } from '@nestjs/common';
import { FastifyReply } from 'fastify';
@Injectable() export class CatsService { findAll() { return []; } hasNewArrivals() { return true; } }
@Controller() export class ViewController {
  constructor(private readonly catsService: CatsService) {}
${code.replace('res.view(view', '(res as any).view(view')}
}`,
        'mvc-fastify-view',
      );
      const {FastifyAdapter} = nest('@nestjs/platform-fastify');
      @Module({controllers: [ViewController], providers: [CatsService]})
      class ViewModule {}
      const app = await NestFactory.create(ViewModule, new FastifyAdapter(), {logger: false});
      toClose.push(app);
      app.setViewEngine({engine: {handlebars: nest('handlebars')}, templates: join(root, 'views')});
      await app.listen(0, '127.0.0.1');
      const html = await (
        await fetch(`${(await app.getUrl()).replace('[::1]', '127.0.0.1')}/`)
      ).text();
      expect(html).toBe('<h1>New arrivals: Our cats</h1>');
    },
  );

  claim(
    `${page}#fastify`,
    "setViewEngine('hbs') on Fastify logs \"setViewEngine() doesn't support a string argument.\" and exits the process",
    async () => {
      const {FastifyAdapter} = nest('@nestjs/platform-fastify');
      @Module({})
      class Empty {}
      const log = memoryLogger();
      const app = await NestFactory.create(Empty, new FastifyAdapter(), {
        logger: log.logger,
        abortOnError: false,
      });
      toClose.push(app);
      const exit = process.exit;
      let code: number | undefined;
      (process as any).exit = (c?: number) => {
        code = c;
        throw new Error('exit');
      };
      try {
        app.setViewEngine('hbs');
      } catch {
        // the replaced process.exit stops the call here
      } finally {
        process.exit = exit;
      }
      expect(code).toBe(1);
      expect(log.lines).toContainEqual({
        level: 'error',
        message: "setViewEngine() doesn't support a string argument.",
        context: 'FastifyAdapter',
      });
    },
  );
});

describe('Abuse cases and failure modes', () => {
  const {Controller, Get, Render, Query, Logger} = nest('@nestjs/common');

  /** The page's main (1: Express, 2: Fastify) around an AppModule with these controllers. */
  async function pageMain(main: 1 | 2, controllers: unknown[]): Promise<string> {
    @Module({controllers: controllers as any[]})
    class AppModule {}
    (globalThis as any).__mvcAppModule = AppModule;
    const set = samples(page, {
      pick: {main},
      edit: {main: mainEdits()},
      files: {'app.module': 'export const AppModule = (globalThis as any).__mvcAppModule;'},
    });
    return boot(set);
  }

  /** The Express main around a controller that renders `view` with the query's t as title, bio and website. */
  async function reflecting(template: string): Promise<string> {
    writeFileSync(join(root, 'views', 'reflect.hbs'), template);
    @Controller()
    class ReflectController {
      @Get('reflect')
      @Render('reflect')
      reflect(@Query('t') t: string) {
        return {title: t, bio: t, website: t};
      }
    }
    return pageMain(1, [ReflectController]);
  }

  claim.abuse(
    `${page}#templates`,
    'a reflected <script> is escaped by {{title}} but inserted as it is by {{{bio}}}',
    async () => {
      const base = await reflecting('<h1>{{title}}</h1><p>{{{bio}}}</p>');
      const html = await (
        await fetch(`${base}/reflect?t=${encodeURIComponent('<script>alert(1)</script>')}`)
      ).text();
      expect(html).toBe(
        '<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1><p><script>alert(1)</script></p>',
      );
    },
  );

  claim.abuse(
    `${page}#templates`,
    'escaping leaves a javascript: URL intact in href="{{website}}"',
    async () => {
      const base = await reflecting('<a href="{{website}}">site</a>');
      const html = await (
        await fetch(`${base}/reflect?t=${encodeURIComponent('javascript:alert(1)')}`)
      ).text();
      expect(html).toBe('<a href="javascript:alert(1)">site</a>');
    },
  );

  claim.failure(
    `${page}#rendering-a-view`,
    "a missing template: 500 with Nest's generic body on Express and on Fastify; Express's log names the view",
    async () => {
      @Controller()
      class MissingController {
        @Get('missing')
        @Render('missing')
        express() {
          return {};
        }
        @Get('missing-fastify')
        @Render('missing.hbs')
        fastify() {
          return {};
        }
      }
      const logs = memoryLogger();
      Logger.overrideLogger(logs.logger);
      try {
        for (const [main, path] of [
          [1, 'missing'],
          [2, 'missing-fastify'],
        ] as const) {
          const base = await pageMain(main, [MissingController]);
          const response = await fetch(`${base}/${path}`);
          expect(response.status).toBe(500);
          expect(await response.json()).toEqual({
            statusCode: 500,
            message: 'Internal server error',
          });
        }
      } finally {
        Logger.overrideLogger(false);
      }
      expect(logs.text()).toContain('Failed to lookup view "missing" in views directory');
    },
  );

  claim.abuse(
    `${page}#express-with-hbs`,
    'useStaticAssets() serves nothing outside public/ (..%2f, %2e%2e) and no dotfile such as .env, on Express and on Fastify',
    async () => {
      writeFileSync(join(root, 'public', '.env'), 'DB_PASSWORD=hunter2');
      writeFileSync(join(root, 'secret.txt'), 'outside');
      for (const [main, prefix] of [
        [1, ''],
        [2, '/public'],
      ] as const) {
        const base = await pageMain(main, []);
        for (const path of [
          '/.env',
          '/..%2fsecret.txt',
          '/%2e%2e/secret.txt',
          '/..%2F..%2Fetc%2Fhostname',
        ]) {
          const response = await fetch(`${base}${prefix}${path}`);
          expect([403, 404], `${prefix}${path}`).toContain(response.status);
          expect(await response.text()).not.toMatch(/hunter2|outside/);
        }
        expect((await fetch(`${base}${prefix}/styles.css`)).status).toBe(200);
      }
    },
  );
});

claim(
  `${page}#fastify`,
  'fastify-static 4.7.0, what ^4 installs, prints the deprecation warning shown when useStaticAssets() loads it, and serves the file',
  async () => {
    const child = startChild(
      root,
      'fastify-static-start.js',
      `
const { Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { FastifyAdapter } = require('@nestjs/platform-fastify');
const { join } = require('path');
class AppModule {}
Module({})(AppModule);
NestFactory.create(AppModule, new FastifyAdapter(), { logger: false }).then(async (app) => {
  app.useStaticAssets({ root: join(__dirname, 'public'), prefix: '/public/' });
  await app.listen(0, '127.0.0.1');
  const response = await fetch('http://127.0.0.1:' + app.getHttpServer().address().port + '/public/styles.css');
  console.log('SERVED ' + response.status);
  await app.close();
});`,
    );
    try {
      await child.waitFor(/SERVED 200/);
      const line = child.output().match(/\[FST_MODULE_DEP_FASTIFY-STATIC\][^\n]*/)?.[0] ?? '';
      expectOutput(page, 'fastify-static-warning', line);
    } finally {
      await child.stop();
    }
  },
);

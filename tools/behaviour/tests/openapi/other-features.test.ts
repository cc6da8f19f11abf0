import {afterAll, expect} from 'vitest';
import {claim, samples, nest, fragment, compileModule, memoryLogger} from '../../lib';
import {featureFiles, mainEdits} from './_support';

const page = 'docs/openapi/other-features.md';
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
  create = 'NestFactory.create(AppModule)',
) {
  const set = samples(page, {
    pick: {main: pick},
    files: featureFiles,
    edit: {main: [...mainEdits, [create, create.replace(/\)$/, ', { logger: false })')], ...extra]},
  });
  const app = await set.require('main').started;
  apps.push(app);
  return {app, base: (await app.getUrl()).replace('[::1]', '127.0.0.1'), set};
}

claim(
  `${page}#global-prefix`,
  'the document lists /v1/cats and the UI stays at /docs (not prefixed)',
  async () => {
    const {base} = await startMain(1);
    const document = await (await fetch(`${base}/docs-json`)).json();
    expect(Object.keys(document.paths)).toContain('/v1/cats');
    expect(Object.keys(document.paths)).not.toContain('/cats');
    expect((await fetch(`${base}/docs`)).status).toBe(200);
    expect((await fetch(`${base}/v1/docs`)).status).toBe(404);
  },
);

claim(`${page}#global-prefix`, 'useGlobalPrefix: true serves the UI at /v1/docs', async () => {
  const {base} = await startMain(1, [
    [
      "SwaggerModule.setup('docs', app, document);",
      fragment(page, 'global-prefix', 'useGlobalPrefix').value.trim(),
    ],
  ]);
  expect((await fetch(`${base}/v1/docs`)).status).toBe(200);
  expect((await fetch(`${base}/v1/docs-json`)).status).toBe(200);
  expect((await fetch(`${base}/docs`)).status).toBe(404);
});

claim(
  `${page}#global-prefix`,
  'ignoreGlobalPrefix with addServer describes the paths without the prefix, behind the server URL',
  async () => {
    const set = samples(page, {files: featureFiles});
    const app = await NestFactory.create(set.require('app.module').AppModule, {logger: false});
    apps.push(app);
    app.setGlobalPrefix('v1');
    const source = fragment(page, 'global-prefix', 'ignoreGlobalPrefix').value;
    const {build} = compileModule(
      `import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';\nexport function build(app: any) {\n${source}\nreturn document;\n}`,
    );
    const document = build(app);
    expect(document.servers).toEqual([{url: 'https://api.example.com/v1'}]);
    expect(Object.keys(document.paths)).toContain('/cats');
  },
);

claim(
  `${page}#global-prefix`,
  'setBasePath() does nothing but log a deprecation warning',
  async () => {
    const log = memoryLogger();
    const {Logger} = nest('@nestjs/common');
    const previous = Logger.staticInstanceRef;
    Logger.overrideLogger(log.logger);
    try {
      const config = new DocumentBuilder().setBasePath('/v2').build();
      expect(JSON.stringify(config)).not.toContain('/v2');
      expect(
        log.lines.some(
          (line) =>
            line.level === 'warn' &&
            line.message.startsWith('The "setBasePath" method has been deprecated.'),
        ),
      ).toBe(true);
    } finally {
      Logger.staticInstanceRef = previous;
    }
  },
);

claim(
  `${page}#multiple-specifications`,
  'two documents: each UI at its path, the JSON at /api/cats-json and /api/admin-json, each with only its module',
  async () => {
    const {base} = await startMain(2);
    expect((await fetch(`${base}/api/cats`)).status).toBe(200);
    expect((await fetch(`${base}/api/admin`)).status).toBe(200);
    const cats = await (await fetch(`${base}/api/cats-json`)).json();
    const admin = await (await fetch(`${base}/api/admin-json`)).json();
    expect(Object.keys(cats.paths)).toEqual(['/cats']);
    expect(cats.info.title).toBe('Cats API');
    expect(Object.keys(admin.paths)).toEqual(['/admin/stats']);
    expect(admin.components.securitySchemes.bearer).toEqual({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
    });
  },
);

claim(
  `${page}#fastify`,
  'on Fastify the same setup serves the UI at /api and the JSON at /api/json, not /api-json',
  async () => {
    const set = samples(page, {
      pick: {main: 3},
      files: featureFiles,
      edit: {
        main: [...mainEdits, ['new FastifyAdapter())', 'new FastifyAdapter(), { logger: false })']],
      },
    });
    const app = await set.require('main').started;
    apps.push(app);
    const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    const ui = await fetch(`${base}/api/static/index.html`);
    expect(ui.status).toBe(200);
    expect(await (await fetch(`${base}/api/uiConfig`)).json()).toEqual({
      docExpansion: 'list',
      deepLinking: false,
    });
    const json = await fetch(`${base}/api/json`);
    expect(json.status).toBe(200);
    expect((await json.json()).info.title).toBe('Cats API');
    expect((await fetch(`${base}/api-json`)).status).toBe(404);
  },
);

claim(
  `${page}#fastify`,
  '@nestjs/swagger 5 loads the plugin by the name fastify-swagger',
  async () => {
    const source = require('fs').readFileSync(
      require.resolve('@nestjs/swagger/dist/swagger-module.js'),
      'utf8',
    );
    expect(source).toContain("loadPackage('fastify-swagger'");
    void FastifyAdapter;
    void SwaggerModule;
  },
);

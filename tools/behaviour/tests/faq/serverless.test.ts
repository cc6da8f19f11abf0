import {createServer} from 'node:http';
import {expect} from 'vitest';
import {claim, fragment, compileModule, nest, applyEdits} from '../../lib';

const page = 'docs/faq/serverless.md';

/** A small AppModule in place of the page's `./app.module` import; counts how often Nest creates its controller. */
const appModule = `import { Controller, Get, Injectable, Module } from '@nestjs/common';
@Injectable()
export class CatsService {
  adopted: string[] = [];
  async findAll() { return [{ name: 'Tom' }]; }
  async markAsAdopted(id: string) { this.adopted.push(id); }
}
@Controller('cats')
class CatsController {
  constructor(private readonly cats: CatsService) { (globalThis as any).__bootstraps = ((globalThis as any).__bootstraps ?? 0) + 1; }
  @Get()
  findAll() { return this.cats.findAll(); }
}
@Injectable()
class Database {
  // A cold start fails while __failNext > 0, as when the database is unreachable for a moment.
  async onModuleInit() {
    const g = globalThis as any;
    g.__initAttempts = (g.__initAttempts ?? 0) + 1;
    if (g.__failNext > 0) {
      g.__failNext -= 1;
      await new Promise((r) => setTimeout(r, 200)); // a connection attempt that times out
      throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    }
  }
}
@Injectable()
class Pool {
  // A database client's connection pool: opened when Nest creates the provider, closed by its shutdown hook.
  constructor() { (globalThis as any).__openPools = ((globalThis as any).__openPools ?? 0) + 1; }
  onApplicationShutdown() { (globalThis as any).__openPools -= 1; }
}
@Module({ controllers: [CatsController], providers: [CatsService, Database, Pool] })
class AppModule {}`;

function load(section: string, contains: string, edits: [string, string][]) {
  const source = applyEdits(`${page}#${section}`, fragment(page, section, contains).value, [
    ["import { AppModule } from './app.module';", appModule],
    ...edits,
  ]);
  Object.assign(globalThis as any, {
    __bootstraps: 0,
    __initAttempts: 0,
    __failNext: 0,
    __openPools: 0,
  });
  return compileModule(source, `serverless-${section}`);
}

function apiGatewayEvent(path: string) {
  return {
    resource: '/{proxy+}',
    path,
    httpMethod: 'GET',
    headers: {accept: 'application/json', host: 'abc123.execute-api.eu-west-1.amazonaws.com'},
    multiValueHeaders: {
      accept: ['application/json'],
      host: ['abc123.execute-api.eu-west-1.amazonaws.com'],
    },
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: {proxy: path.slice(1)},
    stageVariables: null,
    requestContext: {
      resourcePath: '/{proxy+}',
      httpMethod: 'GET',
      path: `/dev${path}`,
      stage: 'dev',
      requestId: 'c6af9ac6-7b61-11e6-9a41-93e8deadbeef',
      identity: {sourceIp: '127.0.0.1', userAgent: 'behaviour-test'},
      accountId: '123456789012',
      apiId: 'abc123',
    },
    body: null,
    isBase64Encoded: false,
  };
}

const lambdaContext = {
  functionName: 'main',
  awsRequestId: 'req-1',
  getRemainingTimeInMillis: () => 3000,
};

claim(
  `${page}#example-integration`,
  "the handler bootstraps Nest on the first invocation only, and answers an API Gateway event with the route's response",
  async () => {
    const {handler} = load('example-integration', 'serverlessExpress({ app: expressApp })', [
      [
        'NestFactory.create(AppModule, { abortOnError: false })',
        'NestFactory.create(AppModule, { abortOnError: false, logger: false })',
      ],
    ]);
    const first = await handler(apiGatewayEvent('/cats'), lambdaContext, () => undefined);
    expect(first.statusCode).toBe(200);
    expect(JSON.parse(first.body)).toEqual([{name: 'Tom'}]);
    expect(first.multiValueHeaders['content-type'][0]).toMatch(/^application\/json/);
    const second = await handler(apiGatewayEvent('/nothing'), lambdaContext, () => undefined);
    expect(second.statusCode).toBe(404);
    expect(JSON.parse(second.body)).toEqual({
      statusCode: 404,
      message: 'Cannot GET /nothing',
      error: 'Not Found',
    });
    expect((globalThis as any).__bootstraps).toBe(1);
  },
);

claim(
  `${page}#example-integration`,
  '@codegenie/serverless-express sets module.exports to configure() with no default property, and exports it as configure too; @vendia/serverless-express 4.12.6 only re-exports it',
  () => {
    const required = nest('@codegenie/serverless-express');
    expect(typeof required).toBe('function');
    expect(required.default).toBeUndefined();
    expect(required.configure).toBe(required);
    expect(nest('@vendia/serverless-express').configure).toBe(required.configure);
    expect(nest('@vendia/serverless-express/package.json').version).toBe('4.12.6');
  },
);

claim(
  `${page}#other-platforms`,
  'the Express-style api(req, res) function answers through Nest, and two concurrent first requests share one bootstrap',
  async () => {
    // Compiled with esModuleInterop, as the page's AWS section asks.
    const {api} = load('other-platforms', 'export const api', [
      [
        'NestFactory.create(AppModule, { abortOnError: false })',
        'NestFactory.create(AppModule, { abortOnError: false, logger: false })',
      ],
    ]);
    // A platform that hands Express-style request and response objects to the function.
    const server = createServer((req, res) => void api(req, res));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const {port} = server.address() as {port: number};
    const [a, b] = await Promise.all([
      fetch(`http://127.0.0.1:${port}/cats`),
      fetch(`http://127.0.0.1:${port}/cats`),
    ]);
    expect(await a.json()).toEqual([{name: 'Tom'}]);
    expect(await b.json()).toEqual([{name: 'Tom'}]);
    expect((globalThis as any).__bootstraps).toBe(1);
    await new Promise((r) => server.close(r));
  },
);

claim(
  `${page}#using-standalone-application-feature`,
  'the standalone handler creates the application context once and returns { statusCode: 200, body } from CatsService',
  async () => {
    const {handler} = load(
      'using-standalone-application-feature',
      'const cats = await catsService.findAll()',
      [
        ["import { CatsService } from './cats/cats.service';", ''],
        [
          'NestFactory.createApplicationContext(AppModule, { abortOnError: false })',
          'NestFactory.createApplicationContext(AppModule, { abortOnError: false, logger: false })',
        ],
      ],
    );
    const result = await handler({}, lambdaContext);
    expect(result).toEqual({statusCode: 200, body: JSON.stringify([{name: 'Tom'}])});
    const again = await handler({}, lambdaContext);
    expect(again.statusCode).toBe(200);
  },
);

claim(
  `${page}#using-standalone-application-feature`,
  "onAdoptionRequested hands each SQS record's catId to CatsService.markAsAdopted() and reports no failed record",
  async () => {
    const source = applyEdits(
      `${page}#sqs`,
      fragment(page, 'using-standalone-application-feature', 'onAdoptionRequested').value,
      [
        ["import { AppModule } from './app.module';", appModule],
        ["import { CatsService } from './cats/cats.service';", ''],
        [
          'NestFactory.createApplicationContext(AppModule, { abortOnError: false })',
          'NestFactory.createApplicationContext(AppModule, { abortOnError: false, logger: false })',
        ],
      ],
    );
    const mod = compileModule(
      `${source}\nexport { getContext, CatsService };`,
      'serverless-sqs',
    ) as any;
    const result = await mod.onAdoptionRequested(
      {
        Records: [
          {messageId: 'm1', body: JSON.stringify({catId: 'c1'})},
          {messageId: 'm2', body: JSON.stringify({catId: 'c2'})},
        ],
      },
      lambdaContext,
      () => undefined,
    );
    expect(result).toEqual({batchItemFailures: []});
    const context = await mod.getContext();
    expect(context.get(mod.CatsService).adopted).toEqual(['c1', 'c2']);
  },
);

claim(
  `${page}#other-platforms`,
  "with esModuleInterop on, `import * as express from 'express'` gives a namespace object that cannot be called",
  () => {
    const {make} = compileModule(
      `import * as express from 'express';\nexport const make = () => express();`,
      'express-namespace',
    );
    expect(() => make()).toThrow(/express is not a function/);
  },
);

claim.failure(
  `${page}#example-integration`,
  'a cold start that fails once (onModuleInit cannot reach the database): that invocation rejects, and the next one bootstraps again and answers 200',
  async () => {
    const {handler} = load('example-integration', 'serverlessExpress({ app: expressApp })', [
      [
        'NestFactory.create(AppModule, { abortOnError: false })',
        'NestFactory.create(AppModule, { abortOnError: false, logger: false })',
      ],
    ]);
    (globalThis as any).__failNext = 1;
    const first = await Promise.resolve(
      handler(apiGatewayEvent('/cats'), lambdaContext, () => undefined),
    ).then(
      () => null,
      (e: Error) => e,
    );
    expect(first?.message).toBe('connect ECONNREFUSED 127.0.0.1:5432');
    const second = await handler(apiGatewayEvent('/cats'), lambdaContext, () => undefined);
    expect(second.statusCode).toBe(200);
    expect((globalThis as any).__initAttempts).toBe(2);
  },
);

/** A platform that hands Express-style request and response objects to api(), and answers 500 when it rejects (as the Functions Framework does). */
async function functionsServer(api: (req: unknown, res: unknown) => Promise<void>) {
  const server = createServer((req, res) => {
    api(req, res).catch(() => {
      res.statusCode = 500;
      res.end('function crashed');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const {port} = server.address() as {port: number};
  return {url: `http://127.0.0.1:${port}/cats`, close: () => new Promise((r) => server.close(r))};
}

claim.failure(
  `${page}#other-platforms`,
  'a bootstrap that fails once while two cold requests wait for it: both get 500 from the one attempt, and the next request bootstraps again and answers 200',
  async () => {
    const {api} = load('other-platforms', 'export const api', [
      [
        'NestFactory.create(AppModule, { abortOnError: false })',
        'NestFactory.create(AppModule, { abortOnError: false, logger: false })',
      ],
    ]);
    (globalThis as any).__failNext = 1;
    const platform = await functionsServer(api);
    try {
      const [a, b] = await Promise.all([fetch(platform.url), fetch(platform.url)]);
      expect([a.status, b.status]).toEqual([500, 500]);
      expect((globalThis as any).__initAttempts).toBe(1);
      const third = await fetch(platform.url);
      expect(third.status).toBe(200);
      expect(await third.json()).toEqual([{name: 'Tom'}]);
      expect((globalThis as any).__initAttempts).toBe(2);
      expect((await fetch(platform.url)).status).toBe(200);
      expect((globalThis as any).__initAttempts).toBe(2);
    } finally {
      await platform.close();
    }
  },
);

claim.failure(
  `${page}#other-platforms`,
  'without abortOnError: false, a provider that fails inside NestFactory.create() ends the whole process with exit code 1 on the first request',
  async () => {
    const {mkdtempSync, rmSync} = await import('node:fs');
    const {tmpdir} = await import('node:os');
    const {join} = await import('node:path');
    const {compileInto, runScript} = await import('../fundamentals/_support');
    const dir = mkdtempSync(join(tmpdir(), 'behaviour-gcf-'));
    try {
      compileInto(
        dir,
        'app.module',
        `import { Module } from '@nestjs/common';
@Module({ providers: [{ provide: 'DB', useFactory: async () => { throw new Error('connect ECONNREFUSED 127.0.0.1:5432'); } }] })
export class AppModule {}`,
      );
      compileInto(
        dir,
        'main',
        applyEdits(`${page}#gcf`, fragment(page, 'other-platforms', 'export const api').value, [
          [
            'NestFactory.create(AppModule, { abortOnError: false })',
            'NestFactory.create(AppModule, { logger: ["error"] })',
          ],
        ]),
      );
      const result = await runScript(
        dir,
        'platform.js',
        `
const http = require('http');
const { api } = require('./main');
process.on('exit', (code) => console.log('exit ' + code));
const server = http.createServer((req, res) => { api(req, res).catch(() => { res.statusCode = 500; res.end(); }); });
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  http.get({ host: '127.0.0.1', port, path: '/cats' }, (res) => console.log('answered ' + res.statusCode))
    .on('error', (e) => console.log('request failed: ' + e.message));
});
`,
      );
      expect(result.code).toBe(1);
      expect(result.stdout).not.toContain('answered');
      expect(result.stdout).toContain('exit 1');
      expect(result.stdout + result.stderr).toContain('connect ECONNREFUSED 127.0.0.1:5432');
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  },
);

claim.abuse(
  `${page}#using-standalone-application-feature`,
  'a malformed SQS message in a batch: only its messageId is reported in batchItemFailures; the other records are processed once',
  async () => {
    const source = applyEdits(
      `${page}#sqs`,
      fragment(page, 'using-standalone-application-feature', 'onAdoptionRequested').value,
      [
        ["import { AppModule } from './app.module';", appModule],
        ["import { CatsService } from './cats/cats.service';", ''],
        [
          'NestFactory.createApplicationContext(AppModule, { abortOnError: false })',
          'NestFactory.createApplicationContext(AppModule, { abortOnError: false, logger: false })',
        ],
      ],
    );
    const mod = compileModule(
      `${source}\nexport { getContext, CatsService };`,
      'serverless-sqs-bad',
    ) as any;
    const result = await mod.onAdoptionRequested(
      {
        Records: [
          {messageId: 'm1', body: JSON.stringify({catId: 'c1'})},
          {messageId: 'm2', body: '{"catId": c2'},
          {messageId: 'm3', body: JSON.stringify({catId: 'c3'})},
        ],
      },
      lambdaContext,
      () => undefined,
    );
    expect(result).toEqual({batchItemFailures: [{itemIdentifier: 'm2'}]});
    expect((await mod.getContext()).get(mod.CatsService).adopted).toEqual(['c1', 'c3']);
  },
);

claim(
  `${page}#benchmarks`,
  "the page's measure script loads no file while its clock runs (the platform import comes first); without that import, NestFactory.create() loads some 150",
  async () => {
    const {mkdtempSync, rmSync} = await import('node:fs');
    const {tmpdir} = await import('node:os');
    const {join} = await import('node:path');
    const {compileInto, runScript} = await import('../fundamentals/_support');
    const dir = mkdtempSync(join(tmpdir(), 'behaviour-measure-'));
    try {
      compileInto(
        dir,
        'app.module',
        appModule.replace('class AppModule {}', 'export class AppModule {}'),
      );
      const script = fragment(page, 'benchmarks', 'measure-startup').value;
      compileInto(dir, 'measure', script);
      compileInto(
        dir,
        'measure-without',
        applyEdits('measure', script, [["import '@nestjs/platform-express';\n", '']]),
      );
      // Counts the files in require.cache between the script's two hrtime readings.
      const counted = (file: string) => `
const hr = process.hrtime.bigint;
let count = 0;
let calls = 0;
process.hrtime.bigint = () => {
  calls += 1;
  if (calls === 1) count = -Object.keys(require.cache).length;
  if (calls === 2) count += Object.keys(require.cache).length;
  return hr();
};
process.on('exit', () => console.log('files loaded while measuring: ' + count));
require('./${file}');
`;
      const withImport = await runScript(dir, 'count.js', counted('measure'));
      const without = await runScript(dir, 'count-without.js', counted('measure-without'));
      expect(withImport.stdout).toMatch(
        /^Nest bootstrap: [\d.]+ ms\nfiles loaded while measuring: 0\n$/,
      );
      const loaded = Number(/files loaded while measuring: (\d+)/.exec(without.stdout)?.[1]);
      expect(loaded).toBeGreaterThan(120);
      expect(loaded).toBeLessThan(200);
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  },
);

claim(
  `${page}#runtime-optimizations`,
  'ReportsService loads PdfModule on the first report only: three reports (two at once) load it once, and a failed load is retried',
  async () => {
    const source = applyEdits(
      `${page}#lazy`,
      fragment(page, 'runtime-optimizations', 'getPdfService').value,
      [
        ["import type { PdfService } from './pdf/pdf.service';", 'type PdfService = any;'],
        ["import('./pdf/pdf.module')", '(globalThis as any).__pdf.module()'],
        ["import('./pdf/pdf.service')", '(globalThis as any).__pdf.service()'],
      ],
    );
    const {Injectable, Module} = nest('@nestjs/common');
    const {NestFactory} = nest('@nestjs/core');
    const loads: string[] = [];
    @Injectable()
    class PdfService {
      render(month: string) {
        return `report ${month}`;
      }
    }
    @Module({
      providers: [
        PdfService,
        {
          provide: 'FONTS',
          useFactory: () => {
            loads.push('PdfModule providers created');
            if (loads.length === 1) throw new Error('fonts bucket unreachable');
            return [];
          },
        },
      ],
    })
    class PdfModule {}
    (globalThis as any).__pdf = {
      module: async () => ({PdfModule}),
      service: async () => ({PdfService}),
    };
    const {ReportsService} = compileModule(source, 'serverless-reports');
    @Module({providers: [ReportsService]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, {logger: false, abortOnError: false});
    await app.init();
    const reports = app.get(ReportsService);
    await expect(reports.generate('2026-01')).rejects.toThrow('fonts bucket unreachable');
    expect(await Promise.all([reports.generate('2026-02'), reports.generate('2026-03')])).toEqual([
      'report 2026-02',
      'report 2026-03',
    ]);
    expect(await reports.generate('2026-04')).toBe('report 2026-04');
    expect(loads).toEqual(['PdfModule providers created', 'PdfModule providers created']);
    await app.close();
  },
);

/** Calls `invoke` four times while onModuleInit() fails on the first three; the pools left open after each call. */
async function openPoolsAfterFailedColdStarts(invoke: () => Promise<unknown>) {
  (globalThis as any).__failNext = 3;
  const outcomes: string[] = [];
  const pools: number[] = [];
  for (let i = 0; i < 4; i++) {
    outcomes.push(
      await Promise.resolve()
        .then(invoke)
        .then(
          (result: any) => String(result?.statusCode ?? result),
          (error: Error) => error.message,
        ),
    );
    pools.push((globalThis as any).__openPools);
  }
  return {outcomes, pools};
}

claim.failure(
  `${page}#example-integration`,
  "three cold starts whose onModuleInit() fails, then one that succeeds: the page's handler closes each failed application, so one pool is open after the four invocations, not four",
  async () => {
    const {handler} = load('example-integration', 'serverlessExpress({ app: expressApp })', [
      [
        'NestFactory.create(AppModule, { abortOnError: false })',
        'NestFactory.create(AppModule, { abortOnError: false, logger: false })',
      ],
    ]);
    const run = await openPoolsAfterFailedColdStarts(() =>
      handler(apiGatewayEvent('/cats'), lambdaContext, () => undefined),
    );
    const refused = 'connect ECONNREFUSED 127.0.0.1:5432';
    expect(run).toEqual({outcomes: [refused, refused, refused, '200'], pools: [0, 0, 0, 1]});
  },
);

claim.failure(
  `${page}#other-platforms`,
  'three requests whose bootstrap fails in onModuleInit(), then one that succeeds: createExpressApp() closes each failed application, so one pool is open afterwards, not four',
  async () => {
    const {api} = load('other-platforms', 'export const api', [
      [
        'NestFactory.create(AppModule, { abortOnError: false })',
        'NestFactory.create(AppModule, { abortOnError: false, logger: false })',
      ],
    ]);
    const platform = await functionsServer(api);
    try {
      const run = await openPoolsAfterFailedColdStarts(
        async () => (await fetch(platform.url)).status,
      );
      expect(run).toEqual({outcomes: ['500', '500', '500', '200'], pools: [0, 0, 0, 1]});
    } finally {
      await platform.close();
    }
  },
);

claim.failure(
  `${page}#using-standalone-application-feature`,
  "createApplicationContext() whose onModuleInit() fails: the standalone handler rejects and the context it built stays open, one more pool on every failed cold start (the page's warning)",
  async () => {
    const {handler} = load(
      'using-standalone-application-feature',
      'const cats = await catsService.findAll()',
      [
        ["import { CatsService } from './cats/cats.service';", ''],
        [
          'NestFactory.createApplicationContext(AppModule, { abortOnError: false })',
          'NestFactory.createApplicationContext(AppModule, { abortOnError: false, logger: false })',
        ],
      ],
    );
    const run = await openPoolsAfterFailedColdStarts(() => handler({}, lambdaContext));
    const refused = 'connect ECONNREFUSED 127.0.0.1:5432';
    expect(run).toEqual({outcomes: [refused, refused, refused, '200'], pools: [1, 2, 3, 4]});
  },
);

claim.failure(
  `${page}#using-standalone-application-feature`,
  "a provider factory that fails on the first cold start (logger off): the standalone handler's invocation fails with its error, the next one answers 200, and the process does not exit",
  async () => {
    const {mkdtempSync, rmSync} = await import('node:fs');
    const {tmpdir} = await import('node:os');
    const {join} = await import('node:path');
    const {compileInto, runScript} = await import('../fundamentals/_support');
    const dir = mkdtempSync(join(tmpdir(), 'behaviour-standalone-'));
    try {
      compileInto(
        dir,
        'app.module',
        `import { Injectable, Module } from '@nestjs/common';
let failures = 1;
@Injectable()
export class CatsService {
  async findAll() { return [{ name: 'Tom' }]; }
}
@Module({
  providers: [
    CatsService,
    { provide: 'DB', useFactory: async () => { if (failures-- > 0) throw new Error('database unreachable'); return {}; } },
  ],
})
export class AppModule {}`,
      );
      compileInto(
        dir,
        'main',
        applyEdits(
          `${page}#standalone`,
          fragment(
            page,
            'using-standalone-application-feature',
            'const cats = await catsService.findAll()',
          ).value,
          [
            [
              "import { CatsService } from './cats/cats.service';",
              "import { CatsService } from './app.module';",
            ],
            [
              'NestFactory.createApplicationContext(AppModule, { abortOnError: false })',
              'NestFactory.createApplicationContext(AppModule, { abortOnError: false, logger: false })',
            ],
          ],
        ),
      );
      const result = await runScript(
        dir,
        'invoke.js',
        `
const { handler } = require('./main');
process.on('exit', (code) => console.log('exit ' + code));
(async () => {
  for (const n of [1, 2]) {
    await handler({}, {}).then(
      (result) => console.log('invocation ' + n + ' ' + result.statusCode + ' ' + result.body),
      (error) => console.log('invocation ' + n + ' failed: ' + error.message),
    );
  }
})();
`,
      );
      expect(result.stdout).toBe(
        'invocation 1 failed: database unreachable\ninvocation 2 200 [{"name":"Tom"}]\nexit 0\n',
      );
      expect(result.code).toBe(0);
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  },
);

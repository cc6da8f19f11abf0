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
@Module({ controllers: [CatsController], providers: [CatsService] })
class AppModule {}`;

function load(section: string, contains: string, edits: [string, string][]) {
  const source = applyEdits(`${page}#${section}`, fragment(page, section, contains).value, [
    ["import { AppModule } from './app.module';", appModule],
    ...edits,
  ]);
  (globalThis as any).__bootstraps = 0;
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
      ['NestFactory.create(AppModule)', 'NestFactory.create(AppModule, { logger: false })'],
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
  '@vendia/serverless-express sets module.exports to configure() with no default property, and exports it as configure too',
  () => {
    const required = nest('@vendia/serverless-express');
    expect(typeof required).toBe('function');
    expect(required.default).toBeUndefined();
    expect(required.configure).toBe(required);
  },
);

claim(
  `${page}#other-platforms`,
  'the Express-style api(req, res) function answers through Nest, and two concurrent first requests share one bootstrap',
  async () => {
    // Compiled with esModuleInterop, as the page's AWS section asks.
    const {api} = load('other-platforms', 'export const api', [
      ['NestFactory.create(AppModule)', 'NestFactory.create(AppModule, { logger: false })'],
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
          'NestFactory.createApplicationContext(AppModule)',
          'NestFactory.createApplicationContext(AppModule, { logger: false })',
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
  "onAdoptionRequested hands each SQS record's catId to CatsService.markAsAdopted()",
  async () => {
    const source = applyEdits(
      `${page}#sqs`,
      fragment(page, 'using-standalone-application-feature', 'onAdoptionRequested').value,
      [
        ["import { AppModule } from './app.module';", appModule],
        ["import { CatsService } from './cats/cats.service';", ''],
        [
          'NestFactory.createApplicationContext(AppModule)',
          'NestFactory.createApplicationContext(AppModule, { logger: false })',
        ],
      ],
    );
    const mod = compileModule(
      `${source}\nexport { getContext, CatsService };`,
      'serverless-sqs',
    ) as any;
    await mod.onAdoptionRequested(
      {Records: [{body: JSON.stringify({catId: 'c1'})}, {body: JSON.stringify({catId: 'c2'})}]},
      lambdaContext,
      () => undefined,
    );
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

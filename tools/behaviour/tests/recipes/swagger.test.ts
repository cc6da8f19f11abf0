import {afterAll, expect} from 'vitest';
import {claim, samples, nest, fragment, compileModule} from '../../lib';

const page = 'docs/recipes/swagger.md';
const {Module} = nest('@nestjs/common');
const {FastifyAdapter} = nest('@nestjs/platform-fastify');

const apps: any[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
});

/** The page's main.ts (a fragment), run with the page's controller; `adapter` switches it to Fastify. */
async function startQuickStart(
  fastify = false,
  providers: unknown[] = [],
  enableApiDocs: string | null = 'true',
): Promise<string> {
  const {CatsController} = samples(page).require('cats.controller');
  @Module({controllers: [CatsController], providers: providers as any[]})
  class AppModule {}
  (globalThis as any).__swaggerRecipe = {
    AppModule,
    adapter: fastify ? new FastifyAdapter() : undefined,
  };
  let source = fragment(page, 'quick-start', 'SwaggerModule.setup').value;
  source = source.replace(
    "import { AppModule } from './app.module';",
    'const {AppModule, adapter} = (globalThis as any).__swaggerRecipe;',
  );
  for (const [from, to] of [
    [
      'NestFactory.create(AppModule)',
      'NestFactory.create(AppModule, ...(adapter ? [adapter] : []), { logger: false })',
    ],
    ['await app.listen(3000);', "await app.listen(0, '127.0.0.1');\n  return app;"],
    ['bootstrap();', 'export const started = bootstrap();'],
  ]) {
    if (!source.includes(from)) throw new Error(`fragment changed: ${from}`);
    source = source.replace(from, to);
  }
  // main.ts reads ENABLE_API_DOCS while it bootstraps: set it for this start only.
  const before = process.env.ENABLE_API_DOCS;
  if (enableApiDocs === null) delete process.env.ENABLE_API_DOCS;
  else process.env.ENABLE_API_DOCS = enableApiDocs;
  let app: any;
  try {
    app = await compileModule(source).started;
  } finally {
    if (before === undefined) delete process.env.ENABLE_API_DOCS;
    else process.env.ENABLE_API_DOCS = before;
  }
  apps.push(app);
  return (await app.getUrl()).replace('[::1]', '127.0.0.1');
}

claim(
  `${page}#quick-start`,
  'on Express the UI is at /docs and the document at /docs-json, with the DocumentBuilder info',
  async () => {
    const base = await startQuickStart();
    expect((await fetch(`${base}/docs`)).status).toBe(200);
    const document = await (await fetch(`${base}/docs-json`)).json();
    expect(document.info).toMatchObject({
      title: 'Cats API',
      description: 'Adopt, list and update cats',
      version: '1.0',
    });
    expect(document.tags).toEqual([{name: 'cats', description: ''}]);
  },
);

claim(
  `${page}#quick-start`,
  'on Fastify the document is served at /docs/json and as YAML at /docs/yaml',
  async () => {
    const base = await startQuickStart(true);
    const json = await fetch(`${base}/docs/json`);
    expect(json.status).toBe(200);
    expect((await json.json()).info.title).toBe('Cats API');
    const yaml = await fetch(`${base}/docs/yaml`);
    expect(yaml.status).toBe(200);
    expect(await yaml.text()).toContain('title: Cats API');
  },
);

claim(
  `${page}#describing-your-models`,
  'the route, its body type and the declared response are picked up; the DTO schema has its options',
  async () => {
    const base = await startQuickStart();
    const document = await (await fetch(`${base}/docs-json`)).json();
    const post = document.paths['/cats'].post;
    expect(post.tags).toEqual(['cats']);
    expect(post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/CreateCatDto',
    });
    expect(post.responses['201']).toEqual({description: 'The cat has been registered.'});
    expect(document.components.schemas.CreateCatDto).toEqual({
      type: 'object',
      properties: {
        name: {type: 'string', example: 'Tom'},
        age: {type: 'number', minimum: 0},
        breed: {type: 'string'},
      },
      required: ['name', 'age'],
    });
  },
);

claim(
  `${page}#where-to-go-next`,
  'message handlers and gateways do not appear in the document',
  async () => {
    const {SwaggerModule, DocumentBuilder} = nest('@nestjs/swagger');
    const {NestFactory} = nest('@nestjs/core');
    const {EventsController, EventsGateway} = compileModule(`
    import { Controller, Get } from '@nestjs/common';
    import { MessagePattern } from '@nestjs/microservices';
    import { SubscribeMessage, WebSocketGateway } from '@nestjs/websockets';
    @Controller('events')
    export class EventsController {
      @Get() list() { return []; }
      @MessagePattern('events.sum') sum() { return 1; }
    }
    @WebSocketGateway()
    export class EventsGateway { @SubscribeMessage('ping') ping() { return 'pong'; } }`);
    @Module({controllers: [EventsController], providers: [EventsGateway]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, {logger: false});
    apps.push(app);
    const document = SwaggerModule.createDocument(app, new DocumentBuilder().build());
    expect(Object.keys(document.paths)).toEqual(['/events']);
    expect(Object.keys(document.paths['/events'])).toEqual(['get']);
  },
);

claim.abuse(
  `${page}#quick-start`,
  'a global guard that refuses every request still lets an anonymous caller read the UI and the document (Express and Fastify)',
  async () => {
    const {APP_GUARD} = nest('@nestjs/core');
    class RefuseAll {
      canActivate() {
        return false;
      }
    }
    for (const [fastify, documentPath] of [
      [false, '/docs-json'],
      [true, '/docs/json'],
    ] as const) {
      const base = await startQuickStart(fastify, [{provide: APP_GUARD, useClass: RefuseAll}]);
      const create = await fetch(`${base}/cats`, {
        method: 'POST',
        headers: {'content-type': 'application/json'},
        body: '{}',
      });
      expect(create.status).toBe(403);
      expect((await fetch(`${base}/docs`, {redirect: 'manual'})).status).toBeLessThan(400);
      const document = await (await fetch(`${base}${documentPath}`)).json();
      expect(Object.keys(document.paths)).toEqual(['/cats']);
      expect(document.components.schemas.CreateCatDto.properties).toHaveProperty('name');
    }
  },
);

claim.abuse(
  `${page}#quick-start`,
  "ENABLE_API_DOCS unset, empty, '1' or 'TRUE': main.ts publishes nothing, an anonymous caller gets 404 for the UI and the document (Express and Fastify)",
  async () => {
    for (const value of [null, '', '1', 'TRUE']) {
      const base = await startQuickStart(false, [], value);
      for (const path of ['/docs', '/docs/', '/docs-json']) {
        expect(
          (await fetch(`${base}${path}`, {redirect: 'manual'})).status,
          `${value} ${path}`,
        ).toBe(404);
      }
    }
    const base = await startQuickStart(true, [], null);
    for (const path of ['/docs', '/docs/json', '/docs/yaml', '/docs/static/index.html']) {
      expect((await fetch(`${base}${path}`, {redirect: 'manual'})).status, path).toBe(404);
    }
  },
);

claim.abuse(
  `${page}#describing-your-models`,
  "@ApiProperty() checks nothing, the class-validator decorators do: name as an object, a negative or fractional age, a breed that is a number are 400; a valid body's made-up isAdmin is dropped",
  async () => {
    const base = await startQuickStart();
    const post = async (body: unknown) => {
      const response = await fetch(`${base}/cats`, {
        method: 'POST',
        headers: {'content-type': 'application/json'},
        body: JSON.stringify(body),
      });
      return {status: response.status, body: await response.json()};
    };
    for (const body of [
      {name: {$gt: ''}, age: -5, isAdmin: true},
      {name: 'Tom', age: -5},
      {name: 'Tom', age: 1.5},
      {name: 'Tom', age: 3, breed: 7},
      {age: 3},
    ]) {
      expect((await post(body)).status, JSON.stringify(body)).toBe(400);
    }
    expect(await post({name: 'Tom', age: 3, isAdmin: true})).toEqual({
      status: 201,
      body: {name: 'Tom', age: 3},
    });
  },
);

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
async function startQuickStart(fastify = false, providers: unknown[] = []): Promise<string> {
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
  const app = await compileModule(source).started;
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

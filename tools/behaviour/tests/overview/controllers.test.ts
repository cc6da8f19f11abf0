import {afterEach, expect} from 'vitest';
import {claim, samples, nest, listen} from '../../lib';

const {Module} = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const page = 'docs/controllers.md';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function start(controller: unknown, adapter?: unknown): Promise<string> {
  @Module({controllers: [controller as any]})
  class AppModule {}
  const app = adapter ? await NestFactory.create(AppModule, adapter, {logger: false}) : await NestFactory.create(AppModule, {logger: false});
  close = () => app.close();
  return listen(app);
}

for (const lang of ['ts', 'js'] as const) {
  claim(`${page}#routing`, `GET /cats answers the handler's string unchanged with 200 (${lang})`, async () => {
    const {CatsController} = samples(page, {under: 'routing', lang}).require('cats.controller');
    const base = await start(CatsController);
    const response = await fetch(`${base}/cats`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toBe('This action returns all cats');
  });

  claim(`${page}#status-code`, `@HttpCode(HttpStatus.NO_CONTENT) makes DELETE answer 204 (${lang})`, async () => {
    const {CatsController} = samples(page, {under: 'status-code', lang}).require('cats.controller');
    const base = await start(CatsController);
    const response = await fetch(`${base}/cats/1`, {method: 'DELETE'});
    expect(response.status).toBe(204);
  });
}

import {afterEach, expect} from 'vitest';
import {claim, samples, nest, listen} from '../../lib';
import {ioConnect, emitAck, collect} from './_support';

const {Module} = nest('@nestjs/common');
const {NestFactory, APP_INTERCEPTOR} = nest('@nestjs/core');
const page = 'docs/websockets/interceptors.md';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function start(providers: unknown[], setup?: (app: any) => void): Promise<string> {
  @Module({providers: providers as any[]})
  class AppModule {}
  const app = await NestFactory.create(AppModule, {logger: false});
  setup?.(app);
  close = () => app.close();
  return listen(app);
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#binding-interceptors`,
    `the page's TransformInterceptor keeps the event: the client receives events with { data: payload } (${lang})`,
    async () => {
      const {EventsGateway} = samples(page, {lang}).require('events.gateway');
      const url = await start([EventsGateway]);
      const socket = await ioConnect(url);
      const got = collect(socket, 'events');
      socket.emit('events', {name: 'Tom'});
      expect(await got).toEqual([{data: {name: 'Tom'}}]);
      socket.close();
    },
  );
}

claim(
  `${page}#binding-interceptors`,
  "the HTTP chapter's map((data) => ({ data })) emits no event: only the ack callback gets { data: { event, data } }",
  async () => {
    const httpVersion = samples('docs/interceptors.md', {under: 'response-mapping'}).sources.get(
      'transform.interceptor',
    )!;
    const {EventsGateway} = samples(page, {files: {'transform.interceptor': httpVersion}}).require(
      'events.gateway',
    );
    const url = await start([EventsGateway]);
    const socket = await ioConnect(url);
    const events = collect(socket, 'events', 1, 300);
    expect(await emitAck(socket, 'events', {name: 'Tom'})).toEqual({
      data: {event: 'events', data: {name: 'Tom'}},
    });
    expect(await events).toEqual([]);
    socket.close();
  },
);

claim(
  `${page}#binding-interceptors`,
  'an interceptor switches to the WebSocket context: getClient() is the Socket, getData() the payload',
  async () => {
    const {WebSocketGateway, SubscribeMessage, MessageBody} = nest('@nestjs/websockets');
    const {UseInterceptors} = nest('@nestjs/common');
    const seen: unknown[] = [];
    const spy = {
      intercept(context: any, next: any) {
        const ws = context.switchToWs();
        seen.push(context.getType(), ws.getClient().id, ws.getData());
        return next.handle();
      },
    };
    @WebSocketGateway()
    class SpyGateway {
      @UseInterceptors(spy)
      @SubscribeMessage('ping')
      ping(@MessageBody() data: unknown) {
        return data;
      }
    }
    const url = await start([SpyGateway]);
    const socket = await ioConnect(url);
    expect(await emitAck(socket, 'ping', {n: 1})).toEqual({n: 1});
    expect(seen).toEqual(['ws', socket.id, {n: 1}]);
    socket.close();
  },
);

claim(
  `${page}#binding-interceptors`,
  'interceptors from useGlobalInterceptors() or APP_INTERCEPTOR do not run for gateway handlers',
  async () => {
    const {WebSocketGateway, SubscribeMessage, MessageBody} = nest('@nestjs/websockets');
    const {Injectable} = nest('@nestjs/common');
    const ran: string[] = [];
    @Injectable()
    class ProviderInterceptor {
      intercept(_context: any, next: any) {
        ran.push('APP_INTERCEPTOR');
        return next.handle();
      }
    }
    @WebSocketGateway()
    class PlainGateway {
      @SubscribeMessage('ping')
      ping(@MessageBody() data: unknown) {
        return data;
      }
    }
    const url = await start(
      [PlainGateway, {provide: APP_INTERCEPTOR, useClass: ProviderInterceptor}],
      (app) =>
        app.useGlobalInterceptors({
          intercept(_context: any, next: any) {
            ran.push('useGlobalInterceptors');
            return next.handle();
          },
        }),
    );
    const socket = await ioConnect(url);
    expect(await emitAck(socket, 'ping', 1)).toBe(1);
    expect(ran).toEqual([]);
    socket.close();
  },
);

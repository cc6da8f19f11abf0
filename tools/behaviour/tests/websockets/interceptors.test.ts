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

/** A gateway with the interceptor bound to the class, as the page allows, and handlers of every kind. */
function classBound(TransformInterceptor: any) {
  const {WebSocketGateway, SubscribeMessage, MessageBody, WsException} = nest('@nestjs/websockets');
  const {UseInterceptors} = nest('@nestjs/common');
  const {from} = nest('rxjs');
  const {map} = nest('rxjs/operators');
  @UseInterceptors(new TransformInterceptor())
  @WebSocketGateway()
  class WholeGateway {
    @SubscribeMessage('events')
    events(@MessageBody() data: unknown) {
      return {event: 'events', data};
    }
    @SubscribeMessage('nothing')
    nothing() {
      return undefined;
    }
    @SubscribeMessage('plain')
    plain(@MessageBody() data: unknown) {
      return data;
    }
    @SubscribeMessage('steps')
    steps() {
      return from([1, 2]).pipe(map((step: number) => ({event: 'step', data: step})));
    }
    @SubscribeMessage('fails')
    fails() {
      throw new WsException('handler refused');
    }
  }
  return WholeGateway;
}

for (const lang of ['ts', 'js'] as const) {
  claim.failure(
    `${page}#binding-interceptors`,
    `bound to the whole gateway, a handler that returns nothing gets no exception and no ack, and a plain value is acknowledged unchanged (${lang})`,
    async () => {
      const {TransformInterceptor} = samples(page, {lang}).require('transform.interceptor');
      const url = await start([classBound(TransformInterceptor)]);
      const socket = await ioConnect(url);
      const errors = collect(socket, 'exception', 1, 300);
      expect(await emitAck(socket, 'nothing', null, 300)).toBe('timeout');
      expect(await errors).toEqual([]);
      expect(await emitAck(socket, 'plain', 'just this')).toBe('just this');
      socket.close();
    },
  );
}

claim(
  `${page}#binding-interceptors`,
  'without the test for event, a handler that returns nothing gets "Internal server error", and a plain value is acknowledged as { data: {} }',
  async () => {
    const {TransformInterceptor} = samples(page, {
      edit: {
        'transform.interceptor': [
          [
            /response\?\.event\s*\?\s*(\{ event: response\.event, data: \{ data: response\.data \} \})\s*:\s*response/,
            '($1)',
          ],
        ],
      },
    }).require('transform.interceptor');
    const url = await start([classBound(TransformInterceptor)]);
    const socket = await ioConnect(url);
    const errors = collect(socket, 'exception');
    socket.emit('nothing', null);
    expect(await errors).toEqual([{status: 'error', message: 'Internal server error'}]);
    expect(await emitAck(socket, 'plain', 'just this')).toEqual({data: {}});
    socket.close();
  },
);

claim(
  `${page}#binding-interceptors`,
  'for a handler that returns an observable, each event it emits is wrapped',
  async () => {
    const {TransformInterceptor} = samples(page).require('transform.interceptor');
    const url = await start([classBound(TransformInterceptor)]);
    const socket = await ioConnect(url);
    const steps = collect(socket, 'step', 2);
    socket.emit('steps', null);
    expect(await steps).toEqual([{data: 1}, {data: 2}]);
    socket.close();
  },
);

claim.failure(
  `${page}#binding-interceptors`,
  'a handler that throws: the error passes the interceptor and reaches the client as the exception event',
  async () => {
    const {TransformInterceptor} = samples(page).require('transform.interceptor');
    const url = await start([classBound(TransformInterceptor)]);
    const socket = await ioConnect(url);
    const errors = collect(socket, 'exception');
    socket.emit('fails', null);
    expect(await errors).toEqual([{status: 'error', message: 'handler refused'}]);
    socket.close();
  },
);

claim.abuse(
  `${page}#binding-interceptors`,
  "with the guards chapter's WsAuthGuard on the gateway, a message without the token never reaches the interceptor",
  async () => {
    const {TransformInterceptor} = samples(page).require('transform.interceptor');
    const {WsAuthGuard} = samples('docs/websockets/guards.md').require('ws-auth.guard');
    const {WebSocketGateway, SubscribeMessage, MessageBody} = nest('@nestjs/websockets');
    const {UseGuards, UseInterceptors} = nest('@nestjs/common');
    let intercepted = 0;
    class Counting extends TransformInterceptor {
      intercept(context: unknown, next: unknown) {
        intercepted += 1;
        return super.intercept(context, next);
      }
    }
    @UseGuards(WsAuthGuard)
    @UseInterceptors(new Counting())
    @WebSocketGateway()
    class GuardedGateway {
      @SubscribeMessage('events')
      events(@MessageBody() data: unknown) {
        return {event: 'events', data};
      }
    }
    process.env.WS_TOKEN = 'let-me-in';
    try {
      const url = await start([GuardedGateway]);
      const anonymous = await ioConnect(url);
      const errors = collect(anonymous, 'exception');
      anonymous.emit('events', {name: 'Tom'});
      expect(await errors).toEqual([{status: 'error', message: 'Missing or invalid token'}]);
      expect(intercepted).toBe(0);
      anonymous.close();
      const member = await ioConnect(url, {auth: {token: 'let-me-in'}});
      const got = collect(member, 'events');
      member.emit('events', {name: 'Tom'});
      expect(await got).toEqual([{data: {name: 'Tom'}}]);
      expect(intercepted).toBe(1);
      member.close();
    } finally {
      delete process.env.WS_TOKEN;
    }
  },
);

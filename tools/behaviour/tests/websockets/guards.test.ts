import {afterAll, beforeAll, expect} from 'vitest';
import {claim, samples, nest, listen, fragment} from '../../lib';
import {ioConnect, collect, emitAck, until, firstOf} from './_support';

const {Module, Injectable, UseGuards} = nest('@nestjs/common');
const {WebSocketGateway, SubscribeMessage, MessageBody, ConnectedSocket} =
  nest('@nestjs/websockets');
const {NestFactory, APP_GUARD} = nest('@nestjs/core');
const page = 'docs/websockets/guards.md';

let app: any;
let url: string;
const ran: string[] = [];

beforeAll(async () => {
  process.env.WS_TOKEN = 'let-me-in';
  const set = samples(page, {
    files: {
      'events.gateway': `
import { CanActivate, UseGuards } from '@nestjs/common';
import { MessageBody, SubscribeMessage, WebSocketGateway, WsResponse } from '@nestjs/websockets';
import { WsAuthGuard } from './ws-auth.guard';

class NoGuard implements CanActivate { canActivate() { return false; } }

@WebSocketGateway()
export class EventsGateway {
${fragment(page, 'binding-guards', '@UseGuards(WsAuthGuard)').value.replace(/^/gm, '  ')}
  @UseGuards(NoGuard)
  @SubscribeMessage('closed')
  closed() { return 'never'; }

  @SubscribeMessage('open')
  open(@MessageBody() data: unknown) { return data; }
}
`,
    },
  });
  const {EventsGateway} = set.require('events.gateway');
  @Injectable()
  class ProviderGuard {
    canActivate() {
      ran.push('APP_GUARD');
      return false;
    }
  }
  @Module({providers: [EventsGateway, {provide: APP_GUARD, useClass: ProviderGuard}]})
  class AppModule {}
  app = await NestFactory.create(AppModule, {logger: false});
  app.useGlobalGuards({
    canActivate() {
      ran.push('useGlobalGuards');
      return false;
    },
  });
  url = await listen(app);
});
afterAll(async () => {
  await app?.close();
  delete process.env.WS_TOKEN;
});

claim(
  `${page}#binding-guards`,
  "WsAuthGuard lets a client with the handshake auth token through: the handler's WsResponse arrives",
  async () => {
    const socket = await ioConnect(url, {auth: {token: 'let-me-in'}});
    const got = collect(socket, 'events');
    socket.emit('events', {name: 'Tom'});
    expect(await got).toEqual([{name: 'Tom'}]);
    socket.close();
  },
);

/** What a client with these options gets for an 'events' message: the event's data, or the exception event. */
async function events(options: Record<string, unknown>): Promise<unknown> {
  const socket = await ioConnect(url, options);
  try {
    const first = firstOf(socket, ['events', 'exception']);
    socket.emit('events', {name: 'Tom'});
    return await first;
  } finally {
    socket.close();
  }
}
const refused = {status: 'error', message: 'Missing or invalid token'};

claim.abuse(
  `${page}#binding-guards`,
  'a wrong token: the WsException thrown by the guard reaches the client as an exception event',
  async () => {
    const socket = await ioConnect(url, {auth: {token: 'wrong'}});
    const events = collect(socket, 'events', 1, 300);
    const errors = collect(socket, 'exception');
    socket.emit('events', {name: 'Tom'});
    expect(await errors).toEqual([{status: 'error', message: 'Missing or invalid token'}]);
    expect(await events).toEqual([]);
    socket.close();
  },
);

claim(
  `${page}#guards`,
  'a guard that returns false makes Nest throw WsException("Forbidden resource")',
  async () => {
    const socket = await ioConnect(url);
    const errors = collect(socket, 'exception');
    socket.emit('closed', {});
    expect(await errors).toEqual([{status: 'error', message: 'Forbidden resource'}]);
    socket.close();
  },
);

claim(
  `${page}#binding-guards`,
  'guards do not run on connection: a client without a token connects',
  async () => {
    const socket = await ioConnect(url);
    expect(socket.connected).toBe(true);
    socket.close();
  },
);

claim(
  `${page}#binding-guards`,
  'guards from useGlobalGuards() or APP_GUARD (both returning false here) are not applied to gateway handlers',
  async () => {
    const socket = await ioConnect(url);
    expect(await emitAck(socket, 'open', 42)).toBe(42);
    expect(ran).toEqual([]);
    socket.close();
  },
);

claim.abuse(`${page}#binding-guards`, 'a client without a token is refused', async () => {
  expect(await events({})).toEqual(refused);
});

claim.failure(
  `${page}#binding-guards`,
  'WS_TOKEN not set: a client without a token is refused (the !expected test), and so is the former token',
  async () => {
    delete process.env.WS_TOKEN;
    try {
      expect(await events({})).toEqual(refused);
      expect(await events({auth: {token: 'let-me-in'}})).toEqual(refused);
    } finally {
      process.env.WS_TOKEN = 'let-me-in';
    }
  },
);

claim.failure(
  `${page}#binding-guards`,
  'WS_TOKEN set to an empty string: a client that sends an empty token is refused',
  async () => {
    process.env.WS_TOKEN = '';
    try {
      expect(await events({auth: {token: ''}})).toEqual(refused);
    } finally {
      process.env.WS_TOKEN = 'let-me-in';
    }
  },
);

claim.abuse(
  `${page}#binding-guards`,
  'the right token in the query string instead of auth is refused',
  async () => {
    expect(await events({query: {token: 'let-me-in'}})).toEqual(refused);
  },
);

claim.abuse(
  `${page}#binding-guards`,
  'the token as an array or an object instead of a string is refused',
  async () => {
    expect(await events({auth: {token: ['let-me-in']}})).toEqual(refused);
    expect(await events({auth: {token: {toString: 'let-me-in'}}})).toEqual(refused);
  },
);

claim.abuse(
  `${page}#binding-guards`,
  'a guard bound to one handler leaves the other handlers of the gateway open to a client without a token',
  async () => {
    expect(await events({})).toEqual(refused);
    const socket = await ioConnect(url);
    expect(await emitAck(socket, 'open', 'no token needed')).toBe('no token needed');
    socket.close();
  },
);

claim.abuse(
  `${page}#rejecting-connections`,
  'a client whose messages the guard refused keeps its connection and can go on sending',
  async () => {
    const socket = await ioConnect(url, {auth: {token: 'wrong'}});
    for (let i = 0; i < 3; i += 1) {
      const errors = collect(socket, 'exception');
      socket.emit('events', {i});
      expect(await errors).toEqual([refused]);
    }
    expect(socket.connected).toBe(true);
    socket.close();
  },
);

claim.abuse(
  `${page}#rejecting-connections`,
  'with an awaited check in handleConnection(), the guarded handler still refuses the messages sent before the disconnect; an unguarded one answers them',
  async () => {
    const {WsAuthGuard} = samples(page).require('ws-auth.guard');
    const log: string[] = [];
    @WebSocketGateway()
    class CheckedGateway {
      async handleConnection(client: any) {
        // A 50 ms lookup, as a token verification or a database query takes.
        await new Promise((resolve) => setTimeout(resolve, 50));
        if (client.handshake.auth.token !== process.env.WS_TOKEN) {
          log.push('disconnect');
          client.disconnect();
        }
      }
      @UseGuards(WsAuthGuard)
      @SubscribeMessage('guarded')
      guarded() {
        log.push('guarded');
        return 'guarded answer';
      }
      @SubscribeMessage('unguarded')
      unguarded(@ConnectedSocket() client: any) {
        log.push(`unguarded for ${client.id}`);
        return 'unguarded answer';
      }
    }
    @Module({providers: [CheckedGateway]})
    class CheckedModule {}
    const checked = await NestFactory.create(CheckedModule, {logger: false});
    const checkedUrl = await listen(checked);
    const {io} = nest('socket.io-client');
    const socket = io(checkedUrl, {
      auth: {token: 'wrong'},
      transports: ['websocket'],
      forceNew: true,
      reconnection: false,
    });
    try {
      const answers: unknown[] = [];
      const errors = collect(socket, 'exception', 1, 400);
      socket.on('connect', () => {
        socket.emit('guarded', null, (answer: unknown) => answers.push(answer));
        socket.emit('unguarded', null, (answer: unknown) => answers.push(answer));
      });
      expect(await errors).toEqual([refused]);
      await until(() => log.includes('disconnect'));
      expect(answers).toEqual(['unguarded answer']);
      expect(log.filter((line) => line !== 'disconnect')).toEqual([
        expect.stringMatching(/^unguarded for /),
      ]);
    } finally {
      socket.close();
      await checked.close();
    }
  },
);

claim.abuse(
  `${page}#binding-guards`,
  'the JavaScript WsAuthGuard, bound to a handler: no token, a wrong token or an unset WS_TOKEN are refused; the right token passes (js)',
  async () => {
    const {WsAuthGuard} = samples(page, {lang: 'js'}).require('ws-auth.guard');
    @WebSocketGateway()
    class JsGuarded {
      @UseGuards(WsAuthGuard)
      @SubscribeMessage('events')
      handleEvent(@MessageBody() data: unknown) {
        return {event: 'events', data};
      }
    }
    @Module({providers: [JsGuarded]})
    class JsModule {}
    const jsApp = await NestFactory.create(JsModule, {logger: false});
    const jsUrl = await listen(jsApp);
    const ask = async (options: Record<string, unknown>) => {
      const socket = await ioConnect(jsUrl, options);
      const first = firstOf(socket, ['events', 'exception']);
      socket.emit('events', 1);
      const answer = await first;
      socket.close();
      return answer;
    };
    try {
      expect(await ask({})).toEqual(refused);
      expect(await ask({auth: {token: 'wrong'}})).toEqual(refused);
      expect(await ask({auth: {token: 'let-me-in'}})).toBe(1);
      delete process.env.WS_TOKEN;
      expect(await ask({})).toEqual(refused);
    } finally {
      process.env.WS_TOKEN = 'let-me-in';
      await jsApp.close();
    }
  },
);

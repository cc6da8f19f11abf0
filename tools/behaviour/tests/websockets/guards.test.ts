import {afterAll, beforeAll, expect} from 'vitest';
import {claim, samples, nest, listen, fragment} from '../../lib';
import {ioConnect, collect, emitAck} from './_support';

const {Module, Injectable} = nest('@nestjs/common');
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

claim(
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

claim(`${page}#binding-guards`, 'the JavaScript WsAuthGuard behaves the same', async () => {
  const {WsAuthGuard} = samples(page, {lang: 'js'}).require('ws-auth.guard');
  const guard = new WsAuthGuard();
  const context = (token: string) => ({
    switchToWs: () => ({getClient: () => ({handshake: {auth: {token}}})}),
  });
  expect(guard.canActivate(context('let-me-in'))).toBe(true);
  expect(() => guard.canActivate(context('nope'))).toThrow('Missing or invalid token');
});

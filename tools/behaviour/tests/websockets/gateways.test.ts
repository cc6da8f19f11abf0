import {afterAll, beforeAll, describe, expect} from 'vitest';
import {
  claim,
  samples,
  nest,
  listen,
  memoryLogger,
  fragment,
  compileModule,
  expectOutput,
  freePort,
} from '../../lib';
import {ioConnect, emitAck, collect, until, rawSocketIo} from './_support';
import {runChild, childApp} from './_child';

const {Module} = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const page = 'docs/websockets/gateways.md';

async function start(
  providers: unknown[],
  logger: unknown = false,
): Promise<{app: any; url: string}> {
  @Module({providers: providers as any[]})
  class AppModule {}
  const app = await NestFactory.create(AppModule, {logger});
  const url = await listen(app);
  return {app, url};
}

for (const lang of ['ts', 'js'] as const) {
  describe(`message handlers (${lang})`, () => {
    let app: any;
    let url: string;
    const gateways: Record<string, any> = {};
    beforeAll(async () => {
      // Each section shows its own EventsGateway; one app serves them all on one port.
      gateways.events = samples(page, {pick: {'events.gateway': 1}, lang}).require(
        'events.gateway',
      ).EventsGateway;
      for (const [section, event] of [
        ['acknowledgements', 'identity'],
        ['asynchronous-responses', 'countdown'],
      ] as const) {
        const {EventsGateway} = samples(page, {under: section, lang}).require('events.gateway');
        gateways[event] = EventsGateway;
      }
      const {EventsGateway: Join} = samples(page, {pick: {'events.gateway': 2}, lang}).require(
        'events.gateway',
      );
      const {EventsGateway: Multi} = samples(page, {under: 'multiple-responses', lang}).require(
        'events.gateway',
      );
      const {EventsGateway: Chat} = samples(page, {under: 'server', lang}).require(
        'events.gateway',
      );
      ({app, url} = await start([
        gateways.events,
        gateways.identity,
        gateways.countdown,
        Join,
        Chat,
      ]));
      gateways.multi = Multi;
    });
    afterAll(async () => app?.close());

    claim(
      `${page}#handling-messages`,
      `a handler's return value goes back as the acknowledgement of an 'events' message (${lang})`,
      async () => {
        const socket = await ioConnect(url);
        expect(await emitAck(socket, 'events', 'hello')).toBe('hello');
        socket.close();
      },
    );

    claim(
      `${page}#handling-messages`,
      `@MessageBody('room') hands the handler data.room, @ConnectedSocket() the Socket, which joins the room (${lang})`,
      async () => {
        const a = await ioConnect(url);
        const b = await ioConnect(url);
        expect(await emitAck(a, 'join', {room: 'cats'})).toBe(`Client ${a.id} joined cats`);
        expect(await emitAck(b, 'join', {room: 'dogs'})).toBe(`Client ${b.id} joined dogs`);
        // The server's room now holds a: a chat to 'cats' reaches a, not b.
        const atA = collect(a, 'chat');
        const atB = collect(b, 'chat', 1, 300);
        a.emit('chat', {room: 'cats', text: 'meow'});
        expect(await atA).toEqual([{from: a.id, text: 'meow'}]);
        expect(await atB).toEqual([]);
        a.close();
        b.close();
      },
    );

    claim(
      `${page}#acknowledgements`,
      `identity(42) acknowledges with 42; without a client callback nothing comes back (${lang})`,
      async () => {
        const socket = await ioConnect(url);
        expect(await emitAck(socket, 'identity', 42)).toBe(42);
        const anything: unknown[] = [];
        socket.onAny((...args: unknown[]) => anything.push(args));
        socket.emit('identity', 7);
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(anything).toEqual([]);
        socket.close();
      },
    );

    claim(
      `${page}#acknowledgements`,
      `a handler that returns undefined does not acknowledge (${lang})`,
      async () => {
        const socket = await ioConnect(url);
        // The chat handler of #server returns nothing (its checks pass: the client is in the room).
        await emitAck(socket, 'join', {room: 'cats'});
        const exceptions = collect(socket, 'exception', 1, 300);
        expect(await emitAck(socket, 'chat', {room: 'cats', text: 'x'}, 300)).toBe('timeout');
        expect(await exceptions).toEqual([]);
        socket.close();
      },
    );

    claim(
      `${page}#asynchronous-responses`,
      `an Observable answer: countdown 3 sends three countdown events, 3, 2, 1 (${lang})`,
      async () => {
        const socket = await ioConnect(url);
        const events = collect(socket, 'countdown', 3);
        socket.emit('countdown', 3);
        expect(await events).toEqual([3, 2, 1]);
        socket.close();
      },
    );

    claim.abuse(
      `${page}#asynchronous-responses`,
      `countdown with a string, 0, 11, 2.5 or no number: the exception event, and no countdown (${lang})`,
      async () => {
        const socket = await ioConnect(url);
        const steps = collect(socket, 'countdown', 1, 300);
        const errors = collect(socket, 'exception', 5);
        for (const start of ['3', 0, 11, 2.5, {length: 3}]) socket.emit('countdown', start);
        expect(await errors).toEqual(
          Array(5).fill({status: 'error', message: 'start must be an integer from 1 to 10'}),
        );
        expect(await steps).toEqual([]);
        socket.close();
      },
    );

    claim.failure(
      `${page}#acknowledgements`,
      `a handler that returns null or undefined sends no acknowledgement; 0, false and '' are acknowledged (identity without its type check, ${lang})`,
      async () => {
        const {EventsGateway: Unchecked} = samples(page, {
          under: 'acknowledgements',
          lang,
          edit: {'events.gateway': [[/ {4}if \(typeof data !== 'number'\) \{\n.*\n {4}\}\n/, '']]},
        }).require('events.gateway');
        const {app: other, url: otherUrl} = await start([Unchecked]);
        try {
          const socket = await ioConnect(otherUrl);
          expect(await emitAck(socket, 'identity', null, 300)).toBe('timeout');
          const none = await new Promise((resolve) =>
            socket
              .timeout(300)
              .emit('identity', (error: unknown, answer: unknown) =>
                resolve(error ? 'timeout' : answer),
              ),
          );
          expect(none).toBe('timeout');
          for (const value of [0, false, ''])
            expect(await emitAck(socket, 'identity', value)).toBe(value);
          socket.close();
        } finally {
          await other.close();
        }
      },
    );

    claim.abuse(
      `${page}#handling-messages`,
      `events and identity refuse a payload of the wrong type with an exception event: a client cannot make the server emit an event of its choosing (${lang})`,
      async () => {
        const socket = await ioConnect(url);
        const errors = collect(socket, 'exception', 4);
        const forged = collect(socket, 'chat', 1, 300);
        const forgery = {event: 'chat', data: {from: 'the server', text: 'forged'}};
        for (const payload of [forgery, 42]) socket.emit('events', payload);
        for (const payload of [forgery, '42']) socket.emit('identity', payload);
        expect(await forged).toEqual([]);
        expect(await errors).toEqual([
          {status: 'error', message: 'events expects a string'},
          {status: 'error', message: 'events expects a string'},
          {status: 'error', message: 'identity expects a number'},
          {status: 'error', message: 'identity expects a number'},
        ]);
        expect(await emitAck(socket, 'events', 'still here')).toBe('still here');
        socket.close();
      },
    );

    claim.abuse(
      `${page}#acknowledgements`,
      `a message for an event no handler subscribes to: no acknowledgement, no exception event, and the connection keeps working (${lang})`,
      async () => {
        const socket = await ioConnect(url);
        const anything: unknown[] = [];
        socket.onAny((...args: unknown[]) => anything.push(args));
        expect(await emitAck(socket, 'no-such-event', {x: 1}, 300)).toBe('timeout');
        expect(anything).toEqual([]);
        expect(socket.connected).toBe(true);
        expect(await emitAck(socket, 'identity', 1)).toBe(1);
        socket.close();
      },
    );

    claim(
      `${page}#multiple-responses`,
      `a { event, data } result is emitted as that event to the sender, not as an acknowledgement (${lang})`,
      async () => {
        const {app: other, url: otherUrl} = await start([gateways.multi]);
        try {
          const sender = await ioConnect(otherUrl);
          const bystander = await ioConnect(otherUrl);
          const got = collect(sender, 'events');
          const elsewhere = collect(bystander, 'events', 1, 300);
          const ack = emitAck(sender, 'events', {name: 'Tom'}, 300);
          expect(await got).toEqual([{name: 'Tom'}]);
          expect(await ack).toBe('timeout');
          expect(await elsewhere).toEqual([]);
          sender.close();
          bystander.close();
        } finally {
          await other.close();
        }
      },
    );
  });
}

claim.abuse(
  `${page}#handling-messages`,
  "{ event: 'disconnect' } as the payload: the page's handlers refuse it and the process serves on; a handler that returns it unchecked ends the process (output reserved-event; in processes of their own)",
  async () => {
    for (const checked of [true, false]) {
      const set = samples(page, {
        pick: {'events.gateway': 1},
        edit: checked
          ? {}
          : {'events.gateway': [[/ {4}if \(typeof data !== 'string'\) \{\n.*\n {4}\}\n/, '']]},
      });
      const child = runChild(
        set.dir,
        `reserved-event-${checked ? 'checked' : 'unchecked'}.js`,
        childApp({
          requires: "const { EventsGateway } = require('./events.gateway.js');",
          providers: 'EventsGateway',
        }),
      );
      try {
        const [, url] = await child.waitFor(/URL (\S+)/);
        const attacker = await ioConnect(url);
        const bystander = await ioConnect(url);
        const errors = collect(attacker, 'exception');
        attacker.emit('events', {event: 'disconnect'});
        if (checked) {
          expect(await errors).toEqual([{status: 'error', message: 'events expects a string'}]);
          expect(await emitAck(bystander, 'events', 'hello')).toBe('hello');
          expect(child.alive()).toBe(true);
        } else {
          const gone = new Promise((resolve) => bystander.once('disconnect', resolve));
          expect(await child.exited(5000)).toEqual({code: 1, signal: null});
          expect(await gone).toBe('transport close');
          const [line] = child.output().match(/^Error: .*$/m)!;
          expectOutput(page, 'reserved-event', line);
        }
        attacker.close();
        bystander.close();
      } finally {
        await child.stop('SIGKILL');
      }
    }
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#lifecycle-hooks`,
    `afterInit runs once, handleConnection and handleDisconnect keep the online count (log lines, ${lang})`,
    async () => {
      const {EventsGateway} = samples(page, {under: 'lifecycle-hooks', lang}).require(
        'events.gateway',
      );
      const memory = memoryLogger();
      const {app, url} = await start([EventsGateway], memory.logger);
      try {
        const a = await ioConnect(url);
        const b = await ioConnect(url);
        const ids = [a.id, b.id];
        a.close();
        await until(() => memory.lines.some((line) => line.message.startsWith('Disconnected')));
        const lines = memory.lines
          .filter((line) => line.context === 'EventsGateway')
          .map((line) => line.message);
        expect(lines).toEqual([
          'WebSocket server initialized',
          `Connected: ${ids[0]} (1 online)`,
          `Connected: ${ids[1]} (2 online)`,
          `Disconnected: ${ids[0]} (1 online)`,
        ]);
        b.close();
      } finally {
        await app.close();
      }
    },
  );
}

claim(
  `${page}#lifecycle-hooks`,
  'handleConnection sees the Socket.io 4 handshake auth and can disconnect the client',
  async () => {
    const {WebSocketGateway} = nest('@nestjs/websockets');
    @WebSocketGateway()
    class AuthGateway {
      handleConnection(client: any) {
        if (client.handshake.auth?.token !== 'secret') client.disconnect();
      }
    }
    const {app, url} = await start([AuthGateway]);
    try {
      const good = await ioConnect(url, {auth: {token: 'secret'}});
      const {io} = nest('socket.io-client');
      const bad = io(url, {
        auth: {token: 'wrong'},
        reconnection: false,
        forceNew: true,
        transports: ['websocket'],
      });
      const reason = await new Promise((resolve) => bad.once('disconnect', resolve));
      expect(reason).toBe('io server disconnect');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(good.connected).toBe(true);
      good.close();
    } finally {
      await app.close();
    }
  },
);

claim(
  `${page}#overview`,
  'a gateway with its own port, a namespace and transports: [websocket] is reached at url/chat by a websocket client only',
  async () => {
    const port = await freePort();
    // The page's decorator line, on a free port instead of 3001, with a handler to reach.
    const decorator = fragment(page, 'overview', '@WebSocketGateway(3001')
      .value.split('\n')[0]
      .replace('(3001,', `(${port},`);
    const {ChatGateway} = compileModule(
      `
import { SubscribeMessage, WebSocketGateway } from '@nestjs/websockets';
${decorator}
export class ChatGateway {
  @SubscribeMessage('ping')
  ping() { return 'pong'; }
}
`,
      'chat.gateway',
    );
    const {app} = await start([ChatGateway]);
    try {
      const chat = await ioConnect(`http://127.0.0.1:${port}/chat`, {transports: ['websocket']});
      expect(await emitAck(chat, 'ping', null)).toBe('pong');
      chat.close();
      // A client with default options starts with long-polling, which this server refuses with 400.
      await expect(
        ioConnect(`http://127.0.0.1:${port}/chat`, {transports: ['polling', 'websocket']}),
      ).rejects.toThrow('xhr poll error');
      const polling = await fetch(`http://127.0.0.1:${port}/socket.io/?EIO=4&transport=polling`);
      expect(polling.status).toBe(400);
      expectOutput(page, 'transport-unknown', await polling.text());
    } finally {
      await app.close();
    }
  },
);

claim(
  `${page}#overview`,
  'a gateway that no module lists as a provider is not created: clients get no server',
  async () => {
    const {EventsGateway} = samples(page, {under: 'handling-messages'}).require('events.gateway');
    void EventsGateway;
    const {app, url} = await start([]);
    try {
      await expect(ioConnect(url)).rejects.toThrow();
    } finally {
      await app.close();
    }
  },
);

claim(
  `${page}#installation`,
  '@nestjs/platform-socket.io 8.4.7 depends on socket.io 4.5.1 exactly',
  async () => {
    const pkg = nest('@nestjs/platform-socket.io/package.json');
    expect(pkg.version).toBe('8.4.7');
    expect(pkg.dependencies['socket.io']).toBe('4.5.1');
  },
);

claim(
  `${page}#server`,
  "with a namespace, @WebSocketServer() is the namespace: emit() reaches that namespace's clients only",
  async () => {
    const {WebSocketGateway, WebSocketServer, SubscribeMessage} = nest('@nestjs/websockets');
    @WebSocketGateway({namespace: 'news'})
    class NewsGateway {
      @WebSocketServer() server: any;
      @SubscribeMessage('publish')
      publish() {
        this.server.emit('headline', 'hi');
        return this.server.name;
      }
    }
    @WebSocketGateway()
    class RootGateway {}
    const {app, url} = await start([NewsGateway, RootGateway]);
    try {
      const news = await ioConnect(`${url}/news`);
      const root = await ioConnect(url);
      const atNews = collect(news, 'headline');
      const atRoot = collect(root, 'headline', 1, 300);
      expect(await emitAck(news, 'publish', null)).toBe('/news');
      expect(await atNews).toEqual(['hi']);
      expect(await atRoot).toEqual([]);
      news.close();
      root.close();
    } finally {
      await app.close();
    }
  },
);

claim(
  `${page}#gateways-are-providers`,
  'a service that injects the gateway pushes cat.created to every connected client',
  async () => {
    const set = samples(page, {
      under: 'gateways-are-providers',
      files: {'interfaces/cat.interface': 'export interface Cat { name: string }'},
    });
    const {EventsGateway} = set.require('events.gateway');
    const {CatsService} = set.require('cats.service');
    @Module({providers: [EventsGateway], exports: [EventsGateway]})
    class EventsModule {}
    @Module({imports: [EventsModule], providers: [CatsService]})
    class CatsModule {}
    const app = await NestFactory.create(CatsModule, {logger: false});
    const url = await listen(app);
    try {
      const a = await ioConnect(url);
      const b = await ioConnect(url);
      const got = Promise.all([collect(a, 'cat.created'), collect(b, 'cat.created')]);
      app.get(CatsService).create({name: 'Tom'});
      expect(await got).toEqual([[{name: 'Tom'}], [{name: 'Tom'}]]);
      a.close();
      b.close();
    } finally {
      await app.close();
    }
  },
);

claim(
  `${page}#installation`,
  'an Engine.IO 3 (Socket.io 2 client) handshake is refused unless the gateway sets allowEIO3: true',
  async () => {
    const {WebSocketGateway} = nest('@nestjs/websockets');
    @WebSocketGateway()
    class V4Only {}
    @WebSocketGateway({allowEIO3: true})
    class AlsoV2 {}
    for (const [gateway, ok] of [
      [V4Only, false],
      [AlsoV2, true],
    ] as const) {
      const {app, url} = await start([gateway]);
      try {
        const v3 = await fetch(`${url}/socket.io/?EIO=3&transport=polling`);
        expect(v3.status === 200).toBe(ok);
        if (!ok) expect(await v3.json()).toMatchObject({message: 'Unsupported protocol version'});
        expect((await fetch(`${url}/socket.io/?EIO=4&transport=polling`)).status).toBe(200);
      } finally {
        await app.close();
      }
    }
  },
);

claim(
  `${page}#gateways-are-providers`,
  'a gateway that injects a request-scoped provider still subscribes, but the provider is undefined in its handlers',
  async () => {
    const {Injectable, Scope} = nest('@nestjs/common');
    const {WebSocketGateway, SubscribeMessage} = nest('@nestjs/websockets');
    @Injectable({scope: Scope.REQUEST})
    class RequestScoped {
      hello() {
        return 'hi';
      }
    }
    let constructed = 0;
    @WebSocketGateway()
    class ScopedGateway {
      constructor(private readonly scoped: RequestScoped) {
        constructed += 1;
      }
      @SubscribeMessage('hello')
      hello() {
        return this.scoped === undefined ? 'undefined' : this.scoped.hello();
      }
    }
    const {app, url} = await start([RequestScoped, ScopedGateway]);
    try {
      const socket = await ioConnect(url);
      expect(await emitAck(socket, 'hello', null)).toBe('undefined');
      expect(constructed).toBe(0);
      socket.close();
    } finally {
      await app.close();
    }
  },
);

/** The page's Example client, run against `url` (its `token` is passed in, the gateways here check none). */
function exampleClient(url: string, lines: string[], edit?: (code: string) => string) {
  const fakeConsole = {
    log: (...args: unknown[]) => lines.push(args.map(String).join(' ')),
    error: (...args: unknown[]) => lines.push(args.map(String).join(' ')),
  };
  const original = fragment(page, 'example', "socket.emit('join'")
    .value.replace(/^import .*$/m, '')
    .replace("'http://localhost:3000'", `'${url}'`);
  const code = edit ? edit(original) : original;
  if (edit && code === original) throw new Error('the edit of the example changed nothing');
  const {io} = nest('socket.io-client');
  return new Function('io', 'console', 'token', `${code}\nreturn socket;`)(
    io,
    fakeConsole,
    'a-token',
  );
}

claim(
  `${page}#example`,
  "the page's client joins cats, is acknowledged, then receives its own chat message in the room",
  async () => {
    const {EventsGateway: Join} = samples(page, {pick: {'events.gateway': 2}}).require(
      'events.gateway',
    );
    const {EventsGateway: Chat} = samples(page, {under: 'server'}).require('events.gateway');
    const {app, url} = await start([Join, Chat]);
    const lines: string[] = [];
    const socket = exampleClient(url, lines);
    try {
      await until(() => lines.length >= 2);
      expect(lines).toEqual([
        `Client ${socket.id} joined cats`,
        `${socket.id}: Hello, cat lovers!`,
      ]);
    } finally {
      socket.close();
      await app.close();
    }
  },
);

claim.failure(
  `${page}#example`,
  "a join that takes a while (a 50 ms lookup): the page's client still chats in the room, because it sends chat from the join's acknowledgement",
  async () => {
    const {EventsGateway: Join} = samples(page, {
      pick: {'events.gateway': 2},
      edit: {
        'events.gateway': [
          [
            '  ): string {\n    if (!publicRooms',
            '  ): Promise<string> {\n    await new Promise((done) => setTimeout(done, 50));\n    if (!publicRooms',
          ],
          ['  handleJoin(', '  async handleJoin('],
        ],
      },
    }).require('events.gateway');
    const {EventsGateway: Chat} = samples(page, {under: 'server'}).require('events.gateway');
    const {app, url} = await start([Join, Chat]);
    const lines: string[] = [];
    const socket = exampleClient(url, lines);
    try {
      await until(() => lines.length >= 2);
      await new Promise((done) => setTimeout(done, 100));
      expect(lines).toEqual([
        `Client ${socket.id} joined cats`,
        `${socket.id}: Hello, cat lovers!`,
      ]);
    } finally {
      socket.close();
      await app.close();
    }
  },
);

claim.failure(
  `${page}#example`,
  "after a reconnection the page's client has a new id and joins cats again from its connect listener, and chats in the room",
  async () => {
    const {EventsGateway: Join} = samples(page, {pick: {'events.gateway': 2}}).require(
      'events.gateway',
    );
    const {EventsGateway: Chat} = samples(page, {under: 'server'}).require('events.gateway');
    const {app, url} = await start([Join, Chat]);
    const lines: string[] = [];
    // A short reconnection delay, so that the claim does not wait a second.
    const socket = exampleClient(url, lines, (code) =>
      code.replace(
        'auth: { token } }',
        'auth: { token }, reconnectionDelay: 20, reconnectionDelayMax: 20 }',
      ),
    );
    try {
      await until(() => lines.length >= 2);
      const firstId = socket.id;
      // The server drops the connection (a network failure, an instance that restarts): transport close.
      const reason = new Promise((resolve) => socket.once('disconnect', resolve));
      app.get(Chat).server.sockets.sockets.get(firstId).conn.close();
      expect(await reason).toBe('transport close');
      await until(() => lines.length >= 4, 3000);
      expect(socket.id).not.toBe(firstId);
      expect(lines.slice(2)).toEqual([
        `Client ${socket.id} joined cats`,
        `${socket.id}: Hello, cat lovers!`,
      ]);
    } finally {
      socket.close();
      await app.close();
    }
  },
);

describe('cross-origin clients', () => {
  const allowed = 'http://localhost:4200';
  const foreign = 'http://evil.example';
  let app: any;
  let url: string;
  let corsOnlyApp: any;
  let corsOnlyUrl: string;
  let ChatGateway: any;
  beforeAll(async () => {
    ({ChatGateway} = samples(page, {under: 'cross-origin-clients'}).require('chat.gateway'));
    ({app, url} = await start([ChatGateway]));
    // The page's options without allowRequest: what cors alone does.
    const {ChatGateway: CorsOnly} = samples(page, {
      under: 'cross-origin-clients',
      edit: {'chat.gateway': [[/ {2}allowRequest: [\s\S]*?\n {2}\},\n/, '']]},
    }).require('chat.gateway');
    ({app: corsOnlyApp, url: corsOnlyUrl} = await start([CorsOnly]));
  });
  afterAll(async () => {
    await app?.close();
    await corsOnlyApp?.close();
  });

  /** 'connected' or the connect_error's message, for a socket.io-client that sends `origin` (or none). */
  async function tryClient(base: string, transport: 'websocket' | 'polling', origin?: string) {
    try {
      const socket = await ioConnect(`${base}/chat`, {
        transports: [transport],
        extraHeaders: origin ? {origin} : {},
      });
      socket.close();
      return 'connected';
    } catch (error) {
      return (error as Error).message;
    }
  }
  const pollingHandshake = (base: string, origin?: string) =>
    fetch(`${base}/socket.io/?EIO=4&transport=polling`, {headers: origin ? {origin} : {}});
  /** A WebSocket handshake with `origin` (or none): 'open', or the status and body of the refusal. */
  function wsHandshake(base: string, origin?: string): Promise<unknown> {
    const WebSocket = nest('ws');
    const socket = new WebSocket(
      `${base.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`,
      origin ? {origin} : {},
    );
    return new Promise((resolve) => {
      socket.on('open', () => {
        socket.terminate();
        resolve('open');
      });
      socket.on('unexpected-response', (_request: unknown, response: any) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk));
        response.on('end', () => resolve({status: response.statusCode, body}));
      });
      socket.on('error', () => undefined);
    });
  }

  claim.abuse(
    `${page}#cross-origin-clients`,
    'cors alone refuses nothing: a WebSocket from a foreign origin connects to the namespace',
    async () => {
      expect(await tryClient(corsOnlyUrl, 'websocket', foreign)).toBe('connected');
      expect(await wsHandshake(corsOnlyUrl, foreign)).toBe('open');
    },
  );

  claim.abuse(
    `${page}#cross-origin-clients`,
    'cors alone: a long-polling handshake from a foreign origin is answered 200, only without Access-Control-Allow-Origin',
    async () => {
      const response = await pollingHandshake(corsOnlyUrl, foreign);
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      expect(await response.text()).toMatch(/^0\{"sid":/);
      expect(await tryClient(corsOnlyUrl, 'polling', foreign)).toBe('connected');
    },
  );

  claim.abuse(
    `${page}#cross-origin-clients`,
    "with allowRequest, a foreign origin's long-polling handshake is refused with 403 and the page's body",
    async () => {
      const response = await pollingHandshake(url, foreign);
      expect(response.status).toBe(403);
      expectOutput(page, 'forbidden-origin', await response.text());
      expect(await tryClient(url, 'polling', foreign)).toBe('xhr poll error');
    },
  );

  claim.abuse(
    `${page}#cross-origin-clients`,
    "with allowRequest, a foreign origin's WebSocket handshake is refused with 400 and the body Forbidden",
    async () => {
      expect(await wsHandshake(url, foreign)).toEqual({status: 400, body: 'Forbidden'});
      expect(await tryClient(url, 'websocket', foreign)).toBe('websocket error');
    },
  );

  claim.abuse(
    `${page}#cross-origin-clients`,
    'a WebSocket handshake without an Origin header is refused; a long-polling handshake without one is let through',
    async () => {
      expect(await wsHandshake(url)).toEqual({status: 400, body: 'Forbidden'});
      expect(await tryClient(url, 'websocket')).toBe('websocket error');
      expect((await pollingHandshake(url)).status).toBe(200);
      expect(await tryClient(url, 'polling')).toBe('connected');
    },
  );

  claim(
    `${page}#cross-origin-clients`,
    'Chromium, on a page the server serves itself with its origin in allowedOrigins: its long-polling handshake carries no Origin, and the client connects with the default transports',
    async () => {
      const {Controller, Get, Header} = nest('@nestjs/common');
      const {chromium} = await import('playwright-core');
      const {chromePath, chromiumArgs} = await import('../../../../scripts/chromium.mjs');
      const port = await freePort();
      const origin = `http://127.0.0.1:${port}`;
      const {ChatGateway: SameOrigin} = samples(page, {
        under: 'cross-origin-clients',
        edit: {
          'chat.gateway': [
            ["['http://localhost:4200']", `['http://localhost:4200', '${origin}']`],
            // Records what the browser sent, before the page's check runs.
            [
              '    const origin = req.headers.origin;\n',
              "    const origin = req.headers.origin;\n    (globalThis as any).seenOrigins.push(`${req.headers.upgrade ? 'websocket' : 'polling'} ${origin}`);\n",
            ],
          ],
        },
      }).require('chat.gateway');
      const seen: string[] = [];
      (globalThis as any).seenOrigins = seen;
      @Controller()
      class PageController {
        @Get()
        @Header('Content-Type', 'text/html')
        page() {
          return `<script src="/socket.io/socket.io.js"></script><script>
            const socket = io('/chat', { reconnection: false });
            socket.on('connect', () => { window.result = 'connected'; });
            socket.on('connect_error', (error) => { window.result = error.message; });
          </script>`;
        }
      }
      @Module({controllers: [PageController], providers: [SameOrigin]})
      class AppModule {}
      const app = await NestFactory.create(AppModule, {logger: false});
      await app.listen(port, '127.0.0.1');
      const browser = await chromium.launch({executablePath: chromePath, args: chromiumArgs});
      try {
        const tab = await browser.newPage();
        await tab.goto(origin);
        await tab.waitForFunction(() => (window as any).result, null, {timeout: 5000});
        expect(await tab.evaluate(() => (window as any).result)).toBe('connected');
        // The handshake (polling, no Origin), then the upgrade of that session (with Origin: it carries a sid,
        // so allowRequest does not run for it).
        expect(seen[0]).toBe('polling undefined');
      } finally {
        await browser.close();
        await app.close();
      }
    },
    60_000,
  );

  claim(
    `${page}#cross-origin-clients`,
    'the allowed origin connects on both transports, and its long-polling responses carry Access-Control-Allow-Origin',
    async () => {
      expect(await tryClient(url, 'websocket', allowed)).toBe('connected');
      expect(await tryClient(url, 'polling', allowed)).toBe('connected');
      const response = await pollingHandshake(url, allowed);
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe(allowed);
    },
  );

  claim.abuse(
    `${page}#cross-origin-clients`,
    "gateways on one port share a server made with the first gateway's options: allowRequest on the second one is ignored",
    async () => {
      const {WebSocketGateway} = nest('@nestjs/websockets');
      @WebSocketGateway()
      class Plain {}
      // Plain is set up first: the server has no allowRequest, and the chat namespace takes it as it is.
      const first = await start([Plain, ChatGateway]);
      try {
        expect(await tryClient(first.url, 'websocket', foreign)).toBe('connected');
      } finally {
        await first.app.close();
      }
      // The other way round, the page's options apply to the whole server.
      const second = await start([ChatGateway, Plain]);
      try {
        expect(await tryClient(second.url, 'websocket', foreign)).toBe('websocket error');
        expect(await wsHandshake(second.url, allowed)).toBe('open');
      } finally {
        await second.app.close();
      }
    },
  );
});

describe('authenticating connections', () => {
  const {JwtService} = nest('@nestjs/jwt');
  const {WebSocketGateway, SubscribeMessage, ConnectedSocket} = nest('@nestjs/websockets');
  const {io} = nest('socket.io-client');
  const secret = 'a-secret-for-the-bench-of-32-chars-or-more';
  const jwt = new JwtService({secret});
  // Tokens expire after 60 s, as the authentication chapter signs them, unless the payload says otherwise.
  const sign = (payload: object, options: object = {}) =>
    jwt.sign(payload, 'exp' in payload ? options : {expiresIn: '60s', ...options});
  // whoami() records who it answered: a visible edit of the page's handler, so that a claim can show that
  // a refused client reached no handler.
  const handled: string[] = [];
  (globalThis as any).whoamiHandled = handled;
  const countCalls = {
    'events.gateway': [
      [
        'return client.data.user.sub;',
        '(globalThis as any).whoamiHandled.push(client.data.user.sub);\n    return client.data.user.sub;',
      ],
    ] as [string, string][],
  };
  /** The page's module and gateway, with JWT_SECRET as given while the module loads. */
  function pageModule(
    jwtSecret: string | undefined,
    lang: 'ts' | 'js' = 'ts',
    extra: [string, [RegExp | string, string]][] = [],
  ) {
    // The module has no JavaScript half (it has no types): the JavaScript set takes the page's module as it is.
    const moduleSource = samples(page, {under: 'authenticating-connections'}).sources.get(
      'events.module',
    )!;
    const edit: Record<string, [RegExp | string, string][]> = lang === 'ts' ? {...countCalls} : {};
    for (const [file, replacement] of extra) edit[file] = [...(edit[file] ?? []), replacement];
    const set = samples(page, {
      under: 'authenticating-connections',
      lang,
      edit,
      files: lang === 'js' ? {'events.module': moduleSource} : {},
    });
    const before = process.env.JWT_SECRET;
    if (jwtSecret === undefined) delete process.env.JWT_SECRET;
    else process.env.JWT_SECRET = jwtSecret;
    try {
      return set.require('events.module').EventsModule;
    } finally {
      if (before === undefined) delete process.env.JWT_SECRET;
      else process.env.JWT_SECRET = before;
    }
  }
  @WebSocketGateway({namespace: 'chat'})
  class ChatGateway {
    @SubscribeMessage('whoami')
    whoami(@ConnectedSocket() client: any) {
      return client.data.user?.sub ?? 'nobody';
    }
  }
  /** A namespace gateway with a middleware of its own, registered on what afterInit() receives. */
  @WebSocketGateway({namespace: 'admin'})
  class AdminGateway {
    seen: string[] = [];
    afterInit(namespace: any) {
      this.seen.push(namespace.name);
      namespace.use((_socket: unknown, next: (error?: Error) => void) =>
        next(new Error('Unauthorized')),
      );
    }
    @SubscribeMessage('whoami')
    whoami() {
      return 'admin';
    }
  }
  let app: any;
  let url: string;
  beforeAll(async () => {
    const EventsModule = pageModule(secret);
    // The page's module, and a gateway of another namespace next to it.
    @Module({imports: [EventsModule], providers: [ChatGateway, AdminGateway]})
    class AppModule {}
    app = await NestFactory.create(AppModule, {logger: false});
    url = await listen(app);
  });
  afterAll(async () => app?.close());

  /** 'connect_error: <message>' or the answer to whoami. */
  async function whoami(options: Record<string, unknown>, base = url): Promise<unknown> {
    try {
      const socket = await ioConnect(base, options);
      const answer = await emitAck(socket, 'whoami', null);
      socket.close();
      return answer;
    } catch (error) {
      return `connect_error: ${(error as Error).message}`;
    }
  }

  claim(
    `${page}#authenticating-connections`,
    "a valid token in the auth payload: the client connects, and whoami answers with the token's sub",
    async () => {
      handled.length = 0;
      expect(await whoami({auth: {token: sign({sub: 'alice'})}})).toBe('alice');
      expect(handled).toEqual(['alice']);
    },
  );

  claim.abuse(
    `${page}#authenticating-connections`,
    'no token: connect_error "Unauthorized"; a hand-written client that sends an event right after its CONNECT gets no answer, and no handler runs',
    async () => {
      handled.length = 0;
      expect(await whoami({})).toBe('connect_error: Unauthorized');
      // CONNECT without auth, then at once an EVENT with an ack id, without waiting for the server.
      const raw = await rawSocketIo(url, ['0', '21["whoami",null]']);
      expect(raw.received.filter((packet) => packet.startsWith('3'))).toEqual([]);
      expect(raw.closed).toBe(true);
      expect(handled).toEqual([]);
    },
  );

  claim.abuse(
    `${page}#authenticating-connections`,
    'a malformed token, an empty one, or one that is not a string is refused',
    async () => {
      for (const token of ['not-a-jwt', '', {sub: 'alice'}, ['x']])
        expect(await whoami({auth: {token}})).toBe('connect_error: Unauthorized');
    },
  );

  claim.abuse(
    `${page}#authenticating-connections`,
    'a token signed with another secret is refused',
    async () => {
      const forged = new JwtService({secret: 'guessed'}).sign({sub: 'alice'}, {expiresIn: '60s'});
      expect(await whoami({auth: {token: forged}})).toBe('connect_error: Unauthorized');
    },
  );

  claim.abuse(`${page}#authenticating-connections`, 'an expired token is refused', async () => {
    const expired = sign({sub: 'alice', exp: Math.floor(Date.now() / 1000) - 5});
    expect(await whoami({auth: {token: expired}})).toBe('connect_error: Unauthorized');
  });

  claim.abuse(
    `${page}#authenticating-connections`,
    'an unsigned token (alg: none) is refused',
    async () => {
      const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const unsigned = `${part({alg: 'none', typ: 'JWT'})}.${part({sub: 'alice'})}.`;
      expect(await whoami({auth: {token: unsigned}})).toBe('connect_error: Unauthorized');
    },
  );

  claim.abuse(
    `${page}#authenticating-connections`,
    'a valid token in the query string instead of auth is refused',
    async () => {
      const token = sign({sub: 'alice'});
      expect(await whoami({query: {token}})).toBe('connect_error: Unauthorized');
    },
  );

  claim.abuse(
    `${page}#authenticating-connections`,
    "a token that expires while the client is connected: handleConnection()'s timer disconnects it (io server disconnect), no reconnection follows; a new token in socket.auth and connect() bring it back",
    async () => {
      // At least a second from now, so that the connection is made before the token expires.
      const exp = Math.floor(Date.now() / 1000) + 2;
      const socket = await ioConnect(url, {auth: {token: sign({sub: 'alice', exp})}});
      try {
        expect(await emitAck(socket, 'whoami', null)).toBe('alice');
        const reason = await new Promise((resolve) => socket.once('disconnect', resolve));
        expect(reason).toBe('io server disconnect');
        expect(Date.now()).toBeGreaterThanOrEqual(exp * 1000 - 20);
        expect(Date.now()).toBeLessThan(exp * 1000 + 1500);
        expect(socket.active).toBe(false);
        socket.auth.token = sign({sub: 'alice'});
        const back = new Promise((resolve) => socket.once('connect', resolve));
        socket.connect();
        await back;
        expect(await emitAck(socket, 'whoami', null)).toBe('alice');
      } finally {
        socket.close();
      }
    },
  );

  claim.abuse(
    `${page}#authenticating-connections`,
    'a validly signed token without exp, or one that expires in 30 days (beyond what setTimeout() waits), is disconnected at once, before any message is answered',
    async () => {
      handled.length = 0;
      const thirtyDays = Math.floor(Date.now() / 1000) + 30 * 24 * 3600;
      for (const token of [jwt.sign({sub: 'mallory'}), sign({sub: 'mallory', exp: thirtyDays})]) {
        const socket = io(url, {
          auth: {token},
          transports: ['websocket'],
          forceNew: true,
          reconnection: false,
        });
        // The client asks as soon as it is connected; the disconnect comes first.
        const answer = new Promise((resolve) =>
          socket.once('connect', () =>
            socket
              .timeout(300)
              .emit('whoami', null, (error: unknown, value: unknown) =>
                resolve(error ? 'timeout' : value),
              ),
          ),
        );
        const reason = new Promise((resolve) => socket.once('disconnect', resolve));
        expect(await reason).toBe('io server disconnect');
        expect(await answer).toBe('timeout');
        socket.close();
      }
      expect(handled).toEqual([]);
    },
  );

  claim.abuse(
    `${page}#authenticating-connections`,
    'server.use() covers the main namespace only: a namespace gateway without a use() of its own serves a client without a token; one with use() in afterInit() refuses it',
    async () => {
      expect(await whoami({})).toBe('connect_error: Unauthorized');
      expect(await whoami({}, `${url}/chat`)).toBe('nobody');
      // afterInit() of a namespace gateway receives its namespace, where use() does apply.
      expect(app.get(AdminGateway).seen).toEqual(['/admin']);
      expect(await whoami({}, `${url}/admin`)).toBe('connect_error: Unauthorized');
    },
  );

  claim(
    `${page}#authenticating-connections`,
    'a refused client does not retry by itself: one connect_error, and active turns false',
    async () => {
      const socket = io(url, {
        transports: ['websocket'],
        forceNew: true,
        reconnectionDelay: 50,
        reconnectionDelayMax: 50,
      });
      let errors = 0;
      socket.on('connect_error', () => (errors += 1));
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(errors).toBe(1);
      expect(socket.active).toBe(false);
      socket.close();
    },
  );

  claim.failure(
    `${page}#authenticating-connections`,
    'JWT_SECRET unset, empty or shorter than 32 characters: the module refuses to load, with the message of its check',
    async () => {
      for (const value of [undefined, '', 'short-secret'])
        expect(() => pageModule(value)).toThrow(
          'Set JWT_SECRET to a random value of at least 32 characters',
        );
    },
  );

  claim.failure(
    `${page}#authenticating-connections`,
    "without the module's check and with JWT_SECRET unset, the gateway's algorithms: ['HS256'] still refuses an unsigned token (alg: none), which jsonwebtoken accepts without it",
    async () => {
      const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const unsigned = `${part({alg: 'none', typ: 'JWT'})}.${part({sub: 'admin', exp: Math.floor(Date.now() / 1000) + 60})}.`;
      for (const algorithms of [true, false]) {
        const edits: [string, [RegExp, string]][] = [
          ['events.module', [/\nif \(!secret[\s\S]*?\n\}\n/, '\n']],
        ];
        if (!algorithms)
          edits.push(['events.gateway', [/, \{\n\s*algorithms: \['HS256'\],\n\s*\}\)/, ')']]);
        const EventsModule = pageModule(undefined, 'ts', edits);
        const created = await NestFactory.create(EventsModule, {logger: false});
        const unsetUrl = await listen(created);
        try {
          expect(await whoami({auth: {token: unsigned}}, unsetUrl)).toBe(
            algorithms ? 'connect_error: Unauthorized' : 'admin',
          );
          // A token signed with some secret is refused either way: there is none to check it against.
          expect(await whoami({auth: {token: sign({sub: 'alice'})}}, unsetUrl)).toBe(
            'connect_error: Unauthorized',
          );
        } finally {
          await created.close();
        }
      }
    },
  );

  claim.abuse(
    `${page}#authenticating-connections`,
    'the JavaScript half refuses a client without a token or with a forged one, and serves a valid one (js)',
    async () => {
      const created = await NestFactory.create(pageModule(secret, 'js'), {logger: false});
      const jsUrl = await listen(created);
      try {
        expect(await whoami({}, jsUrl)).toBe('connect_error: Unauthorized');
        const forged = new JwtService({secret: 'guessed'}).sign({sub: 'alice'}, {expiresIn: '60s'});
        expect(await whoami({auth: {token: forged}}, jsUrl)).toBe('connect_error: Unauthorized');
        expect(await whoami({auth: {token: sign({sub: 'bob'})}}, jsUrl)).toBe('bob');
      } finally {
        await created.close();
      }
    },
  );

  describe('a check in handleConnection()', () => {
    const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    /** A check that awaits a 50 ms lookup, as a token verification or a database query does. */
    async function verify(token: unknown) {
      await delay(50);
      if (token !== 'good') throw new Error('bad token');
      return {sub: 'alice'};
    }
    const log: string[] = [];
    @WebSocketGateway()
    class AsyncCheckGateway {
      async handleConnection(client: any) {
        try {
          client.data.user = await verify(client.handshake.auth.token);
        } catch {
          log.push('disconnect');
          client.disconnect();
        }
      }
      @SubscribeMessage('secret')
      secret(@ConnectedSocket() client: any) {
        log.push(`secret for ${JSON.stringify(client.data.user)}`);
        return 'the secret';
      }
    }
    @WebSocketGateway()
    class SyncCheckGateway {
      handleConnection(client: any) {
        if (client.handshake.auth.token !== 'good') client.disconnect();
      }
      @SubscribeMessage('secret')
      secret() {
        log.push('secret');
        return 'the secret';
      }
    }
    /** A client that emits as soon as it is connected: the ack, or 'timeout'. */
    async function eager(base: string, token: string) {
      const socket = io(base, {
        auth: {token},
        transports: ['websocket'],
        forceNew: true,
        reconnection: false,
      });
      try {
        return await new Promise((resolve) =>
          socket.on('connect', () =>
            socket
              .timeout(400)
              .emit('secret', null, (error: unknown, answer: unknown) =>
                resolve(error ? 'timeout' : answer),
              ),
          ),
        );
      } finally {
        socket.close();
      }
    }

    claim.abuse(
      `${page}#authenticating-connections`,
      'an awaited check in handleConnection() comes too late: the message of a client with a wrong token is answered before the disconnect',
      async () => {
        const {app: asyncApp, url: asyncUrl} = await start([AsyncCheckGateway]);
        try {
          log.length = 0;
          expect(await eager(asyncUrl, 'wrong')).toBe('the secret');
          await until(() => log.includes('disconnect'));
          expect(log).toEqual(['secret for undefined', 'disconnect']);
        } finally {
          await asyncApp.close();
        }
      },
    );

    claim(
      `${page}#authenticating-connections`,
      'the user an awaited check stores on the socket is not there yet for the first message, even with a good token',
      async () => {
        const {app: asyncApp, url: asyncUrl} = await start([AsyncCheckGateway]);
        try {
          log.length = 0;
          expect(await eager(asyncUrl, 'good')).toBe('the secret');
          expect(log).toEqual(['secret for undefined']);
        } finally {
          await asyncApp.close();
        }
      },
    );

    claim(
      `${page}#authenticating-connections`,
      'a check that runs synchronously to client.disconnect() holds: no message of the refused client is handled',
      async () => {
        const {app: syncApp, url: syncUrl} = await start([SyncCheckGateway]);
        try {
          log.length = 0;
          expect(await eager(syncUrl, 'wrong')).toBe('timeout');
          expect(log).toEqual([]);
          expect(await eager(syncUrl, 'good')).toBe('the secret');
        } finally {
          await syncApp.close();
        }
      },
    );
  });
});

claim.failure(
  `${page}#acknowledgements`,
  "with the page's client and a handler that answers nothing, timeout() calls back with an error instead of waiting for ever",
  async () => {
    const {EventsGateway} = samples(page, {under: 'acknowledgements'}).require('events.gateway');
    const {WebSocketGateway, SubscribeMessage} = nest('@nestjs/websockets');
    const {EMPTY} = nest('rxjs');
    @WebSocketGateway()
    class Silent {
      @SubscribeMessage('empty')
      empty() {
        return EMPTY;
      }
    }
    const {app, url} = await start([EventsGateway, Silent]);
    const {io} = nest('socket.io-client');
    try {
      // The page's client: 42 becomes null (identity(null) answers nothing), or the event an empty observable answers.
      for (const [from, to] of [
        ['42', 'null'],
        ["'identity', 42", "'empty', 42"],
      ]) {
        const lines: string[] = [];
        const fakeConsole = {
          log: (...args: unknown[]) => lines.push(`log: ${args.join(' ')}`),
          error: (...args: unknown[]) => lines.push(`error: ${args.join(' ')}`),
        };
        const code = fragment(page, 'acknowledgements', 'socket.timeout(5000)')
          .value.replace(/^import .*$/m, '')
          .replace("io('http://localhost:3000')", `io('${url}', { transports: ['websocket'] })`)
          .replace('timeout(5000)', 'timeout(300)')
          .replace(from, to);
        const socket = new Function('io', 'console', `${code}\nreturn socket;`)(io, fakeConsole);
        await until(() => lines.length > 0);
        expect(lines).toEqual(['error: No acknowledgement within 5 seconds']);
        socket.close();
      }
    } finally {
      await app.close();
    }
  },
);

claim.abuse(
  `${page}#handling-messages`,
  "join refuses a room outside the list: a private room, the room named after alice's id, an array of rooms; bob receives nothing sent to them",
  async () => {
    const {EventsGateway: Join} = samples(page, {pick: {'events.gateway': 2}}).require(
      'events.gateway',
    );
    const {EventsGateway: Chat} = samples(page, {under: 'server'}).require('events.gateway');
    const {app, url} = await start([Join, Chat]);
    try {
      const alice = await ioConnect(url);
      const bob = await ioConnect(url);
      const errors = collect(bob, 'exception', 3);
      const acks = await Promise.all(
        ['alice-private', alice.id, ['cats', alice.id]].map((room) =>
          emitAck(bob, 'join', {room}, 300),
        ),
      );
      expect(acks).toEqual(['timeout', 'timeout', 'timeout']);
      expect(await errors).toEqual(Array(3).fill({status: 'error', message: 'Unknown room'}));
      // Whatever the server sends to alice's own room reaches alice only.
      const atBob = collect(bob, 'private', 1, 300);
      const atAlice = collect(alice, 'private');
      app.get(Chat).server.to(alice.id).emit('private', 'for alice only');
      expect(await atAlice).toEqual(['for alice only']);
      expect(await atBob).toEqual([]);
      alice.close();
      bob.close();
    } finally {
      await app.close();
    }
  },
);

describe('server', () => {
  let app: any;
  let url: string;
  let memory: ReturnType<typeof memoryLogger>;
  beforeAll(async () => {
    const {EventsGateway: Join} = samples(page, {pick: {'events.gateway': 2}}).require(
      'events.gateway',
    );
    const {EventsGateway: Chat} = samples(page, {under: 'server'}).require('events.gateway');
    memory = memoryLogger();
    ({app, url} = await start([Join, Chat], memory.logger));
  });
  afterAll(async () => app?.close());

  claim.abuse(
    `${page}#server`,
    "a client that has not joined the room cannot post into it: 'Join the room first', and the members receive nothing",
    async () => {
      const member = await ioConnect(url);
      const outsider = await ioConnect(url);
      await emitAck(member, 'join', {room: 'cats'});
      const atMember = collect(member, 'chat', 1, 300);
      const errors = collect(outsider, 'exception');
      outsider.emit('chat', {room: 'cats', text: 'spam'});
      expect(await errors).toEqual([{status: 'error', message: 'Join the room first'}]);
      expect(await atMember).toEqual([]);
      // Nor into another client's own room (every socket is in a room named by its id).
      const errorsAgain = collect(outsider, 'exception');
      outsider.emit('chat', {room: member.id, text: 'spam'});
      expect(await errorsAgain).toEqual([{status: 'error', message: 'Join the room first'}]);
      member.close();
      outsider.close();
    },
  );

  claim.abuse(
    `${page}#server`,
    'a chat without payload, with a text over 500 characters or a text that is not a string: an exception event, the room receives nothing, nothing is logged',
    async () => {
      const member = await ioConnect(url);
      const sender = await ioConnect(url);
      for (const socket of [member, sender]) await emitAck(socket, 'join', {room: 'cats'});
      const atMember = collect(member, 'chat', 1, 300);
      const errors = collect(sender, 'exception', 4);
      const linesBefore = memory.lines.length;
      sender.emit('chat');
      sender.emit('chat', {room: 'cats', text: 'x'.repeat(501)});
      sender.emit('chat', {room: 'cats', text: {big: 'x'.repeat(10_000)}});
      sender.emit('chat', {room: 'cats'});
      expect(await errors).toEqual(
        Array(4).fill({
          status: 'error',
          message: 'text must be a string of at most 500 characters',
        }),
      );
      expect(await atMember).toEqual([]);
      expect(memory.lines.slice(linesBefore).filter((line) => line.level === 'error')).toEqual([]);
      // 500 characters pass.
      const relayed = collect(member, 'chat');
      sender.emit('chat', {room: 'cats', text: 'y'.repeat(500)});
      expect(await relayed).toEqual([{from: sender.id, text: 'y'.repeat(500)}]);
      member.close();
      sender.close();
    },
  );
});

describe('a countdown of 1e9, in a process of its own (heap limited to 96 MB, so that it fails fast)', () => {
  async function countdownChild(withCheck: boolean) {
    const set = samples(page, {
      under: 'asynchronous-responses',
      edit: withCheck
        ? {}
        : {'events.gateway': [[/ {4}if \(!Number\.isInteger[\s\S]*?\n {4}\}\n/, '']]},
    });
    const child = runChild(
      set.dir,
      `countdown-${withCheck ? 'checked' : 'unchecked'}.js`,
      childApp({
        requires: "const { EventsGateway } = require('./events.gateway.js');",
        providers: 'EventsGateway',
      }),
      {execArgv: ['--max-old-space-size=96']},
    );
    const [, url] = await child.waitFor(/URL (\S+)/);
    return {child, url};
  }

  claim.abuse(
    `${page}#asynchronous-responses`,
    "with the page's check, countdown 1e9 is refused at once and the process goes on serving",
    async () => {
      const {child, url} = await countdownChild(true);
      try {
        const attacker = await ioConnect(url);
        const errors = collect(attacker, 'exception');
        attacker.emit('countdown', 1e9);
        expect(await errors).toEqual([
          {status: 'error', message: 'start must be an integer from 1 to 10'},
        ]);
        attacker.close();
        const other = await ioConnect(url);
        const steps = collect(other, 'countdown', 2);
        other.emit('countdown', 2);
        expect(await steps).toEqual([2, 1]);
        other.close();
        expect(child.alive()).toBe(true);
      } finally {
        await child.stop();
      }
    },
  );

  claim.abuse(
    `${page}#asynchronous-responses`,
    'without the check, one countdown of 1e9 ends the process (out of memory), and every client is disconnected',
    async () => {
      const {child, url} = await countdownChild(false);
      try {
        const attacker = await ioConnect(url);
        const bystander = await ioConnect(url);
        const gone = new Promise((resolve) => bystander.once('disconnect', resolve));
        attacker.emit('countdown', 1e9);
        const ended = await child.exited(20_000);
        expect(ended).not.toBeNull();
        expect(child.output()).toMatch(/heap out of memory/);
        expect(await gone).toBe('transport close');
        attacker.close();
      } finally {
        await child.stop('SIGKILL');
      }
    },
    30_000,
  );
});

claim.failure(
  `${page}#asynchronous-responses`,
  'a client that disconnects while an async handler runs: the handler runs to its end, its result is dropped, the server keeps serving',
  async () => {
    const {WebSocketGateway, SubscribeMessage} = nest('@nestjs/websockets');
    const finished: string[] = [];
    @WebSocketGateway()
    class SlowGateway {
      @SubscribeMessage('slow')
      async slow() {
        await new Promise((resolve) => setTimeout(resolve, 200));
        finished.push('slow');
        return 'done';
      }
    }
    const memory = memoryLogger();
    const {app, url} = await start([SlowGateway], memory.logger);
    try {
      const leaving = await ioConnect(url);
      leaving.emit('slow', null, () => undefined);
      await new Promise((resolve) => setTimeout(resolve, 30));
      leaving.close();
      await until(() => finished.length === 1);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(memory.lines.filter((line) => line.level === 'error')).toEqual([]);
      const staying = await ioConnect(url);
      expect(await emitAck(staying, 'slow', null)).toBe('done');
      staying.close();
    } finally {
      await app.close();
    }
  },
);

claim.failure(
  `${page}#lifecycle-hooks`,
  'app.close() with clients connected: handleDisconnect() runs for each of them, and they see transport close',
  async () => {
    const {EventsGateway} = samples(page, {under: 'lifecycle-hooks'}).require('events.gateway');
    const memory = memoryLogger();
    const {app, url} = await start([EventsGateway], memory.logger);
    const a = await ioConnect(url);
    const b = await ioConnect(url);
    const ids = [a.id, b.id];
    const reasons = Promise.all(
      [a, b].map((socket) => new Promise((resolve) => socket.once('disconnect', resolve))),
    );
    await app.close();
    expect(await reasons).toEqual(['transport close', 'transport close']);
    const disconnected = memory.lines
      .map((line) => line.message)
      .filter((message) => message.startsWith('Disconnected'));
    expect(disconnected.sort()).toEqual(
      [`Disconnected: ${ids[0]} (1 online)`, `Disconnected: ${ids[1]} (0 online)`].sort(),
    );
  },
);

claim.failure(
  `${page}#lifecycle-hooks`,
  'SIGTERM: without shutdown hooks the process ends at once and handleDisconnect() does not run; with enableShutdownHooks() it runs',
  async () => {
    const set = samples(page, {under: 'lifecycle-hooks'});
    for (const hooks of [false, true]) {
      const child = runChild(
        set.dir,
        `sigterm-${hooks}.js`,
        childApp({
          requires: "const { EventsGateway } = require('./events.gateway.js');",
          providers: 'EventsGateway',
          logger: "['log']",
          setup: hooks ? 'app.enableShutdownHooks();' : '',
        }),
      );
      try {
        const [, url] = await child.waitFor(/URL (\S+)/);
        const socket = await ioConnect(url);
        const id = socket.id;
        await child.waitFor(/Connected: /);
        const reason = new Promise((resolve) => socket.once('disconnect', resolve));
        const ended = await child.stop('SIGTERM');
        expect(ended).toEqual({code: null, signal: 'SIGTERM'});
        expect(await reason).toBe('transport close');
        expect(child.output().includes(`Disconnected: ${id}`), child.output()).toBe(hooks);
        socket.close();
      } finally {
        await child.stop('SIGKILL');
      }
    }
  },
);

describe('message size and rate', () => {
  let app: any;
  let url: string;
  let received: number[];
  beforeAll(async () => {
    const {WebSocketGateway, SubscribeMessage, MessageBody} = nest('@nestjs/websockets');
    received = [];
    @WebSocketGateway()
    class SizeGateway {
      @SubscribeMessage('text')
      text(@MessageBody() text: string) {
        received.push(text.length);
        return text.length;
      }
      @SubscribeMessage('tick')
      tick() {
        received.push(0);
      }
    }
    ({app, url} = await start([SizeGateway]));
  });
  afterAll(async () => app?.close());

  claim.abuse(
    `${page}#message-size-and-rate`,
    'a message over 1,000,000 bytes: the client is disconnected (transport close over WebSocket, transport error over long-polling) and the handler does not run; one just under is answered',
    async () => {
      received.length = 0;
      const socket = await ioConnect(url);
      // '420["text","…"]' adds 14 bytes of framing to the text.
      expect(await emitAck(socket, 'text', 'x'.repeat(999_980), 2000)).toBe(999_980);
      const reason = new Promise((resolve) => socket.once('disconnect', resolve));
      socket.emit('text', 'x'.repeat(1_000_000));
      expect(await reason).toBe('transport close');
      const polling = await ioConnect(url, {transports: ['polling']});
      const pollingReason = new Promise((resolve) => polling.once('disconnect', resolve));
      polling.emit('text', 'x'.repeat(1_000_000));
      expect(await pollingReason).toBe('transport error');
      expect(received).toEqual([999_980]);
    },
  );

  claim.abuse(
    `${page}#message-size-and-rate`,
    'maxHttpBufferSize: 16 * 1024 lowers the limit: a 20 KB message disconnects the client',
    async () => {
      const {WebSocketGateway, SubscribeMessage, MessageBody} = nest('@nestjs/websockets');
      @WebSocketGateway({maxHttpBufferSize: 16 * 1024})
      class SmallGateway {
        @SubscribeMessage('text')
        text(@MessageBody() text: string) {
          return text.length;
        }
      }
      const small = await start([SmallGateway]);
      try {
        const socket = await ioConnect(small.url);
        expect(await emitAck(socket, 'text', 'x'.repeat(10_000))).toBe(10_000);
        const reason = new Promise((resolve) => socket.once('disconnect', resolve));
        socket.emit('text', 'x'.repeat(20_000));
        expect(await reason).toBe('transport close');
      } finally {
        await small.app.close();
      }
    },
  );

  claim.abuse(
    `${page}#message-size-and-rate`,
    'nothing limits the rate: 5,000 messages sent in a burst all reach the handler',
    async () => {
      received.length = 0;
      const socket = await ioConnect(url);
      for (let i = 0; i < 5000; i += 1) socket.emit('tick');
      await until(() => received.length === 5000, 5000);
      expect(socket.connected).toBe(true);
      socket.close();
    },
  );
});

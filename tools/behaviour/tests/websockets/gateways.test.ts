import {afterAll, beforeAll, describe, expect} from 'vitest';
import {claim, samples, nest, listen, memoryLogger, fragment, compileModule} from '../../lib';
import {ioConnect, emitAck, collect, until} from './_support';

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
        // The server's room now holds a: a chat to 'cats' reaches a, not b.
        const atA = collect(a, 'chat');
        const atB = collect(b, 'chat', 1, 300);
        b.emit('chat', {room: 'cats', text: 'meow'});
        expect(await atA).toEqual([{from: b.id, text: 'meow'}]);
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
        // The chat handler of #server returns nothing.
        expect(await emitAck(socket, 'chat', {room: 'nobody', text: 'x'}, 300)).toBe('timeout');
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
    const {freePort} = await import('../../lib');
    const port = await freePort();
    // The page's decorator line, on a free port instead of 81, with a handler to reach.
    const decorator = fragment(page, 'overview', '@WebSocketGateway(81')
      .value.split('\n')[0]
      .replace('(81,', `(${port},`);
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
      // A client with default options starts with long-polling, which this server does not answer.
      await expect(
        ioConnect(`http://127.0.0.1:${port}/chat`, {transports: ['polling', 'websocket']}),
      ).rejects.toThrow();
    } finally {
      await app.close();
    }
  },
);

claim(
  `${page}#overview`,
  'the cors option lets the named origin in (Access-Control-Allow-Origin), and no other',
  async () => {
    const source = fragment(page, 'overview', "origin: ['http://localhost:4200']").value;
    const {ChatGateway} = compileModule(
      `import { WebSocketGateway } from '@nestjs/websockets';\n${source.replace('export class ChatGateway {}', 'export class ChatGateway {}')}`,
    );
    const {app, url} = await start([ChatGateway]);
    try {
      const handshake = (origin: string) =>
        fetch(`${url}/socket.io/?EIO=4&transport=polling`, {headers: {origin}});
      const allowed = await handshake('http://localhost:4200');
      expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:4200');
      const other = await handshake('http://evil.example.com');
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
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

claim(
  `${page}#example`,
  "the page's client joins cats, is acknowledged, and receives its own chat message in the room",
  async () => {
    const {EventsGateway: Join} = samples(page, {pick: {'events.gateway': 2}}).require(
      'events.gateway',
    );
    const {EventsGateway: Chat} = samples(page, {under: 'server'}).require('events.gateway');
    const {app, url} = await start([Join, Chat]);
    const lines: string[] = [];
    const fakeConsole = {
      log: (...args: unknown[]) => lines.push(args.map(String).join(' ')),
      error: (...args: unknown[]) => lines.push(args.map(String).join(' ')),
    };
    const code = fragment(page, 'example', "socket.emit('join'")
      .value.replace(/^import .*$/m, '')
      .replace("'http://localhost:3000'", `'${url}'`);
    const {io} = nest('socket.io-client');
    const socket = new Function('io', 'console', `${code}\nreturn socket;`)(io, fakeConsole);
    try {
      await until(() => lines.length >= 2);
      // The acknowledgement and the room message travel independently: either may arrive first.
      expect(lines.sort()).toEqual(
        [`${socket.id}: Hello, cat lovers!`, `Client ${socket.id} joined cats`].sort(),
      );
    } finally {
      socket.close();
      await app.close();
    }
  },
);

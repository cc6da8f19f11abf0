import {afterAll, afterEach, beforeAll, describe, expect} from 'vitest';
import {spawn, type ChildProcess} from 'node:child_process';
import {
  claim,
  samples,
  nest,
  listen,
  fragment,
  compileModule,
  freePort,
  service,
  findBinary,
  memoryLogger,
  typeErrors,
  expectOutput,
  type Service,
} from '../../lib';
import {ioConnect, collect, wsConnect, until} from './_support';
import {runChild, childApp} from './_child';

const {Module} = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const {WebSocketGateway, SubscribeMessage, MessageBody, WebSocketServer} =
  nest('@nestjs/websockets');
const {WsAdapter} = nest('@nestjs/platform-ws');
const page = 'docs/websockets/adapter.md';

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.reverse()) await close();
  closers = [];
});

async function start(providers: unknown[], setup?: (app: any) => unknown): Promise<string> {
  @Module({providers: providers as any[]})
  class AppModule {}
  const app = await NestFactory.create(AppModule, {logger: false});
  await setup?.(app);
  closers.push(() => app.close());
  return listen(app);
}

@WebSocketGateway()
class BroadcastGateway {
  @WebSocketServer() server: any;
  @SubscribeMessage('shout')
  shout(@MessageBody() text: string) {
    this.server.emit('heard', text);
  }
}

/** The page's SafeWsAdapter and ClosingWsAdapter (plain fences), compiled side by side so that the import resolves. */
function wsSubclasses() {
  return samples(page, {
    under: 'shutting-down',
    files: {
      'safe-ws.adapter': fragment(page, 'malformed-upgrade-requests', 'class SafeWsAdapter').value,
      'closing-ws.adapter': fragment(page, 'shutting-down', 'class ClosingWsAdapter').value,
    },
  });
}

/** Sends one WebSocket upgrade request with the given Host header on a raw socket: the status line, or 'closed'. */
function upgradeWithHost(port: number, path: string, host: string): Promise<string> {
  const {connect} = require('node:net') as typeof import('node:net');
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
      ),
    );
    socket.once('data', (data: Buffer) => {
      resolve(data.toString().split('\r\n')[0]);
      socket.destroy();
    });
    socket.once('close', () => resolve('closed'));
    socket.on('error', () => undefined);
  });
}

describe('Socket.IO Redis adapter', () => {
  let redis: Service;
  beforeAll(async () => {
    redis = await service('redis');
  });
  afterAll(async () => redis?.stop());

  /** The page's bootstrap lines, with the page's RedisIoAdapter (redis 4 lives under the alias redis4 here). */
  async function twoInstances(
    lang: 'ts' | 'js',
    edit: [string | RegExp, string][] = [["from 'redis'", "from 'redis4'"]],
  ) {
    const {RedisIoAdapter} = samples(page, {lang, edit: {'redis-io.adapter': edit}}).require(
      'redis-io.adapter',
    );
    const bootstrap = fragment(page, 'extend-socketio', 'new RedisIoAdapter(app)').value;
    const urls: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      urls.push(
        await start([BroadcastGateway], async (app) => {
          const lines = bootstrap
            .replace(/^const app = .*$/m, '')
            .replace(/^await app\.listen.*$/m, '')
            .replace("'redis://localhost:6379'", `'${redis.url}'`);
          await new Function('app', 'RedisIoAdapter', `return (async () => { ${lines} })();`)(
            app,
            RedisIoAdapter,
          );
        }),
      );
    }
    return urls;
  }

  async function crossInstance(urls: string[]) {
    const a = await ioConnect(urls[0]);
    const b = await ioConnect(urls[1]);
    // The adapter subscribes asynchronously; shout until the other instance relays it.
    const heard = collect(b, 'heard', 1, 3000);
    const timer = setInterval(() => a.emit('shout', 'hello from A'), 100);
    const got = await heard;
    clearInterval(timer);
    a.close();
    b.close();
    return got;
  }

  for (const lang of ['ts', 'js'] as const) {
    claim(
      `${page}#extend-socketio`,
      `with RedisIoAdapter (redis 4 clients), server.emit() on instance A reaches a client of instance B (${lang})`,
      async () => {
        expect(await crossInstance(await twoInstances(lang))).toEqual(['hello from A']);
      },
    );
  }

  claim(
    `${page}#extend-socketio`,
    'without the Redis adapter, an emit on one instance misses the clients of the other',
    async () => {
      const urls = [await start([BroadcastGateway]), await start([BroadcastGateway])];
      const a = await ioConnect(urls[0]);
      const b = await ioConnect(urls[1]);
      const atB = collect(b, 'heard', 1, 400);
      const atA = collect(a, 'heard', 1);
      a.emit('shout', 'local only');
      expect(await atA).toEqual(['local only']);
      expect(await atB).toEqual([]);
      a.close();
      b.close();
    },
  );

  claim(
    `${page}#extend-socketio`,
    'redis 3 clients have no connect(); without the connect() calls and closed with end(true), @socket.io/redis-adapter 7.2 works with them',
    async () => {
      const before = await redisConnections();
      const probe = nest('redis').createClient({url: redis.url});
      expect(probe.connect).toBeUndefined();
      expect(probe.disconnect).toBeUndefined();
      await new Promise((done) => probe.quit(done));
      const urls = await twoInstances('ts', [
        ['await Promise.all([pubClient.connect(), subClient.connect()]);\n', ''],
        ['client.disconnect()', 'client.end(true)'],
      ]);
      expect(await crossInstance(urls)).toEqual(['hello from A']);
      for (const close of closers.splice(0).reverse()) await close();
      // end(true) closes the sockets at once; Redis notices a moment later.
      let after = await redisConnections();
      for (let i = 0; i < 20 && after !== before; i += 1) {
        await new Promise((done) => setTimeout(done, 50));
        after = await redisConnections();
      }
      expect(after).toBe(before);
    },
  );

  claim(
    `${page}#extend-socketio`,
    'ioredis clients (new Redis(url) and duplicate()) work with the adapter too',
    async () => {
      const urls = await twoInstances('ts', [
        ["import { createClient } from 'redis';", "import Redis from 'ioredis';"],
        ['createClient({ url })', 'new Redis(url)'],
        ['await Promise.all([pubClient.connect(), subClient.connect()]);\n', ''],
        [/private clients: .*\n/, 'private clients: any[] = [];\n'],
      ]);
      expect(await crossInstance(urls)).toEqual(['hello from A']);
    },
  );

  /** Connections the Redis server holds, apart from the one asking. */
  async function redisConnections(): Promise<number> {
    const client = nest('redis4').createClient({url: redis.url});
    await client.connect();
    const list: string = await client.sendCommand(['CLIENT', 'LIST']);
    await client.quit();
    return list.trim().split('\n').length - 1;
  }

  claim(
    `${page}#extend-socketio`,
    "the adapter's dispose() closes both Redis connections when the app closes; without it they stay open",
    async () => {
      const before = await redisConnections();
      await twoInstances('ts');
      expect(await redisConnections()).toBe(before + 4);
      for (const close of closers.splice(0).reverse()) await close();
      expect(await redisConnections()).toBe(before);
      await twoInstances('ts', [
        ["from 'redis'", "from 'redis4'"],
        [/\n {2}async dispose\(\)[\s\S]*?\n {2}\}\n/, '\n'],
      ]);
      for (const close of closers.splice(0).reverse()) await close();
      expect(await redisConnections()).toBe(before + 4);
    },
  );

  claim.abuse(
    `${page}#extend-socketio`,
    'an admin gateway on a port of its own next to the public one, both in the namespace /: its broadcast reaches its own client and no public client, on either instance; with one adapter key for every server it reached them all',
    async () => {
      for (const keyed of [true, false]) {
        const {RedisIoAdapter} = samples(page, {
          under: 'extend-socketio',
          edit: {
            'redis-io.adapter': [
              ["from 'redis'", "from 'redis4'"],
              ...(keyed
                ? []
                : ([
                    [
                      'createAdapter(pubClient, subClient, { key })',
                      'createAdapter(pubClient, subClient)',
                    ],
                  ] as [string, string][])),
            ],
          },
        }).require('redis-io.adapter');
        const withRedis = async (app: any) => {
          const adapter = new RedisIoAdapter(app);
          await adapter.connectToRedis(redis.url);
          app.useWebSocketAdapter(adapter);
        };
        const adminPort = await freePort();
        @WebSocketGateway(adminPort)
        class AdminGateway {
          @WebSocketServer() server: any;
        }
        @WebSocketGateway()
        class PublicGateway {
          @WebSocketServer() server: any;
        }
        // Instance A serves both gateways, instance B the public one.
        let appA: any;
        const urlA = await start([AdminGateway, PublicGateway], async (app) => {
          appA = app;
          await withRedis(app);
        });
        const urlB = await start([PublicGateway], withRedis);
        const publicClients = [await ioConnect(urlA), await ioConnect(urlB)];
        const adminClient = await ioConnect(`http://127.0.0.1:${adminPort}`);
        // The public gateway relays between the instances once the adapters have subscribed: wait for that.
        const relayed = collect(publicClients[1], 'news', 1, 3000);
        const timer = setInterval(() => appA.get(PublicGateway).server.emit('news', 'ready'), 100);
        expect(await relayed).toEqual(['ready']);
        clearInterval(timer);
        const heardByPublic = publicClients.map((client) => collect(client, 'admin-only', 1, 500));
        const heardByAdmin = collect(adminClient, 'admin-only');
        appA.get(AdminGateway).server.emit('admin-only', {secret: 42});
        expect(await heardByAdmin).toEqual([{secret: 42}]);
        expect(await Promise.all(heardByPublic)).toEqual(
          keyed ? [[], []] : [[{secret: 42}], [{secret: 42}]],
        );
        for (const client of [...publicClients, adminClient]) client.close();
        for (const close of closers.splice(0).reverse()) await close();
      }
    },
  );
});

describe('WsAdapter', () => {
  @WebSocketGateway()
  class EventsGateway {
    @SubscribeMessage('events')
    events(@MessageBody() data: unknown) {
      return {event: 'events', data};
    }
    @SubscribeMessage('value')
    value(@MessageBody() data: unknown) {
      return data;
    }
  }
  const useWs = (app: any) => {
    const setup = fragment(page, 'ws-library', 'new WsAdapter(app)').value;
    new Function(
      'app',
      'WsAdapter',
      setup.replace(/^import .*$/m, '').replace(/^const app = .*$/m, ''),
    )(app, WsAdapter);
  };

  claim(
    `${page}#ws-library`,
    'the page JSON message { event, data } selects the handler; a WsResponse comes back as JSON on the same connection',
    async () => {
      const url = await start([EventsGateway], useWs);
      const client = await wsConnect(url.replace('http', 'ws'));
      client.socket.send(fragment(page, 'ws-library', '"event": "events"').value);
      expect(await client.next()).toEqual({
        event: 'events',
        data: {name: 'Tom', age: 3, breed: 'Siamese'},
      });
      client.close();
    },
  );

  claim(
    `${page}#ws-library`,
    "falsy results (undefined, null, 0, '') are dropped; other plain values are sent as JSON",
    async () => {
      const url = await start([EventsGateway], useWs);
      const client = await wsConnect(url.replace('http', 'ws'));
      for (const data of [null, 0, '', false, 'kept', 42])
        client.socket.send(JSON.stringify({event: 'value', data}));
      expect(await client.next()).toBe('kept');
      expect(await client.next()).toBe(42);
      expect(await client.next(300)).toBe('timeout');
      client.close();
    },
  );

  claim(
    `${page}#ws-library`,
    'invalid JSON and unknown events are ignored silently: the connection keeps working',
    async () => {
      const url = await start([EventsGateway], useWs);
      const client = await wsConnect(url.replace('http', 'ws'));
      client.socket.send('not json');
      client.socket.send(JSON.stringify({event: 'nobody', data: 1}));
      client.socket.send(JSON.stringify({event: 'value', data: 'still here'}));
      expect(await client.next()).toBe('still here');
      expect(client.socket.readyState).toBe(1);
      client.close();
    },
  );

  claim(
    `${page}#ws-library`,
    'a gateway with a namespace makes WsAdapter throw at startup',
    async () => {
      @WebSocketGateway({namespace: 'chat'})
      class ChatGateway {}
      @Module({providers: [ChatGateway]})
      class AppModule {}
      const app = await NestFactory.create(AppModule, {logger: false});
      useWs(app);
      await expect(app.init()).rejects.toThrow('"WsAdapter" does not support namespaces');
      await app.close().catch(() => undefined);
    },
  );

  claim(
    `${page}#ws-library`,
    'several gateways share the HTTP port under different path options',
    async () => {
      @WebSocketGateway({path: '/a'})
      class A {
        @SubscribeMessage('who')
        who() {
          return 'a';
        }
      }
      @WebSocketGateway({path: '/b'})
      class B {
        @SubscribeMessage('who')
        who() {
          return 'b';
        }
      }
      const url = await start([A, B], useWs);
      for (const name of ['a', 'b']) {
        const client = await wsConnect(`${url.replace('http', 'ws')}/${name}`);
        client.socket.send(JSON.stringify({event: 'who'}));
        expect(await client.next()).toBe(name);
        client.close();
      }
    },
  );
});

describe('a custom adapter', () => {
  const adapterSource = fragment(
    page,
    'advanced-custom-adapter',
    'export class SimpleWsAdapter',
  ).value;

  claim(
    `${page}#advanced-custom-adapter`,
    'SimpleWsAdapter serves a gateway with an explicit port: JSON { event, data } in, the JSON result out',
    async () => {
      const {SimpleWsAdapter} = compileModule(adapterSource, 'simple-ws.adapter');
      const port = await freePort();
      @WebSocketGateway(port)
      class PortGateway {
        @SubscribeMessage('events')
        events(@MessageBody() data: unknown) {
          return {event: 'events', data};
        }
      }
      await start([PortGateway], (app) => app.useWebSocketAdapter(new SimpleWsAdapter(app)));
      const client = await wsConnect(`ws://127.0.0.1:${port}`);
      client.socket.send(JSON.stringify({event: 'nobody', data: 1}));
      client.socket.send(JSON.stringify({event: 'events', data: {name: 'Tom'}}));
      expect(await client.next()).toEqual({event: 'events', data: {name: 'Tom'}});
      client.close();
    },
  );

  claim(
    `${page}#advanced-custom-adapter`,
    'a gateway without a port gets port 0: SimpleWsAdapter listens elsewhere, not on the HTTP port',
    async () => {
      const {SimpleWsAdapter} = compileModule<Record<string, any>>(
        adapterSource,
        'simple-ws.adapter',
      );
      const created: number[] = [];
      class Spy extends SimpleWsAdapter {
        constructor(app: unknown) {
          super(app);
        }
        create(port: number, options: any) {
          created.push(port);
          return super.create(port, options);
        }
      }
      @WebSocketGateway()
      class NoPortGateway {}
      const url = await start([NoPortGateway], (app) => app.useWebSocketAdapter(new Spy(app)));
      expect(created).toEqual([0]);
      await expect(wsConnect(url.replace('http', 'ws'))).rejects.toThrow();
    },
  );

  claim(
    `${page}#advanced-custom-adapter`,
    'without dispose(), app.close() fails with TypeError: adapter.dispose is not a function',
    async () => {
      const {SimpleWsAdapter} = compileModule(
        adapterSource.replace(/\n {2}dispose\(\) \{[\s\S]*?\n {2}\}\n/, '\n'),
        'no-dispose.adapter',
      );
      expect(SimpleWsAdapter.prototype.dispose).toBeUndefined();
      const port = await freePort();
      @WebSocketGateway(port)
      class PortGateway {}
      @Module({providers: [PortGateway]})
      class AppModule {}
      const app = await NestFactory.create(AppModule, {logger: false});
      app.useWebSocketAdapter(new SimpleWsAdapter(app));
      await app.init();
      await expect(app.close()).rejects.toThrow('adapter.dispose is not a function');
    },
  );
});

describe('the custom adapter, checked', () => {
  const adapterSource = () =>
    fragment(page, 'advanced-custom-adapter', 'export class SimpleWsAdapter').value;

  claim(
    `${page}#advanced-custom-adapter`,
    'with @types/ws 8 installed, the adapter type-checks; the Function callbacks it had before do not (TS2769)',
    async () => {
      // tools/behaviour has no @types/ws: TypeScript finds the site's (8.18.2, node_modules/@types/ws at the
      // repository's root). The probe makes sure it did: a Server assigned to a number is an error only
      // when 'ws' has types.
      const withFunction = adapterSource().replace(
        /callback: \(\.\.\.args: any\[\]\) => void/g,
        'callback: Function',
      );
      const errors = typeErrors({
        probe:
          "import * as WebSocket from 'ws';\nexport const n: number = new WebSocket.Server({ noServer: true });\n",
        'simple-ws.adapter': adapterSource(),
        'with-function': withFunction,
      });
      const codes = (file: string) =>
        errors.filter((error) => error.at.startsWith(`${file}:`)).map((error) => error.code);
      expect(codes('probe')).toEqual(['TS2322']);
      expect(codes('simple-ws.adapter')).toEqual([]);
      expect(codes('with-function')).toEqual(['TS2769', 'TS2769']);
    },
  );
});

describe('the custom adapter against malformed messages and shutdown', () => {
  /** The page's adapter, compiled where a child process can require it. */
  function adapterFile(edit: (source: string) => string = (source) => source) {
    const source = edit(
      fragment(page, 'advanced-custom-adapter', 'export class SimpleWsAdapter').value,
    );
    compileModule(source, 'simple-ws.adapter');
    // compileModule() wrote the file into a fresh folder under .run: the newest one is ours.
    const {readdirSync, statSync} = require('node:fs') as typeof import('node:fs');
    const {join, resolve} = require('node:path') as typeof import('node:path');
    const run = resolve(__dirname, '..', '..', '.run');
    const dirs = readdirSync(run)
      .filter((name) => name.startsWith(`inline-${process.pid}-`))
      .map((name) => join(run, name))
      .filter((dir) => readdirSync(dir).includes('simple-ws.adapter.js'))
      .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
    return dirs[0];
  }

  claim.abuse(
    `${page}#advanced-custom-adapter`,
    'malformed frames (not JSON, JSON null, a number, binary garbage) leave the process and the other clients working',
    async () => {
      const dir = adapterFile();
      const port = await freePort();
      const child = runChild(
        dir,
        'malformed.js',
        childApp({
          requires: `
const { SimpleWsAdapter } = require('./simple-ws.adapter.js');
const { SubscribeMessage, WebSocketGateway } = require('@nestjs/websockets');
// Without parameter decorators, Nest calls a handler with the client and the data.
class EchoGateway { echo(client, data) { return { event: 'echo', data }; } }
SubscribeMessage('echo')(EchoGateway.prototype, 'echo', Object.getOwnPropertyDescriptor(EchoGateway.prototype, 'echo'));
WebSocketGateway(${port})(EchoGateway);`,
          providers: 'EchoGateway',
          setup: 'app.useWebSocketAdapter(new SimpleWsAdapter(app));',
        }),
      );
      try {
        await child.waitFor(/URL /);
        const attacker = await wsConnect(`ws://127.0.0.1:${port}`);
        const other = await wsConnect(`ws://127.0.0.1:${port}`);
        for (const frame of ['not json{', 'null', '42', Buffer.from([0xff, 0x00, 0x7b])])
          attacker.socket.send(frame);
        await new Promise((done) => setTimeout(done, 200));
        expect(child.alive()).toBe(true);
        other.socket.send(JSON.stringify({event: 'echo', data: 'still here'}));
        expect(await other.next()).toEqual({event: 'echo', data: 'still here'});
        attacker.socket.send(JSON.stringify({event: 'echo', data: 'me too'}));
        expect(await attacker.next()).toEqual({event: 'echo', data: 'me too'});
        attacker.close();
        other.close();
      } finally {
        await child.stop('SIGKILL');
      }
    },
  );

  claim.abuse(
    `${page}#advanced-custom-adapter`,
    "a text frame that is not UTF-8, and a message over maxPayload: ws closes that connection (1007, 1009), the adapter logs the error and the process serves on; without create()'s error listener the first one ends the process (in processes of their own)",
    async () => {
      for (const listener of [true, false]) {
        const dir = adapterFile((source) => {
          if (listener) return source;
          const edited = source.replace(/ {4}server\.on\('connection'[\s\S]*?\n {4}\}\);\n/, '');
          expect(edited).not.toBe(source);
          return edited;
        });
        const port = await freePort();
        const child = runChild(
          dir,
          `frames-${listener}.js`,
          childApp({
            requires: `
const { SimpleWsAdapter } = require('./simple-ws.adapter.js');
const { SubscribeMessage, WebSocketGateway } = require('@nestjs/websockets');
class EchoGateway { echo(client, data) { return { event: 'echo', data }; } }
SubscribeMessage('echo')(EchoGateway.prototype, 'echo', Object.getOwnPropertyDescriptor(EchoGateway.prototype, 'echo'));
WebSocketGateway(${port}, { maxPayload: 1024 })(EchoGateway);`,
            providers: 'EchoGateway',
            setup: 'app.useWebSocketAdapter(new SimpleWsAdapter(app));',
          }),
        );
        try {
          await child.waitFor(/URL /);
          const other = await wsConnect(`ws://127.0.0.1:${port}`);
          // A process that ends resets the connections: expected here, not an error of the test.
          other.socket.on('error', () => undefined);
          const codes: number[] = [];
          const frames = [Buffer.from([0xff, 0xfe, 0xfd]), 'x'.repeat(5000)];
          // Without the listener, the first frame is enough.
          for (const frame of listener ? frames : frames.slice(0, 1)) {
            const attacker = await wsConnect(`ws://127.0.0.1:${port}`);
            attacker.socket.on('error', () => undefined);
            const closed = new Promise<number>((done) =>
              attacker.socket.once('close', (code: number) => done(code)),
            );
            attacker.socket.send(frame, {binary: false});
            codes.push(await closed);
          }
          if (listener) {
            expect(codes).toEqual([1007, 1009]);
            expect(child.output()).toMatch(
              /WARN \[SimpleWsAdapter\] Client error: Invalid WebSocket frame: invalid UTF-8 sequence/,
            );
            expect(child.output()).toMatch(/Client error: Max payload size exceeded/);
            other.socket.send(JSON.stringify({event: 'echo', data: 'still here'}));
            expect(await other.next()).toEqual({event: 'echo', data: 'still here'});
            expect(child.alive()).toBe(true);
          } else {
            expect(await child.exited(3000)).toEqual({code: 1, signal: null});
            expect(child.output()).toMatch(/Unhandled 'error' event/);
          }
          other.close();
        } finally {
          await child.stop('SIGKILL');
        }
      }
    },
  );

  claim(
    `${page}#advanced-custom-adapter`,
    'a binary frame that holds the JSON message is handled like a text frame',
    async () => {
      const {SimpleWsAdapter} = compileModule(
        fragment(page, 'advanced-custom-adapter', 'export class SimpleWsAdapter').value,
        'simple-ws.adapter',
      );
      const port = await freePort();
      @WebSocketGateway(port)
      class PortGateway {
        @SubscribeMessage('events')
        events(@MessageBody() data: unknown) {
          return {event: 'events', data};
        }
      }
      await start([PortGateway], (app) => app.useWebSocketAdapter(new SimpleWsAdapter(app)));
      const client = await wsConnect(`ws://127.0.0.1:${port}`);
      client.socket.send(Buffer.from(JSON.stringify({event: 'events', data: 'binary'})), {
        binary: true,
      });
      expect(await client.next()).toEqual({event: 'events', data: 'binary'});
      client.close();
    },
  );

  claim.failure(
    `${page}#advanced-custom-adapter`,
    'app.close() ends the connections of the connected clients; a close() that only closes the ws server leaves them open',
    async () => {
      const source = fragment(
        page,
        'advanced-custom-adapter',
        'export class SimpleWsAdapter',
      ).value;
      const variants = [
        [source, 3],
        [source.replace(/ {4}for \(const client of server\.clients\) \{\n.*\n {4}\}\n/, ''), 1],
      ] as const;
      expect(variants[1][0]).not.toBe(source);
      for (const [code, readyState] of variants) {
        const {SimpleWsAdapter} = compileModule(code, 'simple-ws.adapter');
        const port = await freePort();
        @WebSocketGateway(port)
        class PortGateway {}
        @Module({providers: [PortGateway]})
        class AppModule {}
        const app = await NestFactory.create(AppModule, {logger: false});
        app.useWebSocketAdapter(new SimpleWsAdapter(app));
        await app.listen(0, '127.0.0.1');
        const client = await wsConnect(`ws://127.0.0.1:${port}`);
        await app.close();
        await new Promise((done) => setTimeout(done, 100));
        expect(client.socket.readyState).toBe(readyState);
        client.socket.terminate();
      }
    },
  );
});

describe('WsAdapter: origins, message size and shutdown', () => {
  const allowed = 'http://localhost:4200';
  const foreign = 'http://evil.example';
  const WebSocket = nest('ws');
  /** 'open', or the status of the refused handshake. */
  function handshake(url: string, origin?: string): Promise<unknown> {
    const socket = new WebSocket(url, origin ? {origin} : {});
    return new Promise((resolve) => {
      socket.on('open', () => {
        socket.terminate();
        resolve('open');
      });
      socket.on('unexpected-response', (_request: unknown, response: any) => {
        resolve(response.statusCode);
        response.resume();
      });
      socket.on('error', () => undefined);
    });
  }
  const useWs = (app: any) => app.useWebSocketAdapter(new WsAdapter(app));

  claim.abuse(
    `${page}#origins-and-message-size`,
    'by default ws checks no origin: a client that says it comes from a foreign origin connects',
    async () => {
      @WebSocketGateway()
      class PlainGateway {}
      const url = await start([PlainGateway], useWs);
      expect(await handshake(url.replace('http', 'ws'), foreign)).toBe('open');
    },
  );

  claim.abuse(
    `${page}#origins-and-message-size`,
    'by default a 2 MB message reaches the handler (maxPayload is 100 MiB)',
    async () => {
      const {WebSocketServer} = nest('@nestjs/platform-ws/node_modules/ws');
      expect(new WebSocketServer({noServer: true}).options.maxPayload).toBe(100 * 1024 * 1024);
      @WebSocketGateway()
      class SizeGateway {
        @SubscribeMessage('size')
        size(@MessageBody() text: string) {
          return {event: 'size', data: text.length};
        }
      }
      const url = await start([SizeGateway], useWs);
      const client = await wsConnect(url.replace('http', 'ws'));
      client.socket.send(JSON.stringify({event: 'size', data: 'x'.repeat(2_000_000)}));
      expect(await client.next(3000)).toEqual({event: 'size', data: 2_000_000});
      client.close();
    },
  );

  for (const lang of ['ts', 'js'] as const) {
    describe(`the page's gateway options (${lang})`, () => {
      let url: string;
      let memory: ReturnType<typeof memoryLogger>;
      let app: any;
      beforeAll(async () => {
        const {EventsGateway} = samples(page, {under: 'origins-and-message-size', lang}).require(
          'events.gateway',
        );
        memory = memoryLogger();
        @Module({providers: [EventsGateway]})
        class AppModule {}
        app = await NestFactory.create(AppModule, {logger: memory.logger});
        useWs(app);
        url = (await listen(app)).replace('http', 'ws');
      });
      afterAll(async () => app?.close());

      claim.abuse(
        `${page}#origins-and-message-size`,
        `verifyClient refuses a foreign origin and a handshake without Origin with 401; the allowed origin connects (${lang})`,
        async () => {
          expect(await handshake(url, foreign)).toBe(401);
          expect(await handshake(url)).toBe(401);
          expect(await handshake(url, allowed)).toBe('open');
        },
      );

      claim.abuse(
        `${page}#origins-and-message-size`,
        `a message over maxPayload (64 KiB) closes the connection with 1009, Nest logs the RangeError, the handler does not run (${lang})`,
        async () => {
          const client = new WebSocket(url, {origin: allowed});
          await new Promise((done) => client.once('open', done));
          const answers: string[] = [];
          client.on('message', (raw: Buffer) => answers.push(raw.toString()));
          const closed = new Promise((done) => client.once('close', (code: number) => done(code)));
          client.send(JSON.stringify({event: 'events', data: 'x'.repeat(100 * 1024)}));
          expect(await closed).toBe(1009);
          expect(answers).toEqual([]);
          await until(() =>
            memory.lines.some((line) => /Max payload size exceeded/.test(line.message)),
          );
        },
      );
    });
  }

  claim.abuse(
    `${page}#ws-library`,
    'JSON that is not an object (null, 42) and binary garbage are ignored; the connection stays open',
    async () => {
      @WebSocketGateway()
      class EchoGateway {
        @SubscribeMessage('echo')
        echo(@MessageBody() data: unknown) {
          return {event: 'echo', data};
        }
      }
      const url = await start([EchoGateway], useWs);
      const client = await wsConnect(url.replace('http', 'ws'));
      for (const frame of ['null', '42', Buffer.from([0xff, 0x00])]) client.socket.send(frame);
      client.socket.send(Buffer.from(JSON.stringify({event: 'echo', data: 'binary frame'})));
      expect(await client.next()).toEqual({event: 'echo', data: 'binary frame'});
      expect(client.socket.readyState).toBe(1);
      client.close();
    },
  );

  claim.failure(
    `${page}#shutting-down`,
    'with WsAdapter, app.close() does not return while a client stays connected; it returns once the client leaves',
    async () => {
      @WebSocketGateway()
      class PlainGateway {}
      @Module({providers: [PlainGateway]})
      class AppModule {}
      const app = await NestFactory.create(AppModule, {logger: false});
      useWs(app);
      const url = (await listen(app)).replace('http', 'ws');
      const client = await wsConnect(url);
      let closed = false;
      const closing = app.close().then(() => (closed = true));
      await new Promise((done) => setTimeout(done, 800));
      expect(closed).toBe(false);
      expect(client.socket.readyState).toBe(1);
      client.socket.terminate();
      await closing;
      expect(closed).toBe(true);
    },
  );

  claim.failure(
    `${page}#shutting-down`,
    "with the page's ClosingWsAdapter, app.close() returns at once: the client sees code 1006 and handleDisconnect() runs",
    async () => {
      const {ClosingWsAdapter} = wsSubclasses().require('closing-ws.adapter');
      const disconnected: string[] = [];
      @WebSocketGateway()
      class TrackingGateway {
        handleDisconnect() {
          disconnected.push('client');
        }
      }
      @Module({providers: [TrackingGateway]})
      class AppModule {}
      const app = await NestFactory.create(AppModule, {logger: false});
      app.useWebSocketAdapter(new ClosingWsAdapter(app));
      const url = (await listen(app)).replace('http', 'ws');
      const client = await wsConnect(url);
      const code = new Promise((done) =>
        client.socket.once('close', (value: number) => done(value)),
      );
      const started = Date.now();
      await app.close();
      expect(Date.now() - started).toBeLessThan(500);
      expect(await code).toBe(1006);
      expect(disconnected).toEqual(['client']);
    },
  );
});

describe('Redis down at start, in a process of its own', () => {
  async function bootstrapChild(name: string, edit: [string | RegExp, string][]) {
    const set = samples(page, {
      under: 'extend-socketio',
      edit: {'redis-io.adapter': [["from 'redis'", "from 'redis4'"], ...edit]},
    });
    const nobody = await freePort();
    // The page's bootstrap lines, in the bootstrap() function of a main.ts.
    const lines = fragment(page, 'extend-socketio', 'new RedisIoAdapter(app)')
      .value.replace("'redis://localhost:6379'", `'redis://127.0.0.1:${nobody}'`)
      .replace('app.listen(3000)', "app.listen(0, '127.0.0.1')");
    const child = runChild(
      set.dir,
      `${name}.js`,
      `
const { Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { WebSocketGateway } = require('@nestjs/websockets');
const { RedisIoAdapter } = require('./redis-io.adapter.js');
class EventsGateway {}
WebSocketGateway()(EventsGateway);
class AppModule {}
Module({ providers: [EventsGateway] })(AppModule);
async function bootstrap() {
${lines}
  console.log('LISTENING');
}
bootstrap();
`,
    );
    return child;
  }

  claim.failure(
    `${page}#extend-socketio`,
    'Redis unreachable at start: connect() rejects, bootstrap() fails and the process exits with code 1, never listening',
    async () => {
      const child = await bootstrapChild('redis-down', []);
      try {
        expect(await child.exited(10_000)).toEqual({code: 1, signal: null});
        expect(child.output()).toMatch(/ECONNREFUSED/);
        expect(child.output()).not.toMatch(/LISTENING/);
      } finally {
        await child.stop('SIGKILL');
      }
    },
  );

  claim(
    `${page}#extend-socketio`,
    'with the error listeners attached before connect(), bootstrap() waits instead: it logs the failed attempts, and is still running and not listening 1.5 s later',
    async () => {
      // The listener loop moved above the connect() calls.
      const child = await bootstrapChild('redis-down-listeners-first', [
        [
          /( {4}await Promise\.all\(\[pubClient\.connect\(\), subClient\.connect\(\)\]\);\n)( {4}for \(const client of \[pubClient, subClient\]\) \{\n.*\n {4}\}\n)/,
          '$2$1',
        ],
      ]);
      try {
        await child.waitFor(/Redis: connect ECONNREFUSED/, 10_000);
        expect(await child.exited(1500)).toBeNull();
        expect(child.output()).not.toMatch(/LISTENING/);
      } finally {
        await child.stop('SIGKILL');
      }
    },
  );
});

describe('Redis restarted while clients are connected', () => {
  let port: number;
  let redis: ChildProcess | undefined;
  const apps: any[] = [];
  // Nest's Logger is global: one memory logger for both instances.
  const memory = memoryLogger();
  let a: any;
  let b: any;
  let quitApp: any;
  let quitClosing: Promise<unknown> | undefined;
  const warnings: string[] = [];
  const originalWarn = console.warn;

  async function startRedis() {
    redis = spawn(
      findBinary('redis'),
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {stdio: 'ignore'},
    );
    const {connect} = await import('node:net');
    for (let i = 0; i < 100; i += 1) {
      const open = await new Promise<boolean>((done) => {
        const socket = connect(port, '127.0.0.1');
        socket.once('connect', () => {
          socket.destroy();
          done(true);
        });
        socket.once('error', () => done(false));
      });
      if (open) return;
      await new Promise((done) => setTimeout(done, 50));
    }
    throw new Error('redis-server did not start');
  }
  const running = () => !!redis && redis.exitCode === null && redis.signalCode === null;
  async function stopRedis() {
    const server = redis;
    if (!server || !running()) return;
    const exited = new Promise((done) => server.once('exit', done));
    server.kill('SIGKILL');
    await exited;
  }
  /** Shouts from a until b hears it (or `ms` passed): what b heard. */
  async function shoutUntilHeard(text: string, ms: number) {
    const heard = collect(b, 'heard', 1, ms);
    const timer = setInterval(() => a.emit('shout', text), 100);
    const got = await heard;
    clearInterval(timer);
    return got;
  }

  beforeAll(async () => {
    port = await freePort();
    await startRedis();
    // The adapter warns through console.warn when a Redis client has no 'error' listener of the app's own.
    console.warn = (...args: unknown[]) => {
      warnings.push(args.join(' '));
    };
    const {RedisIoAdapter} = samples(page, {
      under: 'extend-socketio',
      edit: {'redis-io.adapter': [["from 'redis'", "from 'redis4'"]]},
    }).require('redis-io.adapter');
    for (let i = 0; i < 2; i += 1) {
      @Module({providers: [BroadcastGateway]})
      class AppModule {}
      const app = await NestFactory.create(AppModule, {logger: memory.logger});
      const adapter = new RedisIoAdapter(app);
      await adapter.connectToRedis(`redis://127.0.0.1:${port}`);
      app.useWebSocketAdapter(adapter);
      apps.push(app);
    }
    // A third instance whose dispose() uses quit(), for the shutdown claim.
    const {RedisIoAdapter: QuitAdapter} = samples(page, {
      under: 'extend-socketio',
      edit: {
        'redis-io.adapter': [
          ["from 'redis'", "from 'redis4'"],
          ['client.disconnect()', 'client.quit()'],
        ],
      },
    }).require('redis-io.adapter');
    @Module({providers: [BroadcastGateway]})
    class QuitModule {}
    quitApp = await NestFactory.create(QuitModule, {logger: memory.logger});
    const quitAdapter = new QuitAdapter(quitApp);
    await quitAdapter.connectToRedis(`redis://127.0.0.1:${port}`);
    quitApp.useWebSocketAdapter(quitAdapter);
    await quitApp.init();
    const urls = [await listen(apps[0]), await listen(apps[1])];
    a = await ioConnect(urls[0]);
    b = await ioConnect(urls[1]);
    expect(await shoutUntilHeard('before', 3000)).toEqual(['before']);
  });
  afterAll(async () => {
    a?.close();
    b?.close();
    // quit() needs Redis to answer: let it.
    if (!running()) await startRedis();
    for (const app of [...apps, quitApp]) await app?.close().catch(() => undefined);
    await quitClosing?.catch(() => undefined);
    console.warn = originalWarn;
    await stopRedis();
  });

  claim.failure(
    `${page}#extend-socketio`,
    "Redis down: the process keeps serving, an emit reaches the clients of the sending instance only, and the errors go to the Nest logger (no 'missing error handler' warnings)",
    async () => {
      await stopRedis();
      const redisErrors = () =>
        memory.lines.filter(
          (line) => line.context === 'RedisIoAdapter' && line.message.startsWith('Redis: '),
        );
      // Four clients (a publisher and a subscriber per instance) report their failed attempts.
      await until(() => redisErrors().length >= 4, 5000);
      const atA = collect(a, 'heard');
      const atB = collect(b, 'heard', 1, 500);
      a.emit('shout', 'during the outage');
      expect(await atA).toEqual(['during the outage']);
      expect(await atB).toEqual([]);
      expect(a.connected && b.connected).toBe(true);
      expect(redisErrors().every((line) => line.level === 'error')).toBe(true);
      expect(warnings.filter((line) => line.includes("missing 'error' handler"))).toEqual([]);
    },
  );

  claim.failure(
    `${page}#extend-socketio`,
    "Redis back on the same port: A's client publishes the broadcast it queued during the outage as soon as it has reconnected; B hears it late or never; the clients reconnect by themselves and broadcasts cross instances again, without a restart of the app",
    async () => {
      // What B hears from now on, in order.
      const heard: unknown[] = [];
      const listener = (text: unknown) => heard.push(text);
      b.on('heard', listener);
      await startRedis();
      // Nobody shouts yet: any PUBLISH the new Redis counts comes out of a client's queue.
      const probe = nest('redis4').createClient({url: `redis://127.0.0.1:${port}`});
      await probe.connect();
      let publishes = 0;
      for (let i = 0; i < 60 && publishes === 0; i += 1) {
        const stats: string = await probe.sendCommand(['INFO', 'commandstats']);
        publishes = Number(/cmdstat_publish:calls=(\d+)/.exec(stats)?.[1] ?? 0);
        if (publishes === 0) await new Promise((done) => setTimeout(done, 50));
      }
      await probe.quit();
      expect(publishes).toBe(1);
      const timer = setInterval(() => a.emit('shout', 'after the restart'), 100);
      await until(() => heard.includes('after the restart'), 8000);
      clearInterval(timer);
      b.off('heard', listener);
      // Before the first new broadcast, B heard the outage's one (late) or nothing (lost): never twice.
      expect([[], ['during the outage']]).toContainEqual(
        heard.slice(0, heard.indexOf('after the restart')),
      );
    },
  );

  claim.failure(
    `${page}#extend-socketio`,
    'Redis down at shutdown: app.close() returns at once with disconnect(); with quit() it would still be waiting a second later',
    async () => {
      await stopRedis();
      await new Promise((done) => setTimeout(done, 200));
      let quitClosed = false;
      quitClosing = quitApp.close().then(() => (quitClosed = true));
      const started = Date.now();
      await apps[0].close();
      expect(Date.now() - started).toBeLessThan(1000);
      await new Promise((done) => setTimeout(done, 1000));
      expect(quitClosed).toBe(false);
      // With Redis back, quit() gets its answer and the close finishes.
      await startRedis();
      await until(() => quitClosed, 5000);
    },
  );

  claim(
    `${page}#extend-socketio`,
    "without the app's own error listeners, the Socket.io adapter prints \"missing 'error' handler on this Redis client\" while Redis is down (in a process of its own)",
    async () => {
      const set = samples(page, {
        under: 'extend-socketio',
        edit: {
          'redis-io.adapter': [
            ["from 'redis'", "from 'redis4'"],
            [/ {4}for \(const client of \[pubClient, subClient\]\) \{\n.*\n {4}\}\n/, ''],
          ],
        },
      });
      const child = runChild(
        set.dir,
        'redis-no-listeners.js',
        childApp({
          requires: `
const { WebSocketGateway } = require('@nestjs/websockets');
const { RedisIoAdapter } = require('./redis-io.adapter.js');
class EventsGateway {}
WebSocketGateway()(EventsGateway);`,
          providers: 'EventsGateway',
          setup: `const adapter = new RedisIoAdapter(app);
  await adapter.connectToRedis('redis://127.0.0.1:${port}');
  app.useWebSocketAdapter(adapter);`,
        }),
      );
      try {
        await child.waitFor(/URL /);
        await stopRedis();
        await child.waitFor(/missing 'error' handler on this Redis client/, 5000);
        expect(child.alive()).toBe(true);
      } finally {
        await child.stop('SIGKILL');
      }
    },
  );
});

claim(
  `${page}#origins-and-message-size`,
  "the page's typed verifyClient type-checks; an untyped parameter makes @WebSocketGateway() refuse the options (TS2769)",
  async () => {
    const pageGateway = samples(page, {under: 'origins-and-message-size'}).sources.get(
      'events.gateway',
    )!;
    const untyped = (parameter: string) =>
      pageGateway.replace(
        'verifyClient: (info: { origin: string }) => allowedOrigins.includes(info.origin)',
        `verifyClient: (${parameter}) => allowedOrigins.includes(${parameter === 'info' ? 'info.origin' : 'origin'})`,
      );
    expect(untyped('info')).not.toBe(pageGateway);
    const errors = typeErrors({
      typed: pageGateway,
      untyped: untyped('info'),
      destructured: untyped('{ origin }'),
    });
    const codes = (file: string) =>
      errors.filter((error) => error.at.startsWith(`${file}:`)).map((error) => error.code);
    expect(codes('typed')).toEqual([]);
    expect(codes('untyped')).toEqual(['TS2769']);
    expect(codes('destructured')).toEqual(['TS2769']);
  },
);

claim.failure(
  `${page}#shutting-down`,
  'SIGTERM with shutdown hooks and a ws client connected: with WsAdapter the process does not exit; with ClosingWsAdapter it does (in a process of its own)',
  async () => {
    // The page's ClosingWsAdapter (on its SafeWsAdapter), compiled into the child's folder.
    const {dir} = wsSubclasses();
    for (const [adapter, exits] of [
      ["require('@nestjs/platform-ws').WsAdapter", false],
      ["require('./closing-ws.adapter.js').ClosingWsAdapter", true],
    ] as const) {
      const child = runChild(
        dir,
        `sigterm-${exits}.js`,
        childApp({
          requires: `
const { WebSocketGateway } = require('@nestjs/websockets');
const Adapter = ${adapter};
class EventsGateway {}
WebSocketGateway()(EventsGateway);`,
          providers: 'EventsGateway',
          setup: 'app.enableShutdownHooks();\n  app.useWebSocketAdapter(new Adapter(app));',
        }),
      );
      try {
        const [, url] = await child.waitFor(/URL (\S+)/);
        const client = await wsConnect(url.replace('http', 'ws'));
        child.process.kill('SIGTERM');
        const ended = await child.exited(1500);
        expect(ended === null ? 'still running' : ended.signal).toBe(
          exits ? 'SIGTERM' : 'still running',
        );
        client.socket.terminate();
      } finally {
        await child.stop('SIGKILL');
      }
    }
  },
);

claim.abuse(
  `${page}#malformed-upgrade-requests`,
  "an upgrade request with Host: [ ends a WsAdapter process (output ws-invalid-host); with the page's SafeWsAdapter the request's connection is closed and the process serves on, on the HTTP port and on a port with a path (in processes of their own)",
  async () => {
    const {dir} = wsSubclasses();
    const variants = [
      ["require('@nestjs/platform-ws').WsAdapter", 0, '/'],
      ["require('./safe-ws.adapter.js').SafeWsAdapter", 0, '/'],
      ["require('./safe-ws.adapter.js').SafeWsAdapter", await freePort(), '/events'],
    ] as const;
    for (const [index, [adapter, gatewayPort, path]] of variants.entries()) {
      const child = runChild(
        dir,
        `invalid-host-${index}.js`,
        childApp({
          requires: `
const { WebSocketGateway } = require('@nestjs/websockets');
const Adapter = ${adapter};
class EventsGateway {}
WebSocketGateway(${gatewayPort}, { path: '${path}' })(EventsGateway);`,
          providers: 'EventsGateway',
          setup: 'app.useWebSocketAdapter(new Adapter(app));',
        }),
      );
      try {
        const [, url] = await child.waitFor(/URL (\S+)/);
        const port = gatewayPort || Number(new URL(url).port);
        const answer = await upgradeWithHost(port, path, '[');
        if (index === 0) {
          expect(await child.exited(3000)).toEqual({code: 1, signal: null});
          const [line] = child.output().match(/^TypeError: Invalid URL$/m)!;
          expectOutput(page, 'ws-invalid-host', line);
        } else {
          expect(answer).toBe('closed');
          await new Promise((done) => setTimeout(done, 100));
          expect(child.alive()).toBe(true);
          expect(await upgradeWithHost(port, path, '127.0.0.1')).toBe(
            'HTTP/1.1 101 Switching Protocols',
          );
        }
      } finally {
        await child.stop('SIGKILL');
      }
    }
  },
);

claim.failure(
  `${page}#shutting-down`,
  "a gateway on a port of its own: with the page's ClosingWsAdapter, handleDisconnect() has run when app.close() returns; a close() that does not wait for the clients' close events returned first",
  async () => {
    const {ClosingWsAdapter} = wsSubclasses().require('closing-ws.adapter');
    // The version without the wait: terminate, then close the server.
    class NotWaiting extends WsAdapter {
      async close(server: any): Promise<void> {
        for (const client of server.clients) client.terminate();
        await super.close(server);
      }
    }
    for (const [Adapter, ranBeforeReturn] of [
      [ClosingWsAdapter, true],
      [NotWaiting, false],
    ] as const) {
      const events: string[] = [];
      const port = await freePort();
      @WebSocketGateway(port)
      class TrackingGateway {
        handleDisconnect() {
          events.push('handleDisconnect');
        }
      }
      @Module({providers: [TrackingGateway]})
      class AppModule {}
      const app = await NestFactory.create(AppModule, {logger: false});
      app.useWebSocketAdapter(new Adapter(app));
      await app.listen(0, '127.0.0.1');
      await wsConnect(`ws://127.0.0.1:${port}`);
      await app.close();
      events.push('app.close() returned');
      await until(() => events.length === 2);
      expect(events).toEqual(
        ranBeforeReturn
          ? ['handleDisconnect', 'app.close() returned']
          : ['app.close() returned', 'handleDisconnect'],
      );
    }
  },
);

import {afterAll, afterEach, beforeAll, describe, expect} from 'vitest';
import {
  claim,
  samples,
  nest,
  listen,
  fragment,
  compileModule,
  freePort,
  service,
  type Service,
} from '../../lib';
import {ioConnect, collect, wsConnect} from './_support';

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
    'redis 3 clients have no connect(); without the connect() calls, @socket.io/redis-adapter 7.2 works with them',
    async () => {
      const probe = nest('redis').createClient({url: redis.url});
      expect(probe.connect).toBeUndefined();
      probe.quit();
      const urls = await twoInstances('ts', [
        ['await Promise.all([pubClient.connect(), subClient.connect()]);\n', ''],
      ]);
      expect(await crossInstance(urls)).toEqual(['hello from A']);
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
    "the adapter's dispose() quits both Redis connections when the app closes; without it they stay open",
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

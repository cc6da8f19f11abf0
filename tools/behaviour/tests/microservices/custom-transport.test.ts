import {afterAll, beforeAll, expect} from 'vitest';
import {EventEmitter} from 'node:events';
import {format} from 'node:util';
import {
  claim,
  samples,
  fragment,
  compileModule,
  service,
  nest,
  memoryLogger,
  expectOutput,
  type Service,
} from '../../lib';
import {deepJson} from './_support';

const {NestFactory} = nest('@nestjs/core');
const {Transport} = nest('@nestjs/microservices');
const {lastValueFrom, toArray} = nest('rxjs');
const page = 'docs/microservices/custom-transport.md';

let nats: Service;
let rabbit: Service;
let redis: Service;
beforeAll(async () => {
  [nats, rabbit, redis] = await Promise.all([
    service('nats'),
    service('rabbitmq'),
    service('redis'),
  ]);
});
afterAll(async () => {
  await Promise.all([nats?.stop(), rabbit?.stop(), redis?.stop()]);
});

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A module with an @EventPattern('order_placed') handler that records its payloads. */
function ordersModule(received: unknown[]) {
  (globalThis as any).__ordersReceived = received;
  return compileModule(
    `
import { Controller, Module } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
@Controller()
class OrdersController {
  @EventPattern('order_placed')
  placed(@Payload() order: unknown) { (globalThis as any).__ordersReceived.push({ order }); }
}
@Module({ controllers: [OrdersController] })
export class OrdersModule {}
`,
    'orders-module',
  ).OrdersModule;
}

claim(
  `${page}#message-serialization`,
  'OrderEventsDeserializer on RabbitMQ routes a foreign {eventType, body} message to @EventPattern(eventType) with body as payload',
  async () => {
    const shown = fragment(page, 'message-serialization', 'Transport.RMQ').value;
    expect(shown).toContain(`queue: 'orders'`);
    expect(shown).toContain('deserializer: new OrderEventsDeserializer()');
    const {OrderEventsDeserializer} = samples(page).require('order-events.deserializer');
    const received: any[] = [];
    const app = await NestFactory.createMicroservice(ordersModule(received), {
      transport: Transport.RMQ,
      logger: false,
      options: {urls: [rabbit.url], queue: 'orders', deserializer: new OrderEventsDeserializer()},
    });
    await app.listen();
    try {
      // The order system: a plain amqplib producer that knows nothing about Nest.
      const amqp = nest('amqplib');
      const connection = await amqp.connect(rabbit.url);
      const channel = await connection.createChannel();
      channel.sendToQueue(
        'orders',
        Buffer.from(JSON.stringify({eventType: 'order_placed', body: {orderId: 42}})),
      );
      await until(() => received.length > 0);
      expect(received).toEqual([{order: {orderId: 42}}]);
      await channel.close();
      await connection.close();
    } finally {
      await app.close();
    }
  },
);

claim(
  `${page}#message-serialization`,
  'on NATS the same deserializer gets raw bytes and routing is by subject: no handler for the orders subject, undefined payload on order_placed',
  async () => {
    const {OrderEventsDeserializer} = samples(page).require('order-events.deserializer');
    const seenByDeserializer: string[] = [];
    class Recording extends OrderEventsDeserializer {
      deserialize(value: unknown, options?: unknown) {
        seenByDeserializer.push(Object.prototype.toString.call(value));
        return super.deserialize(value, options);
      }
    }
    const received: any[] = [];
    const log = memoryLogger();
    const app = await NestFactory.createMicroservice(ordersModule(received), {
      transport: Transport.NATS,
      logger: log.logger,
      options: {servers: [nats.url], deserializer: new Recording()},
    });
    await app.listen();
    const {connect, JSONCodec} = nest('nats');
    const nc = await connect({servers: nats.url});
    try {
      const codec = JSONCodec();
      nc.publish('orders', codec.encode({eventType: 'order_placed', body: {orderId: 1}}));
      nc.publish('order_placed', codec.encode({eventType: 'order_placed', body: {orderId: 2}}));
      await nc.flush();
      await until(() => received.length > 0);
      await new Promise((r) => setTimeout(r, 100));
      // Only the subject named like the handler is subscribed; the deserializer saw bytes, not an object.
      expect(seenByDeserializer).toEqual(['[object Uint8Array]']);
      expect(received).toEqual([{order: undefined}]);
    } finally {
      await nc.close();
      await app.close();
    }
  },
);

claim(
  `${page}#message-serialization`,
  'on NATS a deserializer that decodes the bytes itself, with the event published to a subject named like the pattern, fires the handler',
  async () => {
    const received: any[] = [];
    const decoding = {
      deserialize(value: Uint8Array) {
        const message = JSON.parse(Buffer.from(value).toString());
        return {pattern: message.eventType, data: message.body};
      },
    };
    const app = await NestFactory.createMicroservice(ordersModule(received), {
      transport: Transport.NATS,
      logger: false,
      options: {servers: [nats.url], deserializer: decoding},
    });
    await app.listen();
    const {connect, JSONCodec} = nest('nats');
    const nc = await connect({servers: nats.url});
    try {
      nc.publish(
        'order_placed',
        JSONCodec().encode({eventType: 'order_placed', body: {orderId: 3}}),
      );
      await nc.flush();
      await until(() => received.length > 0);
      expect(received).toEqual([{order: {orderId: 3}}]);
    } finally {
      await nc.close();
      await app.close();
    }
  },
);

claim(
  `${page}#the-handler-map`,
  'listen() sees the normalized handler map the page prints (message handler async, event handler flagged)',
  async () => {
    const set = samples(page, {
      under: 'the-handler-map',
      files: {
        'app.module': `import { Module } from '@nestjs/common';\nimport { MathController } from './math.controller';\n@Module({ controllers: [MathController] })\nexport class AppModule {}\n`,
      },
    });
    const {QueueServer} = set.require('queue.server');
    const {AppModule} = set.require('app.module');
    const printed: string[] = [];
    const original = console.log;
    console.log = (...args: unknown[]) => printed.push(format(...args));
    try {
      const app = await NestFactory.createMicroservice(AppModule, {
        strategy: new QueueServer(),
        logger: false,
      });
      await app.listen();
      await app.close();
    } finally {
      console.log = original;
    }
    expectOutput(page, 'handler-map', printed[0]);
  },
);

/** The page's in-memory transporter, on a bus of its own. */
async function localApp(extraController?: string) {
  const jsonSerializer = fragment(page, 'message-serialization', 'class JsonSerializer').value;
  const files: Record<string, string> = {'json.serializer': jsonSerializer};
  const set = samples(page, {files});
  const {LocalServer} = set.require('local.server');
  const {AppModule} = set.require('app.module');
  const bus = new EventEmitter();
  let root = AppModule;
  if (extraController) {
    const {Extra} = compileModule(extraController, 'extra');
    const {Module} = nest('@nestjs/common');
    @Module({imports: [AppModule], controllers: [Extra]})
    class WithExtra {}
    root = WithExtra;
  }
  const app = await NestFactory.createMicroservice(root, {
    strategy: new LocalServer({bus}),
    logger: false,
  });
  await app.listen();
  return {app, bus, set};
}

claim(
  `${page}#using-the-transporter`,
  'MathService.sum([1,2,3]) over LocalClient answers 6 and its emit reaches the result_computed handler',
  async () => {
    const set = samples(page, {
      files: {
        'json.serializer': fragment(page, 'message-serialization', 'class JsonSerializer').value,
      },
    });
    const {LocalServer} = set.require('local.server');
    const {AppModule} = set.require('app.module');
    const {MathService} = set.require('math.service');
    const printed: string[] = [];
    const original = console.log;
    console.log = (...args: unknown[]) => printed.push(format(...args));
    // As the page's main does: new LocalServer() and the client's options: {} share the default localBus.
    const app = await NestFactory.createMicroservice(AppModule, {
      strategy: new LocalServer(),
      logger: false,
    });
    try {
      await app.listen();
      const total = await app.get(MathService).sum([1, 2, 3]);
      expect(total).toBe(6);
      await until(() => printed.includes('Someone computed 6'));
    } finally {
      console.log = original;
      await app.close();
    }
  },
);

claim(
  `${page}#example-an-in-memory-transporter`,
  'a request and its reply on the wire look as the page shows',
  async () => {
    const {app, bus, set} = await localApp();
    const {LocalClient} = set.require('local.client');
    const client = new LocalClient({bus});
    const wire: string[] = [];
    bus.on('local:requests', (raw: string) => wire.push(raw));
    bus.on('local:replies', (raw: string) => wire.push(raw));
    try {
      expect(await lastValueFrom(client.send({cmd: 'sum'}, [1, 2, 3]))).toBe(6);
      const [request, reply] = wire.map((raw) => JSON.parse(raw));
      expect(request.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(reply.id).toBe(request.id);
      const mask: [RegExp, string][] = [[/"id":\s*"[^"]+"/, '"id": "ID"']];
      expectOutput(page, 'wire-request', JSON.stringify(request), mask);
      expectOutput(page, 'wire-reply', JSON.stringify(reply), mask);
    } finally {
      client.close();
      await app.close();
    }
  },
);

const streams = `
import { Controller } from '@nestjs/common';
import { MessagePattern, RpcException } from '@nestjs/microservices';
import { Observable, of } from 'rxjs';
@Controller()
export class Extra {
  @MessagePattern('ready') ready() { return of(1, 2, 3); }
  @MessagePattern('later') later() {
    return new Observable<number>((subscriber) => {
      setTimeout(() => subscriber.next(1), 10);
      setTimeout(() => subscriber.complete(), 40);
    });
  }
  @MessagePattern('fails') fails() { throw new RpcException('no cats today'); }
}
`;

claim(
  `${page}#example-an-in-memory-transporter`,
  'values ready in one tick: one reply each, isDisposed only on the last; a later completion: a separate {isDisposed: true} without response',
  async () => {
    const {app, bus, set} = await localApp(streams);
    const {LocalClient} = set.require('local.client');
    const client = new LocalClient({bus});
    const replies: any[] = [];
    bus.on('local:replies', (raw: string) => replies.push(JSON.parse(raw)));
    try {
      expect(await lastValueFrom(client.send('ready', {}).pipe(toArray()))).toEqual([1, 2, 3]);
      expect(replies.map(({id, ...rest}) => rest)).toEqual([
        {response: 1},
        {response: 2},
        {response: 3, isDisposed: true},
      ]);
      replies.length = 0;
      expect(await lastValueFrom(client.send('later', {}).pipe(toArray()))).toEqual([1]);
      expect(replies.map(({id, ...rest}) => rest)).toEqual([{response: 1}, {isDisposed: true}]);
    } finally {
      client.close();
      await app.close();
    }
  },
);

claim(
  `${page}#example-an-in-memory-transporter`,
  "an RpcException becomes a reply with err {status, message} and the caller's observable fails; an unknown pattern gets the server's err",
  async () => {
    const {app, bus, set} = await localApp(streams);
    const {LocalClient} = set.require('local.client');
    const client = new LocalClient({bus});
    const replies: any[] = [];
    bus.on('local:replies', (raw: string) => replies.push(JSON.parse(raw)));
    try {
      await expect(lastValueFrom(client.send('fails', {}))).rejects.toEqual({
        status: 'error',
        message: 'no cats today',
      });
      expect(replies[0].err).toEqual({status: 'error', message: 'no cats today'});
      await expect(lastValueFrom(client.send('nobody', {}))).rejects.toBe(
        'No handler for pattern "nobody"',
      );
    } finally {
      client.close();
      await app.close();
    }
  },
);

claim(
  `${page}#using-the-transporter`,
  "send() and emit() call connect() every time, so LocalClient's flag keeps one reply listener",
  async () => {
    const {app, bus, set} = await localApp();
    const {LocalClient} = set.require('local.client');
    const client = new LocalClient({bus});
    let connects = 0;
    const connect = client.connect.bind(client);
    client.connect = () => {
      connects += 1;
      return connect();
    };
    try {
      await lastValueFrom(client.send({cmd: 'sum'}, [1]));
      await lastValueFrom(client.send({cmd: 'sum'}, [2]));
      await lastValueFrom(client.emit('result_computed', 3), {defaultValue: undefined});
      expect(connects).toBe(3);
      expect(bus.listenerCount('local:replies')).toBe(1);
    } finally {
      client.close();
      await app.close();
    }
  },
);

claim(
  `${page}#using-the-transporter`,
  'ClientsModule creates a customClass with new, passing options to the constructor',
  async () => {
    const set = samples(page, {
      files: {
        'json.serializer': fragment(page, 'message-serialization', 'class JsonSerializer').value,
      },
    });
    const {LocalClient} = set.require('local.client');
    const {ClientsModule} = nest('@nestjs/microservices');
    const bus = new EventEmitter();
    const dynamic = ClientsModule.register([
      {name: 'MATH_SERVICE', customClass: LocalClient, options: {bus}},
    ]);
    const provider = dynamic.providers[0];
    expect(provider.provide).toBe('MATH_SERVICE');
    expect(provider.useValue).toBeInstanceOf(LocalClient);
    expect((provider.useValue as any).bus).toBe(bus);
  },
);

claim(
  `${page}#message-serialization`,
  'on Redis the handler is chosen by the channel: a message on orders reaches nothing, the same message on order_placed runs the handler',
  async () => {
    const {OrderEventsDeserializer} = samples(page).require('order-events.deserializer');
    const received: any[] = [];
    const log = memoryLogger();
    const app = await NestFactory.createMicroservice(ordersModule(received), {
      transport: Transport.REDIS,
      logger: log.logger,
      options: {url: redis.url, deserializer: new OrderEventsDeserializer()},
    });
    await app.listen();
    const publisher = nest('redis').createClient({url: redis.url});
    try {
      const numsub = () =>
        new Promise<number>((done) =>
          publisher.pubsub('numsub', 'order_placed', (_e: unknown, r: any[]) => done(Number(r[1]))),
        );
      for (let i = 0; i < 100 && (await numsub()) === 0; i += 1)
        await new Promise((r) => setTimeout(r, 20));
      const message = JSON.stringify({eventType: 'order_placed', body: {orderId: 5}});
      await new Promise((r) => publisher.publish('orders', message, r));
      await new Promise((r) => publisher.publish('order_placed', message, r));
      await until(() => received.length > 0);
      await new Promise((r) => setTimeout(r, 100));
      expect(received).toEqual([{order: {orderId: 5}}]);
    } finally {
      publisher.quit();
      await app.close();
    }
  },
);

/** Collects the unhandled rejections that happen while `fn` runs (an async listener that threw). */
async function rejectionsDuring(fn: () => Promise<void>): Promise<unknown[]> {
  const failures: unknown[] = [];
  const onRejection = (reason: unknown) => failures.push(reason);
  process.on('unhandledRejection', onRejection);
  try {
    await fn();
    await new Promise((r) => setTimeout(r, 50));
  } finally {
    process.off('unhandledRejection', onRejection);
  }
  return failures;
}

claim.abuse(
  `${page}#example-an-in-memory-transporter`,
  "a message that is not JSON on the request channel is logged and dropped by the page's LocalServer, which goes on answering",
  async () => {
    const {app, bus, set} = await localApp();
    const {LocalClient} = set.require('local.client');
    const client = new LocalClient({bus});
    const errors: string[] = [];
    const server = (app as any).server;
    server.logger = {error: (message: string) => errors.push(message)};
    try {
      const failures = await rejectionsDuring(async () => {
        bus.emit('local:requests', 'not json');
        bus.emit('local:requests', '');
        expect(await lastValueFrom(client.send({cmd: 'sum'}, [1, 2]))).toBe(3);
      });
      expect(failures).toEqual([]);
      expect(errors).toHaveLength(2);
      expect(errors[0]).toMatch(
        /^Dropped a message that could not be handled: SyntaxError: Unexpected token/,
      );
    } finally {
      client.close();
      await app.close();
    }
  },
);

claim.abuse(
  `${page}#example-an-in-memory-transporter`,
  "JSON that is no packet (null), a pattern or an id nested 10,000 levels deep on the request channel, and null on the reply channel: the page's LocalServer and LocalClient log them, no rejection escapes, and the sum is still answered",
  async () => {
    const {app, bus, set} = await localApp();
    const {LocalClient} = set.require('local.client');
    const client = new LocalClient({bus});
    const errors: string[] = [];
    const server = (app as any).server;
    server.logger = {error: (message: string) => errors.push(message)};
    client.logger = {error: (message: string) => errors.push(message)};
    try {
      const failures = await rejectionsDuring(async () => {
        await client.connect();
        bus.emit('local:requests', 'null');
        bus.emit('local:requests', `{"pattern":${deepJson()},"data":[1],"id":"p1"}`);
        bus.emit('local:requests', `{"pattern":{"cmd":"sum"},"data":[1],"id":${deepJson()}}`);
        bus.emit('local:replies', 'null');
        await until(() => errors.length === 4);
        expect(await lastValueFrom(client.send({cmd: 'sum'}, [2, 3]))).toBe(5);
      });
      expect(failures).toEqual([]);
      expect(errors.sort()).toEqual([
        'Could not write a reply: RangeError: Maximum call stack size exceeded',
        'Dropped a message that could not be handled: Error: not a packet',
        'Dropped a message that could not be handled: RangeError: Maximum call stack size exceeded',
        'Dropped a reply that is not a packet',
      ]);
    } finally {
      client.close();
      await app.close();
    }
  },
);

claim.abuse(
  `${page}#example-an-in-memory-transporter`,
  "a reply that is not JSON is dropped by the page's LocalClient: no unhandled rejection, and the real reply still arrives",
  async () => {
    const {app, bus, set} = await localApp();
    const {LocalClient} = set.require('local.client');
    const client = new LocalClient({bus});
    try {
      const failures = await rejectionsDuring(async () => {
        await client.connect();
        bus.emit('local:replies', '{broken');
        expect(await lastValueFrom(client.send({cmd: 'sum'}, [2, 2]))).toBe(4);
      });
      expect(failures).toEqual([]);
    } finally {
      client.close();
      await app.close();
    }
  },
);

claim.abuse(
  `${page}#the-handler-map`,
  'a packet without a pattern: as a request it gets the "No handler" error reply, as an event it is logged by handleEvent(); the server keeps running',
  async () => {
    const {app, bus} = await localApp();
    const server = (app as any).server;
    const errors: string[] = [];
    server.logger = {error: (message: string) => errors.push(message)};
    const replies: any[] = [];
    bus.on('local:replies', (raw: string) => replies.push(JSON.parse(raw)));
    try {
      bus.emit('local:requests', JSON.stringify({data: 1, id: 'no-pattern'}));
      bus.emit('local:requests', JSON.stringify({data: 1}));
      await until(() => replies.length === 1 && errors.length === 1);
      expect(replies[0]).toEqual({
        id: 'no-pattern',
        err: 'No handler for pattern undefined',
        isDisposed: true,
      });
      expect(errors[0]).toBe(
        'There is no matching event handler defined in the remote service. Event pattern: undefined.',
      );
    } finally {
      await app.close();
    }
  },
);

claim.failure(
  `${page}#example-an-in-memory-transporter`,
  'with no LocalServer listening, a LocalClient request never gets a reply; the timeout operator ends the wait',
  async () => {
    const set = samples(page, {
      files: {
        'json.serializer': fragment(page, 'message-serialization', 'class JsonSerializer').value,
      },
    });
    const {LocalClient} = set.require('local.client');
    const client = new LocalClient({bus: new EventEmitter()});
    const {timeout} = nest('rxjs/operators');
    try {
      const settled: string[] = [];
      lastValueFrom(client.send({cmd: 'sum'}, [1])).then(
        () => settled.push('value'),
        () => settled.push('error'),
      );
      await new Promise((r) => setTimeout(r, 500));
      expect(settled).toEqual([]);
      const error: any = await lastValueFrom(
        client.send({cmd: 'sum'}, [1]).pipe(timeout(200)),
      ).catch((e: unknown) => e);
      expect(error.name).toBe('TimeoutError');
    } finally {
      client.close();
    }
  },
);

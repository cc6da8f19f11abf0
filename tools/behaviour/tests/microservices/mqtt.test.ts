import {afterAll, beforeAll, expect} from 'vitest';
import {
  claim,
  samples,
  fragment,
  compileModule,
  service,
  nest,
  memoryLogger,
  type Service,
} from '../../lib';
import {until, captureConsole, nodeChild, ownBroker, deepJson} from './_support';

const {NestFactory} = nest('@nestjs/core');
const {Module} = nest('@nestjs/common');
const {Transport, ClientProxyFactory, MqttRecordBuilder} = nest('@nestjs/microservices');
const {lastValueFrom} = nest('rxjs');
const mqtt = nest('mqtt');
const page = 'docs/microservices/mqtt.md';

let broker: Service;
const log = memoryLogger();
let output: ReturnType<typeof captureConsole>;
beforeAll(async () => {
  broker = await service('mqtt');
  output = captureConsole();
});
afterAll(async () => {
  output?.restore();
  await broker?.stop();
});

async function micro(module: unknown, options: object = {}) {
  const app = await NestFactory.createMicroservice(module, {
    transport: Transport.MQTT,
    logger: log.logger,
    options: {url: broker.url, ...options},
  });
  await app.listen();
  return app;
}
const client = (options: object = {}) =>
  ClientProxyFactory.create({transport: Transport.MQTT, options: {url: broker.url, ...options}});

/** A raw MQTT.js client: the "other publisher" and the traffic watcher (mosquitto_sub -t '#'). */
async function raw(options: object = {}): Promise<any> {
  const c = mqtt.connect(broker.url, options);
  await new Promise((r) => c.once('connect', r));
  return c;
}
const publishRaw = (c: any, topic: string, body: string, options: object = {}) =>
  new Promise((r) => c.publish(topic, body, options, r));
const subscribeRaw = (c: any, topic: string) => new Promise((r) => c.subscribe(topic, r));

const readings = `import { Injectable } from '@nestjs/common';
@Injectable()
export class ReadingsService {
  average(room) { return room === 'kitchen' ? 21.5 : 0; }
}
`;

function controllerModule(under: string, lang: 'ts' | 'js' = 'ts') {
  const set = samples(page, {under, lang, files: {'readings.service': readings}});
  const {SensorsController} = set.require('sensors.controller');
  @Module({
    controllers: [SensorsController],
    providers: [set.require('readings.service').ReadingsService],
  })
  class M {}
  return M;
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#client`,
    `send('sensors/average') goes to that topic and the answer comes back on sensors/average/reply (${lang})`,
    async () => {
      const app = await micro(controllerModule('client', lang));
      const watcher = await raw();
      const topics: string[] = [];
      watcher.on('message', (topic: string) => topics.push(topic));
      await subscribeRaw(watcher, '#');
      const set = samples(page, {under: 'client', lang});
      const {SensorsService} = set.require('sensors.service');
      const c = client();
      try {
        const sensors = new SensorsService(c);
        expect(await sensors.getAverage('kitchen')).toBe(21.5);
        sensors.reportTemperature('kitchen', 22);
        await until(() => topics.includes('sensors/kitchen/temperature'));
        expect(topics.slice(0, 2)).toEqual(['sensors/average', 'sensors/average/reply']);
      } finally {
        c.close();
        watcher.end();
        await app.close();
      }
    },
  );
}

claim(
  `${page}#messages-from-other-publishers`,
  'a bare JSON reading on sensors/kitchen/temperature is an event with the whole message as payload; the context names the topic and the packet',
  async () => {
    const app = await micro(controllerModule('context'));
    const publisher = await raw();
    try {
      const command = fragment(
        page,
        'messages-from-other-publishers',
        'mosquitto_pub',
      ).value.trim();
      const [, topic, body] = /-t (\S+) -m '(.*)'$/.exec(command)!;
      await publishRaw(publisher, topic, body);
      await until(() => output.lines.includes('Topic: sensors/kitchen/temperature, value: 21'));
      expect(output.lines).toContain('Retained: false');
    } finally {
      publisher.end();
      await app.close();
    }
  },
);

claim(
  `${page}#wildcards`,
  'sensors/+/temperature matches one level only; getTopic() tells which topic arrived',
  async () => {
    const app = await micro(controllerModule('wildcards'));
    const c = client();
    try {
      for (const [topic, celsius] of [
        ['sensors/temperature', 1],
        ['sensors/house/kitchen/temperature', 2],
        ['sensors/garage/temperature', 3],
        ['sensors/kitchen/temperature', 4],
      ] as const) {
        await lastValueFrom(c.emit(topic, {celsius}), {defaultValue: undefined});
      }
      await until(() => output.lines.includes('kitchen: 4 °C'));
      const lines = output.lines.filter((line) => / °C$/.test(line));
      expect(lines.slice(-2)).toEqual(['garage: 3 °C', 'kitchen: 4 °C']);
      expect(lines).not.toContain('temperature: 1 °C');
      expect(lines).not.toContain('house: 2 °C');
    } finally {
      c.close();
      await app.close();
    }
  },
);

claim(
  `${page}#wildcards`,
  'sensors/# matches sensors itself and every level below, reply topics included',
  async () => {
    const got: string[] = [];
    (globalThis as any).__mqttAll = got;
    const {All} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, MessagePattern, MqttContext } from '@nestjs/microservices';
@Controller()
export class All {
  @EventPattern('sensors/#') all(_d: unknown, @Ctx() ctx: MqttContext) { (globalThis as any).__mqttAll.push(ctx.getTopic()); }
  @MessagePattern('sensors/average') avg() { return 20; }
}
`,
      'mqtt-all',
    );
    @Module({controllers: [All]})
    class AllModule {}
    const app = await micro(AllModule);
    const c = client();
    try {
      await lastValueFrom(c.emit('sensors', {}), {defaultValue: undefined});
      await lastValueFrom(c.emit('sensors/a/b/c', {}), {defaultValue: undefined});
      expect(await lastValueFrom(c.send('sensors/average', {}))).toBe(20);
      await until(() => got.includes('sensors/average/reply'));
      expect(got).toEqual(
        expect.arrayContaining(['sensors', 'sensors/a/b/c', 'sensors/average/reply']),
      );
    } finally {
      c.close();
      await app.close();
    }
  },
);

claim(
  `${page}#shared-subscriptions`,
  '$share/workers/sensors/+/temperature spreads readings over the instances: each reading reaches one',
  async () => {
    const hits: string[] = [];
    (globalThis as any).__mqttShared = hits;
    const make = (name: string) =>
      compileModule(
        `
import { Controller, Module } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
@Controller()
class Worker { @EventPattern('$share/workers/sensors/+/temperature') on(@Payload() r: { n: number }) { (globalThis as any).__mqttShared.push(r.n + ':${name}'); } }
@Module({ controllers: [Worker] })
export class M {}
`,
        `mqtt-shared-${name}`,
      ).M;
    const apps = [await micro(make('one')), await micro(make('two'))];
    const c = client();
    try {
      for (let n = 1; n <= 6; n += 1)
        await lastValueFrom(c.emit(`sensors/room${n}/temperature`, {n}), {defaultValue: undefined});
      await until(() => hits.length >= 6);
      await new Promise((r) => setTimeout(r, 150));
      expect(hits.map((h) => Number(h.split(':')[0])).sort((a, b) => a - b)).toEqual([
        1, 2, 3, 4, 5, 6,
      ]);
    } finally {
      c.close();
      for (const app of apps) await app.close();
    }
  },
);

claim(
  `${page}#shared-subscriptions`,
  'a shared pattern without a wildcard subscribes but never routes: its handler does not run',
  async () => {
    const hits: string[] = [];
    (globalThis as any).__mqttSharedPlain = hits;
    const {Plain} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { EventPattern } from '@nestjs/microservices';
@Controller()
export class Plain { @EventPattern('$share/workers/sensors/kitchen/temperature') on() { (globalThis as any).__mqttSharedPlain.push('hit'); } }
`,
      'mqtt-shared-plain',
    );
    @Module({controllers: [Plain]})
    class PlainModule {}
    const app = await micro(PlainModule);
    const c = client();
    try {
      await lastValueFrom(c.emit('sensors/kitchen/temperature', {celsius: 1}), {
        defaultValue: undefined,
      });
      await until(() =>
        log
          .text()
          .includes(
            'There is no matching event handler defined in the remote service. Event pattern: "sensors/kitchen/temperature"',
          ),
      );
      expect(hits).toEqual([]);
    } finally {
      c.close();
      await app.close();
    }
  },
);

claim(
  `${page}#quality-of-service`,
  'a record with setQoS(1).setRetain(true) is kept by the broker and handed to a later subscriber with retain set',
  async () => {
    const set = samples(page, {under: 'record-builders'});
    const {SensorsService} = set.require('sensors.service');
    const c = client();
    try {
      await new SensorsService(c).reportTemperature('attic', 19);
      // The page's humidity handler reads qos and retain; use it on the retained humidity topic.
      await lastValueFrom(
        c.emit(
          'sensors/attic/humidity',
          new MqttRecordBuilder({percent: 40}).setQoS(1).setRetain(true).build(),
        ),
        {defaultValue: undefined},
      );
    } finally {
      c.close();
    }
    const app = await micro(controllerModule('quality-of-service'), {subscribeOptions: {qos: 1}});
    try {
      await until(() => output.lines.includes('sensors/attic/humidity: 40 %'));
      expect(output.lines).toContain('Last known value from before we subscribed (QoS 1)');
      // The temperature record of the page's service was retained too.
      const late = await raw();
      const retained: any[] = [];
      late.on('message', (topic: string, payload: Buffer, packet: any) =>
        retained.push({
          topic,
          retain: packet.retain,
          qos: packet.qos,
          body: JSON.parse(payload.toString()),
        }),
      );
      await new Promise((r) => late.subscribe('sensors/attic/temperature', {qos: 1}, r));
      await until(() => retained.length > 0);
      expect(retained[0]).toMatchObject({
        topic: 'sensors/attic/temperature',
        retain: true,
        qos: 1,
        body: {pattern: 'sensors/attic/temperature', data: {celsius: 19}},
      });
      late.end();
    } finally {
      await app.close();
    }
  },
);

claim(
  `${page}#record-builders`,
  'on MQTT 5, client userProperties and record properties merge (the record wins); the handler gets only the data',
  async () => {
    const got: any[] = [];
    (globalThis as any).__mqttProps = got;
    const {Props} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, MqttContext, Payload } from '@nestjs/microservices';
@Controller()
export class Props {
  @EventPattern('sensors/props') on(@Payload() data: unknown, @Ctx() ctx: MqttContext) {
    (globalThis as any).__mqttProps.push({ data, properties: ctx.getPacket().properties });
  }
}
`,
      'mqtt-props',
    );
    @Module({controllers: [Props]})
    class PropsModule {}
    const app = await micro(PropsModule, {protocolVersion: 5});
    const shown = fragment(page, 'record-builders', 'userProperties').value;
    expect(shown).toContain(`userProperties: { 'x-source': 'gateway' }`);
    const c = client({
      protocolVersion: 5,
      userProperties: {'x-source': 'gateway', 'x-env': 'test'},
    });
    try {
      const record = new MqttRecordBuilder({celsius: 21.5})
        .setProperties({
          contentType: 'application/json',
          messageExpiryInterval: 60,
          userProperties: {'x-env': 'record'},
        })
        .build();
      await lastValueFrom(c.emit('sensors/props', record), {defaultValue: undefined});
      await until(() => got.length > 0);
      expect(got[0].data).toEqual({celsius: 21.5});
      expect(got[0].properties.contentType).toBe('application/json');
      expect(got[0].properties.userProperties).toEqual({'x-source': 'gateway', 'x-env': 'record'});
    } finally {
      c.close();
      await app.close();
    }
  },
);

/** Waits until `promise` settles or `ms` pass; 'pending' in the second case. */
const within = (promise: Promise<unknown>, ms: number) =>
  Promise.race([
    promise.then(
      (value) => `value ${JSON.stringify(value)}`,
      (error: any) => `error ${error?.message ?? error}`,
    ),
    new Promise((r) => setTimeout(() => r('pending'), ms)),
  ]);

for (const lang of ['ts', 'js'] as const) {
  claim.abuse(
    `${page}#client`,
    `reportTemperature() refuses a room with +, # or / before anything is published (${lang})`,
    async () => {
      const {SensorsService} = samples(page, {under: 'client', lang}).require('sensors.service');
      const {SensorsService: RecordService} = samples(page, {
        under: 'record-builders',
        lang,
      }).require('sensors.service');
      const c = client();
      const watcher = await raw();
      const topics: string[] = [];
      // Retained readings of earlier claims come first, flagged: only new publications count.
      watcher.on('message', (topic: string, _body: unknown, packet: any) => {
        if (!packet.retain) topics.push(topic);
      });
      await subscribeRaw(watcher, 'sensors/#');
      try {
        for (const Service of [SensorsService, RecordService]) {
          const sensors = new Service(c);
          for (const room of ['+', '#', 'garage/temperature', '']) {
            expect(() => sensors.reportTemperature(room, 22), room).toThrow(
              `Invalid room name: ${room}`,
            );
          }
          sensors.reportTemperature(`kitchen-${lang}`, 22);
        }
        const mine = () => topics.filter((t) => t === `sensors/kitchen-${lang}/temperature`);
        await until(() => mine().length >= 2);
        await new Promise((r) => setTimeout(r, 100));
        expect(mine()).toHaveLength(2);
        // Nothing was published for the refused rooms.
        expect(topics).toEqual(mine());
      } finally {
        c.close();
        watcher.end();
      }
    },
  );
}

claim.failure(
  `${page}#client`,
  'publishing to a topic with a wildcard makes the broker close the client connection: a request waiting on it stays pending, later ones work after the reconnect',
  async () => {
    const app = await micro(controllerModule('client'));
    const {SlowAverage} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
@Controller()
export class SlowAverage { @MessagePattern('sensors/slow') slow() { return new Promise((r) => setTimeout(() => r(1), 300)); } }
`,
      'mqtt-slow-average',
    );
    @Module({controllers: [SlowAverage]})
    class SlowModule {}
    const slowApp = await micro(SlowModule);
    const c = client();
    try {
      expect(await lastValueFrom(c.send('sensors/average', {room: 'kitchen'}))).toBe(21.5);
      const waiting = lastValueFrom(c.send('sensors/slow', {}));
      await lastValueFrom(c.emit('sensors/+/temperature', {celsius: 1}), {defaultValue: undefined});
      expect(await within(waiting, 1500)).toBe('pending');
      let answer: unknown;
      for (let i = 0; i < 50 && answer === undefined; i += 1) {
        answer = await lastValueFrom(
          c.send('sensors/average', {room: 'kitchen'}).pipe(nest('rxjs/operators').timeout(500)),
        ).catch(() => undefined);
      }
      expect(answer).toBe(21.5);
    } finally {
      c.close();
      await slowApp.close();
      await app.close();
    }
  },
);

claim.failure(
  `${page}#client`,
  'a request that no microservice is subscribed to stays pending (no "no responders" in MQTT); the timeout operator ends it',
  async () => {
    const c = client();
    try {
      await c.connect();
      expect(await within(lastValueFrom(c.send('sensors/nobody', {})), 1000)).toBe('pending');
      const error: any = await lastValueFrom(
        c.send('sensors/nobody', {}).pipe(nest('rxjs/operators').timeout(300)),
      ).catch((e: unknown) => e);
      expect(error.name).toBe('TimeoutError');
    } finally {
      c.close();
    }
  },
);

claim.failure(
  `${page}#client`,
  'a client whose first connection fails keeps failing with ECONNREFUSED after the broker is up; a microservice started before the broker listens once it is up',
  async () => {
    const own = await ownBroker('mqtt');
    const first = ClientProxyFactory.create({transport: Transport.MQTT, options: {url: own.url}});
    const {SensorsController} = samples(page, {
      under: 'client',
      files: {'readings.service': readings},
    }).require('sensors.controller');
    const child = nodeChild(
      `
require('reflect-metadata');
const { NestFactory } = require('@nestjs/core');
const { Module } = require('@nestjs/common');
const { Transport } = require('@nestjs/microservices');
const { SensorsController } = require(process.argv[2] + '/sensors.controller.js');
const { ReadingsService } = require(process.argv[2] + '/readings.service.js');
class AppModule {}
Module({ controllers: [SensorsController], providers: [ReadingsService] })(AppModule);
(async () => {
  const app = await NestFactory.createMicroservice(AppModule, { transport: Transport.MQTT, logger: false, options: { url: process.argv[3], reconnectPeriod: 100 } });
  await app.listen();
  console.log('LISTENING');
})();
`,
      [samples(page, {under: 'client', files: {'readings.service': readings}}).dir, own.url],
    );
    void SensorsController;
    try {
      await expect(
        lastValueFrom(first.send('sensors/average', {room: 'kitchen'})),
      ).rejects.toMatchObject({
        code: 'ECONNREFUSED',
      });
      await new Promise((r) => setTimeout(r, 500));
      expect(child.out).not.toContain('LISTENING');
      await own.start();
      await child.waitFor('LISTENING');
      const fresh = ClientProxyFactory.create({transport: Transport.MQTT, options: {url: own.url}});
      try {
        expect(await lastValueFrom(fresh.send('sensors/average', {room: 'kitchen'}))).toBe(21.5);
      } finally {
        fresh.close();
      }
      await new Promise((r) => setTimeout(r, 1500));
      await expect(
        lastValueFrom(first.send('sensors/average', {room: 'kitchen'})),
      ).rejects.toMatchObject({
        code: 'ECONNREFUSED',
      });
    } finally {
      first.close();
      await child.kill();
      await own.remove();
    }
  },
  30_000,
);

claim.failure(
  `${page}#options`,
  'after a broker restart the microservice subscribes again and handles new events; one published during the outage is lost',
  async () => {
    const own = await ownBroker('mqtt');
    await own.start();
    const seen: number[] = [];
    (globalThis as any).__mqttRestart = seen;
    const {Restart} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
@Controller()
export class Restart { @EventPattern('sensors/+/temperature') on(@Payload() r: { n: number }) { (globalThis as any).__mqttRestart.push(r.n); } }
`,
      'mqtt-restart',
    );
    @Module({controllers: [Restart]})
    class RestartModule {}
    const app = await NestFactory.createMicroservice(RestartModule, {
      transport: Transport.MQTT,
      logger: false,
      options: {url: own.url, reconnectPeriod: 100},
    });
    await app.listen();
    const publish = async (n: number) => {
      const c = mqtt.connect(own.url);
      await new Promise((r) => c.once('connect', r));
      await new Promise((r) =>
        c.publish('sensors/kitchen/temperature', JSON.stringify({n}), {qos: 1}, r),
      );
      c.end();
    };
    try {
      await new Promise((r) => setTimeout(r, 200));
      await publish(1);
      await until(() => seen.includes(1));
      await own.stop();
      await own.start();
      await publish(2);
      // Published before the microservice was back: nobody was subscribed.
      await new Promise((r) => setTimeout(r, 1000));
      await publish(3);
      await until(() => seen.includes(3), 5000);
      expect(seen).toEqual([1, 3]);
    } finally {
      await app.close();
      await own.remove();
    }
  },
  30_000,
);

claim.abuse(
  `${page}#messages-from-other-publishers`,
  "a body that is not JSON reaches the page's handler as a plain string: reading.celsius is undefined and the microservice keeps running",
  async () => {
    const app = await micro(controllerModule('context'));
    const publisher = await raw();
    const before = output.lines.length;
    try {
      await new Promise((r) => setTimeout(r, 100));
      await publishRaw(publisher, 'sensors/kitchen/temperature', 'twenty-one');
      await until(() =>
        output.lines.slice(before).includes('Topic: sensors/kitchen/temperature, value: undefined'),
      );
      await publishRaw(publisher, 'sensors/kitchen/temperature', '{"celsius":21}');
      await until(() =>
        output.lines.slice(before).includes('Topic: sensors/kitchen/temperature, value: 21'),
      );
    } finally {
      publisher.end();
      await app.close();
    }
  },
);

claim.abuse(
  `${page}#messages-from-other-publishers`,
  'a non-JSON message published on a reply topic ends the process of a client waiting there (SyntaxError, exit code 1)',
  async () => {
    const child = nodeChild(
      `
const { ClientProxyFactory, Transport } = require('@nestjs/microservices');
const { lastValueFrom } = require('rxjs');
const client = ClientProxyFactory.create({ transport: Transport.MQTT, options: { url: process.argv[2] } });
lastValueFrom(client.send('sensors/average', { room: 'kitchen' })).catch(() => undefined);
client.connect().then(() => setTimeout(() => console.log('WAITING'), 300));
setTimeout(() => { console.log('ALIVE'); process.exit(0); }, 5000);
`,
      [broker.url],
    );
    await child.waitFor('WAITING');
    const publisher = await raw();
    try {
      await publishRaw(publisher, 'sensors/average/reply', 'not json');
      expect(await child.exited).toBe(1);
      expect(child.out).toContain('SyntaxError');
      expect(child.out).not.toContain('ALIVE');
    } finally {
      publisher.end();
      await child.kill();
    }
  },
);

claim.failure(
  `${page}#quality-of-service`,
  "with the page's persistent session (clientId, clean: false, QoS 1) a QoS 1 event published while the microservice is down is delivered when it is back; a QoS 0 one is not, nor anything without the session; a second client with the same clientId disconnects the first",
  async () => {
    const shown = fragment(page, 'quality-of-service', 'clean: false').value;
    const body = /options: (\{[\s\S]*?\n {2}\}),\n\}\);/.exec(shown)![1];
    const {options: persistent} = compileModule(
      `import { Transport } from '@nestjs/microservices';\nexport const options = (url: string) => (${body.replace(`url: 'mqtt://localhost:1883'`, 'url')});\n`,
      'mqtt-persistent-options',
    );
    const seen: string[] = [];
    (globalThis as any).__mqttPersistent = seen;
    const {Persistent} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
@Controller()
export class Persistent { @EventPattern('greenhouse/+/humidity') on(@Payload() r: { tag: string }) { (globalThis as any).__mqttPersistent.push(r.tag); } }
`,
      'mqtt-persistent',
    );
    @Module({controllers: [Persistent]})
    class PersistentModule {}
    const start = async (opts: object) => {
      const app = await NestFactory.createMicroservice(PersistentModule, {
        transport: Transport.MQTT,
        logger: false,
        options: opts,
      });
      await app.listen();
      await new Promise((r) => setTimeout(r, 200));
      return app;
    };
    const c = client();
    const emit = (tag: string, qos: 0 | 1) =>
      lastValueFrom(
        c.emit('greenhouse/tomatoes/humidity', new MqttRecordBuilder({tag}).setQoS(qos).build()),
        {
          defaultValue: undefined,
        },
      );
    try {
      for (const [name, opts] of [
        ['persistent', persistent(broker.url)],
        ['clean', {url: broker.url}],
      ] as const) {
        const first = await start(opts);
        await first.close();
        await emit(`${name}-qos1`, 1);
        await emit(`${name}-qos0`, 0);
        const again = await start(opts);
        await new Promise((r) => setTimeout(r, 500));
        await again.close();
      }
      expect(seen).toEqual(['persistent-qos1']);
      // Two connections with one clientId: the broker closes the older one.
      const one = await raw({clientId: 'sensors-service-1'});
      const closed = new Promise((r) => one.once('close', r));
      const two = await raw({clientId: 'sensors-service-1'});
      await closed;
      one.end(true);
      two.end();
    } finally {
      c.close();
    }
  },
  30_000,
);

/**
 * The page's SensorsController (sensors/average) as an MQTT microservice in a child process, with the
 * overview page's PacketShapeDeserializer when `deserializerFile` is given.
 */
function sensorsChild(deserializerFile?: string) {
  const dir = samples(page, {under: 'client', files: {'readings.service': readings}}).dir;
  return nodeChild(
    `
require('reflect-metadata');
const { NestFactory } = require('@nestjs/core');
const { Module } = require('@nestjs/common');
const { Transport } = require('@nestjs/microservices');
const { SensorsController } = require(process.argv[2] + '/sensors.controller.js');
const { ReadingsService } = require(process.argv[2] + '/readings.service.js');
const deserializer = process.argv[4] ? new (require(process.argv[4]).PacketShapeDeserializer)() : undefined;
class AppModule {}
Module({ controllers: [SensorsController], providers: [ReadingsService] })(AppModule);
(async () => {
  const app = await NestFactory.createMicroservice(AppModule, { transport: Transport.MQTT, logger: ['error'],
    options: { url: process.argv[3], deserializer } });
  await app.listen();
  // listen() resolves on connect; give the broker a moment to acknowledge the subscription.
  await new Promise((r) => setTimeout(r, 300));
  console.log('LISTENING');
})();
`,
    [dir, broker.url, ...(deserializerFile ? [deserializerFile] : [])],
  );
}

const deepIdRequest = `{"pattern":"sensors/average","data":{"room":"kitchen"},"id":${deepJson()}}`;

claim.abuse(
  `${page}#messages-from-other-publishers`,
  'a request-shaped message whose id is nested 10,000 levels deep, published by any broker client, ends the microservice (RangeError, exit code 1)',
  async () => {
    const child = sensorsChild();
    const other = await raw();
    try {
      await child.waitFor('LISTENING');
      await publishRaw(other, 'sensors/average', deepIdRequest);
      expect(await child.exited).toBe(1);
      expect(child.out).toContain('RangeError: Maximum call stack size exceeded');
    } finally {
      other.end(true);
      await child.kill();
    }
  },
  20_000,
);

claim.abuse(
  `${page}#messages-from-other-publishers`,
  "with the overview page's PacketShapeDeserializer in the options, such a message is handed on as an event, and the microservice keeps answering requests",
  async () => {
    const shown = fragment(page, 'messages-from-other-publishers', 'PacketShapeDeserializer').value;
    expect(shown).toContain('deserializer: new PacketShapeDeserializer()');
    const set = samples('docs/microservices/basics.md', {under: 'packets-from-untrusted-peers'});
    const child = sensorsChild(`${set.dir}/packet-shape.deserializer.js`);
    const other = await raw();
    const caller = client();
    try {
      await child.waitFor('LISTENING');
      await publishRaw(other, 'sensors/average', deepIdRequest);
      await new Promise((r) => setTimeout(r, 300));
      expect(child.code).toBe(null);
      expect(await lastValueFrom(caller.send('sensors/average', {room: 'kitchen'}))).toBe(21.5);
    } finally {
      caller.close();
      other.end(true);
      await child.kill();
    }
  },
  20_000,
);

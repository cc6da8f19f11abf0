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
import {until, captureConsole} from './_support';

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

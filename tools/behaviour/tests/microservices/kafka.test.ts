/**
 * Kafka has no server here. These tests cover what Nest 8 does without a broker: the names it derives
 * for clients and groups, how the server decodes a record as kafkajs's eachMessage hands it over
 * (ServerKafka.handleMessage, called with such a payload after app.init() bound the handlers), how
 * responses and requests are encoded, and the client's behaviour before it has connected.
 * Not covered: anything that needs a broker (connecting, consumer groups and rebalances, reply-topic
 * partitions, offsets and commits, retries, producer acks).
 */
import {expect} from 'vitest';
import {claim, samples, compileModule, nest, memoryLogger, expectOutput} from '../../lib';
import {until} from './_support';

const {NestFactory} = nest('@nestjs/core');
const {Module} = nest('@nestjs/common');
const {Transport, ServerKafka, ClientKafka} = nest('@nestjs/microservices');
const {KafkaParser} = nest('@nestjs/microservices/helpers/kafka-parser');
const page = 'docs/microservices/kafka.md';
const log = memoryLogger();

const options = {
  client: {clientId: 'heroes', brokers: ['127.0.0.1:9']},
  consumer: {groupId: 'heroes-consumer'},
};

claim(
  `${page}#installation`,
  'the kafkajs the transporter loads is of major version 1, as the pinned install line says',
  async () => {
    expect(nest('kafkajs/package.json').version).toMatch(/^1\./);
    expect(() => new ServerKafka(options)).not.toThrow();
  },
);

claim(
  `${page}#naming-conventions`,
  'the microservice appends -server and the client -client to clientId and groupId',
  async () => {
    const server = new ServerKafka(options);
    expect([server.clientId, server.groupId]).toEqual(['heroes-server', 'heroes-consumer-server']);
    const client = new ClientKafka({
      client: {clientId: 'gateway', brokers: ['127.0.0.1:9']},
      consumer: {groupId: 'gateway-consumer'},
    });
    expect([client.clientId, client.groupId]).toEqual([
      'gateway-client',
      'gateway-consumer-client',
    ]);
  },
);

claim(
  `${page}#naming-conventions`,
  "postfixId: '-listener' replaces the suffix; postfixId: '' brings the default back",
  async () => {
    const listener = new ServerKafka({...options, postfixId: '-listener'});
    expect([listener.clientId, listener.groupId]).toEqual([
      'heroes-listener',
      'heroes-consumer-listener',
    ]);
    const empty = new ServerKafka({...options, postfixId: ''});
    expect([empty.clientId, empty.groupId]).toEqual(['heroes-server', 'heroes-consumer-server']);
    const emptyClient = new ClientKafka({...options, postfixId: ''});
    expect(emptyClient.groupId).toBe('heroes-consumer-client');
  },
);

claim(
  `${page}#committing-offsets`,
  'ClientKafka.commitOffsets() before the client connected throws No consumer initialized',
  async () => {
    const client = new ClientKafka(options);
    expect(() =>
      client.commitOffsets([{topic: 'hero.kill.dragon', partition: 0, offset: '43'}]),
    ).toThrow('No consumer initialized');
  },
);

claim(
  `${page}#subscribing-to-responses`,
  'the reply topic is the request topic followed by .reply',
  async () => {
    const client = new ClientKafka(options);
    expect(client.getResponsePatternName('hero.kill.dragon')).toBe('hero.kill.dragon.reply');
  },
);

/** A record as kafkajs hands it to eachMessage: buffers for key, value and headers. */
function record(value: Buffer | null, headers: Record<string, string> = {}) {
  return {
    key: null,
    value,
    offset: '42',
    timestamp: '1650000000000',
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, Buffer.from(v)])),
  };
}

async function kafkaApp(module: unknown, extra: object = {}) {
  const app = await NestFactory.createMicroservice(module, {
    transport: Transport.KAFKA,
    logger: log.logger,
    options: {...options, ...extra},
  });
  await app.init();
  return {app, server: (app as any).server};
}

claim(
  `${page}#incoming-messages`,
  'a handler receives the whole decoded record: value parsed as JSON, headers as strings, topic and partition added',
  async () => {
    const received: unknown[] = [];
    (globalThis as any).__kafkaReceived = received;
    const {Capture} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
@Controller()
export class Capture { @EventPattern('hero.kill.dragon') on(@Payload() message: unknown) { (globalThis as any).__kafkaReceived.push(message); } }
`,
      'kafka-capture',
    );
    @Module({controllers: [Capture]})
    class CaptureModule {}
    const {app, server} = await kafkaApp(CaptureModule);
    try {
      await server.handleMessage({
        topic: 'hero.kill.dragon',
        partition: 0,
        message: record(Buffer.from(JSON.stringify({heroId: 1, dragonId: 7})), {
          kafka_correlationId: '2b7e9c1f0a4d',
          kafka_replyTopic: 'hero.kill.dragon.reply',
          kafka_replyPartition: '0',
        }),
      });
      await until(() => received.length > 0);
      expectOutput(page, 'kafka-incoming-record', JSON.parse(JSON.stringify(received[0])));
    } finally {
      await app.close();
    }
  },
);

claim(
  `${page}#incoming-messages`,
  "a record without correlation headers runs a @MessagePattern handler as an event (the page's context controller logs topic, partition and offset)",
  async () => {
    const set = samples(page, {
      under: 'context',
      files: {
        'interfaces/incoming-kafka-message.interface': 'export {};\n',
        'dto/kill-dragon.dto': 'export class KillDragonDto {}\n',
      },
    });
    const {HeroesController} = set.require('heroes.controller');
    @Module({controllers: [HeroesController]})
    class HeroesModule {}
    const {app, server} = await kafkaApp(HeroesModule);
    try {
      // No producer exists without a broker: a reply attempt would throw; an event needs none.
      await server.handleMessage({
        topic: 'hero.kill.dragon',
        partition: 0,
        message: record(Buffer.from('{"heroId":1,"dragonId":7}')),
      });
      await until(() =>
        log.lines.some(
          (line) =>
            line.context === 'HeroesController' &&
            line.message === 'hero.kill.dragon[0] at offset 42',
        ),
      );
    } finally {
      await app.close();
    }
  },
);

claim(
  `${page}#incoming-messages`,
  'strings that start with { or [ are parsed, other strings stay strings; a leading zero byte or keepBinary leaves the Buffer',
  async () => {
    const parser = new KafkaParser();
    expect(parser.parse({value: Buffer.from('[1,2]')}).value).toEqual([1, 2]);
    expect(parser.parse({value: Buffer.from('15')}).value).toBe('15');
    expect(parser.parse({value: Buffer.from('{not json')}).value).toBe('{not json');
    const schemaRegistry = Buffer.from([0, 0, 0, 0, 1, 2]);
    expect(parser.parse({value: schemaRegistry}).value).toBe(schemaRegistry);
    const binary = Buffer.from('{"a":1}');
    expect(new KafkaParser({keepBinary: true}).parse({value: binary}).value).toBe(binary);
    // The option is read from the transporter's options.
    expect(new ServerKafka({...options, parser: {keepBinary: true}}).parser.keepBinary).toBe(true);
  },
);

claim(
  `${page}#outgoing-responses`,
  "responses: objects become JSON, strings stay, other values go through toString(), so the client decodes 15 as '15'",
  async () => {
    const server = new ServerKafka(options);
    const serializer = server.serializer;
    expect(serializer.serialize({heroId: 1})).toEqual({value: '{"heroId":1}', headers: {}});
    expect(serializer.serialize('Hero 1 defeated dragon 7')).toEqual({
      value: 'Hero 1 defeated dragon 7',
      headers: {},
    });
    const encoded = serializer.serialize(15);
    expect(encoded).toEqual({value: '15', headers: {}});
    expect(new ClientKafka(options).parser.parse({value: Buffer.from(encoded.value)}).value).toBe(
      '15',
    );
  },
);

claim(
  `${page}#outgoing-responses`,
  "an object with key or value is an envelope: key and headers kept, only value is the payload; { key: 'cat', count: 3 } loses count",
  async () => {
    const serializer = new ServerKafka(options).serializer;
    expect(
      serializer.serialize({
        key: '1',
        value: {heroId: 1, dragonId: 7, outcome: 'victory'},
        headers: {'x-realm': 'north'},
      }),
    ).toEqual({
      key: '1',
      value: '{"heroId":1,"dragonId":7,"outcome":"victory"}',
      headers: {'x-realm': 'north'},
    });
    expect(serializer.serialize({key: 'cat', count: 3})).toEqual({
      key: 'cat',
      count: 3,
      value: null,
      headers: {},
    });
    expect(serializer.serialize({value: {key: 'cat', count: 3}})).toEqual({
      value: '{"key":"cat","count":3}',
      headers: {},
    });
  },
);

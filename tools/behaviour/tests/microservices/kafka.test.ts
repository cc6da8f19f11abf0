/**
 * Kafka has no server here. These tests cover what Nest 8 does without a broker: the names it derives
 * for clients and groups, how the server decodes a record as kafkajs's eachMessage hands it over
 * (ServerKafka.handleMessage, called with such a payload after app.init() bound the handlers), how
 * responses and requests are encoded, and the client's behaviour before it has connected.
 * Replies: with no broker to write to, the server's producer is a kafkajs producer whose send() keeps
 * the record it is handed (the one seam these tests open); the client's side of a reply runs through
 * ClientKafka's own response callback, the function its consumer calls for each reply record.
 * Not covered: anything that needs a broker (consumer groups and rebalances, reply-topic
 * partitions, offsets and commits, retries, producer acks).
 */
import {expect} from 'vitest';
import {
  claim,
  samples,
  fragment,
  compileModule,
  nest,
  memoryLogger,
  expectOutput,
  typeErrors,
  freePort,
} from '../../lib';
import {until, nodeChild} from './_support';

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

const requestHeaders = (id: string) => ({
  kafka_correlationId: id,
  kafka_replyTopic: 'hero.kill.dragon.reply',
  kafka_replyPartition: '0',
});

claim(
  `${page}#incoming-messages`,
  "header values are decoded like value: a JSON header arrives as an object, a zero-byte header as a Buffer, and the page's interface types headers so that both fit",
  async () => {
    const received: any[] = [];
    (globalThis as any).__kafkaHeaders = received;
    const {HeaderCapture} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
@Controller()
export class HeaderCapture { @EventPattern('hero.created') on(@Payload() message: unknown) { (globalThis as any).__kafkaHeaders.push(message); } }
`,
      'kafka-header-capture',
    );
    @Module({controllers: [HeaderCapture]})
    class HeaderModule {}
    const {app, server} = await kafkaApp(HeaderModule);
    try {
      const message = record(Buffer.from('{"id":1}'), {'x-json': '{"a":1}', 'x-trace-id': 'abc'});
      (message.headers as any)['x-bin'] = Buffer.from([0, 1, 2]);
      await server.handleMessage({topic: 'hero.created', partition: 0, message});
      await until(() => received.length > 0);
      const headers = received[0].headers;
      expect(headers['x-json']).toEqual({a: 1});
      expect(headers['x-trace-id']).toBe('abc');
      expect(Buffer.isBuffer(headers['x-bin'])).toBe(true);
    } finally {
      await app.close();
    }
    // The page's interface accepts what the parser produced; the page's header check compiles against it.
    const iface = samples(page).sources.get('interfaces/incoming-kafka-message.interface')!;
    const reading = fragment(page, 'outgoing-responses', "typeof header === 'string'").value;
    const errors = typeErrors({
      'incoming-kafka-message.interface': iface,
      check: `import { IncomingKafkaMessage } from './incoming-kafka-message.interface';
const decoded: IncomingKafkaMessage<{ id: number }> = {
  topic: 'hero.created', partition: 0, offset: '42', timestamp: '0', key: null, value: { id: 1 },
  headers: { 'x-json': { a: 1 }, 'x-trace-id': 'abc', 'x-bin': new Uint8Array([0, 1, 2]) },
};
class Handler {
  logger = { log(text: string) { return text; } };
  ${reading.replace(/^@MessagePattern.*$/m, '')}
}
export { decoded, Handler };
`,
    });
    expect(errors.filter((e) => !/KillDragonDto|MessagePattern|Payload/.test(e.message))).toEqual(
      [],
    );
  },
);

/** A controller whose request handler throws what the message asks for. */
const throwingController = `
import { Controller } from '@nestjs/common';
import { EventPattern, MessagePattern, Payload, RpcException } from '@nestjs/microservices';
@Controller()
export class Throwing {
  @MessagePattern('hero.kill.dragon')
  kill(@Payload() message: { value: { dragonId: number } }) {
    const { dragonId } = message.value;
    if (dragonId === 1) throw new RpcException('dragon too strong');
    if (dragonId === 2) throw new Error('connect ECONNREFUSED db.internal:5432 (user heroes)');
    if (dragonId === 3) throw new RpcException({ code: 'DRAGON_TOO_STRONG', dragonId: 7 });
    return { outcome: 'victory', dragonId };
  }
  @EventPattern('hero.created')
  created() { throw new Error('event handler failed'); }
}
`;

claim.failure(
  `${page}#errors-in-request-handlers`,
  'without the filter, a @MessagePattern handler that throws (RpcException or Error) writes no reply and ends the process with ERR_INVALID_ARG_TYPE',
  async () => {
    for (const dragonId of [1, 2]) {
      const child = nodeChild(
        `
require('reflect-metadata');
const { NestFactory } = require('@nestjs/core');
const { Module, Controller } = require('@nestjs/common');
const { Transport, MessagePattern, RpcException } = require('@nestjs/microservices');
class Throwing { kill(message) { if (message.value.dragonId === 1) throw new RpcException('dragon too strong'); throw new Error('db down'); } }
MessagePattern('hero.kill.dragon')(Throwing.prototype, 'kill', Object.getOwnPropertyDescriptor(Throwing.prototype, 'kill'));
Controller()(Throwing);
class AppModule {}
Module({ controllers: [Throwing] })(AppModule);
(async () => {
  const app = await NestFactory.createMicroservice(AppModule, { transport: Transport.KAFKA, logger: false,
    options: { client: { clientId: 'heroes', brokers: ['127.0.0.1:9'] }, consumer: { groupId: 'heroes-consumer' } } });
  await app.init();
  const server = app.server;
  const written = [];
  server.producer = server.createClient().producer();
  server.producer.send = async (record) => { written.push(record); return []; };
  const h = (v) => Buffer.from(v);
  await server.handleMessage({ topic: 'hero.kill.dragon', partition: 0, message: { key: null, offset: '1', timestamp: '0',
    value: Buffer.from(JSON.stringify({ heroId: 1, dragonId: Number(process.argv[2]) })),
    headers: { kafka_correlationId: h('c1'), kafka_replyTopic: h('hero.kill.dragon.reply'), kafka_replyPartition: h('0') } } });
  console.log('HANDLED');
  setTimeout(() => { console.log('ALIVE written=' + written.length); process.exit(0); }, 1000);
})();
`,
        [String(dragonId)],
      );
      expect(await child.exited).toBe(1);
      expect(child.out).toContain('HANDLED');
      expect(child.out).not.toContain('ALIVE');
      const line = child.out.split('\n').find((l) => l.startsWith('TypeError'))!;
      expectOutput(page, 'kafka-handler-error', line);
    }
  },
);

async function kafkaReplies(useFilter: 'ts' | 'js' | null) {
  const {Throwing} = compileModule(throwingController, 'kafka-throwing');
  @Module({controllers: [Throwing]})
  class ThrowingModule {}
  const log = memoryLogger();
  const app = await NestFactory.createMicroservice(ThrowingModule, {
    transport: Transport.KAFKA,
    logger: log.logger,
    options,
  });
  if (useFilter) {
    const {KafkaExceptionFilter} = samples(page, {lang: useFilter}).require(
      'kafka-exception.filter',
    );
    const binding = fragment(page, 'errors-in-request-handlers', 'useGlobalFilters').value;
    expect(binding).toContain('app.useGlobalFilters(new KafkaExceptionFilter());');
    app.useGlobalFilters(new KafkaExceptionFilter());
  }
  await app.init();
  const server = (app as any).server;
  const written: any[] = [];
  server.producer = server.createClient().producer();
  server.producer.send = async (sent: any) => {
    written.push(sent);
    return [];
  };
  const client = new ClientKafka(options);
  const onReply = client.createResponseCallback();
  /** Sends a request for `dragonId` and returns what the client's observable callback receives. */
  const request = async (dragonId: number) => {
    const id = `c${dragonId}`;
    const got = new Promise<any>((resolve) => (client as any).routingMap.set(id, resolve));
    const before = written.length;
    await server.handleMessage({
      topic: 'hero.kill.dragon',
      partition: 0,
      message: record(Buffer.from(JSON.stringify({heroId: 1, dragonId})), requestHeaders(id)),
    });
    await until(() => written.length > before);
    const reply = written[written.length - 1];
    expect(reply.topic).toBe('hero.kill.dragon.reply');
    const [message] = reply.messages;
    await onReply({
      topic: reply.topic,
      partition: 0,
      message: {
        ...message,
        value: message.value === null ? null : Buffer.from(message.value),
        headers: {...message.headers},
      },
    });
    return got;
  };
  return {app, log, request, written};
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#errors-in-request-handlers`,
    `with the page's KafkaExceptionFilter, the reply carries the error: a string as it is, an object as the object the page shows, any other error as Internal server error (${lang})`,
    async () => {
      const {app, log, request} = await kafkaReplies(lang);
      const failures: unknown[] = [];
      const onRejection = (reason: unknown) => failures.push(reason);
      process.on('unhandledRejection', onRejection);
      try {
        expect(await request(0)).toEqual({
          err: undefined,
          response: {outcome: 'victory', dragonId: 0},
          isDisposed: true,
        });
        expect(await request(1)).toEqual({
          err: 'dragon too strong',
          response: undefined,
          isDisposed: true,
        });
        const object = await request(3);
        expectOutput(page, 'kafka-client-error', object.err);
        const unknown = await request(2);
        expect(unknown.err).toBe('Internal server error');
        // The internal error stays in the microservice's log, not in the reply.
        expect(log.text()).toContain('ECONNREFUSED db.internal:5432');
        expect(failures).toEqual([]);
      } finally {
        process.off('unhandledRejection', onRejection);
        await app.close().catch(() => undefined);
      }
    },
  );
}

claim.failure(
  `${page}#errors-in-request-handlers`,
  'an @EventPattern handler that throws writes nothing and leaves the process running: the error is logged',
  async () => {
    const {app, log, written} = await kafkaReplies(null);
    const failures: unknown[] = [];
    const onRejection = (reason: unknown) => failures.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      await (app as any).server.handleMessage({
        topic: 'hero.created',
        partition: 0,
        message: record(Buffer.from('{"id":1}')),
      });
      await until(() => log.text().includes('event handler failed'));
      await new Promise((r) => setTimeout(r, 100));
      expect(written).toEqual([]);
      expect(failures).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
      await app.close().catch(() => undefined);
    }
  },
);

claim.abuse(
  `${page}#incoming-messages`,
  'a request whose kafka_replyTopic header names another topic makes the microservice write its answer to that topic',
  async () => {
    const {app, written} = await kafkaReplies(null);
    try {
      await (app as any).server.handleMessage({
        topic: 'hero.kill.dragon',
        partition: 0,
        message: record(Buffer.from(JSON.stringify({heroId: 1, dragonId: 0})), {
          kafka_correlationId: 'forged',
          kafka_replyTopic: 'payments.refund',
          kafka_replyPartition: '0',
        }),
      });
      await until(() => written.length > 0);
      expect(written[0].topic).toBe('payments.refund');
      expect(written[0].messages[0].value).toBe('{"outcome":"victory","dragonId":0}');
    } finally {
      await app.close().catch(() => undefined);
    }
  },
);

const unreachable = async () => ({
  client: {
    clientId: 'heroes',
    brokers: [`127.0.0.1:${await freePort()}`],
    retry: {retries: 1, initialRetryTime: 50},
    connectionTimeout: 300,
  },
  consumer: {groupId: 'heroes-consumer'},
});

claim.failure(
  `${page}#sending-requests`,
  "with the broker unreachable, the client's connect() and send() reject once kafkajs has used up its retries, and the microservice's listen() rejects",
  async () => {
    const client = new ClientKafka(await unreachable());
    client.subscribeToResponseOf('hero.kill.dragon');
    const {lastValueFrom} = nest('rxjs');
    const sent: any = await lastValueFrom(client.send('hero.kill.dragon', {heroId: 1})).catch(
      (e: unknown) => e,
    );
    expect(sent.name).toMatch(/KafkaJS/);
    await client.close().catch(() => undefined);
    @Module({})
    class Empty {}
    const app = await NestFactory.createMicroservice(Empty, {
      transport: Transport.KAFKA,
      logger: log.logger,
      options: await unreachable(),
    });
    const failure: any = await app.listen().catch((e: unknown) => e);
    expect(failure.name).toMatch(/KafkaJS/);
    await app.close().catch(() => undefined);
  },
  30_000,
);

/**
 * The page's HeroesController (the message-pattern one) as a Kafka microservice in a child process, bound
 * with the page's KafkaExceptionFilter and, when `strategyFile` is given, run through the page's
 * SafeServerKafka. No broker: after app.init(), ServerKafka.handleMessage() gets one request record as
 * kafkajs hands it over. `mode` 'forged' sends a kafka_correlationId header holding JSON (the producer's
 * send() keeps the record); 'unreachable' keeps the real kafkajs producer, which never reached a broker;
 * 'both' sends the first, then the second.
 */
function replyChild(mode: 'forged' | 'unreachable' | 'both', strategyFile?: string) {
  const set = samples(page, {
    under: 'message-pattern',
    files: {'kafka-exception.filter': samples(page).sources.get('kafka-exception.filter')!},
  });
  return nodeChild(
    `
require('reflect-metadata');
const { NestFactory } = require('@nestjs/core');
const { Module } = require('@nestjs/common');
const { Transport } = require('@nestjs/microservices');
const [dir, mode, strategyFile] = process.argv.slice(2);
// The page's files import each other from folders (./interfaces/...); the set keeps them flat in dir.
const NodeModule = require('module');
const resolve = NodeModule._resolveFilename;
NodeModule._resolveFilename = function (request, parent, ...rest) {
  try {
    return resolve.call(this, request, parent, ...rest);
  } catch (err) {
    if (!request.startsWith('.')) throw err;
    return resolve.call(this, require('path').join(dir, require('path').basename(request) + '.js'), parent, ...rest);
  }
};
const { HeroesController } = require(dir + '/heroes.controller.js');
const { KafkaExceptionFilter } = require(dir + '/kafka-exception.filter.js');
class AppModule {}
Module({ controllers: [HeroesController] })(AppModule);
(async () => {
  const options = { client: { clientId: 'heroes', brokers: ['127.0.0.1:9'], retry: { retries: 0 } }, consumer: { groupId: 'heroes-consumer' } };
  const app = await NestFactory.createMicroservice(AppModule, strategyFile
    ? { logger: ['error'], strategy: new (require(strategyFile).SafeServerKafka)(options) }
    : { logger: ['error'], transport: Transport.KAFKA, options });
  app.useGlobalFilters(new KafkaExceptionFilter());
  await app.init();
  const server = app.server;
  const written = [];
  const h = (v) => Buffer.from(v);
  for (const each of mode === 'both' ? ['forged', 'unreachable'] : [mode]) {
    server.producer = server.createClient().producer();
    if (each === 'forged') server.producer.send = async (record) => { written.push(record); return []; };
    await server.handleMessage({ topic: 'hero.kill.dragon', partition: 0, message: { key: null, offset: '1', timestamp: '0',
      value: h(JSON.stringify({ heroId: 1, dragonId: 7 })),
      headers: { kafka_correlationId: h(each === 'forged' ? '{"a":1}' : 'c1'), kafka_replyTopic: h('hero.kill.dragon.reply'), kafka_replyPartition: h('0') } } });
    await new Promise((r) => setTimeout(r, 300));
  }
  setTimeout(() => { console.log('ALIVE written=' + written.length); process.exit(0); }, 500);
})();
`,
    [set.dir, mode, ...(strategyFile ? [strategyFile] : [])],
  );
}

claim.abuse(
  `${page}#replies-that-cannot-be-written`,
  'with the KafkaExceptionFilter alone, a request whose kafka_correlationId header holds JSON ends the process (ERR_INVALID_ARG_TYPE), and so does a reply the producer cannot write (KafkaJSError)',
  async () => {
    for (const [mode, error] of [
      ['forged', 'ERR_INVALID_ARG_TYPE'],
      ['unreachable', 'KafkaJSError: The producer is disconnected'],
    ] as const) {
      const child = replyChild(mode);
      try {
        expect(await child.exited, mode).toBe(1);
        expect(child.out, mode).toContain(error);
        expect(child.out, mode).not.toContain('ALIVE');
      } finally {
        await child.kill();
      }
    }
  },
  30_000,
);

for (const lang of ['ts', 'js'] as const) {
  claim.abuse(
    `${page}#replies-that-cannot-be-written`,
    `with the page's SafeServerKafka, the forged header and the unwritable reply are logged ('Could not write a reply'), and the process keeps running (${lang})`,
    async () => {
      const shown = fragment(page, 'replies-that-cannot-be-written', 'new SafeServerKafka(').value;
      expect(shown).toContain('app.useGlobalFilters(new KafkaExceptionFilter());');
      const set = samples(page, {lang, under: 'replies-that-cannot-be-written'});
      const child = replyChild('both', `${set.dir}/safe-server-kafka.js`);
      try {
        expect(await child.exited).toBe(0);
        const logged = child.out
          .split('\n')
          .filter((line) => line.includes('Could not write a reply to hero.kill.dragon.reply'));
        expect(logged).toEqual([
          expect.stringContaining('ERR_INVALID_ARG_TYPE'),
          expect.stringContaining('The producer is disconnected'),
        ]);
        expect(child.out).toContain('ALIVE written=0');
      } finally {
        await child.kill();
      }
    },
    30_000,
  );
}

claim.abuse(
  `${page}#client`,
  "the page's registerAsync() factory stops the startup with 'KAFKA_BROKERS is not set' when the variable is missing or empty, not with a TypeError about split",
  async () => {
    const set = samples(page, {pick: {'heroes.module': 2}});
    const {HeroesModule} = set.require('heroes.module');
    const saved = process.env.KAFKA_BROKERS;
    try {
      for (const value of [undefined, '']) {
        if (value === undefined) delete process.env.KAFKA_BROKERS;
        else process.env.KAFKA_BROKERS = value;
        await expect(
          NestFactory.createApplicationContext(HeroesModule, {logger: false, abortOnError: false}),
          String(value),
        ).rejects.toThrow('KAFKA_BROKERS is not set');
      }
    } finally {
      if (saved === undefined) delete process.env.KAFKA_BROKERS;
      else process.env.KAFKA_BROKERS = saved;
    }
  },
);

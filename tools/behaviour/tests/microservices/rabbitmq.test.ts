import {afterAll, beforeAll, expect} from 'vitest';
import {spawnSync} from 'node:child_process';
import {mkdtempSync, writeFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {
  claim,
  samples,
  fragment,
  compileModule,
  service,
  nest,
  memoryLogger,
  expectOutput,
  repoRoot,
  freePort,
  type Service,
} from '../../lib';
import {until, captureConsole, nodeChild, deepJson} from './_support';

const {NestFactory} = nest('@nestjs/core');
const {Module} = nest('@nestjs/common');
const {Transport, ClientProxyFactory, RmqRecordBuilder} = nest('@nestjs/microservices');
const {lastValueFrom} = nest('rxjs');
const amqp = nest('amqplib');
const page = 'docs/microservices/rabbitmq.md';

let rabbit: Service;
let admin: any;
let adminChannel: any;
const log = memoryLogger();
let output: ReturnType<typeof captureConsole>;
beforeAll(async () => {
  rabbit = await service('rabbitmq');
  admin = await amqp.connect(rabbit.url);
  adminChannel = await admin.createChannel();
  output = captureConsole();
});
afterAll(async () => {
  output?.restore();
  await admin?.close().catch(() => undefined);
  await rabbit?.stop();
});

async function micro(module: unknown, options: object) {
  const app = await NestFactory.createMicroservice(module, {
    transport: Transport.RMQ,
    logger: log.logger,
    options: {urls: [rabbit.url], ...options},
  });
  await app.listen();
  return app;
}
/**
 * ServerRMQ.close() closes its channel without waiting, and the broker's confirmation of a reply just sent
 * may still be pending: amqp-connection-manager then rejects that publish with "Channel closed", a promise
 * nobody handles. Let the confirmations arrive first.
 */
async function closeApp(app: any): Promise<void> {
  await new Promise((r) => setTimeout(r, 150));
  await app.close();
}
const client = (options: object) =>
  ClientProxyFactory.create({transport: Transport.RMQ, options: {urls: [rabbit.url], ...options}});
const catInterface = {
  ts: 'export interface Cat { name: string; age: number; breed: string }\n',
  js: 'export {};\n',
};

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#context`,
    `the page's CatsService and CatsController answer find_cat through cats_queue; the context gives pattern and delivery tag (${lang})`,
    async () => {
      const queue = `cats_queue_${lang}`;
      const appModule = samples(page, {under: 'client'}).sources.get('app.module')!;
      const set = samples(page, {
        lang,
        under: 'context',
        files: {'interfaces/cat.interface': catInterface[lang], 'app.module': appModule},
        edit: {
          'app.module': [
            [`urls: ['amqp://localhost:5672']`, `urls: ['${rabbit.url}']`],
            [`queue: 'cats_queue'`, `queue: '${queue}'`],
          ],
        },
      });
      const {CatsController} = set.require('cats.controller');
      @Module({controllers: [CatsController]})
      class ServerModule {}
      const app = await micro(ServerModule, {queue, queueOptions: {durable: true}});
      const ctx = await NestFactory.createApplicationContext(set.require('app.module').AppModule, {
        logger: log.logger,
      });
      try {
        const cats = ctx.get(set.require('cats.service').CatsService);
        expect(await cats.findOne(7)).toEqual({id: 7, name: 'Tom', age: 3, breed: 'Persian'});
        expect(output.lines.some((line) => /^Pattern find_cat, delivery \d+$/.test(line))).toBe(
          true,
        );
      } finally {
        await closeApp(ctx);
        await closeApp(app);
      }
    },
  );
}

claim(
  `${page}#client`,
  'a client asserting an existing queue with another durable flag gets PRECONDITION_FAILED: connect() never settles and the rejection is unhandled, which ends the process',
  async () => {
    const main = samples(page, {under: 'overview'}).sources.get('main')!;
    expect(main).toContain('durable: false');
    await adminChannel.assertQueue('mismatch_queue', {durable: false});
    // In a child process: an unhandled rejection ends a Node process, and would fail this test file.
    const dir = mkdtempSync(join(tmpdir(), 'behaviour-rmq-'));
    const script = join(dir, 'client.js');
    writeFileSync(
      script,
      `
const { ClientProxyFactory, Transport } = require('@nestjs/microservices');
const client = ClientProxyFactory.create({ transport: Transport.RMQ, options: { urls: [process.argv[2]], queue: 'mismatch_queue', queueOptions: { durable: true } } });
client.connect().then(() => console.log('CONNECTED'), (err) => console.log('REJECTED ' + err.message));
setTimeout(() => { console.log('ALIVE'); process.exit(0); }, 3000);
`,
    );
    const result = spawnSync(process.execPath, [script, rabbit.url], {
      encoding: 'utf8',
      timeout: 15_000,
      env: {...process.env, NODE_PATH: join(repoRoot, 'tools', 'behaviour', 'node_modules')},
    });
    rmSync(dir, {recursive: true, force: true});
    const output = result.stdout + result.stderr;
    expect(output).toContain(
      "PRECONDITION_FAILED - inequivalent arg 'durable' for queue 'mismatch_queue'",
    );
    expect(output).not.toContain('CONNECTED');
    expect(output).not.toContain('REJECTED');
    expect(output).not.toContain('ALIVE');
    expect(result.status).toBe(1);
  },
);

claim(
  `${page}#client`,
  'a request is a JSON body {pattern, data, id} sent to the queue with replyTo (direct reply-to by default) and a correlationId',
  async () => {
    await adminChannel.assertQueue('wire_queue', {durable: true});
    const seen: any[] = [];
    const {consumerTag} = await adminChannel.consume('wire_queue', (msg: any) => {
      seen.push({body: JSON.parse(msg.content.toString()), properties: msg.properties});
      adminChannel.ack(msg);
    });
    const c = client({queue: 'wire_queue', queueOptions: {durable: true}});
    const subscription = c.send('find_cat', 7).subscribe({error: () => undefined});
    try {
      await until(() => seen.length > 0);
      // The broker rewrites the pseudo-queue name into a per-channel reply address on delivery.
      expect(seen[0].properties.replyTo).toMatch(/^amq\.rabbitmq\.reply-to\./);
      expect(seen[0].properties.correlationId).toBeTruthy();
      expectOutput(page, 'rmq-request', seen[0].body, [[/"id":\s*"[^"]+"/, '"id":"ID"']]);
    } finally {
      subscription.unsubscribe();
      await adminChannel.cancel(consumerTag);
      c.close();
    }
  },
);

claim(
  `${page}#client`,
  'with replyQueue the client consumes a named queue declared beforehand',
  async () => {
    await adminChannel.assertQueue('cats_replies');
    const {Find} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
@Controller()
export class Find { @MessagePattern('find_cat') find(id: number) { return { id }; } }
`,
      'rmq-find',
    );
    @Module({controllers: [Find]})
    class FindModule {}
    const app = await micro(FindModule, {queue: 'reply_test_queue', queueOptions: {durable: true}});
    const shown = fragment(page, 'client', `replyQueue: 'cats_replies'`).value;
    expect(shown).toContain(`replyQueue: 'cats_replies'`);
    const c = client({
      queue: 'reply_test_queue',
      queueOptions: {durable: true},
      replyQueue: 'cats_replies',
    });
    try {
      expect(await lastValueFrom(c.send('find_cat', 3))).toEqual({id: 3});
    } finally {
      c.close();
      await closeApp(app);
    }
  },
);

claim(
  `${page}#client`,
  'several instances consume the queue together: each message is handled by exactly one',
  async () => {
    const hits: string[] = [];
    (globalThis as any).__rmqHits = hits;
    const make = (name: string) =>
      compileModule(
        `
import { Controller, Module } from '@nestjs/common';
import { EventPattern } from '@nestjs/microservices';
@Controller()
class H { @EventPattern('cat_adopted') on(d: { id: number }) { (globalThis as any).__rmqHits.push(d.id + ':${name}'); } }
@Module({ controllers: [H] })
export class M {}
`,
        `rmq-share-${name}`,
      ).M;
    const apps = [
      await micro(make('a'), {queue: 'shared_queue'}),
      await micro(make('b'), {queue: 'shared_queue'}),
    ];
    const c = client({queue: 'shared_queue'});
    try {
      for (let id = 1; id <= 6; id += 1)
        await lastValueFrom(c.emit('cat_adopted', {id, owner: 'x'}), {defaultValue: undefined});
      await until(() => hits.length >= 6);
      await new Promise((r) => setTimeout(r, 150));
      expect(hits.map((h) => Number(h.split(':')[0])).sort((a, b) => a - b)).toEqual([
        1, 2, 3, 4, 5, 6,
      ]);
      expect(new Set(hits.map((h) => h.split(':')[1])).size).toBe(2);
    } finally {
      c.close();
      for (const app of apps) await closeApp(app);
    }
  },
);

const adoptions = (failing: boolean) => `import { Injectable } from '@nestjs/common';
@Injectable()
export class AdoptionsService {
  async record(adoption) {
    globalThis.__rmqAdoptions.push(adoption.id);
    ${failing ? "throw new Error('registry down');" : ''}
  }
}
`;

claim(
  `${page}#message-acknowledgement`,
  'with noAck: false an unacknowledged message goes back to the queue when the connection closes, and comes again as redelivered; ack() removes it',
  async () => {
    const recorded: number[] = [];
    (globalThis as any).__rmqAdoptions = recorded;
    const queue = 'ack_queue';
    const {Forgetful} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { EventPattern } from '@nestjs/microservices';
@Controller()
export class Forgetful { @EventPattern('cat_adopted') on(d: { id: number }) { (globalThis as any).__rmqAdoptions.push(-d.id); } }
`,
      'rmq-forgetful',
    );
    @Module({controllers: [Forgetful]})
    class ForgetfulModule {}
    const options = {queue, queueOptions: {durable: true}, noAck: false};
    const first = await micro(ForgetfulModule, options);
    const c = client({queue, queueOptions: {durable: true}});
    await lastValueFrom(c.emit('cat_adopted', {id: 5, owner: 'Ann'}), {defaultValue: undefined});
    await until(() => recorded.includes(-5));
    expect((await adminChannel.checkQueue(queue)).messageCount).toBe(0);
    await closeApp(first);
    // The broker requeues the unacknowledged message once it sees the consumer's connection close.
    let ready = 0;
    for (let i = 0; i < 100 && ready === 0; i += 1) {
      ready = (await adminChannel.checkQueue(queue)).messageCount;
      if (ready === 0) await new Promise((r) => setTimeout(r, 20));
    }
    expect(ready).toBe(1);
    // The page's acknowledging controller picks the message up again.
    const set = samples(page, {
      under: 'message-acknowledgement',
      pick: {'cats.controller': 2},
      files: {'adoptions.service': adoptions(false)},
    });
    const {CatsController} = set.require('cats.controller');
    const redelivered: boolean[] = [];
    const original = CatsController.prototype.handleAdoption;
    const wrapped = function (this: unknown, adoption: unknown, context: any) {
      redelivered.push(context.getMessage().fields.redelivered);
      return original.call(this, adoption, context);
    };
    // Nest keeps the pattern on the method itself: carry it over.
    for (const key of Reflect.getMetadataKeys(original))
      Reflect.defineMetadata(key, Reflect.getMetadata(key, original), wrapped);
    CatsController.prototype.handleAdoption = wrapped;
    @Module({
      controllers: [CatsController],
      providers: [set.require('adoptions.service').AdoptionsService],
    })
    class AckModule {}
    const second = await micro(AckModule, options);
    try {
      await until(() => recorded.includes(5)).catch(async () => {
        throw new Error(
          `recorded ${JSON.stringify(recorded)} redelivered ${JSON.stringify(redelivered)} queue ${JSON.stringify(await adminChannel.checkQueue(queue))} log ${log.text().slice(-800)}`,
        );
      });
      expect(redelivered).toEqual([true]);
      await closeApp(second);
      expect((await adminChannel.checkQueue(queue)).messageCount).toBe(0);
    } finally {
      c.close();
      await closeApp(second).catch(() => undefined);
    }
  },
);

claim(
  `${page}#message-acknowledgement`,
  'nack(msg, false, false) drops a failed message: it is logged and not delivered again',
  async () => {
    const recorded: number[] = [];
    (globalThis as any).__rmqAdoptions = recorded;
    const queue = 'nack_queue';
    const set = samples(page, {
      under: 'message-acknowledgement',
      files: {'adoptions.service': adoptions(true)},
    });
    const {CatsController} = set.require('cats.controller');
    @Module({
      controllers: [CatsController],
      providers: [set.require('adoptions.service').AdoptionsService],
    })
    class NackModule {}
    const app = await micro(NackModule, {queue, queueOptions: {durable: true}, noAck: false});
    const c = client({queue, queueOptions: {durable: true}});
    try {
      await lastValueFrom(c.emit('cat_adopted', {id: 9, owner: 'Bo'}), {defaultValue: undefined});
      await until(() => log.text().includes('Adoption of cat 9 failed'));
      await new Promise((r) => setTimeout(r, 200));
      expect(recorded).toEqual([9]);
      await closeApp(app);
      expect((await adminChannel.checkQueue(queue)).messageCount).toBe(0);
    } finally {
      c.close();
      await closeApp(app).catch(() => undefined);
    }
  },
);

claim(
  `${page}#record-builders`,
  'RmqRecordBuilder options reach the AMQP message; the handler gets { id, owner }; client headers merge and the record wins',
  async () => {
    const got: any[] = [];
    (globalThis as any).__rmqRecord = got;
    const {Reader} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload, RmqContext } from '@nestjs/microservices';
@Controller()
export class Reader {
  @EventPattern('cat_adopted') on(@Payload() data: unknown, @Ctx() context: RmqContext) {
    const { headers, priority } = context.getMessage().properties;
    (globalThis as any).__rmqRecord.push({ data, headers, priority });
  }
}
`,
      'rmq-reader',
    );
    @Module({controllers: [Reader]})
    class ReaderModule {}
    const queueOptions = {durable: true, maxPriority: 10};
    const app = await micro(ReaderModule, {queue: 'record_queue', queueOptions});
    const {CatsService} = samples(page, {under: 'record-builders'}).require('cats.service');
    const c = client({
      queue: 'record_queue',
      queueOptions,
      headers: {'x-client': 'api-gateway', 'x-adoption-source': 'default'},
    });
    try {
      new CatsService(c).adopt(4, 'Cy');
      await until(() => got.length > 0);
      expect(got[0]).toEqual({
        data: {id: 4, owner: 'Cy'},
        headers: {'x-client': 'api-gateway', 'x-adoption-source': 'web'},
        priority: 3,
      });
      expect(new RmqRecordBuilder({a: 1}).setOptions({priority: 1}).build()).toEqual({
        data: {a: 1},
        options: {priority: 1},
      });
    } finally {
      c.close();
      await closeApp(app);
    }
  },
);

/** Publishes a raw body to `queue`, as a program outside Nest would. */
async function publishRaw(queue: string, body: string | Buffer) {
  adminChannel.sendToQueue(queue, Buffer.isBuffer(body) ? body : Buffer.from(body));
}

claim.abuse(
  `${page}#messages-that-are-not-json`,
  'with the built-in transporter, one message that is not JSON in the queue ends the microservice (SyntaxError, exit code 1)',
  async () => {
    const queue = 'poison_queue';
    await adminChannel.assertQueue(queue, {durable: false});
    const child = nodeChild(
      `
require('reflect-metadata');
const { NestFactory } = require('@nestjs/core');
const { Module, Controller } = require('@nestjs/common');
const { Transport, EventPattern } = require('@nestjs/microservices');
class Cats { adopted(a) { console.log('ADOPTED ' + JSON.stringify(a)); } }
EventPattern('cat_adopted')(Cats.prototype, 'adopted', Object.getOwnPropertyDescriptor(Cats.prototype, 'adopted'));
Controller()(Cats);
class AppModule {}
Module({ controllers: [Cats] })(AppModule);
(async () => {
  const app = await NestFactory.createMicroservice(AppModule, { transport: Transport.RMQ, logger: false,
    options: { urls: [process.argv[2]], queue: 'poison_queue', queueOptions: { durable: false } } });
  await app.listen();
  console.log('LISTENING');
})();
`,
      [rabbit.url],
    );
    try {
      await child.waitFor('LISTENING');
      await publishRaw(queue, 'adopt cat 7');
      expect(await child.exited).toBe(1);
      expect(child.out).toContain('SyntaxError');
      expect(child.out).not.toContain('ADOPTED');
    } finally {
      await child.kill();
    }
  },
  30_000,
);

for (const lang of ['ts', 'js'] as const) {
  claim.abuse(
    `${page}#messages-that-are-not-json`,
    `with the page's SafeServerRMQ and noAck: false, a message that is not JSON is logged and rejected, not requeued, and the next message is handled (${lang})`,
    async () => {
      const queue = `safe_queue_${lang}`;
      const {SafeServerRMQ} = samples(page, {lang}).require('safe-server-rmq');
      const shown = fragment(page, 'messages-that-are-not-json', 'new SafeServerRMQ(').value;
      expect(shown).toContain('noAck: false');
      const got: unknown[] = [];
      (globalThis as any).__rmqSafe = got;
      const {SafeCats} = compileModule(
        `
import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
@Controller()
export class SafeCats { @EventPattern('cat_adopted') on(@Payload() a: unknown) { (globalThis as any).__rmqSafe.push(a); } }
`,
        `rmq-safe-cats-${lang}`,
      );
      @Module({controllers: [SafeCats]})
      class SafeModule {}
      const app = await NestFactory.createMicroservice(SafeModule, {
        logger: log.logger,
        strategy: new SafeServerRMQ({
          urls: [rabbit.url],
          queue,
          queueOptions: {durable: true},
          noAck: false,
        }),
      });
      await app.listen();
      const c = client({queue, queueOptions: {durable: true}});
      try {
        await publishRaw(queue, 'adopt cat 7');
        await publishRaw(queue, Buffer.alloc(0));
        await lastValueFrom(c.emit('cat_adopted', {id: 8, owner: 'Ann'}), {
          defaultValue: undefined,
        });
        await until(() => got.length === 1);
        expect(got).toEqual([{id: 8, owner: 'Ann'}]);
        expect(log.text()).toContain('Dropped a message: it is not a JSON packet (11 bytes)');
        expect(log.text()).toContain('Dropped a message: it is not a JSON packet (0 bytes)');
        await new Promise((r) => setTimeout(r, 200));
        const state = await adminChannel.checkQueue(queue);
        expect(state.messageCount).toBe(0);
      } finally {
        c.close();
        await closeApp(app);
      }
    },
    30_000,
  );
}

/**
 * The guards chapter's ApiKeyGuard on a cat_adopted handler that acknowledges what it handles, consuming
 * `queue` with noAck: false and prefetchCount: 1; with the page's RmqNackFilter when `filter` is given.
 */
async function guardedConsumer(queue: string, filter?: 'ts' | 'js') {
  const {ApiKeyGuard} = samples('docs/microservices/guards.md').require('api-key.guard');
  (globalThis as any).__rmqGuard = ApiKeyGuard;
  const handled: unknown[] = [];
  (globalThis as any).__rmqGuarded = handled;
  const {Guarded} = compileModule(
    `
import { Controller, UseGuards } from '@nestjs/common';
import { Ctx, EventPattern, Payload, RmqContext } from '@nestjs/microservices';
@Controller()
export class Guarded {
  @UseGuards((globalThis as any).__rmqGuard)
  @EventPattern('cat_adopted')
  on(@Payload() adoption: { apiKey: string; id: number }, @Ctx() context: RmqContext) {
    (globalThis as any).__rmqGuarded.push(adoption.id);
    context.getChannelRef().ack(context.getMessage());
  }
}
`,
    `rmq-guarded-${queue}`,
  );
  @Module({controllers: [Guarded]})
  class GuardedModule {}
  const app = await NestFactory.createMicroservice(GuardedModule, {
    transport: Transport.RMQ,
    logger: log.logger,
    options: {
      urls: [rabbit.url],
      queue,
      queueOptions: {durable: true},
      noAck: false,
      prefetchCount: 1,
    },
  });
  if (filter) {
    const {RmqNackFilter} = samples(page, {
      lang: filter,
      under: 'messages-rejected-before-the-handler',
    }).require('rmq-nack.filter');
    app.useGlobalFilters(new RmqNackFilter());
  }
  await app.listen();
  return {app, handled};
}

async function withApiKey<T>(fn: () => Promise<T>): Promise<T> {
  const saved = process.env.INTERNAL_API_KEY;
  process.env.INTERNAL_API_KEY = 'k-rmq-123';
  try {
    return await fn();
  } finally {
    if (saved === undefined) delete process.env.INTERNAL_API_KEY;
    else process.env.INTERNAL_API_KEY = saved;
  }
}

claim.abuse(
  `${page}#messages-rejected-before-the-handler`,
  "with noAck: false and prefetchCount: 1, an event that the guards chapter's ApiKeyGuard refuses is never acknowledged, and the next event, with the right key, waits in the queue",
  async () =>
    withApiKey(async () => {
      const queue = 'guarded_stall_queue';
      await adminChannel.assertQueue(queue, {durable: true});
      await adminChannel.purgeQueue(queue);
      const {app, handled} = await guardedConsumer(queue);
      try {
        await publishRaw(
          queue,
          JSON.stringify({pattern: 'cat_adopted', data: {apiKey: 'wrong', id: 1}}),
        );
        await publishRaw(
          queue,
          JSON.stringify({pattern: 'cat_adopted', data: {apiKey: 'k-rmq-123', id: 2}}),
        );
        await new Promise((r) => setTimeout(r, 800));
        expect(handled).toEqual([]);
        expect((await adminChannel.checkQueue(queue)).messageCount).toBe(1);
      } finally {
        await closeApp(app);
        await adminChannel.purgeQueue(queue);
      }
    }),
  20_000,
);

for (const lang of ['ts', 'js'] as const) {
  claim.abuse(
    `${page}#messages-rejected-before-the-handler`,
    `with the page's RmqNackFilter, the refused event is rejected, the next one is handled, and the queue ends empty (${lang})`,
    async () =>
      withApiKey(async () => {
        const queue = `guarded_nack_queue_${lang}`;
        await adminChannel.assertQueue(queue, {durable: true});
        await adminChannel.purgeQueue(queue);
        const {app, handled} = await guardedConsumer(queue, lang);
        try {
          await publishRaw(
            queue,
            JSON.stringify({pattern: 'cat_adopted', data: {apiKey: 'wrong', id: 1}}),
          );
          await publishRaw(queue, JSON.stringify({pattern: 'cat_adopted', data: {id: 3}}));
          await publishRaw(
            queue,
            JSON.stringify({pattern: 'cat_adopted', data: {apiKey: 'k-rmq-123', id: 2}}),
          );
          await until(() => handled.length === 1);
          expect(handled).toEqual([2]);
          await new Promise((r) => setTimeout(r, 200));
          expect((await adminChannel.checkQueue(queue)).messageCount).toBe(0);
        } finally {
          await closeApp(app);
          await adminChannel.purgeQueue(queue);
        }
      }),
    20_000,
  );
}

/**
 * A cat_adopted event handler that acknowledges and prints each payload, in a child process, consuming
 * `queue` with noAck: false and prefetchCount: 2; through the page's SafeServerRMQ when `strategyFile`
 * is given, else through the built-in transporter.
 */
function adoptionChild(queue: string, strategyFile?: string) {
  return nodeChild(
    `
require('reflect-metadata');
const { NestFactory } = require('@nestjs/core');
const { Module, Controller } = require('@nestjs/common');
const { Transport, EventPattern, Payload, Ctx } = require('@nestjs/microservices');
class Cats { adopted(a, ctx) { console.log('ADOPTED ' + JSON.stringify(a)); ctx.getChannelRef().ack(ctx.getMessage()); } }
EventPattern('cat_adopted')(Cats.prototype, 'adopted', Object.getOwnPropertyDescriptor(Cats.prototype, 'adopted'));
Payload()(Cats.prototype, 'adopted', 0);
Ctx()(Cats.prototype, 'adopted', 1);
Controller()(Cats);
class AppModule {}
Module({ controllers: [Cats] })(AppModule);
(async () => {
  const options = { urls: [process.argv[2]], queue: process.argv[3], queueOptions: { durable: true }, noAck: false, prefetchCount: 2 };
  const app = await NestFactory.createMicroservice(AppModule, process.argv[4]
    ? { logger: ['error'], strategy: new (require(process.argv[4]).SafeServerRMQ)(options) }
    : { logger: ['error'], transport: Transport.RMQ, options });
  await app.listen();
  console.log('LISTENING');
})();
`,
    [rabbit.url, queue, ...(strategyFile ? [strategyFile] : [])],
  );
}

const hostile = {
  deepPattern: `{"pattern":${deepJson()},"data":1}`,
  deepId: `{"pattern":"cat_adopted","data":1,"id":${deepJson()}}`,
  unknownPattern: '{"pattern":"cat_sold","data":{"id":1}}',
  foreign: '{"id":7,"owner":"Ann"}',
};

claim.abuse(
  `${page}#messages-that-are-not-json`,
  'with the built-in transporter and noAck: false, a JSON message whose pattern is nested 10,000 levels deep ends the consumer (RangeError) and goes back to the queue for the next one',
  async () => {
    const queue = 'deep_pattern_queue';
    await adminChannel.assertQueue(queue, {durable: true});
    await adminChannel.purgeQueue(queue);
    const child = adoptionChild(queue);
    try {
      await child.waitFor('LISTENING');
      await publishRaw(queue, hostile.deepPattern);
      expect(await child.exited).toBe(1);
      expect(child.out).toContain('RangeError: Maximum call stack size exceeded');
      let state: any;
      for (let i = 0; i < 50; i += 1) {
        state = await adminChannel.checkQueue(queue);
        if (state.messageCount === 1) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(state.messageCount).toBe(1);
    } finally {
      await child.kill();
      await adminChannel.purgeQueue(queue);
    }
  },
  30_000,
);

for (const lang of ['ts', 'js'] as const) {
  claim.abuse(
    `${page}#messages-that-are-not-json`,
    `with the page's SafeServerRMQ, noAck: false and prefetchCount: 2, a deep pattern, a deep id, an unknown pattern and a foreign message are logged and rejected, and a real cat_adopted event still gets through (${lang})`,
    async () => {
      const queue = `hostile_queue_${lang}`;
      await adminChannel.assertQueue(queue, {durable: true});
      await adminChannel.purgeQueue(queue);
      const set = samples(page, {lang, under: 'messages-that-are-not-json'});
      const child = adoptionChild(queue, `${set.dir}/safe-server-rmq.js`);
      try {
        await child.waitFor('LISTENING');
        for (const body of Object.values(hostile)) await publishRaw(queue, body);
        await publishRaw(queue, '{"pattern":"cat_adopted","data":{"id":8,"owner":"Bob"}}');
        await child.waitFor('ADOPTED {"id":8,"owner":"Bob"}', 10_000);
        for (const problem of [
          'its pattern is missing or nested',
          'its id is not a string',
          'no handler serves its pattern',
        ]) {
          expect(child.out).toContain(`Dropped a message: ${problem}`);
        }
        expect(child.code).toBe(null);
        await new Promise((r) => setTimeout(r, 200));
        const state = await adminChannel.checkQueue(queue);
        expect(state.messageCount).toBe(0);
      } finally {
        await child.kill();
        await adminChannel.purgeQueue(queue);
      }
    },
    30_000,
  );
}

claim.abuse(
  `${page}#messages-that-are-not-json`,
  'with the built-in transporter, noAck: false and prefetchCount: 2, two JSON messages that no handler serves stay unacknowledged and stop the delivery: a real event waits in the queue',
  async () => {
    const queue = 'stall_queue';
    await adminChannel.assertQueue(queue, {durable: true});
    await adminChannel.purgeQueue(queue);
    const child = adoptionChild(queue);
    try {
      await child.waitFor('LISTENING');
      await publishRaw(queue, hostile.unknownPattern);
      await publishRaw(queue, hostile.foreign);
      await publishRaw(queue, '{"pattern":"cat_adopted","data":{"id":9}}');
      await new Promise((r) => setTimeout(r, 1000));
      expect(child.out).not.toContain('ADOPTED');
      const state = await adminChannel.checkQueue(queue);
      expect(state.messageCount).toBe(1);
    } finally {
      await child.kill();
      await adminChannel.purgeQueue(queue);
    }
  },
  30_000,
);

claim.abuse(
  `${page}#message-acknowledgement`,
  "a cat_adopted event with a null payload, published by another program: the page's nack() sample still rejects it, so it does not stay unacknowledged",
  async () => {
    const recorded: number[] = [];
    (globalThis as any).__rmqAdoptions = recorded;
    const queue = 'null_payload_queue';
    const set = samples(page, {
      under: 'message-acknowledgement',
      files: {'adoptions.service': adoptions(false)},
    });
    const {CatsController} = set.require('cats.controller');
    @Module({
      controllers: [CatsController],
      providers: [set.require('adoptions.service').AdoptionsService],
    })
    class NullModule {}
    const app = await micro(NullModule, {queue, queueOptions: {durable: true}, noAck: false});
    try {
      await publishRaw(queue, JSON.stringify({pattern: 'cat_adopted', data: null}));
      await until(() => log.text().includes('Adoption of cat undefined failed'));
      await closeApp(app);
      // Rejected, not requeued: nothing comes back once the connection is closed.
      await new Promise((r) => setTimeout(r, 300));
      expect((await adminChannel.checkQueue(queue)).messageCount).toBe(0);
    } finally {
      await closeApp(app).catch(() => undefined);
    }
  },
  30_000,
);

claim.failure(
  `${page}#message-acknowledgement`,
  'with noAck: false and prefetchCount: 1, a handler that throws before ack() stalls the consumer: later messages wait in the queue until the connection closes',
  async () => {
    const recorded: number[] = [];
    (globalThis as any).__rmqAdoptions = recorded;
    const queue = 'stalled_queue';
    const set = samples(page, {
      under: 'message-acknowledgement',
      pick: {'cats.controller': 2},
      files: {'adoptions.service': adoptions(true)},
    });
    const {CatsController} = set.require('cats.controller');
    @Module({
      controllers: [CatsController],
      providers: [set.require('adoptions.service').AdoptionsService],
    })
    class StallModule {}
    const app = await micro(StallModule, {
      queue,
      queueOptions: {durable: true},
      noAck: false,
      prefetchCount: 1,
    });
    const c = client({queue, queueOptions: {durable: true}});
    try {
      for (const id of [1, 2, 3])
        await lastValueFrom(c.emit('cat_adopted', {id, owner: 'Ann'}), {defaultValue: undefined});
      await until(() => recorded.length >= 1);
      await new Promise((r) => setTimeout(r, 500));
      expect(recorded).toEqual([1]);
      const state = await adminChannel.checkQueue(queue);
      expect(state.messageCount).toBe(2);
    } finally {
      c.close();
      await closeApp(app);
    }
  },
  30_000,
);

claim.failure(
  `${page}#message-acknowledgement`,
  'nack(msg, false, true) on a handler that always fails redelivers the same message without end',
  async () => {
    const deliveries: boolean[] = [];
    (globalThis as any).__rmqLoop = deliveries;
    const {Loop} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, RmqContext } from '@nestjs/microservices';
@Controller()
export class Loop {
  @EventPattern('cat_adopted') on(_d: unknown, @Ctx() context: RmqContext) {
    (globalThis as any).__rmqLoop.push(context.getMessage().fields.redelivered);
    context.getChannelRef().nack(context.getMessage(), false, true);
  }
}
`,
      'rmq-loop',
    );
    @Module({controllers: [Loop]})
    class LoopModule {}
    const queue = 'loop_queue';
    const app = await micro(LoopModule, {queue, queueOptions: {durable: true}, noAck: false});
    const c = client({queue, queueOptions: {durable: true}});
    try {
      await lastValueFrom(c.emit('cat_adopted', {id: 1, owner: 'Ann'}), {defaultValue: undefined});
      await until(() => deliveries.length >= 50, 10_000);
      expect(deliveries[0]).toBe(false);
      expect(deliveries.slice(1, 50).every(Boolean)).toBe(true);
    } finally {
      c.close();
      await closeApp(app);
    }
  },
  30_000,
);

claim.failure(
  `${page}#client`,
  'a request sent while no microservice consumes the queue waits there, and is answered once one starts',
  async () => {
    const queue = 'late_queue';
    const {Late} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
@Controller()
export class Late { @MessagePattern('find_cat') find(@Payload() id: number) { return { id, name: 'Tom' }; } }
`,
      'rmq-late',
    );
    @Module({controllers: [Late]})
    class LateModule {}
    const c = client({queue, queueOptions: {durable: true}});
    let app: any;
    try {
      const answer = lastValueFrom(c.send('find_cat', 7));
      await new Promise((r) => setTimeout(r, 500));
      expect((await adminChannel.checkQueue(queue)).messageCount).toBe(1);
      app = await micro(LateModule, {queue, queueOptions: {durable: true}});
      expect(await answer).toEqual({id: 7, name: 'Tom'});
    } finally {
      c.close();
      if (app) await closeApp(app);
    }
  },
  30_000,
);

claim.failure(
  `${page}#overview`,
  'with no broker at the address, listen() neither resolves nor rejects: the transporter logs the failure and keeps trying',
  async () => {
    const port = await freePort();
    @Module({})
    class Empty {}
    const quiet = memoryLogger();
    const app = await NestFactory.createMicroservice(Empty, {
      transport: Transport.RMQ,
      logger: quiet.logger,
      options: {urls: [`amqp://127.0.0.1:${port}`], queue: 'nowhere'},
    });
    const state: string[] = [];
    app.listen().then(
      () => state.push('resolved'),
      () => state.push('rejected'),
    );
    try {
      await until(() => quiet.text().includes('ECONNREFUSED'), 10_000);
      await new Promise((r) => setTimeout(r, 1000));
      expect(state).toEqual([]);
    } finally {
      await app.close().catch(() => undefined);
    }
  },
  30_000,
);

claim.abuse(
  `${page}#options`,
  "without RABBITMQ_URL the page's production options stop with 'RABBITMQ_URL is not set'; urls: [undefined] alone retries forever with an empty error",
  async () => {
    const shown = fragment(page, 'options', 'RABBITMQ_URL').value;
    const {start} = compileModule(
      `
import { NestFactory } from '@nestjs/core';
import { MicroserviceOptions, Transport } from '@nestjs/microservices';
import { Module } from '@nestjs/common';
@Module({})
class AppModule {}
export async function start() {
  ${shown}
  return app;
}
`,
      'rmq-env-check',
    );
    const saved = process.env.RABBITMQ_URL;
    try {
      for (const value of [undefined, '']) {
        if (value === undefined) delete process.env.RABBITMQ_URL;
        else process.env.RABBITMQ_URL = value;
        await expect(start()).rejects.toThrow('RABBITMQ_URL is not set');
      }
    } finally {
      if (saved === undefined) delete process.env.RABBITMQ_URL;
      else process.env.RABBITMQ_URL = saved;
    }
    @Module({})
    class Empty {}
    const quiet = memoryLogger();
    const app = await NestFactory.createMicroservice(Empty, {
      transport: Transport.RMQ,
      logger: quiet.logger,
      options: {urls: [undefined], queue: 'cats_queue'},
    });
    const state: string[] = [];
    app.listen().then(
      () => state.push('resolved'),
      () => state.push('rejected'),
    );
    try {
      await until(
        () =>
          quiet.lines.filter(
            (l) => l.message === 'Connection to transport failed. Trying to reconnect...',
          ).length >= 1,
        15_000,
      );
      await new Promise((r) => setTimeout(r, 500));
      expect(quiet.text()).toContain('{"err":{}}');
      expect(state).toEqual([]);
    } finally {
      await app.close().catch(() => undefined);
    }
  },
  30_000,
);

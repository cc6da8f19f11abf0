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
import {until, nodeChild, ownBroker, deepJson} from './_support';

const {NestFactory} = nest('@nestjs/core');
const {Module} = nest('@nestjs/common');
const {Transport, ClientProxyFactory, NatsRecordBuilder} = nest('@nestjs/microservices');
const {lastValueFrom} = nest('rxjs');
const natsPackage = nest('nats');
const page = 'docs/microservices/nats.md';

let nats: Service;
const log = memoryLogger();
const saved: unknown[] = [];
beforeAll(async () => {
  nats = await service('nats');
  (globalThis as any).__natsSaved = saved;
});
afterAll(async () => {
  await nats?.stop();
});

/** The repository the page's controller injects (not shown on the page). */
const repository = {
  ts: `import { Injectable } from '@nestjs/common';
@Injectable()
export class CatsRepository {
  async findByBreed(breed) { return [{ name: 'Tom', age: 3, breed }]; }
  async save(cat) { globalThis.__natsSaved.push(cat); }
}
`,
};
const catInterface = {
  ts: 'export interface Cat { name: string; age: number; breed: string }\n',
  js: 'export {};\n',
};

async function micro(module: unknown, options: object = {}) {
  const app = await NestFactory.createMicroservice(module, {
    transport: Transport.NATS,
    logger: log.logger,
    options: {servers: [nats.url], ...options},
  });
  await app.listen();
  // listen() resolves once the subscriptions are sent; a flush makes sure the server has them.
  await (app as any).server.natsClient.flush();
  return app;
}
const client = (options: object = {}) =>
  ClientProxyFactory.create({
    transport: Transport.NATS,
    options: {servers: [nats.url], ...options},
  });

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#request-response-and-events`,
    `the page's CatsService and CatsController: cats.find answers, cats.created is handled (${lang})`,
    async () => {
      const appModule = samples(page, {under: 'client'}).sources.get('app.module')!;
      const set = samples(page, {
        lang,
        under: 'request-response-and-events',
        files: {
          'cats.repository': repository.ts,
          'interfaces/cat.interface': catInterface[lang],
          'app.module': appModule,
        },
        edit: {'app.module': [[`servers: ['nats://localhost:4222']`, `servers: ['${nats.url}']`]]},
      });
      const {CatsController} = set.require('cats.controller');
      const {CatsRepository} = set.require('cats.repository');
      const {CatsService} = set.require('cats.service');
      const {AppModule} = set.require('app.module');
      @Module({controllers: [CatsController], providers: [CatsRepository]})
      class ServerModule {}
      const app = await micro(ServerModule);
      const ctx = await NestFactory.createApplicationContext(AppModule, {logger: log.logger});
      try {
        const cats = ctx.get(CatsService);
        expect(await cats.findByBreed('Persian')).toEqual([
          {name: 'Tom', age: 3, breed: 'Persian'},
        ]);
        const before = saved.length;
        cats.register({name: 'Kit', age: 1, breed: 'Sphynx'});
        await until(() => saved.length === before + 1);
      } finally {
        await ctx.close();
        await app.close();
      }
    },
  );
}

claim(
  `${page}#nats`,
  'send() publishes the request with an inbox reply subject; emit() publishes without one',
  async () => {
    const nc = await natsPackage.connect({servers: nats.url});
    const seen: {subject: string; reply: string}[] = [];
    const sub = nc.subscribe('intro.*', {
      callback: (_err: unknown, msg: any) => {
        seen.push({subject: msg.subject, reply: msg.reply ?? ''});
        if (msg.reply)
          msg.respond(
            natsPackage.JSONCodec().encode({
              response: 'hi',
              isDisposed: true,
              id: natsPackage.JSONCodec().decode(msg.data).id,
            }),
          );
      },
    });
    const c = client();
    try {
      expect(await lastValueFrom(c.send('intro.request', {}))).toBe('hi');
      await lastValueFrom(c.emit('intro.event', {}), {defaultValue: undefined});
      await until(() => seen.length === 2);
      expect(seen[0].subject).toBe('intro.request');
      expect(seen[0].reply).toMatch(/^_INBOX\./);
      expect(seen[1]).toEqual({subject: 'intro.event', reply: ''});
    } finally {
      sub.unsubscribe();
      await nc.close();
      c.close();
    }
  },
);

claim(
  `${page}#request-response-and-events`,
  'an object pattern becomes the subject {"cmd":"sum"}',
  async () => {
    const {Sum} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, NatsContext } from '@nestjs/microservices';
@Controller()
export class Sum { @MessagePattern({ cmd: 'sum' }) sum(_d: unknown, @Ctx() ctx: NatsContext) { return ctx.getSubject(); } }
`,
      'nats-sum',
    );
    @Module({controllers: [Sum]})
    class SumModule {}
    const app = await micro(SumModule);
    const c = client();
    try {
      expect(await lastValueFrom(c.send({cmd: 'sum'}, {}))).toBe('{"cmd":"sum"}');
    } finally {
      c.close();
      await app.close();
    }
  },
);

claim(
  `${page}#requests-nobody-answers`,
  'a request to a subject nobody subscribes to errors at once with the EmptyResponseException message',
  async () => {
    const c = client();
    try {
      const error: any = await lastValueFrom(c.send('cats.find', {breed: 'x'})).catch(
        (e: unknown) => e,
      );
      expect(error.constructor.name).toBe('EmptyResponseException');
      expect(error.message).toBe(
        'Empty response. There are no subscribers listening to that message ("cats.find")',
      );
    } finally {
      c.close();
    }
  },
);

const auditModule = () => {
  const {CatsAuditController} = samples(page, {under: 'wildcards'}).require(
    'cats-audit.controller',
  );
  @Module({controllers: [CatsAuditController]})
  class AuditModule {}
  return AuditModule;
};
const auditLines = () =>
  log.lines.filter((line) => line.context === 'CatsAuditController').map((line) => line.message);

/** A handler for `pattern` that records the subject and the payload of each message, compiled here. */
function recorder(pattern: string, name: string) {
  const got: string[] = [];
  (globalThis as any)[`__nats_${name}`] = got;
  const {Recorder} = compileModule(
    `
import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, NatsContext, Payload } from '@nestjs/microservices';
@Controller()
export class Recorder {
  @EventPattern(${JSON.stringify(pattern)})
  on(@Payload() data: unknown, @Ctx() ctx: NatsContext) { (globalThis as any).__nats_${name}.push(ctx.getSubject() + ': ' + JSON.stringify(data)); }
}
`,
    `nats-${name}`,
  );
  @Module({controllers: [Recorder]})
  class RecorderModule {}
  return {RecorderModule, Recorder, got};
}

claim(
  `${page}#messages-from-other-programs`,
  'a plain JSON message from another program is the payload of an event whose pattern is the subject',
  async () => {
    const {RecorderModule, got} = recorder('cats.created', 'foreign');
    const app = await micro(RecorderModule);
    const nc = await natsPackage.connect({servers: nats.url});
    try {
      const command = fragment(page, 'messages-from-other-programs', 'nats pub').value.trim();
      const [, subject, body] = /^nats pub (\S+) '(.*)'$/.exec(command)!;
      nc.publish(subject, new TextEncoder().encode(body));
      await nc.flush();
      await until(() => got.includes(`cats.created: ${body}`));
    } finally {
      await nc.close();
      await app.close();
    }
  },
);

claim(
  `${page}#wildcards`,
  'cats.> matches cats.created and cats.persian.created but not cats; getSubject() names the subject',
  async () => {
    const {RecorderModule, got} = recorder('cats.>', 'gt');
    const app = await micro(RecorderModule);
    const c = client();
    try {
      for (const subject of ['cats', 'cats.created', 'cats.persian.created']) {
        await lastValueFrom(c.emit(subject, {s: subject}), {defaultValue: undefined});
      }
      await until(() => got.length >= 2);
      await new Promise((r) => setTimeout(r, 100));
      expect(got.sort()).toEqual([
        'cats.created: {"s":"cats.created"}',
        'cats.persian.created: {"s":"cats.persian.created"}',
      ]);
    } finally {
      c.close();
      await app.close();
    }
  },
);

claim(
  `${page}#wildcards`,
  "the page's CatsAuditController (cats.*.created) hears cats.persian.created only, not cats.created nor cats.persian.kitten.created, and logs the breed quoted",
  async () => {
    const app = await micro(auditModule());
    const c = client();
    const before = auditLines().length;
    try {
      for (const subject of [
        'cats.created',
        'cats.persian.kitten.created',
        'cats.persian.created',
      ]) {
        await lastValueFrom(c.emit(subject, {}), {defaultValue: undefined});
      }
      await until(() => auditLines().length > before);
      await new Promise((r) => setTimeout(r, 100));
      expect(auditLines().slice(before)).toEqual(['A cat of breed "persian" was created']);
    } finally {
      c.close();
      await app.close();
    }
  },
);

/** The page's CatsController (cats.find, cats.created) with `extra` controllers, as one microservice. */
function catsWith(extra: unknown[]) {
  const set = samples(page, {
    under: 'request-response-and-events',
    files: {'cats.repository': repository.ts, 'interfaces/cat.interface': catInterface.ts},
  });
  const {CatsController} = set.require('cats.controller');
  const {CatsRepository} = set.require('cats.repository');
  @Module({controllers: [CatsController, ...(extra as any[])], providers: [CatsRepository]})
  class CatsModule {}
  return CatsModule;
}

claim.abuse(
  `${page}#wildcards`,
  "an @EventPattern('cats.>') next to the page's cats.find handler answers every cats.find request first, with an empty response: send() completes without a value (EmptyError)",
  async () => {
    const {Recorder} = recorder('cats.>', 'overlap');
    const app = await micro(catsWith([Recorder]));
    const c = client();
    try {
      for (let i = 0; i < 5; i += 1) {
        await expect(lastValueFrom(c.send('cats.find', {breed: 'Persian'}))).rejects.toMatchObject({
          name: 'EmptyError',
        });
      }
    } finally {
      c.close();
      await app.close();
    }
  },
);

claim.abuse(
  `${page}#wildcards`,
  "the page's CatsAuditController next to the page's CatsController: cats.find is answered with the cats, and cats.persian.created reaches the audit",
  async () => {
    const {CatsAuditController} = samples(page, {under: 'wildcards'}).require(
      'cats-audit.controller',
    );
    const app = await micro(catsWith([CatsAuditController]));
    const c = client();
    const before = auditLines().length;
    try {
      for (let i = 0; i < 5; i += 1) {
        expect(await lastValueFrom(c.send('cats.find', {breed: 'Persian'}))).toEqual([
          {name: 'Tom', age: 3, breed: 'Persian'},
        ]);
      }
      await lastValueFrom(c.emit('cats.persian.created', {name: 'Tom'}), {defaultValue: undefined});
      await until(() => auditLines().length > before);
    } finally {
      c.close();
      await app.close();
    }
  },
);

claim(
  `${page}#queue-groups`,
  'without queue every instance handles each event; with a shared queue exactly one does; separate queues each get a copy',
  async () => {
    const hits: string[] = [];
    (globalThis as any).__natsHits = hits;
    const make = (name: string) => {
      const mod = compileModule(
        `
import { Controller, Module } from '@nestjs/common';
import { EventPattern } from '@nestjs/microservices';
@Controller()
class H { @EventPattern('queue.test') on(d: { run: string }) { (globalThis as any).__natsHits.push(d.run + ':${name}'); } }
@Module({ controllers: [H] })
export class M {}
`,
        `nats-queue-${name}`,
      );
      return mod.M;
    };
    const apps = [
      await micro(make('a1'), {queue: 'cats_queue'}),
      await micro(make('a2'), {queue: 'cats_queue'}),
      await micro(make('b1'), {queue: 'audit_queue'}),
      await micro(make('n1')),
      await micro(make('n2')),
    ];
    const c = client();
    try {
      await lastValueFrom(c.emit('queue.test', {run: 'r'}), {defaultValue: undefined});
      await until(() => hits.length >= 4);
      await new Promise((r) => setTimeout(r, 150));
      const names = hits.map((h) => h.split(':')[1]).sort();
      expect(names.filter((n) => n.startsWith('a'))).toHaveLength(1);
      expect(names.filter((n) => !n.startsWith('a'))).toEqual(['b1', 'n1', 'n2']);
    } finally {
      c.close();
      for (const app of apps) await app.close();
    }
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#record-builders`,
    `NatsRecordBuilder headers reach getHeaders(); without headers the handler says someone (${lang})`,
    async () => {
      const {CatsController} = samples(page, {lang, under: 'context'}).require('cats.controller');
      const {CatsService} = samples(page, {lang, under: 'record-builders'}).require('cats.service');
      @Module({controllers: [CatsController]})
      class CountModule {}
      const app = await micro(CountModule);
      const c = client();
      try {
        const cats = new CatsService(c);
        expect(await lastValueFrom(cats.count('Persian', 'alice'))).toBe(
          'alice asked on cats.count for Persian cats',
        );
        expect(await lastValueFrom(c.send('cats.count', {breed: 'Sphynx'}))).toBe(
          'someone asked on cats.count for Sphynx cats',
        );
      } finally {
        c.close();
        await app.close();
      }
    },
  );
}

claim(
  `${page}#record-builders`,
  'client default headers are added unless the record already has the key; get() of a missing header is an empty string',
  async () => {
    const {Echo} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, NatsContext } from '@nestjs/microservices';
@Controller()
export class Echo {
  @MessagePattern('echo.headers') echo(_d: unknown, @Ctx() ctx: NatsContext) {
    const h = ctx.getHeaders();
    return { version: h?.get('x-version'), missing: h?.get('x-missing') };
  }
}
`,
      'nats-echo',
    );
    @Module({controllers: [Echo]})
    class EchoModule {}
    const app = await micro(EchoModule);
    const options = fragment(page, 'record-builders', `headers: { 'x-version': '1.0.0' }`).value;
    expect(options).toContain(`headers: { 'x-version': '1.0.0' }`);
    const c = client({headers: {'x-version': '1.0.0'}});
    try {
      expect(await lastValueFrom(c.send('echo.headers', {}))).toEqual({
        version: '1.0.0',
        missing: '',
      });
      const headers = natsPackage.headers();
      headers.set('x-version', '2.0.0');
      const record = new NatsRecordBuilder({}).setHeaders(headers).build();
      expect(await lastValueFrom(c.send('echo.headers', record))).toEqual({
        version: '2.0.0',
        missing: '',
      });
    } finally {
      c.close();
      await app.close();
    }
  },
);

/** Publishes raw bytes as a program outside Nest would (nats pub). */
async function publishRaw(
  url: string,
  subject: string,
  body: string,
  headers?: Record<string, string>,
) {
  const nc = await natsPackage.connect({servers: url});
  try {
    let h: any;
    if (headers) {
      h = natsPackage.headers();
      for (const [k, v] of Object.entries(headers)) h.set(k, v);
    }
    nc.publish(subject, new TextEncoder().encode(body), h ? {headers: h} : undefined);
    await nc.flush();
  } finally {
    await nc.close();
  }
}

/** A NATS microservice with a cats.created event handler that prints the payload, in a child process. */
function natsChild(options: object, deserializerDir?: string) {
  return nodeChild(
    `
require('reflect-metadata');
const { NestFactory } = require('@nestjs/core');
const { Module, Controller } = require('@nestjs/common');
const { Transport, EventPattern } = require('@nestjs/microservices');
class Cats { created(cat) { console.log('CREATED ' + JSON.stringify(cat)); } }
EventPattern('cats.created')(Cats.prototype, 'created', Object.getOwnPropertyDescriptor(Cats.prototype, 'created'));
Controller()(Cats);
class AppModule {}
Module({ controllers: [Cats] })(AppModule);
(async () => {
  const options = JSON.parse(process.argv[2]);
  if (process.argv[3]) options.deserializer = new (require(process.argv[3] + '/safe-nats.deserializer.js').SafeNatsDeserializer)();
  const app = await NestFactory.createMicroservice(AppModule, { transport: Transport.NATS, logger: ['error', 'warn', 'log'], options });
  try {
    await app.listen();
    await app.server.natsClient.flush();
    console.log('LISTENING');
  } catch (err) {
    console.log('LISTEN REJECTED ' + err.code);
    process.exitCode = 1;
  }
})();
`,
    [JSON.stringify(options), ...(deserializerDir ? [deserializerDir] : [])],
  );
}

claim.abuse(
  `${page}#messages-from-other-programs`,
  'with the default deserializer, one message that is not JSON published on a handled subject ends the microservice with NatsError: Bad JSON',
  async () => {
    const child = natsChild({servers: [nats.url]});
    try {
      await child.waitFor('LISTENING');
      await publishRaw(nats.url, 'cats.created', 'hello');
      expect(await child.exited).toBe(1);
      expect(child.out).toContain('NatsError: Bad JSON');
    } finally {
      await child.kill();
    }
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim.abuse(
    `${page}#messages-from-other-programs`,
    `with the page's SafeNatsDeserializer, a non-JSON or empty message reaches the handler as a string, a JSON one as its value, a Nest event as its data, and the microservice keeps running (${lang})`,
    async () => {
      const set = samples(page, {lang});
      const shown = fragment(
        page,
        'messages-from-other-programs',
        'new SafeNatsDeserializer()',
      ).value;
      expect(shown).toContain('deserializer: new SafeNatsDeserializer(),');
      const child = natsChild({servers: [nats.url]}, set.dir);
      const c = client();
      try {
        await child.waitFor('LISTENING');
        await publishRaw(nats.url, 'cats.created', 'hello');
        await publishRaw(nats.url, 'cats.created', '');
        await publishRaw(nats.url, 'cats.created', '{"name":"Tom"}');
        await lastValueFrom(c.emit('cats.created', {name: 'Kit'}), {defaultValue: undefined});
        await child.waitFor('CREATED {"name":"Kit"}');
        const created = child.out
          .split('\n')
          .filter((line) => line.startsWith('CREATED '))
          .map((line) => line.slice('CREATED '.length));
        expect(created).toEqual(['"hello"', '""', '{"name":"Tom"}', '{"name":"Kit"}']);
        expect(child.code).toBe(null);
      } finally {
        c.close();
        await child.kill();
      }
    },
  );
}

/** Publishes `body` on `subject` with a reply subject, as `nats req` would, without waiting for an answer. */
async function requestRaw(url: string, subject: string, body: string) {
  const nc = await natsPackage.connect({servers: url});
  try {
    nc.publish(subject, new TextEncoder().encode(body), {
      reply: nc.options.inboxPrefix ?? '_INBOX.raw',
    });
    await nc.flush();
  } finally {
    await nc.close();
  }
}
const deepIdRequest = `{"data":{"name":"Tom"},"id":${deepJson()}}`;

claim.abuse(
  `${page}#messages-from-other-programs`,
  'a JSON request whose id is nested 10,000 levels deep, sent with a reply subject, ends the microservice when the reply is written, with the default deserializer as with one that passes packets on unchecked',
  async () => {
    const child = natsChild({servers: [nats.url]});
    try {
      await child.waitFor('LISTENING');
      await requestRaw(nats.url, 'cats.created', deepIdRequest);
      expect(await child.exited).toBe(1);
      expect(child.out).toContain('RangeError: Maximum call stack size exceeded');
    } finally {
      await child.kill();
    }
  },
  20_000,
);

for (const lang of ['ts', 'js'] as const) {
  claim.abuse(
    `${page}#messages-from-other-programs`,
    `with the page's SafeNatsDeserializer, a request whose id is nested 10,000 levels deep is handed on as an event, and the microservice keeps running (${lang})`,
    async () => {
      const set = samples(page, {lang});
      const child = natsChild({servers: [nats.url]}, set.dir);
      const c = client();
      try {
        await child.waitFor('LISTENING');
        await requestRaw(nats.url, 'cats.created', deepIdRequest);
        await lastValueFrom(c.emit('cats.created', {name: 'Kit'}), {defaultValue: undefined});
        await child.waitFor('CREATED {"name":"Kit"}');
        expect(child.code).toBe(null);
      } finally {
        c.close();
        await child.kill();
      }
    },
    20_000,
  );
}

claim.failure(
  `${page}#options`,
  'with no NATS server at startup listen() rejects with CONNECTION_REFUSED; with waitOnFirstConnect: true it waits and resolves once the server is up',
  async () => {
    const own = await ownBroker('nats');
    const refused = natsChild({servers: [own.url]});
    const waiting = natsChild({
      servers: [own.url],
      waitOnFirstConnect: true,
      reconnectTimeWait: 100,
      maxReconnectAttempts: -1,
    });
    try {
      expect(await refused.exited).toBe(1);
      expect(refused.out).toContain('LISTEN REJECTED CONNECTION_REFUSED');
      await new Promise((r) => setTimeout(r, 500));
      expect(waiting.out).not.toContain('LISTENING');
      await own.start();
      await waiting.waitFor('LISTENING');
      await publishRaw(own.url, 'cats.created', '{"name":"Tom"}');
      await waiting.waitFor('CREATED {"name":"Tom"}');
    } finally {
      await waiting.kill();
      await own.remove();
    }
  },
  30_000,
);

claim.failure(
  `${page}#options`,
  'after a NATS restart the microservice reconnects, logs the status changes, and handles new messages; once maxReconnectAttempts are used up the process ends with exit code 0',
  async () => {
    const own = await ownBroker('nats');
    await own.start();
    const forever = natsChild({
      servers: [own.url],
      reconnectTimeWait: 100,
      maxReconnectAttempts: -1,
    });
    const limited = natsChild({
      servers: [own.url],
      reconnectTimeWait: 100,
      maxReconnectAttempts: 2,
    });
    try {
      await forever.waitFor('LISTENING');
      await limited.waitFor('LISTENING');
      await own.stop();
      // Two attempts 100 ms apart are used up well within a second.
      await new Promise((r) => setTimeout(r, 1500));
      await own.start();
      await forever.waitFor('reconnect', 10_000);
      // The reconnected client has sent its subscriptions again once this publish gets through.
      for (let i = 0; !forever.out.includes('CREATED {"n":1}'); i += 1) {
        if (i > 100) throw new Error(forever.out);
        await publishRaw(own.url, 'cats.created', '{"n":1}');
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(forever.out).toMatch(/disconnect/i);
      await publishRaw(own.url, 'cats.created', '{"n":2}');
      await forever.waitFor('CREATED {"n":2}');
      // The closed connection was the last thing keeping the process alive: it ended, quietly, with 0.
      expect(await limited.exited).toBe(0);
      expect(limited.out).toContain('NatsStatus: type: "reconnecting"');
      expect(limited.out).not.toContain('CREATED');
    } finally {
      await forever.kill();
      await limited.kill();
      await own.remove();
    }
  },
  30_000,
);

claim.abuse(
  `${page}#context`,
  "any publisher can put any x-requested-by header on a request: the page's handler reports it as given",
  async () => {
    const set = samples(page, {under: 'context'});
    const {CatsController} = set.require('cats.controller');
    @Module({controllers: [CatsController]})
    class CountModule {}
    const app = await micro(CountModule);
    const nc = await natsPackage.connect({servers: nats.url});
    try {
      const h = natsPackage.headers();
      h.set('x-requested-by', 'admin');
      const codec = natsPackage.JSONCodec();
      const reply = await nc.request(
        'cats.count',
        codec.encode({pattern: 'cats.count', data: {breed: 'Persian'}, id: 'forged'}),
        {headers: h, timeout: 2000},
      );
      expect(codec.decode(reply.data)).toEqual({
        id: 'forged',
        response: 'admin asked on cats.count for Persian cats',
        isDisposed: true,
      });
    } finally {
      await nc.close();
      await app.close();
    }
  },
);

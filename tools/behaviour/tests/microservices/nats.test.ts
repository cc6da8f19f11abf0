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
import {until} from './_support';

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
  const {CatsAuditController} = samples(page, {under: 'wildcards'}).require('cats.controller');
  @Module({controllers: [CatsAuditController]})
  class AuditModule {}
  return AuditModule;
};
const auditLines = () =>
  log.lines.filter((line) => line.context === 'CatsAuditController').map((line) => line.message);

claim(
  `${page}#messages-from-other-programs`,
  'a plain JSON message from another program is the payload of an event whose pattern is the subject',
  async () => {
    const app = await micro(auditModule());
    const nc = await natsPackage.connect({servers: nats.url});
    try {
      const command = fragment(page, 'messages-from-other-programs', 'nats pub').value.trim();
      const [, subject, body] = /^nats pub (\S+) '(.*)'$/.exec(command)!;
      nc.publish(subject, new TextEncoder().encode(body));
      await nc.flush();
      await until(() => auditLines().includes(`cats.created: ${body}`));
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
    const app = await micro(auditModule());
    const c = client();
    const before = auditLines().length;
    try {
      for (const subject of ['cats', 'cats.created', 'cats.persian.created']) {
        await lastValueFrom(c.emit(subject, {s: subject}), {defaultValue: undefined});
      }
      await until(() => auditLines().length >= before + 2);
      await new Promise((r) => setTimeout(r, 100));
      expect(auditLines().slice(before).sort()).toEqual([
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
  'cats.*.created matches cats.persian.created only, not cats.created nor cats.persian.kitten.created',
  async () => {
    const got: string[] = [];
    (globalThis as any).__natsStar = got;
    const {Star} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, NatsContext } from '@nestjs/microservices';
@Controller()
export class Star { @EventPattern('cats.*.created') on(_d: unknown, @Ctx() ctx: NatsContext) { (globalThis as any).__natsStar.push(ctx.getSubject()); } }
`,
      'nats-star',
    );
    @Module({controllers: [Star]})
    class StarModule {}
    const app = await micro(StarModule);
    const c = client();
    try {
      for (const subject of [
        'cats.created',
        'cats.persian.kitten.created',
        'cats.persian.created',
      ]) {
        await lastValueFrom(c.emit(subject, {}), {defaultValue: undefined});
      }
      await until(() => got.length > 0);
      await new Promise((r) => setTimeout(r, 100));
      expect(got).toEqual(['cats.persian.created']);
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

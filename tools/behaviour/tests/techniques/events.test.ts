import {afterEach, describe, expect} from 'vitest';
import {claim, samples, compileModule, nest, listen, memoryLogger, fragment} from '../../lib';
import {listeningScript, startChild, type ChildApp} from './_child-app';

const {Module, Injectable, Controller, Scope, Inject, ConsoleLogger} = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const {EventEmitterModule, EventEmitter2, OnEvent, EVENT_PAYLOAD} = nest('@nestjs/event-emitter');
const page = 'docs/techniques/events.md';

let toClose: any[] = [];
afterEach(async () => {
  for (const app of toClose) await app.close();
  toClose = [];
});

/**
 * The files the page refers to without showing them: the reader's own audit log and mail service
 * (CommonJS, so that the TypeScript and the JavaScript sets load the same file), working or failing.
 */
const missing = (_lang: 'ts' | 'js', failing: {audit?: boolean; mail?: boolean} = {}) => ({
  'audit-log.service': `
const { Injectable } = require('@nestjs/common');
class AuditLogService {
  constructor() { this.entries = []; }
  async record(entry) {
    ${failing.audit ? "throw new Error('audit store down');" : 'this.entries.push(entry);'}
  }
}
exports.AuditLogService = Injectable()(AuditLogService) || AuditLogService;
`,
  'mail.service': `
const { Injectable } = require('@nestjs/common');
class MailService {
  constructor() { this.sent = []; }
  async sendConfirmation(email, orderId) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    ${failing.mail ? "throw new Error('mail server down');" : 'this.sent.push(orderId);'}
  }
}
exports.MailService = Injectable()(MailService) || MailService;
`,
});

/** Runs `fn` with process.stdout/stderr captured (colors off) and returns what was written. */
async function capture(fn: () => unknown): Promise<string> {
  const written: string[] = [];
  const write = {out: process.stdout.write, err: process.stderr.write};
  const noColor = process.env.NO_COLOR;
  process.env.NO_COLOR = '1';
  process.stdout.write = process.stderr.write = ((chunk: any) => {
    written.push(String(chunk));
    return true;
  }) as any;
  try {
    await fn();
  } finally {
    process.stdout.write = write.out;
    process.stderr.write = write.err;
    if (noColor === undefined) delete process.env.NO_COLOR;
    else process.env.NO_COLOR = noColor;
  }
  return written.join('');
}

async function boot(
  imports: unknown[],
  providers: unknown[] = [],
  controllers: unknown[] = [],
  logger?: any,
) {
  @Module({imports, providers, controllers})
  class AppModule {}
  const app = await NestFactory.create(AppModule, {logger: logger ?? false});
  toClose.push(app);
  await app.init();
  return app;
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#example`,
    `POST /orders emits order.created and the listener logs the confirmation (${lang})`,
    async () => {
      // app.module and orders.module are shown in TypeScript only, with nothing TypeScript-specific in them: a JS reader copies them as they are.
      const ts = samples(page, {files: missing('ts')});
      const shared: Record<string, string> =
        lang === 'js'
          ? {
              'app.module': ts.sources.get('app.module')!,
              'orders.module': ts.sources.get('orders.module')!,
            }
          : {};
      const set = samples(page, {lang, files: {...missing(lang), ...shared}});
      const {AppModule} = set.require('app.module');
      const log = memoryLogger();
      const app = await NestFactory.create(AppModule, {logger: log.logger});
      toClose.push(app);
      const base = await listen(app);
      const response = await fetch(`${base}/orders`, {
        method: 'POST',
        headers: {'content-type': 'application/json'},
        body: JSON.stringify({customerEmail: 'ada@example.com', total: 12}),
      });
      expect(response.status).toBe(201);
      expect(await response.json()).toEqual({id: 1, customerEmail: 'ada@example.com', total: 12});
      expect(log.lines).toContainEqual({
        level: 'log',
        message: 'Sending a confirmation to "ada@example.com"',
        context: 'OrderCreatedListener',
      });
      const invalid = await fetch(`${base}/orders`, {
        method: 'POST',
        headers: {'content-type': 'application/json'},
        body: JSON.stringify({customerEmail: 'not an address', total: '12'}),
      });
      expect(invalid.status).toBe(400);
      expect(log.lines.filter((line) => line.context === 'OrderCreatedListener')).toHaveLength(1);
    },
  );

  claim.abuse(
    `${page}#listening-to-events`,
    `a customerEmail that @IsEmail() accepts, with a line break and a fake log entry in its quoted local part: the page's OrderCreatedListener prints one ConsoleLogger line, the forged entry stays inside it (${lang})`,
    async () => {
      const ts = samples(page, {files: missing('ts')});
      const shared: Record<string, string> =
        lang === 'js'
          ? {
              'app.module': ts.sources.get('app.module')!,
              'orders.module': ts.sources.get('orders.module')!,
            }
          : {};
      const set = samples(page, {lang, files: {...missing(lang), ...shared}});
      const {AppModule} = set.require('app.module');
      const forged = '"x\n[Nest] 1  - 01/18/2022, 9:41:07 AM     LOG [Auth] admin in"@example.com';
      let status = 0;
      const out = await capture(async () => {
        const app = await NestFactory.create(AppModule, {logger: new ConsoleLogger()});
        toClose.push(app);
        const base = await listen(app);
        status = (await postOrder(base, {customerEmail: forged, total: 12})).status;
      });
      expect(status).toBe(201);
      const lines = out.split('\n');
      const confirmation = lines.filter((line) => line.includes('[OrderCreatedListener]'));
      expect(confirmation).toHaveLength(1);
      expect(confirmation[0]).toContain(
        'Sending a confirmation to "\\"x\\n[Nest] 1  - 01/18/2022, 9:41:07 AM     LOG [Auth] admin in\\"@example.com"',
      );
      expect(lines.filter((line) => line.startsWith('[Nest] 1  - '))).toEqual([]);
    },
  );
}

claim(
  `${page}#dispatching-events`,
  'emit() calls listeners synchronously and returns whether one existed; emitAsync() resolves with their results',
  async () => {
    const calls: string[] = [];
    @Injectable()
    class Listener {
      @OnEvent('order.created')
      first(payload: {id: number}) {
        calls.push(`first ${payload.id}`);
        return 'one';
      }
      @OnEvent('order.created')
      async second() {
        return 'two';
      }
    }
    const app = await boot([EventEmitterModule.forRoot()], [Listener]);
    const emitter = app.get(EventEmitter2);
    expect(emitter.emit('order.created', {id: 1})).toBe(true);
    expect(calls).toEqual(['first 1']);
    expect(emitter.emit('nobody.listens', {})).toBe(false);
    expect(await emitter.emitAsync('order.created', {id: 2})).toEqual(['one', 'two']);
  },
);

claim(
  `${page}#getting-started`,
  'the emitter is global: a listener in another module hears order.created without importing OrdersModule',
  async () => {
    const set = samples(page, {files: missing('ts'), pick: {'orders.module': 1}});
    const {OrdersModule} = set.require('orders.module');
    const {OrdersService} = set.require('orders.service');
    const heard: unknown[] = [];
    @Injectable()
    class NotificationsListener {
      @OnEvent('order.created')
      notify(event: unknown) {
        heard.push(event);
      }
    }
    @Module({providers: [NotificationsListener]})
    class NotificationsModule {}
    const app = await boot([EventEmitterModule.forRoot(), OrdersModule, NotificationsModule]);
    app.get(OrdersService).create({customerEmail: 'b@example.com', total: 3});
    expect(heard).toEqual([{orderId: 1, customerEmail: 'b@example.com', total: 3}]);
  },
);

claim(
  `${page}#getting-started`,
  'with global: false a module that does not import EventEmitterModule cannot inject the emitter',
  async () => {
    const set = samples(page, {files: missing('ts'), pick: {'orders.module': 1}});
    const {OrdersModule} = set.require('orders.module');
    @Module({imports: [EventEmitterModule.forRoot({global: false}), OrdersModule]})
    class AppModule {}
    await expect(
      NestFactory.create(AppModule, {logger: false, abortOnError: false}),
    ).rejects.toThrow(/can't resolve dependencies of the OrdersService \(\?\)[\s\S]*EventEmitter/);
  },
);

claim(
  `${page}#getting-started`,
  'listeners are subscribed at bootstrap and removed when the application shuts down',
  async () => {
    @Injectable()
    class Listener {
      @OnEvent('ping')
      onPing() {
        return 'pong';
      }
    }
    @Module({imports: [EventEmitterModule.forRoot()], providers: [Listener]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, {logger: false});
    const emitter = app.get(EventEmitter2);
    expect(emitter.listenerCount('ping')).toBe(0);
    await app.init();
    expect(emitter.listenerCount('ping')).toBe(1);
    await app.close();
    expect(emitter.listenerCount('ping')).toBe(0);
  },
);

claim(
  `${page}#getting-started`,
  'an event emitted in onModuleInit, or in onApplicationBootstrap of a deeper module, reaches no listener; after init() it does',
  async () => {
    const heard: string[] = [];
    @Injectable()
    class Listener {
      @OnEvent('early')
      onEarly(source: string) {
        heard.push(source);
      }
    }
    @Injectable()
    class DeepEmitter {
      constructor(private readonly emitter: any) {}
      onModuleInit() {
        this.emitter.emit('early', 'onModuleInit');
      }
      onApplicationBootstrap() {
        this.emitter.emit('early', 'deep onApplicationBootstrap');
      }
    }
    Reflect.defineMetadata('design:paramtypes', [EventEmitter2], DeepEmitter);
    @Module({providers: [DeepEmitter]})
    class DeepModule {}
    @Module({imports: [DeepModule]})
    class FeatureModule {}
    const app = await boot([EventEmitterModule.forRoot(), FeatureModule], [Listener]);
    expect(heard).toEqual([]);
    app.get(EventEmitter2).emit('early', 'after init');
    expect(heard).toEqual(['after init']);
  },
);

describe('#listening-to-events', () => {
  claim(
    `${page}#listening-to-events`,
    'listeners in controllers are found; stacked @OnEvent() decorators subscribe one method to several events; a symbol works as a name',
    async () => {
      const seen: string[] = [];
      const shipped = Symbol('order.shipped');
      @Controller('orders')
      class OrdersController {
        @OnEvent('order.created')
        @OnEvent('order.cancelled')
        @OnEvent(shipped)
        track(name: string) {
          seen.push(name);
        }
      }
      const app = await boot([EventEmitterModule.forRoot()], [], [OrdersController]);
      const emitter = app.get(EventEmitter2);
      emitter.emit('order.created', 'created');
      emitter.emit('order.cancelled', 'cancelled');
      emitter.emit(shipped, 'shipped');
      expect(seen).toEqual(['created', 'cancelled', 'shipped']);
    },
  );

  claim(
    `${page}#listening-to-events`,
    "an array such as ['order', 'created'] is one event name split at the delimiter, not a list of events",
    async () => {
      const seen: string[] = [];
      @Injectable()
      class Listener {
        @OnEvent(['order', 'created'])
        split(name: string) {
          seen.push(name);
        }
      }
      const app = await boot([EventEmitterModule.forRoot({wildcard: true})], [Listener]);
      const emitter = app.get(EventEmitter2);
      emitter.emit('order.created', 'order.created');
      emitter.emit('order', 'order');
      emitter.emit('created', 'created');
      expect(seen).toEqual(['order.created']);
    },
  );
});

describe('#listener-options', () => {
  claim(
    `${page}#listener-options`,
    'async: true runs the listener after emit() returns, in a setImmediate() callback; nextTick: true in process.nextTick()',
    async () => {
      const order: string[] = [];
      @Injectable()
      class Listener {
        @OnEvent('slow', {async: true})
        later() {
          order.push('async listener');
        }
        @OnEvent('tick', {async: true, nextTick: true})
        tick() {
          order.push('nextTick listener');
        }
      }
      const app = await boot([EventEmitterModule.forRoot()], [Listener]);
      const emitter = app.get(EventEmitter2);
      await new Promise<void>((done) => {
        setImmediate(() => order.push('immediate queued before'));
        emitter.emit('slow');
        emitter.emit('tick');
        order.push('after emit');
        setImmediate(() => {
          order.push('immediate queued after');
          done();
        });
      });
      expect(order).toEqual([
        'after emit',
        'nextTick listener',
        'immediate queued before',
        'async listener',
        'immediate queued after',
      ]);
    },
  );

  claim(
    `${page}#listener-options`,
    'an error of a synchronous listener reaches the emit() call; with async: true it no longer does',
    async () => {
      let thrown: unknown;
      @Injectable()
      class Listener {
        @OnEvent('fails')
        fail() {
          throw new Error('listener failed');
        }
        @OnEvent('fails.later', {async: true})
        failLater() {
          try {
            throw new Error('async listener failed');
          } catch (error) {
            thrown = error;
          }
        }
      }
      const app = await boot([EventEmitterModule.forRoot()], [Listener]);
      const emitter = app.get(EventEmitter2);
      expect(() => emitter.emit('fails')).toThrow('listener failed');
      expect(() => emitter.emit('fails.later')).not.toThrow();
      await new Promise((r) => setImmediate(r));
      expect((thrown as Error).message).toBe('async listener failed');
    },
  );

  const fragmentListener = (contains: string) =>
    compileModule<any>(`
import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
type OrderCreatedEvent = { orderId: number; customerEmail: string };
export const sent: number[] = [];
@Injectable()
export class FragmentListener {
  mailService = {
    sendConfirmation: async (email: string, orderId: number) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      sent.push(orderId);
    },
  };
  ${fragment(page, 'listener-options', contains).value}
}
`);

  claim(
    `${page}#listener-options`,
    "the page's { async: true, promisify: true } listener: emit() returns before it runs, and an awaited emitAsync() resolves only once the mail has been sent",
    async () => {
      const {FragmentListener, sent} = fragmentListener('{ async: true, promisify: true }');
      const app = await boot([EventEmitterModule.forRoot()], [FragmentListener]);
      const emitter = app.get(EventEmitter2);
      emitter.emit('order.created', {orderId: 1, customerEmail: 'a@example.com'});
      expect(sent).toEqual([]);
      await emitter.emitAsync('order.created', {orderId: 2, customerEmail: 'b@example.com'});
      expect(sent).toContain(2);
    },
  );

  claim(
    `${page}#listener-options`,
    "the page's listener with { async: true, nextTick: true, promisify: true } is never called, by emit() or emitAsync(), and nothing reports it",
    async () => {
      const {FragmentListener, sent} = fragmentListener('nextTick: true, promisify: true');
      const app = await boot([EventEmitterModule.forRoot()], [FragmentListener]);
      const emitter = app.get(EventEmitter2);
      expect(emitter.listenerCount('order.created')).toBe(1);
      emitter.emit('order.created', {orderId: 1, customerEmail: 'a@example.com'});
      await emitter.emitAsync('order.created', {orderId: 2, customerEmail: 'b@example.com'});
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(sent).toEqual([]);
    },
  );

  claim(
    `${page}#listener-options`,
    'prependListener: true runs the listener before those registered earlier',
    async () => {
      const order: string[] = [];
      @Injectable()
      class First {
        @OnEvent('order.created')
        handle() {
          order.push('registered first');
        }
      }
      @Injectable()
      class Second {
        @OnEvent('order.created', {prependListener: true})
        handle() {
          order.push('prepended');
        }
      }
      const app = await boot([EventEmitterModule.forRoot()], [First, Second]);
      app.get(EventEmitter2).emit('order.created');
      expect(order).toEqual(['prepended', 'registered first']);
    },
  );
});

describe('#wildcards', () => {
  const make = (seen: string[]) => {
    @Injectable()
    class Listener {
      @OnEvent('order.*')
      handleOrderEvents(payload: string) {
        seen.push(`order.* ${payload}`);
      }
      @OnEvent('**')
      logEveryEvent(payload: string) {
        seen.push(`** ${payload}`);
      }
    }
    return Listener;
  };

  claim(
    `${page}#wildcards`,
    "'order.*' matches one segment (order.created, order.shipped, not order.item.added); '**' matches every event",
    async () => {
      const seen: string[] = [];
      const app = await boot([EventEmitterModule.forRoot({wildcard: true})], [make(seen)]);
      const emitter = app.get(EventEmitter2);
      for (const name of ['order.created', 'order.shipped', 'order.item.added', 'user.signed-up'])
        emitter.emit(name, name);
      expect(seen.filter((line) => line.startsWith('order.*'))).toEqual([
        'order.* order.created',
        'order.* order.shipped',
      ]);
      expect(seen.filter((line) => line.startsWith('**'))).toEqual([
        '** order.created',
        '** order.shipped',
        '** order.item.added',
        '** user.signed-up',
      ]);
    },
  );

  claim(
    `${page}#wildcards`,
    "without wildcard: true, 'order.*' is a literal name and the listener never runs for order.created",
    async () => {
      const seen: string[] = [];
      const app = await boot([EventEmitterModule.forRoot()], [make(seen)]);
      const emitter = app.get(EventEmitter2);
      emitter.emit('order.created', 'order.created');
      expect(seen).toEqual([]);
      emitter.emit('order.*', 'literal');
      expect(seen).toEqual(['order.* literal']);
    },
  );
});

describe('#request-scoped-listeners', () => {
  for (const lang of ['ts', 'js'] as const) {
    claim(
      `${page}#request-scoped-listeners`,
      `the page's OrderAuditListener gets the payload through EVENT_PAYLOAD, one instance per event, and records it (${lang})`,
      async () => {
        const set = samples(page, {lang, under: 'request-scoped-listeners', files: missing(lang)});
        const {OrderAuditListener} = set.require('order-audit.listener');
        const {OrderCreatedEvent} = set.require('order-created.event');
        const {AuditLogService} = set.require('audit-log.service');
        const app = await boot(
          [EventEmitterModule.forRoot()],
          [OrderAuditListener, AuditLogService],
        );
        const emitter = app.get(EventEmitter2);
        await emitter.emitAsync('order.created', new OrderCreatedEvent(1, 'a@example.com', 5));
        await emitter.emitAsync('order.created', new OrderCreatedEvent(2, 'b@example.com', 7));
        expect(app.get(AuditLogService).entries).toEqual(['Order 1 created', 'Order 2 created']);
      },
    );
  }

  claim(
    `${page}#request-scoped-listeners`,
    'the method still receives the payload; several payload arguments are injected as an array',
    async () => {
      const seen: unknown[] = [];
      const instances = new Set<unknown>();
      @Injectable({scope: Scope.REQUEST})
      class Audit {
        constructor(@Inject(EVENT_PAYLOAD) private readonly payload: unknown) {}
        @OnEvent('audit')
        handle(...args: unknown[]) {
          instances.add(this);
          seen.push({injected: this.payload, args});
        }
      }
      const app = await boot([EventEmitterModule.forRoot()], [Audit]);
      const emitter = app.get(EventEmitter2);
      await emitter.emitAsync('audit', {id: 1});
      await emitter.emitAsync('audit', 'a', 'b');
      expect(seen).toEqual([
        {injected: {id: 1}, args: [{id: 1}]},
        {injected: ['a', 'b'], args: ['a', 'b']},
      ]);
      expect(instances.size).toBe(2);
    },
  );
});

claim(
  `${page}#configuration-options`,
  "forRoot() options reach EventEmitter2: delimiter ':' with wildcard matches 'order:*'",
  async () => {
    const seen: string[] = [];
    @Injectable()
    class Listener {
      @OnEvent('order:*')
      any(name: string) {
        seen.push(name);
      }
    }
    const app = await boot(
      [EventEmitterModule.forRoot({wildcard: true, delimiter: ':'})],
      [Listener],
    );
    const emitter = app.get(EventEmitter2);
    emitter.emit('order:created', 'order:created');
    emitter.emit('order.created', 'order.created');
    expect(seen).toEqual(['order:created']);
    expect(emitter.getMaxListeners()).toBe(10);
  },
);

void compileModule;

describe('#configuration-options limits', () => {
  claim(
    `${page}#configuration-options`,
    'an 11th listener of one event emits a leak warning (with the event name when verboseMemoryLeak is on); maxListeners raises the limit',
    async () => {
      const warnings: Error[] = [];
      const original = process.emitWarning;
      (process as any).emitWarning = (warning: Error) => void warnings.push(warning);
      try {
        const make = (count: number) => {
          const methods: Record<string, unknown> = {};
          @Injectable()
          class Many {}
          for (let i = 0; i < count; i += 1) {
            const key = `on${i}`;
            (Many.prototype as any)[key] = () => undefined;
            OnEvent('order.created')(
              Many.prototype,
              key,
              Object.getOwnPropertyDescriptor(Many.prototype, key)!,
            );
          }
          void methods;
          return Many;
        };
        await boot([EventEmitterModule.forRoot({verboseMemoryLeak: true})], [make(11)]);
        expect(warnings.map((w) => w.message)).toEqual([
          '(node) warning: possible EventEmitter memory leak detected. 11 listeners added. Use emitter.setMaxListeners() to increase limit. Event name: order.created.',
        ]);
        warnings.length = 0;
        await boot([EventEmitterModule.forRoot({maxListeners: 20})], [make(11)]);
        expect(warnings).toEqual([]);
      } finally {
        process.emitWarning = original;
      }
    },
  );

  claim(
    `${page}#configuration-options`,
    "an 'error' event nobody listens to throws, unless ignoreErrors is on",
    async () => {
      const strict = await boot([EventEmitterModule.forRoot()]);
      expect(() => strict.get(EventEmitter2).emit('error', new Error('unheard'))).toThrow(
        'unheard',
      );
      const relaxed = await boot([EventEmitterModule.forRoot({ignoreErrors: true})]);
      expect(() => relaxed.get(EventEmitter2).emit('error', new Error('unheard'))).not.toThrow();
    },
  );
});

/** The page's OrdersService behind the test's OrdersController, with `listener` (TypeScript source) as a provider. */
function ordersWith(listener: string, lang: 'ts' | 'js' = 'ts') {
  return samples(page, {
    lang,
    files: {
      ...missing(lang),
      'test.listener': listener,
      'test.module': `
import { Module } from '@nestjs/common';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { OrdersController } from './orders.controller';
import { OrdersService } from './orders.service';
import * as listeners from './test.listener';
@Module({
  imports: [EventEmitterModule.forRoot()],
  controllers: [OrdersController],
  providers: [OrdersService, ...Object.values(listeners).filter((value) => typeof value === 'function')],
})
export class TestModule {}
`,
    },
  });
}

const postOrder = (base: string, body: unknown = {customerEmail: 'alice@example.com', total: 42}) =>
  fetch(`${base}/orders`, {
    method: 'POST',
    headers: {'content-type': 'application/json'},
    body: JSON.stringify(body),
  });

for (const lang of ['ts', 'js'] as const) {
  claim.abuse(
    `${page}#dispatching-events`,
    `a body that carries its own id does not replace the generated one, in the stored order nor in the event (${lang})`,
    async () => {
      const set = ordersWith(
        `import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
export const heard: any[] = [];
@Injectable() export class Heard { @OnEvent('order.created') on(event: any) { heard.push(event.orderId); } }`,
      );
      // The JS half of the service, behind the same controller and module.
      const {OrdersService} = samples(page, {lang, files: missing(lang)}).require('orders.service');
      const {TestModule} = set.require('test.module');
      const {heard} = set.require('test.listener');
      const {OrdersController} = set.require('orders.controller');
      @Module({
        imports: [EventEmitterModule.forRoot()],
        controllers: [OrdersController],
        providers: [
          {provide: set.require('orders.service').OrdersService, useClass: OrdersService},
          ...Object.values(set.require('test.listener')).filter((v) => typeof v === 'function'),
        ],
      })
      class Root {}
      const app = await NestFactory.create(lang === 'ts' ? TestModule : Root, {
        logger: false,
        abortOnError: false,
      });
      toClose.push(app);
      const base = await listen(app);
      expect(await (await postOrder(base)).json()).toMatchObject({id: 1});
      const forged = await (
        await postOrder(base, {id: 1, customerEmail: 'mallory@example.com', total: 1})
      ).json();
      expect(forged).toEqual({id: 2, customerEmail: 'mallory@example.com', total: 1});
      expect(heard).toEqual([1, 2]);
    },
  );
}

describe('#errors-in-listeners', () => {
  const children: ChildApp[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) await child.stop('SIGKILL');
  });
  const startOrders = async (set: {dir: string}) => {
    const child = startChild(set.dir, 'main.js', listeningScript('test.module.js', 'TestModule'), {
      NO_COLOR: '1',
    });
    children.push(child);
    const [, base] = await child.waitFor(/READY (\S+)/);
    return {child, base};
  };
  const failing = (decorator: string, method: string) => `
import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
@Injectable()
export class FailingListener {
  ${decorator}
  ${method}
}
`;

  claim.failure(
    `${page}#errors-in-listeners`,
    'a plain listener that throws makes emit() throw: POST /orders answers 500, yet the order was stored (the next one gets id 2)',
    async () => {
      const set = ordersWith(
        failing(
          "@OnEvent('order.created')",
          "sendConfirmation() { throw new Error('mail server down'); }",
        ),
      );
      const app = await NestFactory.create(set.require('test.module').TestModule, {
        logger: false,
        abortOnError: false,
      });
      toClose.push(app);
      const base = await listen(app);
      const first = await postOrder(base);
      expect([first.status, await first.json()]).toEqual([
        500,
        {statusCode: 500, message: 'Internal server error'},
      ]);
      app.get(EventEmitter2).removeAllListeners('order.created');
      expect(await (await postOrder(base)).json()).toMatchObject({id: 2});
    },
  );

  for (const [what, decorator, method] of [
    [
      'an async listener without options',
      "@OnEvent('order.created')",
      "async sendConfirmation() { throw new Error('mail server down'); }",
    ],
    [
      'a listener with { async: true }',
      "@OnEvent('order.created', { async: true })",
      "sendConfirmation() { throw new Error('mail server down'); }",
    ],
    [
      'an async listener with { async: true, promisify: true }',
      "@OnEvent('order.created', { async: true, promisify: true })",
      "async sendConfirmation() { throw new Error('mail server down'); }",
    ],
  ] as const) {
    claim.failure(
      `${page}#errors-in-listeners`,
      `${what} that throws ends the process with exit code 1`,
      async () => {
        const {child, base} = await startOrders(ordersWith(failing(decorator, method)));
        await postOrder(base).catch(() => undefined);
        expect(await child.exited()).toEqual({code: 1, signal: null});
        expect(child.output()).toContain('Error: mail server down');
      },
    );
  }

  claim(
    `${page}#errors-in-listeners`,
    "with emitAsync() awaited, the error of a listener without options (thrown by the call itself), of an async one, of a request-scoped one and of one with { async: true, promisify: true } (rejecting its promise) reaches the emitting code's catch",
    async () => {
      const {Plain, AsyncMethod, RequestScoped, Promisified} = compileModule<any>(`
import { Inject, Injectable, Scope } from '@nestjs/common';
import { EVENT_PAYLOAD, OnEvent } from '@nestjs/event-emitter';
@Injectable()
export class Plain {
  @OnEvent('plain') fail() { throw new Error('plain failed'); }
}
@Injectable()
export class AsyncMethod {
  @OnEvent('async.method') async fail() { throw new Error('async method failed'); }
}
@Injectable({ scope: Scope.REQUEST })
export class RequestScoped {
  constructor(@Inject(EVENT_PAYLOAD) readonly event: unknown) {}
  @OnEvent('request.scoped') fail() { throw new Error('request-scoped failed'); }
}
@Injectable()
export class Promisified {
  @OnEvent('promisified', { async: true, promisify: true })
  async fail() { throw new Error('promisified failed'); }
}
`);
      const app = await boot(
        [EventEmitterModule.forRoot()],
        [Plain, AsyncMethod, RequestScoped, Promisified],
      );
      const emitter = app.get(EventEmitter2);
      // The emitting code, as a service writes it.
      const emitting = async (event: string) => {
        try {
          await emitter.emitAsync(event, {});
          return 'resolved';
        } catch (error) {
          return `caught: ${(error as Error).message}`;
        }
      };
      expect(await emitting('plain')).toBe('caught: plain failed');
      expect(() => emitter.emitAsync('plain', {})).toThrow('plain failed');
      expect(await emitting('async.method')).toBe('caught: async method failed');
      expect(await emitting('request.scoped')).toBe('caught: request-scoped failed');
      expect(await emitting('promisified')).toBe('caught: promisified failed');
      for (const event of ['async.method', 'request.scoped', 'promisified']) {
        await expect(emitter.emitAsync(event, {}), event).rejects.toThrow('failed');
      }
    },
  );

  claim.failure(
    `${page}#errors-in-listeners`,
    'with { async: true } alone, emitAsync() resolves before the listener has run (with a timer object, not its result), and the error ends the process with exit code 1',
    async () => {
      const set = ordersWith(
        failing(
          "@OnEvent('order.created', { async: true })",
          "async sendConfirmation() { throw new Error('mail server down'); }",
        ),
      );
      const child = startChild(
        set.dir,
        'emit-async.js',
        `
const { NestFactory } = require('@nestjs/core');
const { EventEmitter2 } = require('@nestjs/event-emitter');
const { TestModule } = require('./test.module.js');
process.on('exit', (code) => console.log('EXIT ' + code));
NestFactory.createApplicationContext(TestModule, { logger: false }).then(async (app) => {
  const results = await app.get(EventEmitter2).emitAsync('order.created', {});
  console.log('RESOLVED ' + results.map((result) => result && result.constructor.name).join(','));
});
`,
      );
      children.push(child);
      expect(await child.exited()).toEqual({code: 1, signal: null});
      const output = child.output();
      expect(output).toContain('RESOLVED Immediate');
      expect(output.indexOf('RESOLVED')).toBeLessThan(output.indexOf('Error: mail server down'));
      expect(output).toContain('EXIT 1');
    },
  );

  claim.failure(
    `${page}#request-scoped-listeners`,
    'a request-scoped listener that throws: emit() has returned, POST /orders answers 201, then the unhandled rejection ends the process with exit code 1',
    async () => {
      const set = ordersWith(`
import { Inject, Injectable, Scope } from '@nestjs/common';
import { EVENT_PAYLOAD, OnEvent } from '@nestjs/event-emitter';
@Injectable({ scope: Scope.REQUEST })
export class FailingAuditListener {
  constructor(@Inject(EVENT_PAYLOAD) private readonly event: any) {}
  @OnEvent('order.created')
  audit() { throw new Error('audit store down for order ' + this.event.orderId); }
}
`);
      const {child, base} = await startOrders(set);
      const created = await postOrder(base);
      expect(created.status).toBe(201);
      expect(await created.json()).toMatchObject({id: 1});
      expect(await child.exited()).toEqual({code: 1, signal: null});
      expect(child.output()).toContain('Error: audit store down for order 1');
    },
  );

  claim.failure(
    `${page}#request-scoped-listeners`,
    "a request-scoped dependency whose constructor throws: the error comes before the listener's method, whose try cannot catch it, and ends the process with exit code 1",
    async () => {
      const set = ordersWith(`
import { Injectable, Logger, Scope } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
@Injectable({ scope: Scope.REQUEST })
export class AuditConnection {
  constructor() { throw new Error('no audit connection'); }
}
@Injectable({ scope: Scope.REQUEST })
export class CarefulAuditListener {
  constructor(private readonly connection: AuditConnection) {}
  @OnEvent('order.created')
  async audit() {
    try { console.log('AUDIT ' + typeof this.connection); } catch (error) { new Logger('Audit').error(error.message); }
  }
}
`);
      const {child, base} = await startOrders(set);
      expect((await postOrder(base)).status).toBe(201);
      expect(await child.exited()).toEqual({code: 1, signal: null});
      expect(child.output()).toContain('Error: no audit connection');
      expect(child.output()).not.toContain('AUDIT ');
    },
  );

  for (const lang of ['ts', 'js'] as const) {
    claim.failure(
      `${page}#errors-in-listeners`,
      `the page's OrderMailListener with a mail service that fails: the order is created (201), the error is logged, the process stays up (${lang})`,
      async () => {
        const set = samples(page, {
          lang,
          files: {
            // The reader's own mail service, here one whose server is down.
            ...missing(lang, {mail: true}),
            'test.module': `
const { Module } = require('@nestjs/common');
const { EventEmitterModule } = require('@nestjs/event-emitter');
const { OrdersController } = require('./orders.controller');
const { OrdersService } = require('./orders.service');
const { OrderMailListener } = require('./order-mail.listener');
const { MailService } = require('./mail.service');
class TestModule {}
Module({
  imports: [EventEmitterModule.forRoot()],
  controllers: [OrdersController],
  providers: [OrdersService, OrderMailListener, MailService],
})(TestModule);
exports.TestModule = TestModule;
`,
          },
        });
        const {child, base} = await startOrders(set);
        const created = await postOrder(base);
        expect(created.status).toBe(201);
        await child.waitFor(/OrderMailListener\] Order 1: confirmation not sent: mail server down/);
        expect(await child.exited(500)).toBeNull();
        expect((await postOrder(base)).status).toBe(201);
      },
    );

    claim.failure(
      `${page}#errors-in-listeners`,
      `the page's OrderMailListener awaited through emitAsync(), with a mail service that fails: emitAsync() resolves only after the listener has logged the error (${lang})`,
      async () => {
        const set = samples(page, {lang, files: missing(lang, {mail: true})});
        const {OrderMailListener} = set.require('order-mail.listener');
        const {MailService} = set.require('mail.service');
        const {OrderCreatedEvent} = set.require('order-created.event');
        const log = memoryLogger();
        const app = await boot(
          [EventEmitterModule.forRoot()],
          [OrderMailListener, MailService],
          [],
          log.logger,
        );
        await app
          .get(EventEmitter2)
          .emitAsync('order.created', new OrderCreatedEvent(7, 'ada@example.com', 12));
        expect(log.lines).toContainEqual({
          level: 'error',
          message: 'Order 7: confirmation not sent: mail server down',
          context: 'OrderMailListener',
        });
      },
    );

    claim.failure(
      `${page}#request-scoped-listeners`,
      `the page's OrderAuditListener with an audit store that fails: POST /orders answers 201, the error is logged, the process stays up (${lang})`,
      async () => {
        const set = samples(page, {
          lang,
          files: {
            ...missing(lang, {audit: true}),
            'test.module': `
const { Module } = require('@nestjs/common');
const { EventEmitterModule } = require('@nestjs/event-emitter');
const { OrdersController } = require('./orders.controller');
const { OrdersService } = require('./orders.service');
const { OrderAuditListener } = require('./order-audit.listener');
const { AuditLogService } = require('./audit-log.service');
class TestModule {}
Module({
  imports: [EventEmitterModule.forRoot()],
  controllers: [OrdersController],
  providers: [OrdersService, OrderAuditListener, AuditLogService],
})(TestModule);
exports.TestModule = TestModule;
`,
          },
        });
        const {child, base} = await startOrders(set);
        expect((await postOrder(base)).status).toBe(201);
        await child.waitFor(
          /OrderAuditListener\] Order 1: audit entry not written: audit store down/,
        );
        expect(await child.exited(500)).toBeNull();
        expect((await postOrder(base)).status).toBe(201);
        await child.waitFor(/OrderAuditListener\] Order 2: audit entry not written/);
      },
    );
  }
});

claim(
  `${page}#listening-to-events`,
  "the page's array listener ['order', 'created'] receives order.created with wildcard: true; without it the name becomes 'order,created' and order.created never arrives",
  async () => {
    const method = fragment(page, 'listening-to-events', "@OnEvent(['order', 'created'])").value;
    const {ArrayListener, heard} = compileModule<any>(`
import { Injectable, Logger } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
export const heard: string[] = [];
@Injectable()
export class ArrayListener {
  logger = { log: (line: string) => heard.push(line) };
  ${method}
}
`);
    const event = {orderId: 1, customerEmail: 'alice@example.com', total: 42};
    for (const wildcard of [true, false]) {
      heard.length = 0;
      const app = await boot([EventEmitterModule.forRoot({wildcard})], [ArrayListener]);
      const emitter = app.get(EventEmitter2);
      expect(emitter.emit('order.created', event), `wildcard: ${wildcard}`).toBe(wildcard);
      expect(heard).toEqual(wildcard ? ['Sending a confirmation to "alice@example.com"'] : []);
      if (!wildcard) {
        expect(emitter.emit('order,created', event)).toBe(true);
        expect(heard).toHaveLength(1);
      }
    }
  },
);

import {afterEach, describe, expect} from 'vitest';
import {claim, samples, compileModule, nest, listen, memoryLogger, fragment} from '../../lib';
import {listeningScript, startChild, type ChildApp} from './_child-app';

const {Module, Injectable, Controller, Scope, Inject} = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const {EventEmitterModule, EventEmitter2, OnEvent, EVENT_PAYLOAD} = nest('@nestjs/event-emitter');
const page = 'docs/techniques/events.md';

let toClose: any[] = [];
afterEach(async () => {
  for (const app of toClose) await app.close();
  toClose = [];
});

/** The files the page refers to without showing them. */
const missing = (lang: 'ts' | 'js') => ({
  'create-order.dto':
    lang === 'ts'
      ? 'export class CreateOrderDto { customerEmail: string; total: number; }'
      : 'export class CreateOrderDto {}',
  'order.entity':
    lang === 'ts'
      ? 'export interface Order { id: number; customerEmail: string; total: number; }'
      : 'export {};',
  'orders.controller':
    lang === 'ts'
      ? `import { Body, Controller, Post } from '@nestjs/common';
import { OrdersService } from './orders.service';
@Controller('orders')
export class OrdersController {
  constructor(private readonly ordersService: OrdersService) {}
  @Post() create(@Body() dto: any) { return this.ordersService.create(dto); }
}`
      : `import { Bind, Body, Controller, Dependencies, Post } from '@nestjs/common';
import { OrdersService } from './orders.service';
@Controller('orders')
@Dependencies(OrdersService)
export class OrdersController {
  constructor(ordersService) { this.ordersService = ordersService; }
  @Post() @Bind(Body()) create(dto) { return this.ordersService.create(dto); }
}`,
});

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
        message: 'Sending a confirmation to ada@example.com',
        context: 'OrderCreatedListener',
      });
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
      `the page's OrderAuditListener gets the payload through EVENT_PAYLOAD, one instance per event (${lang})`,
      async () => {
        const set = samples(page, {lang, under: 'request-scoped-listeners'});
        const {OrderAuditListener} = set.require('order-audit.listener');
        const {OrderCreatedEvent} = set.require('order-created.event');
        const log = memoryLogger();
        const app = await boot(
          [EventEmitterModule.forRoot()],
          [OrderAuditListener],
          [],
          log.logger,
        );
        const emitter = app.get(EventEmitter2);
        await emitter.emitAsync('order.created', new OrderCreatedEvent(1, 'a@example.com', 5));
        await emitter.emitAsync('order.created', new OrderCreatedEvent(2, 'b@example.com', 7));
        const lines = log.lines
          .filter((line) => line.context === 'OrderAuditListener')
          .map((line) => line.message);
        expect(lines).toEqual(['Order 1 created', 'Order 2 created']);
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
    'with emitAsync() awaited, the listener error rejects its promise and reaches the emitting code',
    async () => {
      const {FailingListener} = compileModule<any>(
        failing(
          "@OnEvent('order.created')",
          "async sendConfirmation() { throw new Error('mail server down'); }",
        ),
      );
      const app = await boot([EventEmitterModule.forRoot()], [FailingListener]);
      await expect(app.get(EventEmitter2).emitAsync('order.created', {})).rejects.toThrow(
        'mail server down',
      );
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
            ...missing(lang),
            // The reader's own mail service, here one whose server is down.
            'mail.service': `
const { Injectable } = require('@nestjs/common');
class MailService {
  async sendConfirmation() { throw new Error('mail server down'); }
}
exports.MailService = Injectable()(MailService) || MailService;
`,
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
      expect(heard).toEqual(wildcard ? ['Sending a confirmation to alice@example.com'] : []);
      if (!wildcard) {
        expect(emitter.emit('order,created', event)).toBe(true);
        expect(heard).toHaveLength(1);
      }
    }
  },
);

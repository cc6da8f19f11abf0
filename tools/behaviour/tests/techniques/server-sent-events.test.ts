import {connect} from 'node:net';
import {afterEach, expect} from 'vitest';
import {claim, compileModule, listen, memoryLogger, nest, samples} from '../../lib';

const {Module} = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const page = 'docs/techniques/server-sent-events.md';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function start(
  controllers: unknown[],
  providers: unknown[] = [],
  options: Record<string, unknown> = {logger: false},
): Promise<{base: string; app: any}> {
  @Module({controllers: controllers as any[], providers: providers as any[]})
  class AppModule {}
  const app = await NestFactory.create(AppModule, options);
  close = () => app.close();
  return {base: await listen(app), app};
}

interface Stream {
  response: Response;
  /** Everything received so far. */
  text(): string;
  /** Resolves when the received text satisfies `until` (or the stream ends). */
  wait(until: (text: string) => boolean, ms?: number): Promise<string>;
  /** Resolves when the server ends the response. */
  ended: Promise<void>;
  abort(): void;
}

async function open(url: string): Promise<Stream> {
  const controller = new AbortController();
  const response = await fetch(url, {signal: controller.signal});
  let received = '';
  const listeners: (() => void)[] = [];
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const ended = (async () => {
    try {
      for (;;) {
        const {value, done} = await reader.read();
        if (done) break;
        received += decoder.decode(value, {stream: true});
        listeners.forEach((listener) => listener());
      }
    } catch {
      // aborted
    }
    listeners.forEach((listener) => listener());
  })();
  let finished = false;
  void ended.then(() => (finished = true));
  return {
    response,
    text: () => received,
    ended,
    abort: () => controller.abort(),
    wait: (until, ms = 5000) =>
      new Promise<string>((resolve, reject) => {
        const check = () => {
          if (until(received) || finished) {
            clearTimeout(timer);
            resolve(received);
          }
        };
        const timer = setTimeout(
          () => reject(new Error(`SSE: timed out, received ${JSON.stringify(received)}`)),
          ms,
        );
        listeners.push(check);
        check();
      }),
  };
}

/** Splits an event-stream body into events (field lists). */
function events(text: string): Record<string, string[]>[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const fields: Record<string, string[]> = {};
      for (const line of block.split('\n').filter(Boolean)) {
        const index = line.indexOf(': ');
        const name = line.slice(0, index);
        (fields[name] ??= []).push(line.slice(index + 2));
      }
      return fields;
    });
}

function controllerEmitting(values: string): any {
  return compileModule<any>(`
import { Controller, Sse } from '@nestjs/common';
import { of, throwError, concat } from 'rxjs';
@Controller('test')
export class TestController {
  @Sse('stream')
  stream() {
    return ${values};
  }
}
`).TestController;
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#usage`,
    `@Sse('stream') serves GET /notifications/stream, one event per emitted value, data as JSON (${lang})`,
    async () => {
      const {NotificationsController} = samples(page, {
        under: 'usage',
        pick: {'notifications.controller': 1},
        lang,
      }).require('notifications.controller');
      const {base} = await start([NotificationsController]);
      const stream = await open(`${base}/notifications/stream`);
      expect(stream.response.status).toBe(200);
      await stream.wait((text) => events(text).length >= 2, 4000);
      stream.abort();
      const [first, second] = events(stream.text());
      expect(JSON.parse(first.data[0])).toMatchObject({tick: 0});
      expect(JSON.parse(second.data[0])).toMatchObject({tick: 1});
      expect(typeof JSON.parse(first.data[0]).at).toBe('string');
    },
  );
}

claim(`${page}#usage`, 'the route is GET only: POST to it is 404', async () => {
  const {NotificationsController} = samples(page, {
    under: 'usage',
    pick: {'notifications.controller': 1},
  }).require('notifications.controller');
  const {base} = await start([NotificationsController]);
  const response = await fetch(`${base}/notifications/stream`, {method: 'POST'});
  expect(response.status).toBe(404);
});

claim(
  `${page}#usage`,
  'without an id, the events of one connection are numbered 1, 2, 3...; a new connection counts from 1 again',
  async () => {
    const {base} = await start([
      controllerEmitting(`of({ data: 'a' }, { data: 'b' }, { data: 'c' })`),
    ]);
    for (let round = 0; round < 2; round++) {
      const stream = await open(`${base}/test/stream`);
      await stream.ended;
      expect(events(stream.text()).map((event) => event.id[0])).toEqual(['1', '2', '3']);
    }
  },
);

claim(
  `${page}#usage`,
  'an object sent to several connections keeps the id the first connection gave it (shared subject)',
  async () => {
    const {NotificationsService} = samples(page, {under: 'streaming-real-events'}).require(
      'notifications.service',
    );
    const {Controller, Sse, Inject} = nest('@nestjs/common');
    @Controller('notifications')
    class NotificationsController {
      constructor(@Inject(NotificationsService) private readonly service: any) {}
      @Sse('stream')
      stream() {
        return this.service.asObservable();
      }
    }
    const {base, app} = await start([NotificationsController], [NotificationsService]);
    const service = app.get(NotificationsService);
    const a = await open(`${base}/notifications/stream`);
    await new Promise((r) => setTimeout(r, 100));
    for (const text of ['one', 'two', 'three']) service.notify(text);
    await a.wait((text) => events(text).length >= 3);
    const b = await open(`${base}/notifications/stream`);
    await new Promise((r) => setTimeout(r, 100));
    service.notify('four');
    await b.wait((text) => events(text).length >= 1);
    await a.wait((text) => events(text).length >= 4);
    a.abort();
    b.abort();
    expect(events(a.text()).map((event) => event.id[0])).toEqual(['1', '2', '3', '4']);
    const [firstOfB] = events(b.text());
    expect(firstOfB.data).toEqual(['four']);
    expect(firstOfB.event).toEqual(['alert']);
    expect(firstOfB.id).toEqual(['4']);
  },
);

claim(
  `${page}#usage`,
  'a string with line breaks becomes several data: lines; type becomes event:, retry becomes retry:, id is sent as given',
  async () => {
    const {base} = await start([
      controllerEmitting(
        `of({ data: 'line one\\nline two', type: 'alert', retry: 2500, id: 'evt-7' })`,
      ),
    ]);
    const stream = await open(`${base}/test/stream`);
    await stream.ended;
    expect(events(stream.text())).toEqual([
      {event: ['alert'], id: ['evt-7'], retry: ['2500'], data: ['line one', 'line two']},
    ]);
  },
);

claim(
  `${page}#usage`,
  'an object without data gives an event with no data; a bare string is wrapped as data; 0 gives no data',
  async () => {
    const {base} = await start([
      controllerEmitting(`of({ tick: 1 } as any, 'plain text' as any, 0 as any)`),
    ]);
    const stream = await open(`${base}/test/stream`);
    await stream.ended;
    expect(events(stream.text())).toEqual([
      {id: ['1']},
      {id: ['2'], data: ['plain text']},
      {id: ['3']},
    ]);
  },
);

claim(
  `${page}#usage`,
  'a bare number other than 0 breaks the stream (no data event is sent for it)',
  async () => {
    const {base} = await start([
      controllerEmitting(`of('before' as any, 5 as any, 'after' as any)`),
    ]);
    const stream = await open(`${base}/test/stream`);
    await stream.wait((text) => text.includes('before'));
    await Promise.race([stream.ended, new Promise((r) => setTimeout(r, 500))]);
    stream.abort();
    expect(stream.text()).not.toContain('data: 5');
    expect(stream.text()).not.toContain('after');
  },
);

claim(
  `${page}#response-headers-and-errors`,
  'status 200, text/event-stream, keep-alive, no caching, X-Accel-Buffering: no, and a header a middleware set',
  async () => {
    const {NotificationsController} = samples(page, {
      under: 'usage',
      pick: {'notifications.controller': 1},
    }).require('notifications.controller');
    @Module({controllers: [NotificationsController]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, {logger: false});
    app.use((req: any, res: any, next: () => void) => {
      res.setHeader('X-Request-Id', 'abc');
      next();
    });
    close = () => app.close();
    const base = await listen(app);
    const stream = await open(`${base}/notifications/stream`);
    const headers = stream.response.headers;
    stream.abort();
    expect(stream.response.status).toBe(200);
    expect(headers.get('content-type')).toBe('text/event-stream');
    expect(headers.get('connection')).toBe('keep-alive');
    expect(headers.get('cache-control')).toBe(
      'private, no-cache, no-store, must-revalidate, max-age=0, no-transform',
    );
    expect(headers.get('x-accel-buffering')).toBe('no');
    expect(headers.get('x-request-id')).toBe('abc');
  },
);

claim(
  `${page}#response-headers-and-errors`,
  "a handler that returns no observable fails with the page's message (500)",
  async () => {
    const logs = memoryLogger();
    const {base} = await start([controllerEmitting(`({ data: 'not an observable' }) as any`)], [], {
      logger: logs.logger,
    });
    const response = await fetch(`${base}/test/stream`);
    expect(response.status).toBe(500);
    expect(logs.text()).toContain(
      'You must return an Observable stream to use Server-Sent Events (SSE).',
    );
  },
);

claim(
  `${page}#response-headers-and-errors`,
  'an erroring observable sends one last event of type error with the message as data, then ends',
  async () => {
    const {base} = await start([
      controllerEmitting(
        `concat(of({ data: 'ok' }), throwError(() => new Error('Feed unavailable')))`,
      ),
    ]);
    const stream = await open(`${base}/test/stream`);
    await stream.ended;
    expect(events(stream.text())).toEqual([
      {id: ['1'], data: ['ok']},
      {event: ['error'], id: ['2'], data: ['Feed unavailable']},
    ]);
  },
);

claim(
  `${page}#streaming-real-events`,
  "every connected client receives every event of the service's subject (type alert)",
  async () => {
    const {NotificationsService} = samples(page, {
      under: 'streaming-real-events',
      lang: 'js',
    }).require('notifications.service');
    const {Controller, Sse, Dependencies} = nest('@nestjs/common');
    class NotificationsController {
      constructor(private readonly service: any) {}
      stream() {
        return this.service.asObservable();
      }
    }
    Dependencies(NotificationsService)(NotificationsController);
    Controller('notifications')(NotificationsController);
    Sse('stream')(
      NotificationsController.prototype,
      'stream',
      Object.getOwnPropertyDescriptor(NotificationsController.prototype, 'stream')!,
    );
    const {base, app} = await start([NotificationsController], [NotificationsService]);
    const clients = [
      await open(`${base}/notifications/stream`),
      await open(`${base}/notifications/stream`),
    ];
    await new Promise((r) => setTimeout(r, 100));
    app.get(NotificationsService).notify('Disk almost full');
    for (const client of clients) {
      await client.wait((text) => text.includes('Disk almost full'));
      client.abort();
      expect(events(client.text())[0]).toMatchObject({
        event: ['alert'],
        data: ['Disk almost full'],
      });
    }
  },
);

claim(
  `${page}#streaming-real-events`,
  'Nest unsubscribes when the client disconnects, and ends the response when the observable completes',
  async () => {
    const probe = compileModule<any>(`
import { Controller, Sse } from '@nestjs/common';
import { interval, of } from 'rxjs';
import { finalize, map } from 'rxjs/operators';
export const state = { finalized: false };
@Controller('test')
export class TestController {
  @Sse('forever')
  forever() {
    return interval(50).pipe(map((n) => ({ data: String(n) })), finalize(() => (state.finalized = true)));
  }
  @Sse('short')
  short() {
    return of({ data: 'only' });
  }
}
`);
    const {base} = await start([probe.TestController]);
    const forever = await open(`${base}/test/forever`);
    await forever.wait((text) => events(text).length >= 2);
    expect(probe.state.finalized).toBe(false);
    forever.abort();
    for (let i = 0; i < 40 && !probe.state.finalized; i++)
      await new Promise((r) => setTimeout(r, 25));
    expect(probe.state.finalized).toBe(true);
    const short = await open(`${base}/test/short`);
    await short.ended;
    expect(events(short.text())).toEqual([{id: ['1'], data: ['only']}]);
  },
);

// Abuse cases and failure modes.

/** The page's NotificationsService (TypeScript half) behind a controller that streams its observable. */
function notifications(): {NotificationsService: any; NotificationsController: any} {
  const {NotificationsService} = samples(page, {under: 'streaming-real-events'}).require(
    'notifications.service',
  );
  (globalThis as any).__sseService = NotificationsService;
  const {NotificationsController} = compileModule<any>(`
import { Controller, Inject, Sse } from '@nestjs/common';
import { interval } from 'rxjs';
import { map } from 'rxjs/operators';
const NotificationsService = (globalThis as any).__sseService;
@Controller('notifications')
export class NotificationsController {
  constructor(@Inject(NotificationsService) private readonly service: any) {}
  @Sse('stream')
  stream() {
    return this.service.asObservable();
  }
  @Sse('ticks')
  ticks() {
    return interval(100).pipe(map((count) => ({ data: { tick: count } })));
  }
}
`);
  return {NotificationsService, NotificationsController};
}

claim.abuse(
  `${page}#streaming-real-events`,
  "without a filter, bob's stream receives the alert pushed for alice",
  async () => {
    const {NotificationsService, NotificationsController} = notifications();
    const {base, app} = await start([NotificationsController], [NotificationsService]);
    const alice = await open(`${base}/notifications/stream`);
    const bob = await open(`${base}/notifications/stream`);
    await new Promise((r) => setTimeout(r, 100));
    app.get(NotificationsService).notify('alice: your password was reset');
    await bob.wait((text) => text.includes('alice'));
    expect(events(bob.text())[0]).toMatchObject({data: ['alice: your password was reset']});
    alice.abort();
    bob.abort();
  },
);

claim.failure(
  `${page}#response-headers-and-errors`,
  "a dependency's error text (connect ECONNREFUSED host:port) is sent to every open stream as the error event",
  async () => {
    const {NotificationsService, NotificationsController} = notifications();
    const {base, app} = await start([NotificationsController], [NotificationsService]);
    const clients = [
      await open(`${base}/notifications/stream`),
      await open(`${base}/notifications/stream`),
    ];
    await new Promise((r) => setTimeout(r, 100));
    (app.get(NotificationsService) as any).events.error(
      new Error('connect ECONNREFUSED 10.0.4.12:5432'),
    );
    for (const client of clients) {
      await client.ended;
      expect(events(client.text())).toEqual([
        {event: ['error'], id: ['1'], data: ['connect ECONNREFUSED 10.0.4.12:5432']},
      ]);
    }
  },
);

claim.failure(
  `${page}#streaming-real-events`,
  "app.close() with a client connected: the page's onModuleDestroy() ends the stream and close returns at once; an interval() stream holds close until the client leaves",
  async () => {
    const {NotificationsService, NotificationsController} = notifications();
    const first = await start([NotificationsController], [NotificationsService]);
    close = undefined;
    const client = await open(`${first.base}/notifications/stream`);
    await new Promise((r) => setTimeout(r, 100));
    let started = Date.now();
    await first.app.close();
    expect(Date.now() - started).toBeLessThan(1000);
    await client.ended;
    // What the hook prevents: a stream that never completes.
    const second = await start([NotificationsController], [NotificationsService]);
    close = undefined;
    const ticking = await open(`${second.base}/notifications/ticks`);
    await ticking.wait((text) => events(text).length >= 2);
    started = Date.now();
    let closed = false;
    const closing = second.app.close().then(() => (closed = true));
    await new Promise((r) => setTimeout(r, 1500));
    expect(closed).toBe(false);
    ticking.abort();
    await closing;
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
  },
);

claim.abuse(
  `${page}#streaming-real-events`,
  "100 clients at once: each receives the event, and once they leave, the page's subject keeps no subscriber",
  async () => {
    const {NotificationsService, NotificationsController} = notifications();
    const {base, app} = await start([NotificationsController], [NotificationsService]);
    const service = app.get(NotificationsService) as any;
    const clients = await Promise.all(
      Array.from({length: 100}, () => open(`${base}/notifications/stream`)),
    );
    for (let i = 0; i < 50 && service.events.observers.length < 100; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(service.events.observers.length).toBe(100);
    service.notify('maintenance at noon');
    await Promise.all(clients.map((client) => client.wait((text) => text.includes('noon'))));
    for (const client of clients) client.abort();
    for (let i = 0; i < 50 && service.events.observers.length > 0; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(service.events.observers.length).toBe(0);
  },
);

/** Connections the app's HTTP server holds. */
function connections(app: any): Promise<number> {
  return new Promise((resolve) =>
    app.getHttpServer().getConnections((_: unknown, n: number) => resolve(n)),
  );
}

/** Opens `path` with a raw socket that stops reading after the first bytes (a stalled client). */
function stalledClient(base: string, path: string): Promise<import('node:net').Socket> {
  const {port, hostname} = new URL(base);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`),
    );
    socket.once('data', () => {
      socket.pause();
      resolve(socket);
    });
  });
}

/** 20 MB of 1 KB alerts in 40 batches, 50 ms apart. */
async function burst(service: any): Promise<number> {
  const text = 'x'.repeat(1000);
  for (let batch = 0; batch < 40; batch += 1) {
    for (let i = 0; i < 500; i += 1) service.notify(text);
    await new Promise((r) => setTimeout(r, 50));
  }
  return 40 * 500;
}

claim.abuse(
  `${page}#streaming-real-events`,
  "a client that stops reading: the page's alerts handler closes its connection once its socket stayed full (window shortened to 300 ms) while a reading client gets all 20,000 events; a handler without the check keeps the stalled connection",
  async () => {
    const set = samples(page, {
      under: 'streaming-real-events',
      edit: {
        'notifications.controller': [
          ['Date.now() - stalledSince < 5000', 'Date.now() - stalledSince < 300'],
        ],
      },
    });
    const {NotificationsService} = set.require('notifications.service');
    const {NotificationsController} = set.require('notifications.controller');
    const {base, app} = await start([NotificationsController], [NotificationsService]);
    const stalled = await stalledClient(base, '/notifications/alerts');
    const reader = await open(`${base}/notifications/alerts`);
    await new Promise((r) => setTimeout(r, 100));
    expect(await connections(app)).toBe(2);
    const sent = await burst(app.get(NotificationsService));
    await reader.wait((text) => (text.match(/event: alert/g) ?? []).length === sent, 10_000);
    expect(await connections(app)).toBe(1);
    reader.abort();
    stalled.destroy();
    await close?.();
    close = undefined;
    // What the check prevents: the plain handler keeps the stalled connection, and its backlog.
    const plain = notifications();
    const loose = await start([plain.NotificationsController], [plain.NotificationsService]);
    const stuck = await stalledClient(loose.base, '/notifications/stream');
    await new Promise((r) => setTimeout(r, 100));
    await burst(loose.app.get(plain.NotificationsService));
    await new Promise((r) => setTimeout(r, 300));
    expect(await connections(loose.app)).toBe(1);
    stuck.destroy();
  },
  30_000,
);

import {afterEach, describe, expect} from 'vitest';
import {mkdtempSync, rmSync} from 'node:fs';
import {join, resolve} from 'node:path';
import {claim, samples, nest, listen, fragment, expectOutput, memoryLogger} from '../../lib';
import {ioConnect, collect, wsConnect} from './_support';
import {runChild, childApp} from './_child';

const {Module, UseFilters, Catch} = nest('@nestjs/common');
const {NestFactory, APP_FILTER} = nest('@nestjs/core');
const {WebSocketGateway, SubscribeMessage, WsException} = nest('@nestjs/websockets');
const page = 'docs/websockets/exception-filters.md';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function start(
  providers: unknown[],
  options: {logger?: any; setup?: (app: any) => void} = {},
): Promise<string> {
  @Module({providers: providers as any[]})
  class AppModule {}
  const app = await NestFactory.create(AppModule, {logger: options.logger ?? false});
  options.setup?.(app);
  close = () => app.close();
  return listen(app);
}

/** A gateway whose handlers throw what the page talks about. */
function throwingGateway(decorate: (target: any) => void = () => undefined) {
  const throwLine = fragment(page, 'exception-filters', 'throw new WsException').value.trim();
  @WebSocketGateway()
  class ThrowingGateway {
    @SubscribeMessage('login')
    login() {
      // The page's own line.
      new Function('WsException', throwLine)(WsException);
    }
    @SubscribeMessage('object')
    object() {
      throw new WsException({code: 'CAT_NOT_FOUND', id: 7});
    }
    @SubscribeMessage('crash')
    crash() {
      throw new Error('database password is hunter2');
    }
    @SubscribeMessage('reject')
    async reject() {
      await new Promise((done) => setTimeout(done, 10));
      throw new Error('rejected after a while');
    }
    @SubscribeMessage('observable-error')
    observableError() {
      const {throwError} = nest('rxjs');
      return throwError(() => new Error('the observable failed'));
    }
    @SubscribeMessage('not-found')
    notFound() {
      const {NotFoundException} = nest('@nestjs/common');
      throw new NotFoundException('Cat 7 not found');
    }
  }
  decorate(ThrowingGateway);
  return ThrowingGateway;
}

claim(
  `${page}#exception-filters`,
  'a WsException with a string reaches the sender as an exception event { status: "error", message }',
  async () => {
    const url = await start([throwingGateway()]);
    const socket = await ioConnect(url);
    const got = collect(socket, 'exception');
    socket.emit('login', {});
    const [payload] = await got;
    expectOutput(page, 'ws-exception', payload);
    socket.close();
  },
);

claim(
  `${page}#exception-filters`,
  'an object passed to WsException is sent as it is, without the status wrapper',
  async () => {
    const url = await start([throwingGateway()]);
    const socket = await ioConnect(url);
    const got = collect(socket, 'exception');
    socket.emit('object', {});
    expect(await got).toEqual([{code: 'CAT_NOT_FOUND', id: 7}]);
    socket.close();
  },
);

claim(
  `${page}#exception-filters`,
  'any other error: the client gets "Internal server error" without the details, and Nest logs the error',
  async () => {
    const memory = memoryLogger();
    const url = await start([throwingGateway()], {logger: memory.logger});
    const socket = await ioConnect(url);
    const got = collect(socket, 'exception');
    socket.emit('crash', {});
    expect(await got).toEqual([{status: 'error', message: 'Internal server error'}]);
    expect(
      memory.lines.some((line) => line.level === 'error' && line.message.includes('hunter2')),
    ).toBe(true);
    socket.close();
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#filters`,
    `the page's WsErrorFilter, bound with @UseFilters(), emits error-report with the error and the received data (${lang})`,
    async () => {
      const {WsErrorFilter} = samples(page, {lang}).require('ws-error.filter');
      const url = await start([
        throwingGateway((target) => UseFilters(new WsErrorFilter())(target)),
      ]);
      const socket = await ioConnect(url);
      const report = collect(socket, 'error-report');
      const standard = collect(socket, 'exception', 1, 300);
      socket.emit('login', {user: 'tom'});
      expect(await report).toEqual([{error: 'Invalid credentials.', received: {user: 'tom'}}]);
      expect(await standard).toEqual([]);
      socket.close();
    },
  );

  claim(
    `${page}#inheritance`,
    `AllWsExceptionsFilter (@Catch(), extends BaseWsExceptionFilter) logs every error and keeps the standard exception event (${lang})`,
    async () => {
      const {AllWsExceptionsFilter} = samples(page, {lang}).require('all-ws-exceptions.filter');
      const memory = memoryLogger();
      const url = await start(
        [throwingGateway((target) => UseFilters(new AllWsExceptionsFilter())(target))],
        {logger: memory.logger},
      );
      const socket = await ioConnect(url);
      const got = collect(socket, 'exception', 2);
      socket.emit('login', {});
      socket.emit('crash', {});
      expect(await got).toEqual([
        {status: 'error', message: 'Invalid credentials.'},
        {status: 'error', message: 'Internal server error'},
      ]);
      const own = memory.lines
        .filter((line) => line.context === 'AllWsExceptionsFilter')
        .map((line) => line.message);
      expect(own).toEqual([
        'WebSocket handler failed: Error: Invalid credentials.',
        'WebSocket handler failed: Error: database password is hunter2',
      ]);
      socket.close();
    },
  );
}

claim(
  `${page}#inheritance`,
  'filters from useGlobalFilters() or APP_FILTER are ignored for WebSocket messages',
  async () => {
    const ran: string[] = [];
    @Catch()
    class ProviderFilter {
      catch() {
        ran.push('APP_FILTER');
      }
    }
    const url = await start([throwingGateway(), {provide: APP_FILTER, useClass: ProviderFilter}], {
      setup: (app) =>
        app.useGlobalFilters({
          catch() {
            ran.push('useGlobalFilters');
          },
        }),
    });
    const socket = await ioConnect(url);
    const got = collect(socket, 'exception');
    socket.emit('login', {});
    expect(await got).toEqual([{status: 'error', message: 'Invalid credentials.'}]);
    expect(ran).toEqual([]);
    socket.close();
  },
);

claim(
  `${page}#inheritance`,
  'with WsAdapter the built-in handling sends nothing over the wire; a filter using client.send() does',
  async () => {
    const {WsAdapter} = nest('@nestjs/platform-ws');
    @Catch(WsException)
    class SendFilter {
      catch(exception: any, host: any) {
        host
          .switchToWs()
          .getClient()
          .send(JSON.stringify({event: 'exception', data: exception.getError()}));
      }
    }
    const Plain = throwingGateway();
    const WithFilter = throwingGateway((target) => UseFilters(new SendFilter())(target));
    for (const [gateway, expected] of [
      [Plain, 'timeout'],
      [WithFilter, {event: 'exception', data: 'Invalid credentials.'}],
    ] as const) {
      const url = await start([gateway], {
        setup: (app) => app.useWebSocketAdapter(new WsAdapter(app)),
      });
      const client = await wsConnect(url.replace('http', 'ws'));
      client.socket.send(JSON.stringify({event: 'login', data: {}}));
      expect(await client.next(400)).toEqual(expected);
      client.close();
      await close?.();
      close = undefined;
    }
  },
);

claim.failure(
  `${page}#exception-filters`,
  'a handler whose promise rejects, or whose observable errors: the client gets "Internal server error", Nest logs the error',
  async () => {
    const memory = memoryLogger();
    const url = await start([throwingGateway()], {logger: memory.logger});
    const socket = await ioConnect(url);
    const got = collect(socket, 'exception', 2);
    socket.emit('reject', {});
    socket.emit('observable-error', {});
    expect(await got).toEqual([
      {status: 'error', message: 'Internal server error'},
      {status: 'error', message: 'Internal server error'},
    ]);
    const logged = memory.lines
      .filter((line) => line.level === 'error' && line.context === 'WsExceptionsHandler')
      .map((line) => line.message);
    expect(logged.sort()).toEqual(['rejected after a while', 'the observable failed']);
    socket.close();
  },
);

claim.failure(
  `${page}#exception-filters`,
  'an HTTP exception (NotFoundException) in a gateway: "Internal server error" for the client, its message only in the log',
  async () => {
    const memory = memoryLogger();
    const url = await start([throwingGateway()], {logger: memory.logger});
    const socket = await ioConnect(url);
    const got = collect(socket, 'exception');
    socket.emit('not-found', {});
    expect(await got).toEqual([{status: 'error', message: 'Internal server error'}]);
    expect(memory.lines.some((line) => line.message === 'Cat 7 not found')).toBe(true);
    socket.close();
  },
);

claim.abuse(
  `${page}#exception-filters`,
  'the exception event goes to the sender only: a second client connected at the same time receives nothing',
  async () => {
    const url = await start([throwingGateway()]);
    const sender = await ioConnect(url);
    const other = await ioConnect(url);
    const atSender = collect(sender, 'exception');
    const atOther = collect(other, 'exception', 1, 300);
    sender.emit('login', {password: 'hunter2'});
    expect(await atSender).toEqual([{status: 'error', message: 'Invalid credentials.'}]);
    expect(await atOther).toEqual([]);
    sender.close();
    other.close();
  },
);

claim(
  `${page}#filters`,
  "with the page's @Catch(WsException) filter, a plain Error still gets the built-in exception event",
  async () => {
    const {WsErrorFilter} = samples(page).require('ws-error.filter');
    const url = await start([throwingGateway((target) => UseFilters(new WsErrorFilter())(target))]);
    const socket = await ioConnect(url);
    const standard = collect(socket, 'exception');
    const report = collect(socket, 'error-report', 1, 300);
    socket.emit('crash', {});
    expect(await standard).toEqual([{status: 'error', message: 'Internal server error'}]);
    expect(await report).toEqual([]);
    socket.close();
  },
);

describe('a filter that throws, in a process of its own', () => {
  /** A gateway whose 'boom' handler throws, with a filter whose catch() is `catchBody`. */
  function filterChild(name: string, catchBody: string) {
    const dir = mkdtempSync(join(resolve(__dirname, '..', '..', '.run'), 'ws-filter-'));
    const child = runChild(
      dir,
      `${name}.js`,
      childApp({
        requires: `
const { Catch, UseFilters } = require('@nestjs/common');
const { SubscribeMessage, WebSocketGateway } = require('@nestjs/websockets');
class Filter { ${catchBody} }
Catch()(Filter);
class BoomGateway {
  boom() { throw new Error('handler failed'); }
  ok() { return 'ok'; }
}
for (const name of ['boom', 'ok'])
  SubscribeMessage(name)(BoomGateway.prototype, name, Object.getOwnPropertyDescriptor(BoomGateway.prototype, name));
UseFilters(new Filter())(BoomGateway);
WebSocketGateway()(BoomGateway);`,
        providers: 'BoomGateway',
      }),
    );
    return {child, cleanup: () => rmSync(dir, {recursive: true, force: true})};
  }

  for (const [name, statement, catchBody, pattern] of [
    [
      'rethrow',
      'a filter whose catch() rethrows: the process ends, and every client is disconnected',
      'catch(exception) { throw exception; }',
      /handler failed/,
    ],
    [
      'async-reject',
      'an async catch() that rejects: the unhandled rejection ends the process (Node.js 15 and later)',
      'async catch(exception) { throw exception; }',
      /handler failed/,
    ],
  ] as const) {
    claim.failure(`${page}#filters`, statement, async () => {
      const {child, cleanup} = filterChild(name, catchBody);
      try {
        const [, url] = await child.waitFor(/URL (\S+)/);
        const attacker = await ioConnect(url);
        const bystander = await ioConnect(url);
        const gone = new Promise((done) => bystander.once('disconnect', done));
        attacker.emit('boom', {});
        const ended = await child.exited(5000);
        expect(ended).toEqual({code: 1, signal: null});
        expect(child.output()).toMatch(pattern);
        expect(await gone).toBe('transport close');
        attacker.close();
      } finally {
        await child.stop('SIGKILL');
        cleanup();
      }
    });
  }
});

import {afterAll, beforeAll, expect} from 'vitest';
import {claim, samples, compileModule, nest, memoryLogger, expectOutput, freePort} from '../../lib';
import {tcpMicroservice, until, nodeChild} from './_support';

const {Module} = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const {Transport, ClientProxyFactory} = nest('@nestjs/microservices');
const {lastValueFrom} = nest('rxjs');
const page = 'docs/microservices/exception-filters.md';

const log = memoryLogger();
const events: string[] = [];
let plain: Awaited<ReturnType<typeof tcpMicroservice>>;

/** Handlers that throw what the page talks about; the filters are bound by the tests that need them. */
function failing(decorators = '', name = 'Failing') {
  (globalThis as any).__filterEvents = events;
  return compileModule(
    `
import { Controller, UseFilters } from '@nestjs/common';
import { EventPattern, MessagePattern, RpcException } from '@nestjs/microservices';
const filters = (globalThis as any).__filters ?? [];
@Controller()
${decorators}
export class ${name} {
  @MessagePattern('credentials') credentials() { throw new RpcException('Invalid credentials.'); }
  @MessagePattern('coded') coded() { throw new RpcException({ code: 'CAT_MISSING', id: 7 }); }
  @MessagePattern('unknown') unknown() { throw new Error('connection string leaked'); }
  @EventPattern('failing_event') event() { (globalThis as any).__filterEvents.push('ran'); throw new Error('event went wrong'); }
}
`,
    name.toLowerCase(),
  )[name];
}

beforeAll(async () => {
  @Module({controllers: [failing()]})
  class PlainModule {}
  plain = await tcpMicroservice(PlainModule, undefined, log);
});
afterAll(async () => {
  await plain?.close();
});

claim(
  `${page}#exception-filters`,
  "an RpcException('Invalid credentials.') reaches the caller as { status: 'error', message }",
  async () => {
    const error = await lastValueFrom(plain.client.send('credentials', {})).catch(
      (e: unknown) => e,
    );
    expectOutput(page, 'rpc-exception', error);
  },
);

claim(
  `${page}#exception-filters`,
  'an object given to RpcException is sent as it is, without the status wrapper',
  async () => {
    await expect(lastValueFrom(plain.client.send('coded', {}))).rejects.toEqual({
      code: 'CAT_MISSING',
      id: 7,
    });
  },
);

claim(
  `${page}#exception-filters`,
  'any other error is logged and reaches the caller as Internal server error',
  async () => {
    await expect(lastValueFrom(plain.client.send('unknown', {}))).rejects.toEqual({
      status: 'error',
      message: 'Internal server error',
    });
    expect(
      log.lines.some(
        (line) => line.level === 'error' && line.message === 'connection string leaked',
      ),
    ).toBe(true);
  },
);

claim(
  `${page}#exception-filters`,
  'a failing @EventPattern handler: the unknown error is logged, nothing is sent',
  async () => {
    const before = log.lines.filter((line) => line.message === 'event went wrong').length;
    await lastValueFrom(plain.client.emit('failing_event', {}), {defaultValue: undefined});
    await until(
      () =>
        events.includes('ran') &&
        log.lines.filter((line) => line.message === 'event went wrong').length === before + 1,
    );
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#filters`,
    `RpcErrorFilter forwards the RpcException's error as it was given: a bare string (${lang})`,
    async () => {
      const {RpcErrorFilter} = samples(page, {lang}).require('rpc-error.filter');
      (globalThis as any).__RpcErrorFilter = RpcErrorFilter;
      const Filtered = failing(
        `@UseFilters(new (globalThis as any).__RpcErrorFilter())`,
        `Filtered${lang}`,
      );
      const {MathController} = samples(page, {lang}).require('math.controller');
      @Module({controllers: [Filtered, MathController]})
      class FilteredModule {}
      const service = await tcpMicroservice(FilteredModule, undefined, log);
      try {
        await expect(lastValueFrom(service.client.send('credentials', {}))).rejects.toBe(
          'Invalid credentials.',
        );
        // The page's MathController, with the filter bound, still answers normally.
        expect(await lastValueFrom(service.client.send({cmd: 'sum'}, [1, 2]))).toBe(3);
      } finally {
        await service.close();
      }
    },
  );
}

claim(
  `${page}#filters`,
  'useGlobalFilters() on an HTTP app skips a connected microservice unless it is connected with inheritAppConfig: true after the call; useGlobalFilters() on the connected instance comes too late',
  async () => {
    const {RpcErrorFilter} = samples(page).require('rpc-error.filter');
    const results: Record<string, unknown> = {};
    for (const mode of ['plain', 'inherit', 'own'] as const) {
      @Module({controllers: [failing('', `Hybrid${mode}`)]})
      class HybridModule {}
      const app = await NestFactory.create(HybridModule, {logger: log.logger});
      app.useGlobalFilters(new RpcErrorFilter());
      const port = await freePort();
      const micro = app.connectMicroservice(
        {transport: Transport.TCP, options: {host: '127.0.0.1', port}},
        {inheritAppConfig: mode === 'inherit'},
      );
      if (mode === 'own') micro.useGlobalFilters(new RpcErrorFilter());
      await app.startAllMicroservices();
      await app.init();
      const client = ClientProxyFactory.create({
        transport: Transport.TCP,
        options: {host: '127.0.0.1', port},
      });
      results[mode] = await lastValueFrom(client.send('credentials', {})).catch((e: unknown) => e);
      client.close();
      await app.close();
    }
    expect(results).toEqual({
      plain: {status: 'error', message: 'Invalid credentials.'},
      inherit: 'Invalid credentials.',
      own: {status: 'error', message: 'Invalid credentials.'},
    });
  },
);

claim(
  `${page}#inheritance`,
  "AllExceptionsFilter logs the payload's field names and the error, and keeps the standard error packet",
  async () => {
    const {AllExceptionsFilter} = samples(page).require('all-exceptions.filter');
    (globalThis as any).__all = AllExceptionsFilter;
    const Inherited = failing(`@UseFilters(new (globalThis as any).__all())`, 'Inherited');
    @Module({controllers: [Inherited]})
    class InheritedModule {}
    const service = await tcpMicroservice(InheritedModule, undefined, log);
    try {
      await expect(lastValueFrom(service.client.send('unknown', {n: 1}))).rejects.toEqual({
        status: 'error',
        message: 'Internal server error',
      });
      await expect(lastValueFrom(service.client.send('credentials', {n: 2}))).rejects.toEqual({
        status: 'error',
        message: 'Invalid credentials.',
      });
      const lines = log.lines
        .filter((line) => line.context === 'AllExceptionsFilter')
        .map((line) => line.message);
      expect(lines).toEqual([
        'Handler failed for a payload with ["n"]: Error: connection string leaked',
        'Handler failed for a payload with ["n"]: Error: Invalid credentials.',
      ]);
    } finally {
      await service.close();
    }
  },
);

claim(
  `${page}#filters`,
  'a standalone microservice takes global filters from useGlobalFilters() on its instance before listen()',
  async () => {
    const {RpcErrorFilter} = samples(page).require('rpc-error.filter');
    @Module({controllers: [failing('', 'Standalone')]})
    class StandaloneModule {}
    const service = await tcpMicroservice(
      StandaloneModule,
      (app) => app.useGlobalFilters(new RpcErrorFilter()),
      log,
    );
    try {
      await expect(lastValueFrom(service.client.send('credentials', {}))).rejects.toBe(
        'Invalid credentials.',
      );
    } finally {
      await service.close();
    }
  },
);

claim.abuse(
  `${page}#inheritance`,
  "AllExceptionsFilter with the guards chapter's apiKey in the payload: the key stays out of the log (field names only, at most ten); a non-object payload is logged by its type",
  async () => {
    const {AllExceptionsFilter} = samples(page).require('all-exceptions.filter');
    (globalThis as any).__all = AllExceptionsFilter;
    const Keyed = failing(`@UseFilters(new (globalThis as any).__all())`, 'Keyed');
    @Module({controllers: [Keyed]})
    class KeyedModule {}
    const service = await tcpMicroservice(KeyedModule, undefined, log);
    try {
      const secret = 'k-123-very-secret';
      await expect(
        lastValueFrom(service.client.send('unknown', {apiKey: secret, numbers: [1]})),
      ).rejects.toEqual({status: 'error', message: 'Internal server error'});
      await expect(lastValueFrom(service.client.send('unknown', 'just text'))).rejects.toEqual({
        status: 'error',
        message: 'Internal server error',
      });
      const many = Object.fromEntries(Array.from({length: 500}, (_, i) => [`f${i}`, i]));
      await expect(lastValueFrom(service.client.send('unknown', many))).rejects.toEqual({
        status: 'error',
        message: 'Internal server error',
      });
      const lines = log.lines
        .filter((line) => line.context === 'AllExceptionsFilter')
        .map((line) => line.message)
        .slice(-3);
      expect(lines).toEqual([
        'Handler failed for a payload with ["apiKey","numbers"]: Error: connection string leaked',
        'Handler failed for a payload with string: Error: connection string leaked',
        'Handler failed for a payload with ["f0","f1","f2","f3","f4","f5","f6","f7","f8","f9"]: Error: connection string leaked',
      ]);
      expect(log.text()).not.toContain(secret);
    } finally {
      await service.close();
    }
  },
);

claim.abuse(
  `${page}#inheritance`,
  'AllExceptionsFilter with a field name that carries a line break, or one of 10,000 characters: the log line stays one line, and each name is cut to 40 characters',
  async () => {
    const {AllExceptionsFilter} = samples(page).require('all-exceptions.filter');
    (globalThis as any).__all = AllExceptionsFilter;
    const Forged = failing(`@UseFilters(new (globalThis as any).__all())`, 'Forged');
    @Module({controllers: [Forged]})
    class ForgedModule {}
    const service = await tcpMicroservice(ForgedModule, undefined, log);
    try {
      const forged = 'x\n[Nest] 1  - 01/01/2026, 0:00:00 AM     LOG [Auth] admin signed in';
      await expect(
        lastValueFrom(service.client.send('unknown', {[forged]: 1, ['y'.repeat(10_000)]: 2})),
      ).rejects.toEqual({status: 'error', message: 'Internal server error'});
      const [line] = log.lines
        .filter((l) => l.context === 'AllExceptionsFilter')
        .map((l) => String(l.message))
        .slice(-1);
      expect(line).toBe(
        `Handler failed for a payload with ${JSON.stringify([forged.slice(0, 40), 'y'.repeat(40)])}: Error: connection string leaked`,
      );
      expect(line).not.toContain('\n');
    } finally {
      await service.close();
    }
  },
);

claim.abuse(
  `${page}#filters`,
  "a payload the page's MathController does not expect (a string) throws a TypeError that RpcErrorFilter lets through: the caller gets Internal server error, not the TypeError's text",
  async () => {
    const set = samples(page);
    const {MathController} = set.require('math.controller');
    @Module({controllers: [MathController]})
    class MathModule {}
    const service = await tcpMicroservice(MathModule, undefined, log);
    try {
      expect(await lastValueFrom(service.client.send({cmd: 'sum'}, [1, 2]))).toBe(3);
      await expect(lastValueFrom(service.client.send({cmd: 'sum'}, 'text'))).rejects.toEqual({
        status: 'error',
        message: 'Internal server error',
      });
    } finally {
      await service.close();
    }
  },
);

claim.failure(
  `${page}#inheritance`,
  'a filter that throws inside catch() leaves the caller without an answer and ends the microservice process',
  async () => {
    const port = await freePort();
    const child = nodeChild(
      `
require('reflect-metadata');
const { NestFactory } = require('@nestjs/core');
const { Module, Controller, Catch, UseFilters } = require('@nestjs/common');
const { Transport, MessagePattern } = require('@nestjs/microservices');
class Careless { catch(exception) { return exception.message.toUpperCase(); } }
Catch()(Careless);
class Thrower { run() { throw undefined; } }
MessagePattern('throws_undefined')(Thrower.prototype, 'run', Object.getOwnPropertyDescriptor(Thrower.prototype, 'run'));
UseFilters(new Careless())(Thrower);
Controller()(Thrower);
class AppModule {}
Module({ controllers: [Thrower] })(AppModule);
(async () => {
  const app = await NestFactory.createMicroservice(AppModule, { transport: Transport.TCP, logger: false, options: { host: '127.0.0.1', port: Number(process.argv[2]) } });
  await app.listen();
  console.log('LISTENING');
})();
`,
      [String(port)],
    );
    const caller = ClientProxyFactory.create({
      transport: Transport.TCP,
      options: {host: '127.0.0.1', port},
    });
    try {
      await child.waitFor('LISTENING');
      const settled: string[] = [];
      lastValueFrom(caller.send('throws_undefined', {})).then(
        () => settled.push('value'),
        () => settled.push('error'),
      );
      expect(await child.exited).toBe(1);
      expect(child.out).toContain("Cannot read properties of undefined (reading 'message')");
      await new Promise((r) => setTimeout(r, 300));
      expect(settled).toEqual([]);
    } finally {
      caller.close();
      await child.kill();
    }
  },
);

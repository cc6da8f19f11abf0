import {afterAll, beforeAll, expect} from 'vitest';
import {claim, samples, fragment, compileModule, nest, memoryLogger, freePort} from '../../lib';
import {tcpMicroservice, until} from './_support';

const {Module} = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const {Transport, ClientProxyFactory} = nest('@nestjs/microservices');
const {lastValueFrom} = nest('rxjs');
const page = 'docs/microservices/guards.md';
const log = memoryLogger();
const handled: string[] = [];

let previousKey: string | undefined;
beforeAll(() => {
  previousKey = process.env.INTERNAL_API_KEY;
  process.env.INTERNAL_API_KEY = 'k-123';
  (globalThis as any).__guardHandled = handled;
});
afterAll(() => {
  if (previousKey === undefined) delete process.env.INTERNAL_API_KEY;
  else process.env.INTERNAL_API_KEY = previousKey;
});

/** The page's handler fragment in a controller, plus a guard that returns false and an event handler. */
function controller(name: string, guard: unknown) {
  (globalThis as any).__ApiKeyGuard = guard;
  const handler = fragment(page, 'binding-guards', '@UseGuards(ApiKeyGuard)').value;
  return compileModule(
    `
import { CanActivate, Controller, Injectable, UseGuards } from '@nestjs/common';
import { EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
const ApiKeyGuard = (globalThis as any).__ApiKeyGuard;
@Injectable()
class No implements CanActivate { canActivate() { return false; } }
@Controller()
export class ${name} {
  ${handler}
  @UseGuards(No) @MessagePattern('closed') closed() { return 'open'; }
  @UseGuards(ApiKeyGuard) @EventPattern('guarded_event') event(@Payload() data: { apiKey?: string }) { (globalThis as any).__guardHandled.push(data.apiKey ?? 'none'); }
  @MessagePattern('unguarded') unguarded(@Payload() data: { apiKey?: string; numbers: number[] }) { return data.numbers.length; }
}
`,
    name.toLowerCase(),
  )[name];
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#binding-guards`,
    `ApiKeyGuard lets a payload with the right apiKey through and fails the caller with 'Invalid API key' otherwise (${lang})`,
    async () => {
      const {ApiKeyGuard} = samples(page, {lang}).require('api-key.guard');
      @Module({controllers: [controller(`Guarded${lang}`, ApiKeyGuard)]})
      class AppModule {}
      const service = await tcpMicroservice(AppModule, undefined, log);
      try {
        expect(
          await lastValueFrom(
            service.client.send({cmd: 'sum'}, {apiKey: 'k-123', numbers: [1, 2, 3]}),
          ),
        ).toBe(6);
        await expect(
          lastValueFrom(service.client.send({cmd: 'sum'}, {apiKey: 'wrong', numbers: [1]})),
        ).rejects.toEqual({status: 'error', message: 'Invalid API key'});
      } finally {
        await service.close();
      }
    },
  );
}

claim(
  `${page}#guards`,
  "a guard that returns false fails the caller with an RpcException 'Forbidden resource'",
  async () => {
    const {ApiKeyGuard} = samples(page).require('api-key.guard');
    @Module({controllers: [controller('Closed', ApiKeyGuard)]})
    class AppModule {}
    const service = await tcpMicroservice(AppModule, undefined, log);
    try {
      await expect(lastValueFrom(service.client.send('closed', {}))).rejects.toEqual({
        status: 'error',
        message: 'Forbidden resource',
      });
    } finally {
      await service.close();
    }
  },
);

claim(
  `${page}#binding-guards`,
  'guards run before @EventPattern handlers: a rejected event is not handled',
  async () => {
    const {ApiKeyGuard} = samples(page).require('api-key.guard');
    @Module({controllers: [controller('Events', ApiKeyGuard)]})
    class AppModule {}
    const service = await tcpMicroservice(AppModule, undefined, log);
    try {
      await lastValueFrom(service.client.emit('guarded_event', {apiKey: 'wrong'}), {
        defaultValue: undefined,
      });
      await lastValueFrom(service.client.emit('guarded_event', {apiKey: 'k-123'}), {
        defaultValue: undefined,
      });
      await until(() => handled.includes('k-123'));
      expect(handled).toEqual(['k-123']);
    } finally {
      await service.close();
    }
  },
);

claim(
  `${page}#binding-guards`,
  "useGlobalGuards() on the microservice guards every handler; a hybrid app's global guards need inheritAppConfig: true and registration before connectMicroservice()",
  async () => {
    const {ApiKeyGuard} = samples(page).require('api-key.guard');
    @Module({controllers: [controller('Global', ApiKeyGuard)]})
    class AppModule {}
    const service = await tcpMicroservice(
      AppModule,
      (app) => app.useGlobalGuards(new ApiKeyGuard()),
      log,
    );
    try {
      await expect(lastValueFrom(service.client.send('unguarded', {numbers: [1]}))).rejects.toEqual(
        {status: 'error', message: 'Invalid API key'},
      );
    } finally {
      await service.close();
    }
    const outcome: Record<string, unknown> = {};
    for (const mode of ['plain', 'inherit', 'inherit-late'] as const) {
      const app = await NestFactory.create(AppModule, {logger: log.logger});
      if (mode !== 'inherit-late') app.useGlobalGuards(new ApiKeyGuard());
      const port = await freePort();
      app.connectMicroservice(
        {transport: Transport.TCP, options: {host: '127.0.0.1', port}},
        {inheritAppConfig: mode !== 'plain'},
      );
      if (mode === 'inherit-late') app.useGlobalGuards(new ApiKeyGuard());
      await app.startAllMicroservices();
      await app.init();
      const client = ClientProxyFactory.create({
        transport: Transport.TCP,
        options: {host: '127.0.0.1', port},
      });
      outcome[mode] = await lastValueFrom(client.send('unguarded', {numbers: [1, 2]})).catch(
        (e: any) => e.message,
      );
      client.close();
      await app.close();
    }
    expect(outcome).toEqual({plain: 2, inherit: 'Invalid API key', 'inherit-late': 2});
  },
);

/** Runs `check` against the page's ApiKeyGuard (TS and JS halves) on the page's handler, with INTERNAL_API_KEY set to `key`. */
async function withGuard(
  key: string | undefined,
  check: (send: (payload: unknown) => Promise<unknown>) => Promise<void>,
) {
  const saved = process.env.INTERNAL_API_KEY;
  if (key === undefined) delete process.env.INTERNAL_API_KEY;
  else process.env.INTERNAL_API_KEY = key;
  try {
    for (const lang of ['ts', 'js'] as const) {
      const {ApiKeyGuard} = samples(page, {lang}).require('api-key.guard');
      @Module({controllers: [controller(`Attacked${lang}${String(key).length}`, ApiKeyGuard)]})
      class AppModule {}
      const service = await tcpMicroservice(AppModule, undefined, log);
      try {
        await check((payload) => lastValueFrom(service.client.send({cmd: 'sum'}, payload)));
      } finally {
        await service.close();
      }
    }
  } finally {
    if (saved === undefined) delete process.env.INTERNAL_API_KEY;
    else process.env.INTERNAL_API_KEY = saved;
  }
}
const invalid = {status: 'error', message: 'Invalid API key'};

claim.abuse(
  `${page}#binding-guards`,
  'with INTERNAL_API_KEY not set, a payload without apiKey is rejected (not let through as undefined === undefined), and the guard logs why (TS and JS)',
  async () => {
    await withGuard(undefined, async (send) => {
      await expect(send({numbers: [1, 2]})).rejects.toEqual(invalid);
      await expect(send({apiKey: 'undefined', numbers: [1, 2]})).rejects.toEqual(invalid);
    });
    expect(log.text()).toContain('INTERNAL_API_KEY is not set: every message is rejected');
  },
);

claim.abuse(
  `${page}#binding-guards`,
  'with INTERNAL_API_KEY set to an empty string, a payload with an empty apiKey is rejected (TS and JS)',
  async () => {
    await withGuard('', async (send) => {
      await expect(send({apiKey: '', numbers: [1, 2]})).rejects.toEqual(invalid);
      await expect(send({numbers: [1, 2]})).rejects.toEqual(invalid);
    });
  },
);

claim.abuse(
  `${page}#binding-guards`,
  'an apiKey that is not a string ({}, [key], a number) or has the key as a prefix is rejected without an error; the right key passes (TS and JS)',
  async () => {
    await withGuard('k-123', async (send) => {
      for (const apiKey of [{}, ['k-123'], 123, 'k-1234', 'k-12']) {
        await expect(send({apiKey, numbers: [1]}), JSON.stringify(apiKey)).rejects.toEqual(invalid);
      }
      expect(await send({apiKey: 'k-123', numbers: [1, 2]})).toBe(3);
    });
  },
);

claim.abuse(
  `${page}#binding-guards`,
  'a guard that throws a plain Error fails the caller with Internal server error, and the handler does not run',
  async () => {
    const ran: string[] = [];
    (globalThis as any).__guardRan = ran;
    const {Broken} = compileModule(
      `
import { CanActivate, Controller, Injectable, UseGuards } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
@Injectable()
class StoreDown implements CanActivate { canActivate(): boolean { throw new Error('key store unreachable at 10.0.0.7'); } }
@Controller()
export class Broken { @UseGuards(StoreDown) @MessagePattern('guarded') run() { (globalThis as any).__guardRan.push('ran'); return 'ran'; } }
`,
      'guards-broken',
    );
    @Module({controllers: [Broken]})
    class BrokenModule {}
    const service = await tcpMicroservice(BrokenModule, undefined, log);
    try {
      await expect(lastValueFrom(service.client.send('guarded', {}))).rejects.toEqual({
        status: 'error',
        message: 'Internal server error',
      });
      expect(ran).toEqual([]);
    } finally {
      await service.close();
    }
  },
);

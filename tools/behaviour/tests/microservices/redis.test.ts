import {afterAll, beforeAll, expect} from 'vitest';
import {spawn, type ChildProcess} from 'node:child_process';
import {mkdtempSync, writeFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {connect} from 'node:net';
import {
  claim,
  samples,
  fragment,
  compileModule,
  service,
  nest,
  memoryLogger,
  expectOutput,
  findBinary,
  freePort,
  repoRoot,
  type Service,
} from '../../lib';
import {nodeChild, ownBroker, deepJson} from './_support';

const {NestFactory} = nest('@nestjs/core');
const {Module} = nest('@nestjs/common');
const {Transport, ClientProxyFactory} = nest('@nestjs/microservices');
const {lastValueFrom} = nest('rxjs');
const redisPackage = nest('redis');
const page = 'docs/microservices/redis.md';

let redis: Service;
beforeAll(async () => {
  redis = await service('redis');
});
afterAll(async () => {
  await redis?.stop();
});

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Waits until each channel has `n` subscribers (PUBSUB NUMSUB). */
async function subscribers(channels: string[], n: number): Promise<void> {
  const admin = redisClient(redis.url);
  try {
    for (let i = 0; i < 100; i += 1) {
      const reply: (string | number)[] = await new Promise((done, fail) =>
        admin.pubsub('numsub', ...channels, (err: Error, r: any) => (err ? fail(err) : done(r))),
      );
      const counts = reply.filter((_, index) => index % 2 === 1).map(Number);
      if (counts.every((count) => count >= n)) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`channels ${channels.join(', ')} never had ${n} subscribers`);
  } finally {
    admin.quit();
  }
}

function redisClient(url: string): any {
  return redisPackage.createClient({url});
}

/** The page imports the Cat interface it shows on the overview page; a per-file compile keeps that import for the decorator metadata. */
const catInterface = 'export interface Cat { name: string; age: number; breed: string }\n';

/** The page's microservice (main + the Context section's controller) on the suite's Redis. */
async function startMicroservice(logger = memoryLogger()) {
  const set = samples(page, {
    files: {
      'interfaces/cat.interface': catInterface,
      'app.module': `import { Module } from '@nestjs/common';\nimport { CatsController } from './cats.controller';\n@Module({ controllers: [CatsController] })\nexport class AppModule {}\n`,
    },
  });
  const {AppModule} = set.require('app.module');
  const main = set.sources.get('main')!;
  expect(main).toContain(`url: 'redis://localhost:6379'`);
  const app = await NestFactory.createMicroservice(AppModule, {
    transport: Transport.REDIS,
    logger: logger.logger,
    options: {url: redis.url},
  });
  await app.listen();
  await subscribers(['cat_created'], 1);
  return {app, logger};
}

claim(
  `${page}#context`,
  "an event published with emit('cat_created') reaches the handler, and getChannel() names the channel cat_created",
  async () => {
    const {app, logger} = await startMicroservice();
    const client = ClientProxyFactory.create({
      transport: Transport.REDIS,
      options: {url: redis.url},
    });
    try {
      await lastValueFrom(client.emit('cat_created', {name: 'Tom', age: 3, breed: 'Persian'}), {
        defaultValue: undefined,
      });
      await until(() => logger.text().includes('"Tom" arrived on channel cat_created'));
    } finally {
      client.close();
      await app.close();
    }
  },
);

claim(
  `${page}#overview`,
  'the transporter opens two connections to Redis (one subscriber, one publisher)',
  async () => {
    const admin = redisClient(redis.url);
    const count = () =>
      new Promise<number>((done, fail) =>
        admin.client('list', (err: Error, list: string) =>
          err ? fail(err) : done(list.trim().split('\n').length),
        ),
      );
    const before = await count();
    const {app} = await startMicroservice();
    try {
      // The helper's own admin connection (PUBSUB NUMSUB) may take a moment to leave.
      let added = 0;
      for (let i = 0; i < 50; i += 1) {
        added = (await count()) - before;
        if (added === 2) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(added).toBe(2);
    } finally {
      await app.close();
      admin.quit();
    }
  },
);

claim(
  `${page}#channels`,
  'a request goes to the channel named after the normalized pattern, the reply to the same name + .reply; the packet carries pattern, data and id',
  async () => {
    const logger = memoryLogger();
    const {ControllerFind} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
@Controller()
export class ControllerFind {
  @MessagePattern({ entity: 'cat', action: 'find' })
  find(@Payload() id: number) { return { id, name: 'Tom' }; }
}
`,
      'redis-find',
    );
    @Module({controllers: [ControllerFind]})
    class FindModule {}
    const app = await NestFactory.createMicroservice(FindModule, {
      transport: Transport.REDIS,
      logger: logger.logger,
      options: {url: redis.url},
    });
    await app.listen();
    await subscribers(['{"action":"find","entity":"cat"}'], 1);
    const watcher = redisClient(redis.url);
    const seen: {channel: string; message: any}[] = [];
    watcher.on('pmessage', (_p: string, channel: string, message: string) =>
      seen.push({channel, message: JSON.parse(message)}),
    );
    await new Promise((r) => watcher.psubscribe('*', r));
    const client = ClientProxyFactory.create({
      transport: Transport.REDIS,
      options: {url: redis.url},
    });
    try {
      const cat = await lastValueFrom(client.send({entity: 'cat', action: 'find'}, 7));
      expect(cat).toEqual({id: 7, name: 'Tom'});
      // Keys in another order: the same normalized channel.
      expect(await lastValueFrom(client.send({action: 'find', entity: 'cat'}, 8))).toEqual({
        id: 8,
        name: 'Tom',
      });
      await until(() => seen.length >= 4);
      expect(seen[2].channel).toBe(seen[0].channel);
      expect(seen[0].channel).toBe('{"action":"find","entity":"cat"}');
      expect(seen[1].channel).toBe('{"action":"find","entity":"cat"}.reply');
      expect(seen[1].message.id).toBe(seen[0].message.id);
      expectOutput(page, 'redis-request', seen[0].message, [[/"id":\s*"[^"]+"/, '"id":"ID"']]);
    } finally {
      client.close();
      watcher.quit();
      await app.close();
    }
  },
);

claim(
  `${page}#channels`,
  "publishing the page's JSON packet by hand on cat_created triggers the @EventPattern handler",
  async () => {
    const command = fragment(page, 'channels', 'redis-cli publish').value.trim();
    const match = /^redis-cli publish (\S+) '(.*)'$/.exec(command)!;
    expect(match[1]).toBe('cat_created');
    const {app, logger} = await startMicroservice();
    const publisher = redisClient(redis.url);
    try {
      await new Promise((r) => publisher.publish(match[1], match[2], r));
      await until(() => logger.text().includes('"Tom" arrived on channel cat_created'));
    } finally {
      publisher.quit();
      await app.close();
    }
  },
);

claim(
  `${page}#channels`,
  'two instances of one microservice both handle each event, and both answer a request (the client keeps the first answer)',
  async () => {
    const counts = {events: 0, requests: 0};
    (globalThis as any).__redisCounts = counts;
    const {Twice} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { EventPattern, MessagePattern } from '@nestjs/microservices';
@Controller()
export class Twice {
  @EventPattern('twice_event') onEvent() { (globalThis as any).__redisCounts.events++; }
  @MessagePattern('twice_request') onRequest() { (globalThis as any).__redisCounts.requests++; return 'answer'; }
}
`,
      'redis-twice',
    );
    @Module({controllers: [Twice]})
    class TwiceModule {}
    const start = async () => {
      const app = await NestFactory.createMicroservice(TwiceModule, {
        transport: Transport.REDIS,
        logger: false,
        options: {url: redis.url},
      });
      await app.listen();
      return app;
    };
    const [a, b] = [await start(), await start()];
    // listen() resolves on 'connect', a moment before Redis has processed the SUBSCRIBE commands.
    await subscribers(['twice_event', 'twice_request'], 2);
    const client = ClientProxyFactory.create({
      transport: Transport.REDIS,
      options: {url: redis.url},
    });
    try {
      await lastValueFrom(client.emit('twice_event', {}), {defaultValue: undefined});
      expect(await lastValueFrom(client.send('twice_request', {}))).toBe('answer');
      await until(() => counts.events === 2 && counts.requests === 2).catch(() => {
        throw new Error(`counts: ${JSON.stringify(counts)}`);
      });
    } finally {
      client.close();
      await a.close();
      await b.close();
    }
  },
);

claim(
  `${page}#channels`,
  "@EventPattern('cats.*') is an exact channel name: cats.created does not reach it, a channel literally named cats.* does",
  async () => {
    const received: string[] = [];
    (globalThis as any).__redisWildcard = received;
    const {Wild} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, RedisContext } from '@nestjs/microservices';
@Controller()
export class Wild {
  @EventPattern('cats.*') on(_data: unknown, @Ctx() ctx: RedisContext) { (globalThis as any).__redisWildcard.push(ctx.getChannel()); }
}
`,
      'redis-wild',
    );
    @Module({controllers: [Wild]})
    class WildModule {}
    const app = await NestFactory.createMicroservice(WildModule, {
      transport: Transport.REDIS,
      logger: false,
      options: {url: redis.url},
    });
    await app.listen();
    await subscribers(['cats.*'], 1);
    const client = ClientProxyFactory.create({
      transport: Transport.REDIS,
      options: {url: redis.url},
    });
    try {
      await lastValueFrom(client.emit('cats.created', {}), {defaultValue: undefined});
      await lastValueFrom(client.emit('cats.*', {}), {defaultValue: undefined});
      await until(() => received.length > 0);
      await new Promise((r) => setTimeout(r, 100));
      expect(received).toEqual(['cats.*']);
    } finally {
      client.close();
      await app.close();
    }
  },
);

claim(
  `${page}#client`,
  "the page's client module and CatsService send and emit through Redis (TS and JS)",
  async () => {
    for (const lang of ['ts', 'js'] as const) {
      // The module is shown in TypeScript only; the JS reader's CatsService runs with it.
      const appModule = samples(page, {under: 'client'}).sources.get('app.module')!;
      const set = samples(page, {
        lang,
        under: 'client',
        files: {
          'interfaces/cat.interface': lang === 'ts' ? catInterface : 'export {};\n',
          'app.module': appModule,
        },
        edit: {'app.module': [[`url: 'redis://localhost:6379'`, `url: '${redis.url}'`]]},
      });
      const {AppModule} = set.require('app.module');
      const {CatsService} = set.require('cats.service');
      const {Answer} = compileModule(
        `
import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
@Controller()
export class Answer {
  @MessagePattern({ entity: 'cat', action: 'find' })
  find(@Payload() id: number) { return { name: 'Tom', age: id, breed: 'Persian' }; }
}
`,
        `redis-answer-${lang}`,
      );
      @Module({controllers: [Answer]})
      class AnswerModule {}
      const micro = await NestFactory.createMicroservice(AnswerModule, {
        transport: Transport.REDIS,
        logger: false,
        options: {url: redis.url},
      });
      await micro.listen();
      await subscribers(['{"action":"find","entity":"cat"}'], 1);
      const app = await NestFactory.createApplicationContext(AppModule, {logger: false});
      try {
        expect(await app.get(CatsService).findOne(3)).toEqual({
          name: 'Tom',
          age: 3,
          breed: 'Persian',
        });
      } finally {
        await app.close();
        await micro.close();
      }
    }
  },
);

/**
 * Outages need a Redis server of their own that the test stops and starts again on the same port,
 * and microservices in child processes (an uncaught exception ends the process that runs it).
 */
claim(
  `${page}#options`,
  'a lost connection without retryAttempts ends the process with "Error: Retry time exhausted"; with retryAttempts it ends once they are used up; with enough of them it reconnects after a restart',
  async () => {
    const binary = findBinary('redis');
    const port = await freePort();
    const url = `redis://127.0.0.1:${port}`;
    const startRedis = async () => {
      const child = spawn(
        binary,
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        {stdio: 'ignore'},
      );
      for (;;) {
        const open = await new Promise<boolean>((done) => {
          const socket = connect(port, '127.0.0.1');
          socket.once('connect', () => {
            socket.destroy();
            done(true);
          });
          socket.once('error', () => done(false));
        });
        if (open) return child;
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const stopRedis = (child: ChildProcess) =>
      new Promise<void>((done) => {
        child.once('exit', () => done());
        child.kill('SIGKILL');
      });
    // The page's production options, scaled down in time (30 x 2000 ms would take a minute).
    const shown = fragment(page, 'options', 'retryAttempts: 30').value;
    expect(shown).toContain('retryDelay: 2000');
    const dir = mkdtempSync(join(tmpdir(), 'behaviour-redis-outage-'));
    const script = join(dir, 'micro.js');
    writeFileSync(
      script,
      `
const { NestFactory } = require('@nestjs/core');
const { Module, Controller } = require('@nestjs/common');
const { Transport, EventPattern } = require('@nestjs/microservices');
class Ping { on() { console.log('PING'); } }
EventPattern('ping')(Ping.prototype, 'on', Object.getOwnPropertyDescriptor(Ping.prototype, 'on'));
Controller()(Ping);
class AppModule {}
Module({ controllers: [Ping] })(AppModule);
(async () => {
  const app = await NestFactory.createMicroservice(AppModule, { transport: Transport.REDIS, logger: ['error'], options: JSON.parse(process.argv[2]) });
  await app.listen();
  console.log('LISTENING');
})();
`,
    );
    const children: ChildProcess[] = [];
    const run = (options: object) => {
      const child = spawn(process.execPath, [script, JSON.stringify(options)], {
        env: {...process.env, NODE_PATH: join(repoRoot, 'tools', 'behaviour', 'node_modules')},
      });
      children.push(child);
      const state = {out: '', code: null as number | null, exitedAt: 0};
      child.stdout!.on('data', (chunk) => (state.out += chunk));
      child.stderr!.on('data', (chunk) => (state.out += chunk));
      child.on('exit', (code) => {
        state.code = code;
        state.exitedAt = Date.now();
      });
      return state;
    };
    let server = await startRedis();
    try {
      const none = run({url});
      const few = run({url, retryAttempts: 3, retryDelay: 200});
      const many = run({url, retryAttempts: 1000, retryDelay: 100});
      await until(() => [none, few, many].every((s) => s.out.includes('LISTENING')), 15_000);
      // All three subscribed for real before the outage: a SUBSCRIBE still in flight when the
      // connection drops is aborted and never restored (listen() resolves before it is
      // processed, see #overview), and that process would then never hear 'ping' again.
      const admin = redisClient(url);
      try {
        for (let i = 0; ; i += 1) {
          const reply: any[] = await new Promise((done, fail) =>
            admin.pubsub('numsub', 'ping', (err: Error, r: any) => (err ? fail(err) : done(r))),
          );
          if (Number(reply[1]) >= 3) break;
          if (i > 500) throw new Error(`only ${reply[1]} subscribers on ping`);
          await new Promise((r) => setTimeout(r, 20));
        }
      } finally {
        admin.quit();
      }
      const stoppedAt = Date.now();
      await stopRedis(server);
      await until(() => none.code !== null && few.code !== null, 15_000);
      expect(none.code).toBe(1);
      expect(none.out).toContain('Error: Retry time exhausted');
      expect(few.code).toBe(1);
      expect(few.out).toContain('Error: Retry time exhausted');
      // Three attempts 200 ms apart before it gives up.
      expect(few.exitedAt - stoppedAt).toBeGreaterThanOrEqual(600);
      expect(many.code).toBe(null);
      server = await startRedis();
      const publisher = redisClient(url);
      await until(() => {
        publisher.publish('ping', JSON.stringify({pattern: 'ping', data: 1}));
        return many.out.includes('PING');
      }, 20_000).catch(() => {
        throw new Error(`no PING after the restart (exit ${many.code}):\n${many.out}`);
      });
      publisher.quit();
      expect(many.code).toBe(null);
    } finally {
      for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
      await stopRedis(server);
      rmSync(dir, {recursive: true, force: true});
    }
  },
  60_000,
);

claim(
  `${page}#overview`,
  'listen() resolves before Redis has processed the SUBSCRIBE commands: PUBSUB NUMSUB is still 0 at that moment',
  async () => {
    const {Early} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { EventPattern } from '@nestjs/microservices';
@Controller()
export class Early { @EventPattern('early_event') on() {} }
`,
      'redis-early',
    );
    @Module({controllers: [Early]})
    class EarlyModule {}
    const admin = redisClient(redis.url);
    await new Promise((r) => admin.once('ready', r));
    const numsub = () =>
      new Promise<number>((done, fail) =>
        admin.pubsub('numsub', 'early_event', (err: Error, reply: any[]) =>
          err ? fail(err) : done(Number(reply[1])),
        ),
      );
    const app = await NestFactory.createMicroservice(EarlyModule, {
      transport: Transport.REDIS,
      logger: false,
      options: {url: redis.url},
    });
    try {
      await app.listen();
      expect(await numsub()).toBe(0);
      await subscribers(['early_event'], 1);
    } finally {
      await app.close();
      admin.quit();
    }
  },
);

/** A microservice with a `ping` request handler and a `ping_event` handler, in a child process. */
function redisChild(options: object) {
  return nodeChild(
    `
require('reflect-metadata');
const { NestFactory } = require('@nestjs/core');
const { Module, Controller } = require('@nestjs/common');
const { Transport, MessagePattern, EventPattern } = require('@nestjs/microservices');
class Ping { ping(n) { return 'pong ' + n; } }
MessagePattern('ping')(Ping.prototype, 'ping', Object.getOwnPropertyDescriptor(Ping.prototype, 'ping'));
Controller()(Ping);
class AppModule {}
Module({ controllers: [Ping] })(AppModule);
(async () => {
  const app = await NestFactory.createMicroservice(AppModule, { transport: Transport.REDIS, logger: ['error'], options: JSON.parse(process.argv[2]) });
  await app.listen();
  console.log('LISTENING');
})();
`,
    [JSON.stringify(options)],
  );
}

claim.failure(
  `${page}#options`,
  'with Redis down at startup and no retryAttempts, the microservice exits at once with "Retry time exhausted"',
  async () => {
    const child = redisChild({url: `redis://127.0.0.1:${await freePort()}`});
    expect(await child.exited).toBe(1);
    expect(child.out).toContain('Error: Retry time exhausted');
    expect(child.out).not.toContain('LISTENING');
  },
);

claim.failure(
  `${page}#options`,
  'with retryAttempts, listen() waits for a Redis that starts later, then subscribes and answers',
  async () => {
    const broker = await ownBroker('redis');
    const child = redisChild({url: broker.url, retryAttempts: 100, retryDelay: 50});
    const client = ClientProxyFactory.create({
      transport: Transport.REDIS,
      options: {url: broker.url},
    });
    try {
      await new Promise((r) => setTimeout(r, 1500));
      expect(child.out).not.toContain('LISTENING');
      expect(child.code).toBe(null);
      await broker.start();
      await child.waitFor('LISTENING');
      const admin = redisClient(broker.url);
      try {
        for (let i = 0; ; i += 1) {
          const reply: any[] = await new Promise((done, fail) =>
            admin.pubsub('numsub', 'ping', (err: Error, r: any) => (err ? fail(err) : done(r))),
          );
          if (Number(reply[1]) >= 1) break;
          if (i > 200) throw new Error('never subscribed');
          await new Promise((r) => setTimeout(r, 20));
        }
      } finally {
        admin.quit();
      }
      expect(await lastValueFrom(client.send('ping', 1))).toBe('pong 1');
    } finally {
      client.close();
      await child.kill();
      await broker.remove();
    }
  },
  30_000,
);

claim.abuse(
  `${page}#options`,
  "without REDIS_URL the page's production options stop with 'REDIS_URL is not set'; the transporter alone would fall back to redis://localhost:6379",
  async () => {
    const {ServerRedis, ClientRedis} = nest('@nestjs/microservices');
    const shown = fragment(page, 'options', 'retryAttempts: 30').value;
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
      'redis-env-check',
    );
    const saved = process.env.REDIS_URL;
    try {
      for (const value of [undefined, '']) {
        if (value === undefined) delete process.env.REDIS_URL;
        else process.env.REDIS_URL = value;
        await expect(start()).rejects.toThrow('REDIS_URL is not set');
      }
    } finally {
      if (saved === undefined) delete process.env.REDIS_URL;
      else process.env.REDIS_URL = saved;
    }
    expect(new ServerRedis({url: undefined}).url).toBe('redis://localhost:6379');
    expect(new ClientRedis({url: undefined}).url).toBe('redis://localhost:6379');
  },
);

claim.failure(
  `${page}#client`,
  "a client whose first connection fails (Redis down) keeps failing with ECONNREFUSED after Redis is back, even with the page's retryAttempts",
  async () => {
    const broker = await ownBroker('redis');
    const client = ClientProxyFactory.create({
      transport: Transport.REDIS,
      options: {url: broker.url, retryAttempts: 10, retryDelay: 100},
    });
    const child = redisChild({url: broker.url, retryAttempts: 100, retryDelay: 50});
    try {
      await expect(lastValueFrom(client.send('ping', 1))).rejects.toMatchObject({
        code: 'ECONNREFUSED',
      });
      await broker.start();
      await child.waitFor('LISTENING');
      // A fresh client reaches the microservice...
      const fresh = ClientProxyFactory.create({
        transport: Transport.REDIS,
        options: {url: broker.url},
      });
      try {
        // Each attempt bounded: a request sent before the server has subscribed gets no answer.
        let answer: unknown;
        for (let i = 0; i < 40 && !answer; i += 1) {
          answer = await lastValueFrom(
            fresh.send('ping', 2).pipe(nest('rxjs/operators').timeout(1000)),
          ).catch(() => undefined);
          if (!answer) await new Promise((r) => setTimeout(r, 50));
        }
        expect(answer).toBe('pong 2');
      } finally {
        fresh.close();
      }
      // ...the first one still fails, with the error of its first attempt.
      await new Promise((r) => setTimeout(r, 500));
      await expect(lastValueFrom(client.send('ping', 3))).rejects.toMatchObject({
        code: 'ECONNREFUSED',
      });
      await expect(lastValueFrom(client.emit('ping_event', {}))).rejects.toMatchObject({
        code: 'ECONNREFUSED',
      });
    } finally {
      client.close();
      await child.kill();
      await broker.remove();
    }
  },
  75_000,
);

claim.failure(
  `${page}#client`,
  "a Redis restart while the microservice (with retryAttempts) and the page's client run: both reconnect and the next request is answered",
  async () => {
    const broker = await ownBroker('redis');
    await broker.start();
    const child = redisChild({url: broker.url, retryAttempts: 100, retryDelay: 50});
    const appModule = samples(page, {under: 'client'}).sources.get('app.module')!;
    const set = samples(page, {
      under: 'client',
      files: {'interfaces/cat.interface': catInterface, 'app.module': appModule},
      edit: {
        'app.module': [
          [`url: 'redis://localhost:6379'`, `url: '${broker.url}'`],
          ['retryDelay: 1000', 'retryDelay: 100'],
        ],
      },
    });
    const ctx = await NestFactory.createApplicationContext(set.require('app.module').AppModule, {
      logger: false,
    });
    const client = ctx.get('CATS_SERVICE');
    try {
      await child.waitFor('LISTENING');
      // Each attempt bounded: a request sent before the server has subscribed again gets no answer.
      const ask = async (n: number): Promise<unknown> => {
        const end = Date.now() + 25_000;
        while (Date.now() < end) {
          const answer = await lastValueFrom(
            client.send('ping', n).pipe(nest('rxjs/operators').timeout(1000)),
          ).catch(() => undefined);
          if (answer) return answer;
        }
        return undefined;
      };
      expect(await ask(1)).toBe('pong 1');
      await broker.stop();
      await new Promise((r) => setTimeout(r, 300));
      await broker.start();
      expect(await ask(2)).toBe('pong 2');
      expect(child.code).toBe(null);
    } finally {
      await ctx.close();
      await child.kill();
      await broker.remove();
    }
  },
  75_000,
);

claim.abuse(
  `${page}#channels`,
  "a non-JSON message published on cat_created by another program is handed to the page's handler as a plain string: it logs 'undefined arrived', and the microservice keeps running",
  async () => {
    const {app, logger} = await startMicroservice();
    const publisher = redisClient(redis.url);
    try {
      await new Promise((r) => publisher.publish('cat_created', 'not json at all', r));
      await until(() => logger.text().includes('undefined arrived on channel cat_created'));
      await new Promise((r) =>
        publisher.publish(
          'cat_created',
          JSON.stringify({pattern: 'cat_created', data: {name: 'Tom'}}),
          r,
        ),
      );
      await until(() => logger.text().includes('"Tom" arrived on channel cat_created'));
    } finally {
      publisher.quit();
      await app.close();
    }
  },
);

claim.abuse(
  `${page}#channels`,
  'any Redis client can call a request handler: a hand-published packet with an id gets its answer on the .reply channel',
  async () => {
    const {Echo} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
@Controller()
export class Echo { @MessagePattern({ cmd: 'sum' }) sum(@Payload() n: number[]) { return n.reduce((a, b) => a + b, 0); } }
`,
      'redis-echo',
    );
    @Module({controllers: [Echo]})
    class EchoModule {}
    const app = await NestFactory.createMicroservice(EchoModule, {
      transport: Transport.REDIS,
      logger: false,
      options: {url: redis.url},
    });
    await app.listen();
    await subscribers(['{"cmd":"sum"}'], 1);
    const listener = redisClient(redis.url);
    const publisher = redisClient(redis.url);
    try {
      const replies: string[] = [];
      listener.on('message', (_channel: string, message: string) => replies.push(message));
      await new Promise((r) => listener.subscribe('{"cmd":"sum"}.reply', r));
      await new Promise((r) =>
        publisher.publish(
          '{"cmd":"sum"}',
          JSON.stringify({pattern: {cmd: 'sum'}, data: [40, 2], id: 'forged-1'}),
          r,
        ),
      );
      await until(() => replies.length > 0);
      expect(JSON.parse(replies[0])).toEqual({response: 42, isDisposed: true, id: 'forged-1'});
    } finally {
      listener.quit();
      publisher.quit();
      await app.close();
    }
  },
);

claim.abuse(
  `${page}#channels`,
  'a non-JSON message published on a reply channel ends the process of a client waiting there (SyntaxError, exit code 1)',
  async () => {
    const child = nodeChild(
      `
const { ClientProxyFactory, Transport } = require('@nestjs/microservices');
const { lastValueFrom } = require('rxjs');
const client = ClientProxyFactory.create({ transport: Transport.REDIS, options: { url: process.argv[2] } });
lastValueFrom(client.send('slow_answer', {})).catch(() => undefined);
client.connect().then(() => setTimeout(() => console.log('WAITING'), 200));
setTimeout(() => { console.log('ALIVE'); process.exit(0); }, 5000);
`,
      [redis.url],
    );
    await child.waitFor('WAITING');
    const publisher = redisClient(redis.url);
    try {
      await new Promise((r) => publisher.publish('slow_answer.reply', 'not json', r));
      expect(await child.exited).toBe(1);
      expect(child.out).toContain('SyntaxError');
      expect(child.out).not.toContain('ALIVE');
    } finally {
      publisher.quit();
      await child.kill();
    }
  },
);

/**
 * A Redis microservice in a child process (what it does when it fails would end the test worker): one
 * request handler for { entity: 'cat', action: 'find' }, with the overview page's PacketShapeDeserializer
 * when `deserializerFile` is given.
 */
function findChild(deserializerFile?: string) {
  return nodeChild(
    `
require('reflect-metadata');
const { NestFactory } = require('@nestjs/core');
const { Module, Controller } = require('@nestjs/common');
const { Transport, MessagePattern } = require('@nestjs/microservices');
const deserializer = process.argv[3] ? new (require(process.argv[3]).PacketShapeDeserializer)() : undefined;
class Cats { find(id) { return { id, name: 'Tom' }; } }
MessagePattern({ entity: 'cat', action: 'find' })(Cats.prototype, 'find', Object.getOwnPropertyDescriptor(Cats.prototype, 'find'));
Controller()(Cats);
class AppModule {}
Module({ controllers: [Cats] })(AppModule);
(async () => {
  const app = await NestFactory.createMicroservice(AppModule, { transport: Transport.REDIS, logger: ['error'],
    options: { url: process.argv[2], deserializer } });
  await app.listen();
  console.log('LISTENING');
})();
`,
    [redis.url, ...(deserializerFile ? [deserializerFile] : [])],
  );
}

const findChannel = '{"action":"find","entity":"cat"}';
const deepIdPacket = `{"pattern":{"entity":"cat","action":"find"},"data":7,"id":${deepJson()}}`;

claim.abuse(
  `${page}#channels`,
  'a request-shaped message whose id is nested 10,000 levels deep, published by any Redis client, ends the microservice (RangeError, exit code 1)',
  async () => {
    const child = findChild();
    const publisher = redisClient(redis.url);
    try {
      await child.waitFor('LISTENING');
      await subscribers([findChannel], 1);
      await new Promise((r) => publisher.publish(findChannel, deepIdPacket, r));
      expect(await child.exited).toBe(1);
      expect(child.out).toContain('RangeError: Maximum call stack size exceeded');
    } finally {
      publisher.quit();
      await child.kill();
    }
  },
  20_000,
);

claim.abuse(
  `${page}#channels`,
  "with the overview page's PacketShapeDeserializer in the options, such a message is handed on as an event, and the microservice keeps answering requests",
  async () => {
    const shown = fragment(page, 'channels', 'PacketShapeDeserializer').value;
    expect(shown).toContain('deserializer: new PacketShapeDeserializer()');
    const set = samples('docs/microservices/basics.md', {under: 'packets-from-untrusted-peers'});
    const child = findChild(`${set.dir}/packet-shape.deserializer.js`);
    const publisher = redisClient(redis.url);
    const caller = ClientProxyFactory.create({
      transport: Transport.REDIS,
      options: {url: redis.url},
    });
    try {
      await child.waitFor('LISTENING');
      await subscribers([findChannel], 1);
      await new Promise((r) => publisher.publish(findChannel, deepIdPacket, r));
      await new Promise((r) => setTimeout(r, 300));
      expect(child.code).toBe(null);
      expect(await lastValueFrom(caller.send({entity: 'cat', action: 'find'}, 7))).toEqual({
        id: 7,
        name: 'Tom',
      });
    } finally {
      caller.close();
      publisher.quit();
      await child.kill();
    }
  },
  20_000,
);

claim.abuse(
  `${page}#client`,
  "the page's registerAsync() client stops the startup when REDIS_URL is missing or empty ('REDIS_URL is not set') instead of publishing to redis://localhost:6379; with it set, the client uses it",
  async () => {
    const shown = fragment(page, 'client', 'registerAsync').value;
    expect(shown).toContain('export class AppModule {}');
    const {AppModule} = compileModule(
      `
import { Injectable, Module } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { ClientsModule, Transport } from '@nestjs/microservices';
@Injectable()
class CatsService {}
${shown}
`,
      'redis-client-env',
    );
    const saved = process.env.REDIS_URL;
    try {
      for (const value of [undefined, '']) {
        if (value === undefined) delete process.env.REDIS_URL;
        else process.env.REDIS_URL = value;
        await expect(
          NestFactory.createApplicationContext(AppModule, {logger: false, abortOnError: false}),
          String(value),
        ).rejects.toThrow('REDIS_URL is not set');
      }
      process.env.REDIS_URL = redis.url;
      const app = await NestFactory.createApplicationContext(AppModule, {logger: false});
      try {
        expect(app.get('CATS_SERVICE').url).toBe(redis.url);
      } finally {
        await app.close();
      }
    } finally {
      if (saved === undefined) delete process.env.REDIS_URL;
      else process.env.REDIS_URL = saved;
    }
  },
);

claim.abuse(
  `${page}#context`,
  "a cat name with a line break is logged by the page's CatsController quoted, on one line, so it cannot forge a log entry",
  async () => {
    const {app, logger} = await startMicroservice();
    const publisher = redisClient(redis.url);
    const forged = 'Tom\n[Nest] 1  - 01/01/2026, 0:00:00 AM     LOG [Auth] admin signed in';
    try {
      await new Promise((r) =>
        publisher.publish(
          'cat_created',
          JSON.stringify({pattern: 'cat_created', data: {name: forged}}),
          r,
        ),
      );
      const line = () =>
        logger.lines.map((l) => String(l.message)).find((m) => m.includes('admin signed in'));
      await until(() => line() !== undefined);
      expect(line()).toBe(`${JSON.stringify(forged)} arrived on channel cat_created`);
    } finally {
      publisher.quit();
      await app.close();
    }
  },
);

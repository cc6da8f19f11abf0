import {expect} from 'vitest';
import {claim, samples, nest, memoryLogger, freePort, compileModule} from '../../lib';
import {tcpMicroservice} from './_support';

const {Module} = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const {Transport, ClientProxyFactory} = nest('@nestjs/microservices');
const {lastValueFrom} = nest('rxjs');
const page = 'docs/microservices/interceptors.md';
const log = memoryLogger();

const timingLines = () =>
  log.lines.filter((line) => line.context === 'TimingInterceptor').map((line) => line.message);

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#binding-interceptors`,
    `MathController with @UseInterceptors(TimingInterceptor) answers and logs "TcpContext: handled in Nms" over TCP (${lang})`,
    async () => {
      const set = samples(page, {lang});
      const {MathController} = set.require('math.controller');
      @Module({controllers: [MathController]})
      class AppModule {}
      const service = await tcpMicroservice(AppModule, undefined, log);
      const before = timingLines().length;
      try {
        expect(await lastValueFrom(service.client.send({cmd: 'sum'}, [1, 2, 3]))).toBe(6);
        const lines = timingLines().slice(before);
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(/^TcpContext: handled in \d+ms$/);
      } finally {
        await service.close();
      }
    },
  );
}

claim(
  `${page}#binding-interceptors`,
  "useGlobalInterceptors() on the microservice wraps every handler; a hybrid app's global interceptors need inheritAppConfig: true",
  async () => {
    const {TimingInterceptor} = samples(page).require('timing.interceptor');
    const {Plain} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
@Controller()
export class Plain { @MessagePattern('plain') plain() { return 'ok'; } }
`,
      'interceptors-plain',
    );
    @Module({controllers: [Plain]})
    class AppModule {}
    const service = await tcpMicroservice(
      AppModule,
      (app) => app.useGlobalInterceptors(new TimingInterceptor()),
      log,
    );
    let before = timingLines().length;
    try {
      await lastValueFrom(service.client.send('plain', {}));
      expect(timingLines().length).toBe(before + 1);
    } finally {
      await service.close();
    }
    const counts: Record<string, number> = {};
    for (const inheritAppConfig of [false, true]) {
      const app = await NestFactory.create(AppModule, {logger: log.logger});
      app.useGlobalInterceptors(new TimingInterceptor());
      const port = await freePort();
      app.connectMicroservice(
        {transport: Transport.TCP, options: {host: '127.0.0.1', port}},
        {inheritAppConfig},
      );
      await app.startAllMicroservices();
      await app.init();
      const client = ClientProxyFactory.create({
        transport: Transport.TCP,
        options: {host: '127.0.0.1', port},
      });
      before = timingLines().length;
      await lastValueFrom(client.send('plain', {}));
      counts[String(inheritAppConfig)] = timingLines().length - before;
      client.close();
      await app.close();
    }
    expect(counts).toEqual({false: 0, true: 1});
  },
);

claim(
  `${page}#binding-interceptors`,
  'with Kafka the TimingInterceptor logs KafkaContext (a record handed to the server as kafkajs delivers it; no broker here)',
  async () => {
    const {TimingInterceptor} = samples(page).require('timing.interceptor');
    const {Heroes} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { EventPattern } from '@nestjs/microservices';
@Controller()
export class Heroes { @EventPattern('hero.created') created() { return 'ok'; } }
`,
      'interceptors-kafka',
    );
    @Module({controllers: [Heroes]})
    class KafkaModule {}
    const app = await NestFactory.createMicroservice(KafkaModule, {
      transport: Transport.KAFKA,
      logger: log.logger,
      options: {
        client: {clientId: 'heroes', brokers: ['127.0.0.1:9']},
        consumer: {groupId: 'heroes-consumer'},
      },
    });
    app.useGlobalInterceptors(new TimingInterceptor());
    await app.init();
    const before = timingLines().length;
    try {
      await (app as any).server.handleMessage({
        topic: 'hero.created',
        partition: 0,
        message: {
          key: null,
          value: Buffer.from('{"id":1}'),
          offset: '0',
          timestamp: '0',
          headers: {},
        },
      });
      for (let i = 0; i < 50 && timingLines().length === before; i += 1)
        await new Promise((r) => setTimeout(r, 20));
      expect(timingLines().slice(before)).toEqual([
        expect.stringMatching(/^KafkaContext: handled in \d+ms$/),
      ]);
    } finally {
      await app.close();
    }
  },
);

claim.failure(
  `${page}#binding-interceptors`,
  'TimingInterceptor writes one line for a handler that throws and one for a handler that emits four values (TS and JS)',
  async () => {
    for (const lang of ['ts', 'js'] as const) {
      const {TimingInterceptor} = samples(page, {lang}).require('timing.interceptor');
      (globalThis as any).__timing = TimingInterceptor;
      const {Timed} = compileModule(
        `
import { Controller, UseInterceptors } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { of } from 'rxjs';
@Controller()
@UseInterceptors((globalThis as any).__timing)
export class Timed {
  @MessagePattern('fails') fails() { throw new Error('database down'); }
  @MessagePattern('four') four() { return of(1, 2, 3, 4); }
}
`,
        `interceptors-timed-${lang}`,
      );
      @Module({controllers: [Timed]})
      class TimedModule {}
      const service = await tcpMicroservice(TimedModule, undefined, log);
      try {
        let before = timingLines().length;
        await expect(lastValueFrom(service.client.send('fails', {}))).rejects.toEqual({
          status: 'error',
          message: 'Internal server error',
        });
        expect(timingLines().slice(before)).toEqual([
          expect.stringMatching(/^TcpContext: handled in \d+ms$/),
        ]);
        before = timingLines().length;
        const {toArray} = nest('rxjs');
        expect(await lastValueFrom(service.client.send('four', {}).pipe(toArray()))).toEqual([
          1, 2, 3, 4,
        ]);
        expect(timingLines().slice(before)).toHaveLength(1);
      } finally {
        await service.close();
      }
    }
  },
);

function slowController(lang: 'ts' | 'js', done: string[]) {
  const {TimeoutInterceptor} = samples(page, {
    lang,
    edit: {'timeout.interceptor': [['timeout(5000)', 'timeout(200)']]},
  }).require('timeout.interceptor');
  (globalThis as any).__timeout = TimeoutInterceptor;
  (globalThis as any).__slowDone = done;
  return compileModule(
    `
import { Controller, UseInterceptors } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
@Controller()
@UseInterceptors((globalThis as any).__timeout)
export class Slow${lang} {
  @MessagePattern('slow') async slow(@Payload() id: string) {
    await new Promise((r) => setTimeout(r, 600));
    (globalThis as any).__slowDone.push('finished ' + id);
    return 'late';
  }
  @MessagePattern('fast') fast() { return 'quick'; }
}
`,
    `interceptors-slow-${lang}`,
  )[`Slow${lang}`];
}

claim(
  `${page}#timeouts`,
  "TimeoutInterceptor fails a handler that is too slow with { status: 'error', message: 'Handler timed out' } and leaves quick ones alone (TS and JS)",
  async () => {
    for (const lang of ['ts', 'js'] as const) {
      @Module({controllers: [slowController(lang, [])]})
      class SlowModule {}
      const service = await tcpMicroservice(SlowModule, undefined, log);
      try {
        const started = Date.now();
        await expect(lastValueFrom(service.client.send('slow', 'quick-check'))).rejects.toEqual({
          status: 'error',
          message: 'Handler timed out',
        });
        expect(Date.now() - started).toBeLessThan(550);
        expect(await lastValueFrom(service.client.send('fast', {}))).toBe('quick');
      } finally {
        await service.close();
      }
    }
  },
);

claim.failure(
  `${page}#timeouts`,
  'after TimeoutInterceptor has failed the call, the handler itself keeps running to its end',
  async () => {
    const done: string[] = [];
    @Module({controllers: [slowController('ts', done)]})
    class SlowModule {}
    const service = await tcpMicroservice(SlowModule, undefined, log);
    try {
      await expect(lastValueFrom(service.client.send('slow', 'mine'))).rejects.toEqual({
        status: 'error',
        message: 'Handler timed out',
      });
      expect(done).not.toContain('finished mine');
      await new Promise((r) => setTimeout(r, 700));
      expect(done).toContain('finished mine');
    } finally {
      await service.close();
    }
  },
);

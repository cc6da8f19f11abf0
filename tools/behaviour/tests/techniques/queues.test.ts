import {existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, afterEach, beforeAll, describe, expect} from 'vitest';
import {
  claim,
  compileModule,
  expectOutput,
  fragment,
  listen,
  memoryLogger,
  nest,
  readPage,
  samples,
  service,
  type Service,
} from '../../lib';
import {restartableRedis, startChild, type ChildApp, type RestartableRedis} from './_child-app';

const {Module} = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const {BullModule, getQueueToken} = nest('@nestjs/bull');
const redisClient = nest('redis');
const page = 'docs/techniques/queues.md';

let redis: Service;
let raw: any;
beforeAll(async () => {
  redis = await service('redis');
  raw = redisClient.createClient({host: '127.0.0.1', port: redis.port});
});
afterAll(async () => {
  await new Promise((resolve) => raw?.quit(resolve));
  await redis?.stop();
});

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
  await new Promise((resolve) => raw.flushall(resolve));
});

const rootEdit = (): [string, string][] => [
  ["host: 'localhost'", "host: '127.0.0.1'"],
  ['port: 6379', `port: ${redis.port}`],
];
const root = (extra: Record<string, unknown> = {}) =>
  BullModule.forRoot({redis: {host: '127.0.0.1', port: redis.port}, ...extra});

async function boot(
  imports: unknown[],
  providers: unknown[] = [],
  logger: unknown = false,
): Promise<any> {
  @Module({imports: imports as any[], providers: providers as any[]})
  class AppModule {}
  const app = await NestFactory.createApplicationContext(AppModule, {logger, abortOnError: false});
  close = () => app.close();
  return app;
}

async function until<T>(
  probe: () => Promise<T> | T,
  ok: (value: T) => boolean,
  ms = 5000,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (ok(value)) return value;
    if (Date.now() - started > ms)
      throw new Error(`condition not met in ${ms} ms (last: ${JSON.stringify(value)})`);
    await new Promise((r) => setTimeout(r, 30));
  }
}

const keys = (pattern: string) =>
  new Promise<string[]>((resolve, reject) =>
    raw.keys(pattern, (e: Error | null, k: string[]) => (e ? reject(e) : resolve(k.sort()))),
  );

/** A processor compiled from the test, for the queue `name`. */
function processor(body: string, name = 'audio', header = ''): any {
  return compileModule<any>(`
import { Inject, Scope } from '@nestjs/common';
import { Process, Processor, OnQueueActive, OnQueueCompleted, OnQueueFailed, OnQueueError, OnGlobalQueueCompleted, InjectQueue, JOB_REF } from '@nestjs/bull';
export const seen: any[] = [];
${header}
@Processor('${name}')
export class TestProcessor {
${body}
}
`);
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#producers`,
    `the producer's injected queue adds a job stored under prefix:queue:id in Redis, with the data as JSON (${lang})`,
    async () => {
      const set = samples(page, {
        under: 'producers',
        lang,
        pick: {'app.module': 1},
        edit: {'app.module': rootEdit()},
        files: lang === 'js' ? {'app.module': readTs('app.module', 1)} : {},
      });
      const {AppModule} = set.require('app.module');
      const {AudioService} = set.require('audio.service');
      @Module({imports: [BullModule.registerQueue({name: 'audio'})], providers: [AudioService]})
      class ProducerModule {}
      const app = await boot([AppModule, ProducerModule]);
      const queue = (app.get(AudioService) as any).audioQueue;
      const job = await queue.add({file: 'uploads/interview.wav', format: 'mp3'});
      expect(job.name).toBe('__default__');
      expect(await keys(`bull:audio:${job.id}`)).toEqual([`bull:audio:${job.id}`]);
      const stored = await new Promise<string>((resolve) =>
        raw.hget(`bull:audio:${job.id}`, 'data', (_: unknown, v: string) => resolve(v)),
      );
      expect(JSON.parse(stored)).toEqual({file: 'uploads/interview.wav', format: 'mp3'});
      expect(await job.getState()).toBe('waiting');
    },
  );
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#consumers`,
    `the @Processor('audio') consumer handles the job; its return value becomes the job's result (${lang})`,
    async () => {
      const set = samples(page, {
        under: 'consumers',
        lang,
        pick: {'app.module': 1},
        edit: {'app.module': rootEdit()},
        files: lang === 'js' ? {'app.module': readTs('app.module', 1)} : {},
      });
      const {AppModule} = set.require('app.module');
      const processorFile = fenceModule('audio.processor', 1, lang);
      // audio.module is shown in TypeScript only; its code is valid JavaScript too.
      const {AudioModule} = fenceModule('audio.module', 2, 'ts', {
        'audio.processor': processorFile,
      });
      const logs = memoryLogger();
      const app = await boot([AppModule, AudioModule], [], logs.logger);
      const queue = app.get(getQueueToken('audio'), {strict: false});
      const job = await queue.add({file: 'uploads/interview.wav', format: 'mp3'});
      const finished = await until(
        () => queue.getJob(job.id),
        (j: any) => j?.finishedOn !== undefined && j?.finishedOn !== null,
      );
      expect(finished.returnvalue).toEqual({output: 'uploads/interview.mp3'});
      expect(await finished.getState()).toBe('completed');
      expect(logs.lines).toContainEqual(
        expect.objectContaining({
          message: `Processing job ${job.id} for uploads/interview.wav`,
          context: 'AudioProcessor',
        }),
      );
    },
  );
}

/**
 * The nth version of a file shown on the page, compiled on its own. samples() cannot be used for
 * audio.processor and audio.module here: it writes files by base name, and the page's example also shows
 * audio/audio.processor and audio/audio.module, which overwrite them. Relative imports take `deps`.
 */
function fenceModule(
  name: string,
  nth: number,
  lang: 'ts' | 'js' = 'ts',
  deps: Record<string, unknown> = {},
): any {
  const fence = readPage(page).fences.filter((f) => f.filename === name)[nth - 1];
  let code = (lang === 'js' ? fence.js : fence.ts) ?? fence.ts!;
  code = code.replace(
    /import \{ ([\w, ]+) \} from '\.\/([\w./-]+)';/g,
    (_all: string, names: string, file: string) => {
      if (!(file in deps))
        throw new Error(`fenceModule: ${name} imports ./${file}, give it in deps`);
      return `const { ${names} } = (globalThis as any).__queueDeps[${JSON.stringify(file)}];`;
    },
  );
  (globalThis as any).__queueDeps = deps;
  return compileModule<any>(code, name.replace(/\W/g, '-'));
}

/** The nth TypeScript half of a file shown on the page (used where a file has no JavaScript half). */
function readTs(name: string, nth: number): string {
  return readPage(page).fences.filter((f) => f.filename === name)[nth - 1].ts!;
}

claim(
  `${page}#named-processors`,
  "jobs go to the handler of their name; '*' takes the rest; a name without a handler fails with 'Missing process handler for job type …'",
  async () => {
    const {AudioProcessor} = fenceModule('audio.processor', 2);
    const app = await boot([root(), BullModule.registerQueue({name: 'audio'})], [AudioProcessor]);
    const queue = app.get(getQueueToken('audio'), {strict: false});
    const transcode = await queue.add('transcode', {file: 'a.wav'});
    const other = await queue.add('shout', {file: 'b.wav'});
    const state = async (id: unknown) => (await queue.getJob(id)).getState();
    await until(
      () => state(transcode.id),
      (s) => s === 'completed',
    );
    await until(
      () => state(other.id),
      (s) => s === 'failed',
    );
    expect((await queue.getJob(other.id)).failedReason).toBe(
      'Missing process handler for job type shout',
    );
    await close?.();
    close = undefined;
    const {TestProcessor, seen} =
      processor(`@Process('transcode') t(job) { seen.push('transcode:' + job.name); }
  @Process('*') any(job) { seen.push('*:' + job.name); }`);
    const app2 = await boot([root(), BullModule.registerQueue({name: 'audio'})], [TestProcessor]);
    const queue2 = app2.get(getQueueToken('audio'), {strict: false});
    await queue2.add('transcode', {});
    await queue2.add('shout', {});
    await until(
      () => seen.length,
      (n) => n === 2,
    );
    expect(seen.sort()).toEqual(['*:shout', 'transcode:transcode']);
  },
);

claim(
  `${page}#handling-a-job`,
  'a handler whose promise never settles keeps its lock renewed: the job stays active past lockDuration and stalledInterval',
  async () => {
    const {TestProcessor, seen} = processor(
      `@Process() hang(job) { seen.push(job.id); return new Promise(() => undefined); }`,
    );
    const app = await boot(
      [
        // Generous against a busy machine: a 300 ms lock expired once at a load average of 25, when
        // the event loop could not renew it in time.
        root({settings: {lockDuration: 2000, lockRenewTime: 500, stalledInterval: 1000}}),
        BullModule.registerQueue({name: 'audio'}),
      ],
      [TestProcessor],
    );
    const queue = app.get(getQueueToken('audio'), {strict: false});
    close = async () => {
      await queue.close(true);
      await app.close();
    };
    const job = await queue.add({});
    await until(
      () => seen.length,
      (n) => n === 1,
    );
    await new Promise((r) => setTimeout(r, 4500));
    expect(await (await queue.getJob(job.id)).getState()).toBe('active');
    // a second job waits: the only concurrency slot is taken
    const second = await queue.add({});
    await new Promise((r) => setTimeout(r, 300));
    expect(await (await queue.getJob(second.id)).getState()).toBe('waiting');
  },
);

claim(
  `${page}#handling-a-job`,
  "only the job's timeout option fails a handler that never settles",
  async () => {
    const {TestProcessor} = processor(`@Process() hang() { return new Promise(() => undefined); }`);
    const app = await boot([root(), BullModule.registerQueue({name: 'audio'})], [TestProcessor]);
    const queue = app.get(getQueueToken('audio'), {strict: false});
    close = async () => {
      await queue.close(true);
      await app.close();
    };
    const job = await queue.add({}, {timeout: 300});
    const failed = await until(
      () => queue.getJob(job.id),
      (j: any) => j?.failedReason !== undefined,
    );
    expect(failed.failedReason).toBe('Promise timed out after 300 milliseconds');
  },
);

claim(
  `${page}#retries-and-backoff`,
  'attempts with exponential backoff wait in delayed between tries; without backoff the job goes straight back to waiting',
  async () => {
    const {TestProcessor, seen} = processor(
      `@Process() fail(job) { seen.push({ id: job.id, at: Date.now() }); throw new Error('cdn down'); }`,
    );
    const app = await boot([root(), BullModule.registerQueue({name: 'audio'})], [TestProcessor]);
    const queue = app.get(getQueueToken('audio'), {strict: false});
    const job = await queue.add({}, {attempts: 3, backoff: {type: 'exponential', delay: 200}});
    await until(
      () => seen.length,
      (n) => n >= 1,
    );
    expect(await (await queue.getJob(job.id)).getState()).toBe('delayed');
    const final = await until(
      () => queue.getJob(job.id),
      (j: any) => j?.finishedOn != null,
      8000,
    );
    expect(final.attemptsMade).toBe(3);
    expect(final.failedReason).toBe('cdn down');
    const tries = seen.filter((s: any) => s.id === job.id).map((s: any) => s.at);
    // 200 ms, then 400 ms between the attempts
    expect(tries[1] - tries[0]).toBeGreaterThanOrEqual(180);
    expect(tries[2] - tries[1]).toBeGreaterThanOrEqual(380);
    const plain = await queue.add({}, {attempts: 2});
    await until(
      () => queue.getJob(plain.id),
      (j: any) => j?.finishedOn != null,
    );
    expect(seen.filter((s: any) => s.id === plain.id)).toHaveLength(2);
  },
);

claim(
  `${page}#retries-and-backoff`,
  'job.discard() before throwing fails the job at once, whatever attempts remain',
  async () => {
    const {TestProcessor, seen} = processor(
      `@Process() fail(job) { seen.push(job.id); job.discard(); throw new Error('file does not exist'); }`,
    );
    const app = await boot([root(), BullModule.registerQueue({name: 'audio'})], [TestProcessor]);
    const queue = app.get(getQueueToken('audio'), {strict: false});
    const job = await queue.add({}, {attempts: 5});
    const failed = await until(
      () => queue.getJob(job.id),
      (j: any) => j?.finishedOn != null,
    );
    expect([failed.attemptsMade, await failed.getState(), seen.length]).toEqual([1, 'failed', 1]);
  },
);

claim(
  `${page}#retries-and-backoff`,
  'a custom backoff strategy from settings.backoffStrategies is used by name',
  async () => {
    const registration = new Function(
      'BullModule',
      `return ${fragment(page, 'retries-and-backoff', 'backoffStrategies').value.replace(/: number/g, '')}`,
    )(BullModule);
    const {TestProcessor, seen} = processor(
      `@Process('upload-to-cdn') fail(job) { seen.push(Date.now()); throw new Error('retry me'); }`,
    );
    const app = await boot([root(), registration], [TestProcessor]);
    const queue = app.get(getQueueToken('audio'), {strict: false});
    const job = await queue.add(
      'upload-to-cdn',
      {file: 'output/interview.mp3'},
      {attempts: 2, backoff: {type: 'jitter'}},
    );
    const done = await until(
      () => queue.getJob(job.id),
      (j: any) => j?.finishedOn != null,
      8000,
    );
    expect(done.attemptsMade).toBe(2);
    expect(seen[1] - seen[0]).toBeGreaterThanOrEqual(950);
  },
);

claim.abuse(
  `${page}#job-options`,
  "a client retries after the job completed: with the page's jobId and removeOnComplete: 1000 the job runs once; with removeOnComplete: true it runs again",
  async () => {
    const call = fragment(page, 'job-options', 'removeOnComplete: 1000').value;
    const {TestProcessor, seen} = processor(
      `@Process('transcode') run(job: any) { seen.push(job.data.file); }`,
    );
    const app = await boot([root(), BullModule.registerQueue({name: 'audio'})], [TestProcessor]);
    const audioQueue = app.get(getQueueToken('audio'), {strict: false});
    const add = new Function(
      'audioQueue',
      'uploadId',
      `return (async () => { ${call.replace(/this\.audioQueue/g, 'audioQueue')} })();`,
    );
    for (let attempt = 0; attempt < 2; attempt++) {
      await add(audioQueue, 42);
      await until(
        () => audioQueue.getJob('transcode-42'),
        (j: any) => j?.finishedOn != null,
      );
    }
    expect(seen).toEqual(['uploads/interview.wav']);
    const removing = call.replace('removeOnComplete: 1000', 'removeOnComplete: true');
    const addRemoving = new Function(
      'audioQueue',
      'uploadId',
      `return (async () => { ${removing.replace(/this\.audioQueue/g, 'audioQueue')} })();`,
    );
    for (let attempt = 0; attempt < 2; attempt++) {
      await addRemoving(audioQueue, 43);
      await until(
        () => seen.length,
        (n: number) => n === 2 + attempt,
      );
      await until(
        () => audioQueue.getJob('transcode-43'),
        (j: any) => j === null,
      );
    }
    expect(seen).toHaveLength(3);
  },
);

claim(
  `${page}#job-options`,
  'delay puts the job in delayed; jobId makes add() idempotent; removeOnComplete removes the finished job',
  async () => {
    const app = await boot([root(), BullModule.registerQueue({name: 'audio'})]);
    const queue = app.get(getQueueToken('audio'), {strict: false});
    const delayed = await queue.add('transcode', {file: 'uploads/interview.wav'}, {delay: 3000});
    expect(await delayed.getState()).toBe('delayed');
    const first = await queue.add('transcode', {n: 1}, {jobId: 'transcode-7'});
    const second = await queue.add('transcode', {n: 2}, {jobId: 'transcode-7'});
    expect(second.id).toBe('transcode-7');
    expect((await queue.getJob('transcode-7')).data).toEqual({n: 1});
    void first;
    const counts = await queue.getJobCounts();
    expect(counts).toMatchObject({waiting: 1, delayed: 1, active: 0, completed: 0, failed: 0});
    await close?.();
    close = undefined;
    const {TestProcessor} = processor(`@Process('transcode') ok() { return 'done'; }`);
    const app2 = await boot([root(), BullModule.registerQueue({name: 'audio'})], [TestProcessor]);
    const queue2 = app2.get(getQueueToken('audio'), {strict: false});
    const removed = await queue2.add('transcode', {}, {removeOnComplete: true});
    const kept = await queue2.add('transcode', {});
    await until(
      () => queue2.getJob(kept.id),
      (j: any) => j?.finishedOn != null,
    );
    await until(
      () => queue2.getJob(removed.id),
      (j: any) => j === null,
    );
  },
);

claim(
  `${page}#job-options`,
  'priority 1 runs before normal jobs; lifo runs the newest first',
  async () => {
    const app = await boot([root(), BullModule.registerQueue({name: 'audio'})]);
    const queue = app.get(getQueueToken('audio'), {strict: false});
    await queue.pause(true);
    await queue.add('transcode', {file: 'a'});
    await queue.add('transcode', {file: 'b'});
    await queue.add('transcode', {file: 'urgent'}, {priority: 1});
    const order: string[] = [];
    queue.process('transcode', async (job: any) => {
      order.push(job.data.file);
    });
    await queue.resume(true);
    await until(
      () => order.length,
      (n) => n === 3,
    );
    expect(order).toEqual(['urgent', 'a', 'b']);
    await queue.pause(true);
    await queue.add('transcode', {file: 'c'});
    await queue.add('transcode', {file: 'd'});
    await queue.add('transcode', {file: 'newest'}, {lifo: true});
    await queue.resume(true);
    await until(
      () => order.length,
      (n) => n === 6,
    );
    expect(order.slice(3)).toEqual(['newest', 'c', 'd']);
  },
);

claim(
  `${page}#registering-queues`,
  "registerQueue() without a name registers the queue 'default'; the prefix option changes the Redis keys",
  async () => {
    const app = await boot([root({prefix: 'cats-app'}), BullModule.registerQueue({})]);
    const queue = app.get(getQueueToken(), {strict: false});
    expect(queue.name).toBe('default');
    const job = await queue.add({});
    expect(await keys(`cats-app:default:${job.id}`)).toHaveLength(1);
    expect(await keys('bull:*')).toEqual([]);
  },
);

claim(
  `${page}#registering-queues`,
  'queue options are merged shallowly over forRoot(): redis: { db: 2 } loses the shared host and port',
  async () => {
    // The options Nest builds for the queue (a real Queue would try 127.0.0.1:6379, where nothing listens here).
    const {getQueueOptionsToken} = nest('@nestjs/bull/dist/utils');
    const shared = {redis: {host: 'redis.internal', port: 6380}, prefix: 'cats-app'};
    const dynamic = BullModule.registerQueue({
      name: 'video',
      redis: {db: 2},
      limiter: {max: 2, duration: 1000},
    });
    const optionsProvider = dynamic.providers.find(
      (p: any) => p.provide === getQueueOptionsToken('video'),
    );
    const merged = optionsProvider.useFactory({getDependencyRef: () => shared});
    expect(merged).toEqual({
      name: 'video',
      redis: {db: 2},
      prefix: 'cats-app',
      limiter: {max: 2, duration: 1000},
    });
  },
);

claim(
  `${page}#registering-queues`,
  'two modules registering the same queue get their own Queue instances that share the jobs',
  async () => {
    const {InjectQueue} = nest('@nestjs/bull');
    const {Injectable} = nest('@nestjs/common');
    const probe = () => {
      @Injectable()
      class Probe {
        constructor(@InjectQueue('audio') readonly queue: any) {}
      }
      return Probe;
    };
    const [ProducerProbe, ConsumerProbe, LimitedProbe] = [probe(), probe(), probe()];
    @Module({
      imports: [BullModule.registerQueue({name: 'audio'})],
      providers: [ProducerProbe],
      exports: [ProducerProbe],
    })
    class ProducerModule {}
    @Module({
      imports: [BullModule.registerQueue({name: 'audio'})],
      providers: [ConsumerProbe],
      exports: [ConsumerProbe],
    })
    class ConsumerModule {}
    @Module({
      imports: [BullModule.registerQueue({name: 'audio', limiter: {max: 5, duration: 1000}})],
      providers: [LimitedProbe],
      exports: [LimitedProbe],
    })
    class LimitedModule {}
    const app = await boot([root(), ProducerModule, ConsumerModule, LimitedModule]);
    const [a, b, c] = [
      app.get(ProducerProbe).queue,
      app.get(ConsumerProbe).queue,
      app.get(LimitedProbe).queue,
    ];
    expect(a).not.toBe(b);
    expect(a).not.toBe(c);
    const job = await a.add({x: 1});
    expect((await b.getJob(job.id)).data).toEqual({x: 1});
    expect((await c.getJob(job.id)).data).toEqual({x: 1});
  },
);

claim(
  `${page}#local-events`,
  "the listener consumer logs 'Job … started' and 'Job … completed with …'; failures with the attempts made",
  async () => {
    const {AudioEventsListener} = fenceModule('audio.processor', 4);
    const {TestProcessor} = processor(
      `@Process() handle(job) { if (job.data.fail) throw new Error('bad file'); return { output: 'x.mp3' }; }`,
    );
    const logs = memoryLogger();
    const app = await boot(
      [root(), BullModule.registerQueue({name: 'audio'})],
      [TestProcessor, AudioEventsListener],
      logs.logger,
    );
    const queue = app.get(getQueueToken('audio'), {strict: false});
    const ok = await queue.add({});
    const bad = await queue.add({fail: true}, {attempts: 1});
    await until(
      () => logs.lines.length,
      () =>
        logs.text().includes(`Job ${bad.id} failed`) &&
        logs.text().includes(`Job ${ok.id} completed`),
    );
    expect(logs.lines).toContainEqual({
      level: 'log',
      message: `Job ${ok.id} (__default__) started`,
      context: 'AudioEventsListener',
    });
    expect(logs.lines).toContainEqual({
      level: 'log',
      message: `Job ${ok.id} completed with {"output":"x.mp3"}`,
      context: 'AudioEventsListener',
    });
    expect(logs.lines).toContainEqual({
      level: 'error',
      message: `Job ${bad.id} failed after 1 attempts: bad file`,
      context: 'AudioEventsListener',
    });
  },
);

claim(
  `${page}#local-events`,
  'a listener filtered by name is only called for jobs of that name',
  async () => {
    const {TestProcessor, seen} = processor(`@Process('*') any() { return 1; }
  @OnQueueCompleted({ name: 'transcode' }) onTranscoded(job) { seen.push(job.name); }`);
    const app = await boot([root(), BullModule.registerQueue({name: 'audio'})], [TestProcessor]);
    const queue = app.get(getQueueToken('audio'), {strict: false});
    const other = await queue.add('normalize', {});
    await queue.add('transcode', {});
    await until(
      () => queue.getJob(other.id),
      (j: any) => j?.finishedOn != null,
    );
    await until(
      () => seen.length,
      (n) => n >= 1,
    );
    await new Promise((r) => setTimeout(r, 100));
    expect(seen).toEqual(['transcode']);
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#global-events`,
    `a global completed listener receives the job id and the result as a JSON string (${lang})`,
    async () => {
      const {AudioNotificationsListener} = samples(page, {under: 'global-events', lang}).require(
        'audio-notifications.listener',
      );
      const {TestProcessor} = processor(
        `@Process() handle(job) { return { output: 'interview.mp3' }; }`,
      );
      const logs = memoryLogger();
      const app = await boot(
        [root(), BullModule.registerQueue({name: 'audio'})],
        [TestProcessor, AudioNotificationsListener],
        logs.logger,
      );
      const queue = app.get(getQueueToken('audio'), {strict: false});
      await new Promise((r) => setTimeout(r, 200));
      const job = await queue.add({file: 'uploads/interview.wav'});
      await until(
        () => logs.text(),
        (text) => text.includes(`Job ${job.id} for`),
      );
      expect(logs.lines).toContainEqual({
        level: 'log',
        message: `Job ${job.id} for uploads/interview.wav completed: {"output":"interview.mp3"}`,
        context: 'AudioNotificationsListener',
      });
    },
  );
}

claim(
  `${page}#local-events`,
  'a filtered global listener receives the fetched job, not the id',
  async () => {
    const {TestProcessor, seen} = processor(`@Process('*') any() { return 1; }
  @OnGlobalQueueCompleted({ name: 'transcode' }) onDone(job, result) { seen.push([typeof job, job && job.name, result]); }`);
    const app = await boot([root(), BullModule.registerQueue({name: 'audio'})], [TestProcessor]);
    const queue = app.get(getQueueToken('audio'), {strict: false});
    await new Promise((r) => setTimeout(r, 200));
    await queue.add('transcode', {});
    await until(
      () => seen.length,
      (n) => n >= 1,
    );
    expect(seen[0]).toEqual(['object', 'transcode', '1']);
  },
);

claim(
  `${page}#request-scoped-consumers`,
  'a REQUEST-scoped consumer is created per job, and JOB_REF is that job',
  async () => {
    const {TestProcessor, seen} = compileModule<any>(`
import { Inject, Scope } from '@nestjs/common';
import { JOB_REF, Process, Processor } from '@nestjs/bull';
export const seen: any[] = [];
@Processor({ name: 'audio', scope: Scope.REQUEST })
export class TestProcessor {
  constructor(@Inject(JOB_REF) private readonly jobRef: any) {
    seen.push(['new', jobRef.id]);
  }
  @Process('transcode')
  async transcode(job: any) {
    seen.push(['same', this.jobRef === job || this.jobRef.id === job.id]);
  }
}
`);
    const app = await boot([root(), BullModule.registerQueue({name: 'audio'})], [TestProcessor]);
    const queue = app.get(getQueueToken('audio'), {strict: false});
    const a = await queue.add('transcode', {});
    const b = await queue.add('transcode', {});
    await until(
      () => seen.length,
      (n) => n === 4,
    );
    expect(
      seen
        .filter(([kind]: [string]) => kind === 'new')
        .map(([, id]: [string, string]) => id)
        .sort(),
    ).toEqual([a.id, b.id].map(String).sort());
    expect(
      seen
        .filter(([kind]: [string]) => kind === 'same')
        .every(([, same]: [string, boolean]) => same),
    ).toBe(true);
  },
);

claim(
  `${page}#queue-management`,
  'pause() keeps new jobs waiting; resume() lets them run; empty() removes waiting and delayed jobs; clean() removes old ones',
  async () => {
    const {TestProcessor, seen} = processor(`@Process() handle(job) { seen.push(job.id); }`);
    const app = await boot([root(), BullModule.registerQueue({name: 'audio'})], [TestProcessor]);
    const queue = app.get(getQueueToken('audio'), {strict: false});
    await queue.pause();
    const job = await queue.add({});
    await new Promise((r) => setTimeout(r, 300));
    expect(seen).toEqual([]);
    expect(await queue.getJobCounts()).toMatchObject({paused: 1});
    await queue.resume();
    await until(
      () => seen.length,
      (n) => n === 1,
    );
    await until(
      () => queue.getJobCounts(),
      (c: any) => c.completed === 1,
    );
    await queue.pause();
    await queue.add({});
    await queue.add({}, {delay: 60_000});
    await queue.empty();
    expect(await queue.getJobCounts()).toMatchObject({paused: 0, delayed: 0, completed: 1});
    await new Promise((r) => setTimeout(r, 20));
    const cleaned = await queue.clean(10, 'completed');
    expect(cleaned.map(String)).toEqual([String(job.id)]);
  },
);

claim(
  `${page}#queue-management`,
  'failed jobs are listed with getFailed() and retry() sends them back',
  async () => {
    const {TestProcessor, seen} = processor(
      `@Process() handle(job) { seen.push(job.id); if (seen.length === 1) throw new Error('first try fails'); }`,
    );
    const app = await boot([root(), BullModule.registerQueue({name: 'audio'})], [TestProcessor]);
    const queue = app.get(getQueueToken('audio'), {strict: false});
    const job = await queue.add({});
    await until(
      () => queue.getFailed(),
      (failed: any[]) => failed.length === 1,
    );
    const failedJobs = await queue.getFailed();
    await Promise.all(failedJobs.map((j: any) => j.retry()));
    await until(
      async () => (await queue.getJob(job.id)).getState(),
      (s) => s === 'completed',
    );
    expect(seen).toEqual([job.id, job.id]);
  },
);

claim(
  `${page}#queue-management`,
  'a repeatable job is listed by getRepeatableJobs() and removed with removeRepeatableByKey()',
  async () => {
    const app = await boot([root(), BullModule.registerQueue({name: 'audio'})]);
    const queue = app.get(getQueueToken('audio'), {strict: false});
    await queue.add('purge-temporary-files', {}, {repeat: {cron: '0 3 * * *', tz: 'Europe/Paris'}});
    await queue.add('purge-temporary-files', {}, {repeat: {cron: '0 3 * * *', tz: 'Europe/Paris'}});
    const repeatable = await queue.getRepeatableJobs();
    expect(repeatable).toHaveLength(1);
    expect(await queue.getJobCounts()).toMatchObject({delayed: 1});
    const code = fragment(page, 'queue-management', 'removeRepeatableByKey').value;
    await new Function('self', `return (async function () { ${code} }).call(self);`)({
      audioQueue: queue,
    });
    expect(await queue.getRepeatableJobs()).toEqual([]);
  },
);

claim(
  `${page}#separate-processes`,
  'a sandboxed processor file runs the jobs in a child process (done callback, default export)',
  async () => {
    const set = samples(page, {under: 'separate-processes'});
    const workerPath = `${set.dir}/audio-worker.js`;
    const app = await boot([
      root(),
      BullModule.registerQueue({name: 'audio', processors: [workerPath]}),
    ]);
    const queue = app.get(getQueueToken('audio'), {strict: false});
    const job = await queue.add({file: 'interview', format: 'mp3'});
    const done = await until(
      () => queue.getJob(job.id),
      (j: any) => j?.finishedOn != null,
      10_000,
    );
    expect(done.returnvalue).toEqual({output: 'interview.mp3'});
  },
);

claim(
  `${page}#root-options`,
  "Bull 3's defaults: lockDuration 30 s renewed at half of it, stalled check every 30 s, maxStalledCount 1",
  async () => {
    const app = await boot([root(), BullModule.registerQueue({name: 'audio'})]);
    const queue = app.get(getQueueToken('audio'), {strict: false});
    expect(queue.settings).toMatchObject({
      lockDuration: 30000,
      lockRenewTime: 15000,
      stalledInterval: 30000,
      maxStalledCount: 1,
    });
  },
);

claim(
  `${page}#concurrency`,
  'the concurrency of the handlers of a queue adds up: two named handlers of 4 run 8 jobs at once',
  async () => {
    const {TestProcessor, seen} = processor(`
  active = 0;
  @Process({ name: 'transcode', concurrency: 4 }) async t() { await this.hold(); }
  @Process({ name: 'normalize', concurrency: 4 }) async n() { await this.hold(); }
  async hold() { this.active++; seen.push(this.active); await new Promise((r) => setTimeout(r, 400)); this.active--; }`);
    const app = await boot([root(), BullModule.registerQueue({name: 'audio'})], [TestProcessor]);
    const queue = app.get(getQueueToken('audio'), {strict: false});
    for (let i = 0; i < 10; i++) await queue.add('transcode', {});
    await until(
      () => queue.getJobCounts(),
      (c: any) => c.completed === 10,
      8000,
    );
    expect(Math.max(...seen)).toBe(8);
  },
);

claim(
  `${page}#request-scoped-consumers`,
  'an event listener on a request-scoped consumer is ignored, with a warning',
  async () => {
    const {TestProcessor, seen} = compileModule<any>(`
import { Scope } from '@nestjs/common';
import { OnQueueCompleted, Process, Processor } from '@nestjs/bull';
export const seen: any[] = [];
@Processor({ name: 'audio', scope: Scope.REQUEST })
export class TestProcessor {
  @Process() handle() { return 1; }
  @OnQueueCompleted() done(job) { seen.push(job.id); }
}
`);
    const logs = memoryLogger();
    const app = await boot(
      [root(), BullModule.registerQueue({name: 'audio'})],
      [TestProcessor],
      logs.logger,
    );
    const queue = app.get(getQueueToken('audio'), {strict: false});
    const job = await queue.add({});
    await until(
      () => queue.getJob(job.id),
      (j: any) => j?.finishedOn != null,
    );
    await new Promise((r) => setTimeout(r, 100));
    expect(seen).toEqual([]);
    expect(logs.lines).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        message:
          'Warning! "TestProcessor" class is request-scoped and it defines an event listener ("TestProcessor#done"). Since event listeners cannot be registered on scoped providers, this handler will be ignored.',
      }),
    );
  },
);

claim(
  `${page}#async-configuration`,
  'forRootAsync with useFactory, useClass (createSharedConfiguration()) and useExisting; a URL string for redis works at runtime',
  async () => {
    const {BullConfigService} = samples(page, {under: 'async-configuration'}).require(
      'bull-config.service',
    );
    process.env.REDIS_HOST = '127.0.0.1';
    process.env.REDIS_PORT = String(redis.port);
    @Module({providers: [BullConfigService], exports: [BullConfigService]})
    class ConfigModule {}
    for (const forRoot of [
      BullModule.forRootAsync({useFactory: () => ({redis: {host: '127.0.0.1', port: redis.port}})}),
      BullModule.forRootAsync({useClass: BullConfigService}),
      BullModule.forRootAsync({imports: [ConfigModule], useExisting: BullConfigService}),
      BullModule.forRootAsync({useFactory: () => ({redis: redis.url})}),
    ]) {
      const app = await boot([forRoot, BullModule.registerQueue({name: 'audio'})]);
      const queue = app.get(getQueueToken('audio'), {strict: false});
      const job = await queue.add({ok: true});
      expect((await queue.getJob(job.id)).data).toEqual({ok: true});
      await close?.();
      close = undefined;
    }
  },
);

claim(
  `${page}#async-configuration`,
  'registerQueueAsync: the factory options (a limiter) and an options class (createBullOptions()) configure the queue',
  async () => {
    const {AudioQueueConfigService} = samples(page, {under: 'async-configuration'}).require(
      'audio-queue-config.service',
    );
    const app = await boot([
      root(),
      BullModule.registerQueueAsync({
        name: 'audio',
        useFactory: () => ({limiter: {max: 10, duration: 1000}}),
      }),
      BullModule.registerQueueAsync({name: 'video', useClass: AudioQueueConfigService}),
    ]);
    expect(app.get(getQueueToken('audio'), {strict: false}).limiter).toEqual({
      max: 10,
      duration: 1000,
    });
    const video = app.get(getQueueToken('video'), {strict: false});
    const job = await video.add({});
    expect(job.opts).toMatchObject({attempts: 3, removeOnComplete: true});
  },
);

claim.failure(
  `${page}#async-configuration`,
  "AUDIO_JOBS_PER_SECOND missing, empty or 'abc': the page's factory limits to 10 jobs a second; read as it is, 'abc' removes the limit and '' stops the start",
  async () => {
    const registration = fragment(page, 'async-configuration', 'AUDIO_JOBS_PER_SECOND').value;
    const {ConfigModule} = nest('@nestjs/config');
    const compile = (source: string) =>
      compileModule<any>(`
import { BullModule } from '@nestjs/bull';
import { ConfigModule, ConfigService } from '@nestjs/config';
export const registration = ${source.trim().replace(/;$/, '')};
`).registration;
    const raw = registration.replace(
      "Number(configService.get('AUDIO_JOBS_PER_SECOND')) || 10",
      "configService.get('AUDIO_JOBS_PER_SECOND')",
    );
    expect(raw).not.toBe(registration);
    const limiterOf = async (source: string, value: string | undefined) => {
      if (value === undefined) delete process.env.AUDIO_JOBS_PER_SECOND;
      else process.env.AUDIO_JOBS_PER_SECOND = value;
      try {
        const app = await boot([
          ConfigModule.forRoot({ignoreEnvFile: true}),
          root(),
          compile(source),
        ]);
        const {limiter} = app.get(getQueueToken('audio'), {strict: false});
        await close?.();
        close = undefined;
        return limiter;
      } catch (error) {
        close = undefined;
        return (error as Error).message;
      } finally {
        delete process.env.AUDIO_JOBS_PER_SECOND;
      }
    };
    for (const value of [undefined, '', 'abc'])
      expect(await limiterOf(registration, value)).toMatchObject({max: 10, duration: 1000});
    expect(await limiterOf(registration, '5')).toMatchObject({max: 5});
    expect(await limiterOf(raw, 'abc')).toMatchObject({max: 'abc'});
    expect(await limiterOf(raw, '')).toBe('Limiter requires `max` and `duration` options');
    // What Bull makes of max: 'abc': no limit (20 jobs within 600 ms).
    const {TestProcessor, seen} = processor(`@Process() handle() { seen.push(Date.now()); }`);
    const app = await boot(
      [
        root(),
        BullModule.registerQueue({name: 'audio', limiter: {max: 'abc' as any, duration: 1000}}),
      ],
      [TestProcessor],
    );
    const queue = app.get(getQueueToken('audio'), {strict: false});
    const started = Date.now();
    for (let i = 0; i < 20; i++) await queue.add({});
    await until(
      () => seen.length,
      (n) => n >= 20,
    );
    expect(Date.now() - started).toBeLessThan(1000);
  },
);

claim.failure(
  `${page}#async-configuration`,
  "REDIS_PORT not set: the page's factory and BullConfigService fall back to 6379; with +configService.get() the port is NaN and the queue's client ends for good",
  async () => {
    delete process.env.REDIS_PORT;
    delete process.env.REDIS_HOST;
    const {BullConfigService} = samples(page, {under: 'async-configuration'}).require(
      'bull-config.service',
    );
    expect(new BullConfigService().createSharedConfiguration().redis).toEqual({
      host: 'localhost',
      port: 6379,
    });
    const factory = fragment(page, 'async-configuration', "configService.get('REDIS_PORT')").value;
    const {ConfigModule, ConfigService} = nest('@nestjs/config');
    @Module({imports: [ConfigModule.forRoot({ignoreEnvFile: true})]})
    class ConfigOnly {}
    const configApp = await NestFactory.createApplicationContext(ConfigOnly, {logger: false});
    const config = configApp.get(ConfigService);
    const useFactory = new Function(
      'configService',
      `return (${factory.match(/useFactory: (async \(configService[^)]*\) => \(\{[\s\S]*?\}\)),\n {2}inject/)![1].replace(': ConfigService', '')})(configService);`,
    );
    expect((await useFactory(config)).redis).toEqual({host: 'localhost', port: 6379});
    await configApp.close();
    // What a NaN port does: the client ends at once, add() rejects.
    const Bull = nest('bull');
    const queue = new Bull('audio', {redis: {host: '127.0.0.1', port: +config.get('REDIS_PORT')}});
    queue.on('error', () => {});
    await expect(queue.add({})).rejects.toThrow(/Port should be >= 0 and < 65536/);
    expect(queue.client.status).toBe('end');
    await queue.close().catch(() => {});
  },
);

claim(
  `${page}#async-configuration`,
  'a limiter max read from the environment as a string still limits (Bull converts it)',
  async () => {
    const {TestProcessor, seen} = processor(`@Process() handle() { seen.push(Date.now()); }`);
    const app = await boot(
      [
        root(),
        BullModule.registerQueue({name: 'audio', limiter: {max: '2' as any, duration: 1000}}),
      ],
      [TestProcessor],
    );
    const queue = app.get(getQueueToken('audio'), {strict: false});
    const started = Date.now();
    for (let i = 0; i < 4; i++) await queue.add({});
    await until(
      () => seen.length,
      (n) => n >= 2,
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(seen.filter((at: number) => at - started < 600)).toHaveLength(2);
  },
);

describe('the transcoding example', () => {
  // ffmpeg is not installed here: a stand-in on PATH copies the input to the output (or fails for a
  // missing input, as ffmpeg does), so the page's controller, queue and processor run unchanged.
  let dir: string;
  let previousCwd: string;
  let previousPath: string | undefined;
  beforeAll(() => {
    previousCwd = process.cwd();
    previousPath = process.env.PATH;
    dir = mkdtempSync(join(tmpdir(), 'behaviour-transcode-'));
    mkdirSync(join(dir, 'bin'));
    mkdirSync(join(dir, 'uploads'));
    writeFileSync(join(dir, 'uploads', 'interview.wav'), 'RIFF');
    writeFileSync(
      join(dir, 'bin', 'ffmpeg'),
      '#!/bin/sh\n[ -f "$3" ] || { echo "$3: No such file or directory" >&2; exit 1; }\ncp "$3" "$4"\n',
      {mode: 0o755},
    );
    process.env.PATH = `${join(dir, 'bin')}:${previousPath}`;
    process.chdir(dir);
  });
  afterAll(() => {
    process.chdir(previousCwd);
    process.env.PATH = previousPath;
    rmSync(dir, {recursive: true, force: true});
  });

  claim(
    `${page}#example-transcoding-audio-files`,
    'POST /audio/transcode answers the job id at once; GET /audio/jobs/1 reports the completed job as shown',
    async () => {
      const set = samples(page, {
        under: 'example-transcoding-audio-files',
        edit: {'app.module': rootEdit()},
      });
      const {AppModule} = set.require('app.module');
      const app = await NestFactory.create(AppModule, {logger: false});
      close = () => app.close();
      const base = (await listen(app)) as string;
      const accepted = await fetch(`${base}/audio/transcode`, {
        method: 'POST',
        headers: {'content-type': 'application/json'},
        body: JSON.stringify({file: 'interview.wav', format: 'mp3'}),
      });
      expect(accepted.status).toBe(201);
      expectOutput(page, 'transcode-accepted', await accepted.text());
      const done = await until(
        async () => (await fetch(`${base}/audio/jobs/1`)).json(),
        (body: any) => body.state === 'completed',
      );
      expectOutput(page, 'transcode-completed', done);
      expect(existsSync(join(dir, 'uploads', 'interview.mp3'))).toBe(true);
      expect((await fetch(`${base}/audio/jobs/99`)).status).toBe(404);
    },
  );

  claim(
    `${page}#example-transcoding-audio-files`,
    'a failing conversion is tried twice, then reported as failed with the message in error',
    async () => {
      const set = samples(page, {
        under: 'example-transcoding-audio-files',
        edit: {'app.module': rootEdit()},
      });
      const {AppModule} = set.require('app.module');
      const logs = memoryLogger();
      const app = await NestFactory.create(AppModule, {logger: logs.logger});
      close = () => app.close();
      const base = (await listen(app)) as string;
      // The example answers 503 until the queue's Redis connection is ready.
      await app.get(getQueueToken('audio'), {strict: false}).isReady();
      const {jobId} = await (
        await fetch(`${base}/audio/transcode`, {
          method: 'POST',
          headers: {'content-type': 'application/json'},
          body: JSON.stringify({file: 'missing.wav', format: 'mp3'}),
        })
      ).json();
      const failed = await until(
        async () => (await fetch(`${base}/audio/jobs/${jobId}`)).json(),
        (body: any) => body.state === 'failed',
      );
      expect(failed.error).toMatch(/missing\.wav: No such file or directory/);
      const attempts = logs.lines.filter(
        (line) =>
          line.level === 'error' && line.message.startsWith(`Job ${jobId} failed on attempt`),
      );
      expect(
        attempts.map((line) => line.message.slice(0, `Job ${jobId} failed on attempt 1`.length)),
      ).toEqual([`Job ${jobId} failed on attempt 1`, `Job ${jobId} failed on attempt 2`]);
    },
  );

  /** The example app (TS or JS halves) listening on a free port; jobs, once added, run with the fake ffmpeg. */
  async function example(lang: 'ts' | 'js' = 'ts') {
    const set = samples(page, {
      under: 'example-transcoding-audio-files',
      lang,
      edit: {'app.module': rootEdit()},
      // The page shows the two modules in TypeScript only.
      files:
        lang === 'js'
          ? {
              'app.module': readTs('app.module', 3),
              'audio/audio.module': readTs('audio/audio.module', 1),
            }
          : {},
    });
    const {AppModule} = set.require('app.module');
    const app = await NestFactory.create(AppModule, {logger: false});
    close = () => app.close();
    const base = (await listen(app)) as string;
    const queue = app.get(getQueueToken('audio'), {strict: false});
    // Closing the app while Bull is still starting its worker leaves an unhandled rejection behind.
    await queue.isReady();
    await until(
      () => queue.bclient?.status,
      (status) => status === 'ready',
    );
    const post = (body: unknown) =>
      fetch(`${base}/audio/transcode`, {
        method: 'POST',
        headers: {'content-type': 'application/json'},
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    return {app, base, queue, post};
  }

  for (const lang of ['ts', 'js'] as const) {
    claim.abuse(
      `${page}#example-transcoding-audio-files`,
      `file names that leave the uploads directory or look like options (../, absolute, -i, .hidden) are refused with 400 and no job is added (${lang})`,
      async () => {
        const {queue, post} = await example(lang);
        for (const file of [
          '../secret.wav',
          '../../etc/passwd',
          '/etc/passwd',
          'uploads/interview.wav',
          '-i.wav',
          '.hidden.wav',
          'interview.wav; rm -rf /',
        ]) {
          const response = await post({file, format: 'mp3'});
          expect(response.status, file).toBe(400);
        }
        expect(await queue.count()).toBe(0);
        expect((await post({file: 'interview.wav', format: 'mp3'})).status).toBe(201);
      },
    );
  }

  claim.abuse(
    `${page}#example-transcoding-audio-files`,
    'an unknown format, a non-string file, a missing field or an extra property is refused with 400, and nothing reaches the queue',
    async () => {
      const {queue, post} = await example();
      for (const body of [
        {file: 'interview.wav', format: 'exe'},
        {file: 'interview.wav', format: 'mp3 -f null'},
        {file: {$gt: ''}, format: 'mp3'},
        {file: ['interview.wav'], format: 'mp3'},
        {format: 'mp3'},
        {file: 'interview.wav', format: 'mp3', priority: 1},
      ]) {
        const response = await post(body);
        expect(response.status, JSON.stringify(body)).toBe(400);
      }
      expect(await queue.count()).toBe(0);
    },
  );

  claim.abuse(
    `${page}#example-transcoding-audio-files`,
    'an oversized body (over the 100 kB JSON limit) is refused with 413 before the controller runs',
    async () => {
      const {base, queue} = await example();
      // node:http rather than fetch: the server answers before it has read the whole body.
      const {request} = await import('node:http');
      const status = await new Promise<number>((resolve, reject) => {
        const body = JSON.stringify({
          file: 'interview.wav',
          format: 'mp3',
          pad: 'x'.repeat(200_000),
        });
        const req = request(
          `${base}/audio/transcode`,
          {method: 'POST', headers: {'content-type': 'application/json'}},
          (res) => {
            res.resume();
            resolve(res.statusCode!);
          },
        );
        req.on('error', reject);
        req.end(body);
      });
      expect(status).toBe(413);
      expect(await queue.count()).toBe(0);
    },
  );

  claim.abuse(
    `${page}#example-transcoding-audio-files`,
    "job ids are consecutive: a second client reads the first client's job (state, result) by guessing its id",
    async () => {
      const {base, post} = await example();
      const {jobId} = await (await post({file: 'interview.wav', format: 'mp3'})).json();
      const guessed = await until(
        async () => (await fetch(`${base}/audio/jobs/${Number(jobId)}`)).json(),
        (body: any) => body.state === 'completed',
      );
      expect(jobId).toBe('1');
      expect(guessed.result).toEqual({output: 'uploads/interview.mp3'});
    },
  );
});

claim(
  `${page}#testing-producers`,
  "overriding getQueueToken('audio') hands the test double to the example's controller",
  async () => {
    const {vi} = await import('vitest');
    const {Test} = nest('@nestjs/testing');
    const set = samples(page, {
      under: 'example-transcoding-audio-files',
      edit: {'app.module': rootEdit()},
    });
    const {AudioController} = set.require('audio/audio.controller');
    const code = fragment(page, 'testing-producers', 'getQueueToken').value;
    const moduleRef = await new Function(
      'Test',
      'AudioController',
      'getQueueToken',
      'jest',
      `return (async () => { ${code}; return moduleRef; })();`,
    )(Test, AudioController, getQueueToken, vi);
    const controller = moduleRef.get(AudioController);
    expect(await controller.transcode({file: 'interview.wav', format: 'mp3'})).toEqual({
      jobId: '42',
    });
    const double = moduleRef.get(getQueueToken('audio'));
    expect(double.add).toHaveBeenCalledWith('transcode', {
      file: 'interview.wav',
      format: 'mp3',
    });
    await moduleRef.close();
  },
);

claim(
  `${page}#shutting-down-gracefully`,
  'app.close() closes the queue after waiting for its active job to finish',
  async () => {
    const {TestProcessor, seen} = processor(
      `@Process() async slow(job) { seen.push('start'); await new Promise((r) => setTimeout(r, 400)); seen.push('end'); return 'done'; }`,
    );
    const app = await boot([root(), BullModule.registerQueue({name: 'audio'})], [TestProcessor]);
    const queue = app.get(getQueueToken('audio'), {strict: false});
    const job = await queue.add({});
    await until(
      () => seen.length,
      (n) => n === 1,
    );
    close = undefined;
    await app.close();
    expect(seen).toEqual(['start', 'end']);
    const Bull = nest('bull');
    const reader = new Bull('audio', {redis: {host: '127.0.0.1', port: redis.port}});
    expect(await (await reader.getJob(job.id)).getState()).toBe('completed');
    await reader.close();
  },
);

claim(
  `${page}#job-options`,
  "the page's exponential backoff (delay 2000) pauses 2, 6, 14 and 30 s between its five attempts (run ten times faster)",
  async () => {
    const call = fragment(page, 'job-options', "type: 'exponential'").value;
    const options = new Function(
      `return ${call.slice(call.indexOf("{ file: 'output/interview.mp3' },") + 34).replace(/,?\s*\);\s*$/, '')}`,
    )();
    expect(options).toEqual({attempts: 5, backoff: {type: 'exponential', delay: 2000}});
    const {TestProcessor, seen} = processor(
      `@Process('upload-to-cdn') fail(job) { seen.push(Date.now()); throw new Error('cdn down'); }`,
    );
    const app = await boot([root(), BullModule.registerQueue({name: 'audio'})], [TestProcessor]);
    const queue = app.get(getQueueToken('audio'), {strict: false});
    // Run ten times faster; an attempt never starts early, and a lag under 100 ms keeps the whole second.
    const scale = 10;
    const job = await queue.add(
      'upload-to-cdn',
      {file: 'output/interview.mp3'},
      {...options, backoff: {...options.backoff, delay: options.backoff.delay / scale}},
    );
    const final = await until(
      () => queue.getJob(job.id),
      (j: any) => j?.finishedOn != null,
      10_000,
    );
    expect(final.attemptsMade).toBe(5);
    const lines = seen.map((at: number, index: number) =>
      index + 1 < seen.length
        ? `attempt ${index + 1} failed, next attempt in ${Math.floor(((seen[index + 1] - at) * scale) / 1000)} s`
        : `attempt ${index + 1} failed, job failed`,
    );
    expectOutput(page, 'exponential-backoff', lines.join('\n'));
  },
  20_000,
);

describe('#filtered-global-listeners', () => {
  const listeners = () =>
    processor(`
  @Process('transcode') transcode() { return 'done'; }
  @OnGlobalQueueCompleted() anyGlobal(jobId) { seen.push('global ' + jobId); }
  @OnGlobalQueueCompleted({ name: 'transcode' }) filteredGlobal(job) { seen.push('filtered global ' + job.id); }
  @OnQueueCompleted({ name: 'transcode' }) filteredLocal(job) { seen.push('filtered local ' + job.id); }
`);

  claim.failure(
    `${page}#filtered-global-listeners`,
    'with removeOnComplete: true a filtered global listener is never called (nothing logged); the unfiltered global and the filtered local listeners are',
    async () => {
      const {TestProcessor, seen} = listeners();
      const log = memoryLogger();
      const app = await boot(
        [
          root(),
          BullModule.registerQueue({name: 'audio', defaultJobOptions: {removeOnComplete: true}}),
        ],
        [TestProcessor],
        log.logger,
      );
      const queue = app.get(getQueueToken('audio'), {strict: false});
      await until(
        () => queue.eclient?.status,
        (status) => status === 'ready',
      );
      const job = await queue.add('transcode', {});
      await until(
        () => seen.length,
        (n) => n >= 2,
      );
      await new Promise((r) => setTimeout(r, 500));
      expect([...seen].sort()).toEqual([`filtered local ${job.id}`, `global ${job.id}`]);
      expect(log.lines.filter((line) => line.level !== 'log')).toEqual([]);
    },
  );

  claim(
    `${page}#filtered-global-listeners`,
    "with the page's removeOnComplete: 100 the filtered global listener receives the job",
    async () => {
      const registration = new Function(
        'BullModule',
        `return ${fragment(page, 'filtered-global-listeners', 'removeOnComplete: 100').value.replace(/;\s*$/, '')}`,
      )(BullModule);
      const {TestProcessor, seen} = listeners();
      const app = await boot([root(), registration], [TestProcessor]);
      const queue = app.get(getQueueToken('audio'), {strict: false});
      await until(
        () => queue.eclient?.status,
        (status) => status === 'ready',
      );
      const job = await queue.add('transcode', {});
      await until(
        () => seen.length,
        (n) => n >= 3,
      );
      expect([...seen].sort()).toEqual([
        `filtered global ${job.id}`,
        `filtered local ${job.id}`,
        `global ${job.id}`,
      ]);
    },
  );
});

/** A worker in a child process: the set's files, plus a script that registers the queue and `providers`. */
function workerScript(port: number, providers: string, extra = ''): string {
  return `
const { Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { BullModule, getQueueToken } = require('@nestjs/bull');
${extra}
process.on('exit', (code) => console.log('EXIT ' + code));
class WorkerModule {}
Module({
  imports: [
    BullModule.forRoot({ redis: { host: '127.0.0.1', port: ${port} } }),
    BullModule.registerQueue({ name: 'audio' }),
  ],
  providers: [${providers}],
})(WorkerModule);
NestFactory.createApplicationContext(WorkerModule, { logger: ['error', 'warn', 'log'] }).then(async (app) => {
  if (process.env.SHUTDOWN_HOOKS) app.enableShutdownHooks();
  const queue = app.get(getQueueToken('audio'), { strict: false });
  await queue.isReady();
  console.log('READY');
  if (process.env.ADD_JOB) await queue.add(process.env.ADD_JOB === 'named' ? 'transcode' : undefined, { file: 'interview.wav' });
});
`;
}

describe('listeners and workers in a child process', () => {
  const children: ChildApp[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) await child.stop('SIGKILL');
  });
  const run = (dir: string, source: string, env: Record<string, string> = {}) => {
    const child = startChild(dir, `worker-${children.length}.js`, source, {NO_COLOR: '1', ...env});
    children.push(child);
    return child;
  };

  claim.failure(
    `${page}#errors-in-listeners`,
    'an async listener whose promise rejects ends the worker process (exit code 1); a synchronous unfiltered @OnQueueCompleted() listener that throws does not, and the job stays completed',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'behaviour-listeners-'));
      try {
        const listener = (body: string) => `
const { Process, Processor, OnQueueCompleted } = require('@nestjs/bull');
class Listener {
  handle() { return 'done'; }
  onCompleted(job) { ${body} }
}
Process()(Listener.prototype, 'handle', Object.getOwnPropertyDescriptor(Listener.prototype, 'handle'));
OnQueueCompleted()(Listener.prototype, 'onCompleted', Object.getOwnPropertyDescriptor(Listener.prototype, 'onCompleted'));
Processor('audio')(Listener);
`;
        const asyncChild = run(
          dir,
          workerScript(
            redis.port,
            'Listener',
            listener("return Promise.reject(new Error('notification service down'));"),
          ),
          {ADD_JOB: 'plain'},
        );
        expect(await asyncChild.exited(15_000)).toEqual({code: 1, signal: null});
        expect(asyncChild.output()).toContain('notification service down');
        const syncChild = run(
          dir,
          workerScript(
            redis.port,
            'Listener',
            listener("console.log('LISTENER RAN'); throw new Error('swallowed');"),
          ),
          {ADD_JOB: 'plain'},
        );
        await syncChild.waitFor(/LISTENER RAN/);
        expect(await syncChild.exited(800)).toBeNull();
        expect(syncChild.output()).not.toContain('swallowed');
        const Bull = nest('bull');
        const reader = new Bull('audio', {redis: {host: '127.0.0.1', port: redis.port}});
        const [last] = await reader.getCompleted();
        expect(await last.getState()).toBe('completed');
        await reader.close();
      } finally {
        rmSync(dir, {recursive: true, force: true});
      }
    },
    30_000,
  );

  claim.failure(
    `${page}#errors-in-listeners`,
    "a listener with a name filter (@OnQueueCompleted({ name: 'transcode' })) that throws synchronously ends the worker process (exit code 1); its stack runs through @nestjs/bull's wrapper (output)",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'behaviour-listeners-'));
      try {
        const child = run(
          dir,
          workerScript(
            redis.port,
            'Listener',
            `
const { Process, Processor, OnQueueCompleted } = require('@nestjs/bull');
class Listener {
  handle() { return 'done'; }
  onTranscoded(job) { throw new Error('filtered listener failed'); }
}
Process('transcode')(Listener.prototype, 'handle', Object.getOwnPropertyDescriptor(Listener.prototype, 'handle'));
OnQueueCompleted({ name: 'transcode' })(Listener.prototype, 'onTranscoded', Object.getOwnPropertyDescriptor(Listener.prototype, 'onTranscoded'));
Processor('audio')(Listener);
`,
          ),
          {ADD_JOB: 'named'},
        );
        expect(await child.exited(15_000)).toEqual({code: 1, signal: null});
        // The error and the first two frames of its stack, paths shortened (output block).
        const lines = child.output().split('\n');
        const at = lines.indexOf('Error: filtered listener failed');
        expect(at).toBeGreaterThan(-1);
        const trace = lines
          .slice(at, at + 3)
          .map((line) =>
            line.replace(/\((.*?)(:\d+:\d+)?\)$/, (_, path: string) =>
              path.includes('node_modules/')
                ? `(${path.slice(path.lastIndexOf('node_modules/'))})`
                : '(...)',
            ),
          )
          .join('\n');
        expectOutput(page, 'filtered-listener-throws', trace);
      } finally {
        rmSync(dir, {recursive: true, force: true});
      }
    },
    30_000,
  );

  claim.failure(
    `${page}#errors-in-listeners`,
    'a synchronous @OnQueueActive() listener that throws: @OnQueueError() hears it, and the job stays active after the stalled-job check has run (output)',
    async () => {
      const {TestProcessor, seen} = processor(`
  @Process() handle(job: any) { seen.push('handled ' + job.id); return 'done'; }
  @OnQueueActive() onActive(job: any) { if (job.id === '1') throw new Error('active listener failed'); }
  @OnQueueError() onError(error: Error) { seen.push('queue error: ' + error.message); }
`);
      const app = await boot(
        [
          root({settings: {stalledInterval: 1000, lockDuration: 1000, retryProcessDelay: 500}}),
          BullModule.registerQueue({name: 'audio'}),
        ],
        [TestProcessor],
      );
      const queue = app.get(getQueueToken('audio'), {strict: false});
      await queue.add({});
      await queue.add({});
      await until(
        () => queue.getJob('2'),
        (j: any) => j?.finishedOn != null,
      );
      await new Promise((r) => setTimeout(r, 2500)); // more than two stalled-job checks
      const report = [
        ...seen.filter((line: string) => line.startsWith('queue error')),
        `job 1: ${await (await queue.getJob('1')).getState()}`,
        `job 2: ${await (await queue.getJob('2')).getState()}`,
      ].join('\n');
      expectOutput(page, 'active-listener-throws', report);
      expect(seen).toContain('handled 1');
    },
  );

  for (const lang of ['ts', 'js'] as const) {
    claim.failure(
      `${page}#errors-in-listeners`,
      `the page's AudioCompletionListener catches a failing notification: the error is logged and the worker stays up (${lang})`,
      async () => {
        const set = samples(page, {
          under: 'errors-in-listeners',
          lang,
          files: {
            // The reader's own service, here one whose backend is down.
            'notifications.service': `
const { Injectable } = require('@nestjs/common');
class NotificationsService {
  async notify() { throw new Error('notification backend unreachable'); }
}
exports.NotificationsService = Injectable()(NotificationsService) || NotificationsService;
`,
          },
        });
        const child = run(
          set.dir,
          workerScript(
            redis.port,
            'AudioCompletionListener, NotificationsService, Worker',
            `
const { AudioCompletionListener } = require('./audio-completion.listener.js');
const { NotificationsService } = require('./notifications.service.js');
const { Process, Processor } = require('@nestjs/bull');
class Worker { handle() { return { output: 'uploads/interview.mp3' }; } }
Process()(Worker.prototype, 'handle', Object.getOwnPropertyDescriptor(Worker.prototype, 'handle'));
Processor('audio')(Worker);
`,
          ),
          {ADD_JOB: 'plain'},
        );
        await child.waitFor(
          /AudioCompletionListener\] Job \d+: notification failed: notification backend unreachable/,
        );
        expect(await child.exited(800)).toBeNull();
      },
      30_000,
    );
  }

  claim.failure(
    `${page}#shutting-down-gracefully`,
    'SIGTERM with enableShutdownHooks(): the active job finishes and is completed, then the process ends; without the hooks it ends at once and the job stays active',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'behaviour-shutdown-'));
      const Bull = nest('bull');
      const reader = new Bull('audio', {redis: {host: '127.0.0.1', port: redis.port}});
      try {
        const slow = `
const { Process, Processor } = require('@nestjs/bull');
class Slow {
  async handle(job) { console.log('STARTED ' + job.id); await new Promise((r) => setTimeout(r, 1500)); console.log('FINISHED ' + job.id); return 'done'; }
}
Process()(Slow.prototype, 'handle', Object.getOwnPropertyDescriptor(Slow.prototype, 'handle'));
Processor('audio')(Slow);
`;
        for (const hooks of [true, false]) {
          const child = run(dir, workerScript(redis.port, 'Slow', slow), {
            ADD_JOB: 'plain',
            ...(hooks ? {SHUTDOWN_HOOKS: '1'} : {}),
          });
          const [, id] = await child.waitFor(/STARTED (\d+)/);
          child.process.kill('SIGTERM');
          expect(await child.exited(10_000)).toEqual({code: null, signal: 'SIGTERM'});
          const state = await (await reader.getJob(id)).getState();
          if (hooks) {
            expect(child.output()).toContain(`FINISHED ${id}`);
            expect(state).toBe('completed');
          } else {
            expect(child.output()).not.toContain('FINISHED');
            expect(state).toBe('active');
          }
        }
      } finally {
        await reader.close();
        rmSync(dir, {recursive: true, force: true});
      }
    },
    40_000,
  );
});

describe('#when-redis-is-unavailable', () => {
  let server: RestartableRedis;
  // Closing an app whose Bull clients are reconnecting to the stopped server can leave ioredis'
  // 'Connection is closed.' rejected with no handler (seen once in a full run, after the add()
  // claim); kept here, counted, so that it cannot fail another file's run. Not yet traced to a
  // sample: the claims below assert what the pages' apps do while they run.
  // Vitest's own listener is set aside for this block and gets every other rejection.
  const closedRejections: unknown[] = [];
  let vitestListeners: NodeJS.UnhandledRejectionListener[] = [];
  const onRejection: NodeJS.UnhandledRejectionListener = (reason, promise) => {
    if (reason instanceof Error && reason.message === 'Connection is closed.') {
      closedRejections.push(reason);
      return;
    }
    for (const listener of vitestListeners) listener(reason, promise);
  };
  beforeAll(async () => {
    vitestListeners = process.listeners('unhandledRejection');
    process.removeAllListeners('unhandledRejection');
    process.on('unhandledRejection', onRejection);
    server = await restartableRedis();
  });
  afterAll(async () => {
    await server?.stop();
    await new Promise((resolve) => setTimeout(resolve, 500));
    process.off('unhandledRejection', onRejection);
    for (const listener of vitestListeners) process.on('unhandledRejection', listener);
  });

  const exampleOn = async (port: number, edit: [string, string][] = []) => {
    const set = samples(page, {
      under: 'example-transcoding-audio-files',
      edit: {
        'app.module': [
          ["host: 'localhost'", "host: '127.0.0.1'"],
          ['port: 6379', `port: ${port}`],
        ],
        ...(edit.length ? {'audio/audio.controller': edit} : {}),
      },
    });
    const log = memoryLogger();
    const app = await NestFactory.create(set.require('app.module').AppModule, {
      logger: log.logger,
    });
    close = () => app.close();
    const base = (await listen(app)) as string;
    const post = () =>
      fetch(`${base}/audio/transcode`, {
        method: 'POST',
        headers: {'content-type': 'application/json'},
        body: JSON.stringify({file: 'interview.wav', format: 'mp3'}),
      });
    return {app, base, post, log};
  };

  claim.failure(
    `${page}#when-redis-is-unavailable`,
    'Redis down at start: the example starts without a log line, its POST answers 503 at once, and 201 once Redis is up',
    async () => {
      await server.stop();
      const {post, log} = await exampleOn(server.port);
      const started = Date.now();
      const refused = await post();
      expect(Date.now() - started).toBeLessThan(1000);
      expect([refused.status, await refused.json()]).toEqual([
        503,
        {statusCode: 503, message: 'The job queue is not available', error: 'Service Unavailable'},
      ]);
      expect(log.lines.filter((line) => line.level !== 'log')).toEqual([]);
      await server.start();
      const accepted = await until(
        async () => (await post()).status,
        (status) => status === 201,
        15_000,
      );
      expect(accepted).toBe(201);
    },
    30_000,
  );

  claim.failure(
    `${page}#when-redis-is-unavailable`,
    'without the status check, add() does not fail while Redis is down: the request waits, and is answered once Redis is back',
    async () => {
      await server.stop();
      const {post} = await exampleOn(server.port, [
        [
          "    if (this.audioQueue.client.status !== 'ready') {\n      throw new ServiceUnavailableException('The job queue is not available');\n    }\n",
          '',
        ],
      ]);
      const pending = post().then(async (response) => ({
        at: Date.now(),
        status: response.status,
        body: await response.json(),
      }));
      const early = await Promise.race([
        pending,
        new Promise((resolve) => setTimeout(() => resolve('still waiting'), 1500)),
      ]);
      expect(early).toBe('still waiting');
      await server.start();
      const answered: any = await pending;
      expect(answered.status).toBe(201);
      expect(answered.body.jobId).toBeDefined();
    },
    40_000,
  );

  claim.failure(
    `${page}#when-redis-is-unavailable`,
    'Redis restarted without persistence while the app runs: @OnQueueError() hears of it, the worker processes new jobs again, the old jobs are gone and ids start again from 1',
    async () => {
      await server.start();
      const {TestProcessor, seen} = processor(`
  @Process() handle(job) { seen.push('processed ' + job.id); return 'ok'; }
  @OnQueueError() onError(error) { seen.push('error ' + error.message); }
`);
      const {OnQueueError} = nest('@nestjs/bull');
      expect(OnQueueError).toBeDefined();
      @Module({
        imports: [
          BullModule.forRoot({redis: {host: '127.0.0.1', port: server.port}}),
          BullModule.registerQueue({name: 'audio'}),
        ],
        providers: [TestProcessor],
      })
      class WorkerModule {}
      const app = await NestFactory.createApplicationContext(WorkerModule, {logger: false});
      close = () => app.close();
      const queue = app.get(getQueueToken('audio'), {strict: false});
      await queue.isReady();
      const first = await queue.add({});
      const waiting = await queue.add({}, {delay: 60_000});
      await until(
        () => seen.includes(`processed ${first.id}`),
        (done) => done,
      );
      await server.stop();
      await until(
        () => seen.some((entry: string) => entry.startsWith('error ')),
        (heard) => heard,
      );
      await server.start();
      await until(
        () => queue.client.status,
        (status) => status === 'ready',
        15_000,
      );
      expect(await queue.getJob(waiting.id)).toBeNull();
      const again = await queue.add({});
      expect(again.id).toBe('1');
      await until(
        () => seen.filter((entry: string) => entry === 'processed 1').length,
        (n) => n === 2,
        15_000,
      );
    },
    60_000,
  );
});

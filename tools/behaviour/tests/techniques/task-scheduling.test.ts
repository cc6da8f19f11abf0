import {afterEach, describe, expect} from 'vitest';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {claim, samples, fragment, compileModule, nest, listen, memoryLogger} from '../../lib';
import {startChild, type ChildApp} from './_child-app';

const {Module, Injectable, Scope, Logger} = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const {ScheduleModule, SchedulerRegistry, Cron, CronExpression, Interval, Timeout} =
  nest('@nestjs/schedule');
const {CronJob, CronTime} = nest('cron');
const page = 'docs/techniques/task-scheduling.md';

let toClose: any[] = [];
afterEach(async () => {
  for (const app of toClose) await app.close();
  toClose = [];
});

async function boot(
  providers: unknown[],
  options: {controllers?: unknown[]; init?: boolean; logger?: any} = {},
) {
  @Module({imports: [ScheduleModule.forRoot()], providers, controllers: options.controllers ?? []})
  class AppModule {}
  const app = await NestFactory.create(AppModule, {logger: options.logger ?? false});
  toClose.push(app);
  if (options.init !== false) await app.init();
  return app;
}

async function until(condition: () => boolean, ms = 3000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > ms) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The next run of a pattern after a given local date (the cron package's own computation). */
function nextAfter(pattern: string, from: Date, zone?: string): Date {
  const time = new CronTime(pattern, zone);
  return time._getNextDateFrom(from, zone).toDate();
}

/** A class whose body is a fragment of the page (decorated methods), with the page's imports in scope. */
function fragmentClass(section: string, contains: string, name: string): any {
  const code = fragment(page, section, contains).value;
  return compileModule(
    `import { Injectable, Logger } from '@nestjs/common';
import { Cron, CronExpression, Interval, Timeout } from '@nestjs/schedule';
@Injectable()
export class ${name} {
  readonly logger = new Logger('${name}');
${code}
}`,
    `${name}-${Math.random().toString(36).slice(2)}`,
  )[name];
}

describe('#installation', () => {
  for (const lang of ['ts', 'js'] as const) {
    claim(
      `${page}#installation`,
      `the page's TasksService job is registered and started at bootstrap, and stopped at shutdown (${lang})`,
      async () => {
        const set = samples(page, {
          under: 'declarative-cron-jobs',
          lang,
          files: lang === 'js' ? {'app.module': samples(page).sources.get('app.module')!} : {},
        });
        const {AppModule} = set.require('app.module');
        const app = await NestFactory.create(AppModule, {logger: false});
        toClose.push(app);
        const registry = app.get(SchedulerRegistry);
        expect(registry.getCronJobs().size).toBe(0);
        await app.init();
        const jobs = [...registry.getCronJobs().values()];
        expect(jobs).toHaveLength(1);
        expect(jobs[0].running).toBe(true);
        expect(jobs[0].nextDates().toDate().getSeconds()).toBe(45);
        await app.close();
        toClose = [];
        expect(jobs[0].running).toBe(false);
        expect(registry.getCronJobs().size).toBe(0);
      },
    );
  }

  claim(
    `${page}#installation`,
    'the module is global: SchedulerRegistry is injectable in a module that does not import ScheduleModule',
    async () => {
      @Injectable()
      class Consumer {
        constructor(readonly registry: any) {}
      }
      Reflect.defineMetadata('design:paramtypes', [SchedulerRegistry], Consumer);
      @Module({providers: [Consumer]})
      class FeatureModule {}
      @Module({imports: [ScheduleModule.forRoot(), FeatureModule]})
      class AppModule {}
      const app = await NestFactory.create(AppModule, {logger: false});
      toClose.push(app);
      expect(app.get(Consumer).registry).toBe(app.get(SchedulerRegistry));
    },
  );

  claim(
    `${page}#installation`,
    'a request-scoped class with @Cron() is skipped with the warning the page quotes',
    async () => {
      @Injectable({scope: Scope.REQUEST})
      class TasksService {
        @Cron('45 * * * * *')
        handleCron() {}
      }
      const log = memoryLogger();
      const app = await boot([TasksService], {logger: log.logger});
      expect(log.lines).toContainEqual({
        level: 'warn',
        message:
          'Cannot register cron job "TasksService@handleCron" because it is defined in a non static provider.',
        context: 'Scheduler',
      });
      expect(app.get(SchedulerRegistry).getCronJobs().size).toBe(0);
    },
  );
});

describe('#declarative-cron-jobs', () => {
  claim(
    `${page}#declarative-cron-jobs`,
    'cron 1.x counts months from 0: "0 0 1 1 *" (CronExpression.EVERY_YEAR) fires on 1 February, "0 0 1 jan *" on 1 January',
    () => {
      expect(CronExpression.EVERY_YEAR).toBe('0 0 1 1 *');
      const from = new Date(2022, 5, 15, 12, 0, 0);
      expect(nextAfter(CronExpression.EVERY_YEAR, from)).toEqual(new Date(2023, 1, 1, 0, 0, 0));
      expect(nextAfter('0 0 1 jan *', from)).toEqual(new Date(2023, 0, 1, 0, 0, 0));
      expect(nextAfter('0 0 1 11 *', from)).toEqual(new Date(2022, 11, 1, 0, 0, 0));
    },
  );

  claim(
    `${page}#declarative-cron-jobs`,
    'the pattern table: each pattern runs when the page says',
    () => {
      // Wednesday 15 June 2022, 12:00:07 local time.
      const from = new Date(2022, 5, 15, 12, 0, 7);
      expect(nextAfter('* * * * * *', from)).toEqual(new Date(2022, 5, 15, 12, 0, 8));
      expect(nextAfter('*/15 * * * * *', from)).toEqual(new Date(2022, 5, 15, 12, 0, 15));
      expect(nextAfter('0 * * * * *', from)).toEqual(new Date(2022, 5, 15, 12, 1, 0));
      expect(nextAfter('0 0 * * * *', from)).toEqual(new Date(2022, 5, 15, 13, 0, 0));
      expect(nextAfter('0 */20 8-18 * * *', new Date(2022, 5, 15, 18, 30, 0))).toEqual(
        new Date(2022, 5, 15, 18, 40, 0),
      );
      expect(nextAfter('0 */20 8-18 * * *', new Date(2022, 5, 15, 18, 40, 0))).toEqual(
        new Date(2022, 5, 16, 8, 0, 0),
      );
      expect(nextAfter('0 0 2 * * 1-5', new Date(2022, 5, 17, 12, 0, 0))).toEqual(
        new Date(2022, 5, 20, 2, 0, 0),
      );
      expect(nextAfter('0 30 7 1 * *', from)).toEqual(new Date(2022, 6, 1, 7, 30, 0));
      // A five-field pattern starts with the minute; ranges with steps, lists and names work.
      expect(nextAfter('5 * * * *', from)).toEqual(new Date(2022, 5, 15, 12, 5, 0));
      expect(nextAfter('0 0-30/5 * * * *', new Date(2022, 5, 15, 12, 31, 0))).toEqual(
        new Date(2022, 5, 15, 13, 0, 0),
      );
      expect(nextAfter('0 0 9 * * mon', from)).toEqual(new Date(2022, 5, 20, 9, 0, 0));
    },
  );

  claim(
    `${page}#declarative-cron-jobs`,
    '@Cron(new Date(...)) runs the method exactly once, at that moment',
    async () => {
      const runs: number[] = [];
      const at = Date.now() + 400;
      @Injectable()
      class OneShot {
        @Cron(new Date(at))
        once() {
          runs.push(Date.now());
        }
      }
      await boot([OneShot]);
      await until(() => runs.length === 1);
      await new Promise((r) => setTimeout(r, 300));
      expect(runs).toHaveLength(1);
      expect(runs[0]).toBeGreaterThanOrEqual(at - 5);
    },
  );

  claim(
    `${page}#predefined-expressions`,
    'CronExpression members are pattern strings (EVERY_WEEKDAY is "0 0 * * 1-5"); the ReportsService job runs at midnight',
    async () => {
      expect(CronExpression.EVERY_WEEKDAY).toBe('0 0 * * 1-5');
      const {ReportsService} = samples(page).require('reports.service');
      const app = await boot([ReportsService]);
      const [job] = [...app.get(SchedulerRegistry).getCronJobs().values()];
      const next = job.nextDates().toDate();
      expect([next.getHours(), next.getMinutes(), next.getSeconds()]).toEqual([0, 0, 0]);
    },
  );
});

describe('#cron-options', () => {
  claim(
    `${page}#cron-options`,
    "name and timeZone: 'morning-digest' is in the registry and runs at 9:00 Paris time on working days",
    async () => {
      const Digest = fragmentClass('cron-options', "name: 'morning-digest'", 'DigestService');
      const app = await boot([Digest]);
      const job = app.get(SchedulerRegistry).getCronJob('morning-digest');
      const next: Date = job.nextDates().toDate();
      const paris = new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Europe/Paris',
        hour: '2-digit',
        minute: '2-digit',
        weekday: 'short',
        hour12: false,
      }).format(next);
      expect(paris).toMatch(/^(Mon|Tue|Wed|Thu|Fri) 09:00$/);
    },
  );

  claim(
    `${page}#cron-options`,
    'an invalid time zone throws an error (the application fails to start)',
    async () => {
      @Injectable()
      class BadZone {
        @Cron('0 0 9 * * *', {timeZone: 'Europe/Atlantis'})
        never() {}
      }
      @Module({imports: [ScheduleModule.forRoot()], providers: [BadZone]})
      class AppModule {}
      const app = await NestFactory.create(AppModule, {logger: false});
      toClose.push(app);
      await expect(app.init()).rejects.toThrow('Invalid timezone.');
      toClose = [];
    },
  );

  claim(
    `${page}#cron-options`,
    'an error thrown (or a rejected promise) in a decorated method is logged by the module, and the next run happens',
    async () => {
      let runs = 0;
      let asyncRuns = 0;
      @Injectable()
      class Failing {
        @Interval(40)
        fails() {
          runs += 1;
          throw new Error(`run ${runs} failed`);
        }
        @Interval(40)
        async rejects() {
          asyncRuns += 1;
          throw new Error('async run failed');
        }
      }
      const log = memoryLogger();
      await boot([Failing], {logger: log.logger});
      await until(() => runs >= 2 && asyncRuns >= 2);
      const errors = log.lines
        .filter((line) => line.level === 'error' && line.context === 'Scheduler')
        .map((line) => line.message);
      expect(errors).toContain('run 1 failed');
      expect(errors).toContain('async run failed');
    },
  );
});

describe('#declarative-intervals and #declarative-timeouts', () => {
  claim(
    `${page}#declarative-intervals`,
    '@Interval() repeats from bootstrap; a named one is in the registry under its name',
    async () => {
      let runs = 0;
      @Injectable()
      class Fast {
        @Interval(30)
        tick() {
          runs += 1;
        }
      }
      const Named = fragmentClass(
        'declarative-intervals',
        "@Interval('exchange-rates', 10000)",
        'RatesService',
      );
      const app = await NestFactory.create(
        (() => {
          @Module({imports: [ScheduleModule.forRoot()], providers: [Fast, Named]})
          class M {}
          return M;
        })(),
        {logger: false},
      );
      toClose.push(app);
      await new Promise((r) => setTimeout(r, 100));
      expect(runs).toBe(0);
      await app.init();
      await until(() => runs >= 3);
      const names = app.get(SchedulerRegistry).getIntervals();
      expect(names).toContain('exchange-rates');
      expect(names).toHaveLength(2);
    },
  );

  claim(
    `${page}#declarative-timeouts`,
    '@Timeout() runs once after the delay; a named one is in the registry and can be cancelled',
    async () => {
      let runs = 0;
      @Injectable()
      class Once {
        @Timeout(30)
        warm() {
          runs += 1;
        }
      }
      const Named = fragmentClass(
        'declarative-timeouts',
        "@Timeout('cache-warm-up', 5000)",
        'CacheService',
      );
      const app = await boot([Once, Named]);
      await until(() => runs === 1);
      await new Promise((r) => setTimeout(r, 100));
      expect(runs).toBe(1);
      const registry = app.get(SchedulerRegistry);
      expect(registry.getTimeouts()).toContain('cache-warm-up');
      clearTimeout(registry.getTimeout('cache-warm-up'));
    },
  );
});

describe('#dynamic-schedule-module-api', () => {
  claim(
    `${page}#dynamic-schedule-module-api`,
    'lookups throw the message the page quotes; doesExist() (and the deprecated doesExists()) test first; names are per collection',
    async () => {
      const app = await boot([]);
      const registry = app.get(SchedulerRegistry);
      expect(() => registry.getCronJob('morning-digest')).toThrow(
        'No Cron Job was found with the given name (morning-digest). Check that you created one with a decorator or with the create API.',
      );
      expect(() => registry.getInterval('x')).toThrow(
        'No Interval was found with the given name (x).',
      );
      expect(() => registry.getTimeout('x')).toThrow(
        'No Timeout was found with the given name (x).',
      );
      expect(registry.doesExist('cron', 'shared')).toBe(false);
      registry.addCronJob('shared', new CronJob('0 0 * * * *', () => undefined));
      const interval = setInterval(() => undefined, 100000);
      registry.addInterval('shared', interval);
      expect(registry.doesExist('cron', 'shared')).toBe(true);
      expect(registry.doesExists('interval', 'shared')).toBe(true);
      expect(registry.doesExist('timeout', 'shared')).toBe(false);
      registry.deleteInterval('shared');
    },
  );

  for (const lang of ['ts', 'js'] as const) {
    claim(
      `${page}#dynamic-cron-jobs`,
      `the page's JobsService.addCronJob() registers and starts a job, and logs it (${lang})`,
      async () => {
        const {JobsService} = samples(page, {under: 'dynamic-cron-jobs', lang}).require(
          'jobs.service',
        );
        const log = memoryLogger();
        const app = await boot([JobsService], {logger: log.logger});
        app.get(JobsService).addCronJob('nightly', '5');
        const job = app.get(SchedulerRegistry).getCronJob('nightly');
        expect(job.running).toBe(true);
        expect(job.nextDates().toDate().getSeconds()).toBe(5);
        expect(log.lines).toContainEqual({
          level: 'log',
          message: 'Job nightly added, runs each minute at second 5',
          context: 'JobsService',
        });
        expect(() => app.get(JobsService).addCronJob('nightly', '6')).toThrow(
          'Cron Job with the given name (nightly) already exists. Ignored.',
        );
      },
    );
  }

  claim(
    `${page}#dynamic-cron-jobs`,
    'addCronJob() alone does not start a job; a job fires and lastDate() reports it; stop() halts it',
    async () => {
      const app = await boot([]);
      const registry = app.get(SchedulerRegistry);
      let fired = 0;
      const job = new CronJob('* * * * * *', () => void (fired += 1));
      registry.addCronJob('every-second', job);
      expect(job.running).toBeFalsy();
      job.start();
      await until(() => fired >= 1, 2500);
      expect(job.lastDate()).toBeInstanceOf(Date);
      job.stop();
      expect(job.running).toBe(false);
    },
  );

  claim(
    `${page}#dynamic-cron-jobs`,
    'setTime() applies the new schedule and leaves the job stopped; nextDates() returns moment objects (an array with a count)',
    async () => {
      const app = await boot([]);
      const registry = app.get(SchedulerRegistry);
      const job = new CronJob('0 0 9 * * *', () => undefined);
      registry.addCronJob('morning-digest', job);
      job.start();
      job.setTime(new CronTime('30 15 10 * * *'));
      expect(job.running).toBe(false);
      const next = job.nextDates();
      expect(typeof next.toDate).toBe('function');
      expect([
        next.toDate().getHours(),
        next.toDate().getMinutes(),
        next.toDate().getSeconds(),
      ]).toEqual([10, 15, 30]);
      const three = job.nextDates(3);
      expect(three).toHaveLength(3);
      job.start();
      expect(job.running).toBe(true);
    },
  );

  claim(
    `${page}#dynamic-cron-jobs`,
    'deleteCronJob() stops and removes; getCronJobs() is a Map that also holds unnamed @Cron() jobs under a generated name',
    async () => {
      @Injectable()
      class Unnamed {
        @Cron('0 0 * * * *')
        hourly() {}
      }
      const app = await boot([Unnamed]);
      const registry = app.get(SchedulerRegistry);
      const jobs = registry.getCronJobs();
      expect(jobs).toBeInstanceOf(Map);
      const [[name, declared]] = [...jobs.entries()];
      expect(name).toMatch(/^[0-9a-f-]{36}$/);
      registry.deleteCronJob(name);
      expect(declared.running).toBe(false);
      expect(registry.doesExist('cron', name)).toBe(false);
    },
  );

  claim(
    `${page}#dynamic-intervals`,
    'clearInterval() on getInterval() stops the timer but keeps the name; deleteInterval() clears and forgets; getIntervals() lists names',
    async () => {
      const app = await boot([]);
      const registry = app.get(SchedulerRegistry);
      let ticks = 0;
      registry.addInterval(
        'exchange-rates',
        setInterval(() => void (ticks += 1), 20),
      );
      await until(() => ticks >= 1);
      clearInterval(registry.getInterval('exchange-rates'));
      const stoppedAt = ticks;
      await new Promise((r) => setTimeout(r, 80));
      expect(ticks).toBe(stoppedAt);
      expect(registry.getIntervals()).toEqual(['exchange-rates']);
      registry.addInterval(
        'other',
        setInterval(() => void (ticks += 1), 20),
      );
      registry.deleteInterval('other');
      const afterDelete = ticks;
      await new Promise((r) => setTimeout(r, 80));
      expect(ticks).toBe(afterDelete);
      expect(registry.getIntervals()).toEqual(['exchange-rates']);
    },
  );

  claim(
    `${page}#dynamic-timeouts`,
    'deleteTimeout() cancels the timer and forgets the name; getTimeouts() lists names',
    async () => {
      const app = await boot([]);
      const registry = app.get(SchedulerRegistry);
      let fired = false;
      registry.addTimeout(
        'warm',
        setTimeout(() => void (fired = true), 60),
      );
      registry.addTimeout(
        'keep',
        setTimeout(() => undefined, 60),
      );
      expect(registry.getTimeouts()).toEqual(['warm', 'keep']);
      registry.deleteTimeout('warm');
      await new Promise((r) => setTimeout(r, 120));
      expect(fired).toBe(false);
      expect(registry.getTimeouts()).toEqual(['keep']);
    },
  );
});

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#controlling-jobs-over-http`,
    `POST /jobs/:name/stop and /start control a job (${lang})`,
    async () => {
      const {JobsController} = samples(page, {lang}).require('jobs.controller');
      const Digest = fragmentClass('cron-options', "name: 'morning-digest'", 'DigestService');
      const app = await boot([Digest], {controllers: [JobsController]});
      const base = await listen(app);
      const job = app.get(SchedulerRegistry).getCronJob('morning-digest');
      const stop = await fetch(`${base}/jobs/morning-digest/stop`, {method: 'POST'});
      expect(stop.status).toBe(201);
      expect(await stop.json()).toEqual({name: 'morning-digest', running: false});
      expect(job.running).toBe(false);
      const start = await fetch(`${base}/jobs/morning-digest/start`, {method: 'POST'});
      expect(await start.json()).toEqual({name: 'morning-digest', running: true});
      expect(job.running).toBe(true);
    },
  );
}

void Logger;

claim(
  `${page}#cron-options`,
  "utcOffset as '+02:00' or as 120 minutes: a 9:00 pattern runs at 7:00 UTC; unrefTimeout is accepted",
  async () => {
    @Injectable()
    class Offsets {
      @Cron('0 0 9 * * *', {name: 'text-offset', utcOffset: '+02:00'})
      text() {}
      @Cron('0 0 9 * * *', {name: 'minutes-offset', utcOffset: 120, unrefTimeout: true})
      minutes() {}
    }
    const app = await boot([Offsets]);
    const registry = app.get(SchedulerRegistry);
    for (const name of ['text-offset', 'minutes-offset']) {
      const next: Date = registry.getCronJob(name).nextDates().toDate();
      expect([next.getUTCHours(), next.getUTCMinutes()]).toEqual([7, 0]);
    }
    expect(registry.getCronJob('minutes-offset').unrefTimeout).toBe(true);
  },
);

@Injectable()
class DigestJobs {
  @Cron('0 0 9 * * *', {name: 'morning-digest'})
  digest() {
    return undefined;
  }
}

for (const lang of ['ts', 'js'] as const) {
  claim.abuse(
    `${page}#controlling-jobs-over-http`,
    `an unknown or hostile job name (nope, __proto__) gets 404 "No cron job named ..." instead of a 500 (${lang})`,
    async () => {
      const {JobsController} = samples(page, {under: 'controlling-jobs-over-http', lang}).require(
        'jobs.controller',
      );
      const app = await boot([DigestJobs], {controllers: [JobsController]});
      const base = await listen(app);
      const post = async (path: string) => {
        const response = await fetch(`${base}${path}`, {method: 'POST'});
        return {status: response.status, body: await response.json()};
      };
      expect(await post('/jobs/nope/stop')).toEqual({
        status: 404,
        body: {statusCode: 404, message: 'No cron job named nope', error: 'Not Found'},
      });
      expect((await post('/jobs/__proto__/start')).status).toBe(404);
      expect((await post('/jobs/constructor/stop')).status).toBe(404);
      expect(app.get(SchedulerRegistry).getCronJob('morning-digest').running).toBe(true);
    },
  );
}

claim.abuse(
  `${page}#controlling-jobs-over-http`,
  'without a guard, an anonymous request with no credentials at all stops a running job',
  async () => {
    const {JobsController} = samples(page, {under: 'controlling-jobs-over-http'}).require(
      'jobs.controller',
    );
    const app = await boot([DigestJobs], {controllers: [JobsController]});
    const base = await listen(app);
    const response = await fetch(`${base}/jobs/morning-digest/stop`, {method: 'POST'});
    expect(response.status).toBe(201);
    expect(app.get(SchedulerRegistry).getCronJob('morning-digest').running).toBe(false);
  },
);

claim.failure(
  `${page}#cron-options`,
  "an async job slower than its schedule overlaps with itself (three runs at once); the page's flag skips the runs while one is busy",
  async () => {
    const method = fragment(page, 'cron-options', 'private syncRunning = false;').value;
    const make = (body: string) =>
      compileModule<any>(
        `import { Injectable, Logger } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
export const stats = { running: 0, most: 0, runs: 0, skipped: 0 };
@Injectable()
export class TasksService {
  readonly logger = { warn: () => (stats.skipped += 1) };
  // The reader's own slow service: each sync takes 2.5 s.
  readonly inventoryService = {
    sync: async () => {
      stats.runs += 1;
      stats.running += 1;
      stats.most = Math.max(stats.most, stats.running);
      await new Promise((r) => setTimeout(r, 2500));
      stats.running -= 1;
    },
  };
${body}
}`,
        `overlap-${Math.random().toString(36).slice(2)}`,
      );
    // Every second instead of every minute, to see it in a few seconds.
    const guarded = make(method.replace('CronExpression.EVERY_MINUTE', "'* * * * * *'"));
    const plain = make(`
  @Cron('* * * * * *')
  async syncInventory() {
    await this.inventoryService.sync();
  }`);
    await boot([guarded.TasksService, plain.TasksService]);
    await until(() => plain.stats.most >= 3, 6000);
    expect(guarded.stats.most).toBe(1);
    expect(guarded.stats.skipped).toBeGreaterThanOrEqual(1);
  },
  15_000,
);

describe('what ends the process', () => {
  const children: ChildApp[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) await child.stop('SIGKILL');
  });
  const script = (provider: string) => `
const { Injectable, Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { Cron, ScheduleModule, SchedulerRegistry } = require('@nestjs/schedule');
const { CronJob } = require('cron');
process.on('exit', (code) => console.log('EXIT ' + code));
${provider}
class AppModule {}
Module({ imports: [ScheduleModule.forRoot()], providers: [Tasks] })(AppModule);
NestFactory.createApplicationContext(AppModule, { logger: ['error', 'warn'] }).then((app) => {
  app.enableShutdownHooks();
  console.log('READY');
});
`;

  claim.failure(
    `${page}#cron-options`,
    'a callback passed to a CronJob of your own that throws ends the process (exit code 1), unlike a decorated method',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'behaviour-schedule-'));
      try {
        const child = startChild(
          dir,
          'main.js',
          script(`
class Tasks {
  constructor(registry) { this.registry = registry; }
  onApplicationBootstrap() {
    const job = new CronJob('* * * * * *', () => { throw new Error('report generation failed'); });
    this.registry.addCronJob('report', job);
    job.start();
  }
}
Injectable()(Tasks);
Reflect.defineMetadata('design:paramtypes', [SchedulerRegistry], Tasks);
`),
        );
        children.push(child);
        expect(await child.exited(5000)).toEqual({code: 1, signal: null});
        expect(child.output()).toContain('Error: report generation failed');
      } finally {
        rmSync(dir, {recursive: true, force: true});
      }
    },
  );

  claim.failure(
    `${page}#installation`,
    'SIGTERM during a run: the process ends at once (shutdown hooks on), and the run never finishes',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'behaviour-schedule-'));
      try {
        const child = startChild(
          dir,
          'main.js',
          script(`
class Tasks {
  async nightly() {
    console.log('RUN STARTED');
    await new Promise((r) => setTimeout(r, 3000));
    console.log('RUN FINISHED');
  }
}
Injectable()(Tasks);
Cron('* * * * * *')(Tasks.prototype, 'nightly', Object.getOwnPropertyDescriptor(Tasks.prototype, 'nightly'));
`),
        );
        children.push(child);
        await child.waitFor(/RUN STARTED/, 5000);
        child.process.kill('SIGTERM');
        expect(await child.exited(5000)).toEqual({code: null, signal: 'SIGTERM'});
        expect(child.output()).not.toContain('RUN FINISHED');
      } finally {
        rmSync(dir, {recursive: true, force: true});
      }
    },
  );
});

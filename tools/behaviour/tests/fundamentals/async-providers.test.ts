import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, expect} from 'vitest';
import {
  claim,
  fragment,
  compileModule,
  memoryLogger,
  nest,
  service,
  applyEdits,
  type Service,
} from '../../lib';
import {closedPort, compileInto, plain, runScript, silentServer} from './_support';

const {Module, Injectable, Inject} = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const page = 'docs/fundamentals/async-providers.md';

/** The page's DatabaseModule, as the reader copies it. */
const databaseModule = () => fragment(page, 'asynchronous-providers', 'ASYNC_CONNECTION').value;

let postgres: Service;
let dir: string;
beforeAll(async () => {
  postgres = await service('postgres');
  dir = mkdtempSync(join(tmpdir(), 'behaviour-async-'));
  compileInto(dir, 'database.module', databaseModule());
});
afterAll(async () => {
  await postgres?.stop();
  if (dir) rmSync(dir, {recursive: true, force: true});
});

/** A main.ts around the page's module: creates the app, prints what happened. */
function main(options = ''): string {
  return `
const { Inject, Injectable, Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { DatabaseModule } = require('./database.module');
class CatsRepository { constructor(connection) { this.connection = connection; } }
Injectable()(CatsRepository);
Inject('ASYNC_CONNECTION')(CatsRepository, undefined, 0);
class AppModule {}
Module({ imports: [DatabaseModule], providers: [CatsRepository] })(AppModule);
setTimeout(() => { console.log('still pending'); process.exit(3); }, Number(process.env.WAIT || 60000)).unref();
NestFactory.create(AppModule${options}).then(
  async (app) => { console.log('created'); await app.get(CatsRepository).connection.close(); await app.close(); },
  (error) => { console.log('rejected: ' + error.message); },
);
`;
}

const env = (url?: string) => {
  const out = {...process.env};
  delete out.DATABASE_URL;
  return url === undefined ? out : {...out, DATABASE_URL: url};
};

claim(
  `${page}#injection`,
  "the consumer of ASYNC_CONNECTION receives the page's open PostgreSQL connection (typeorm + pg, as the page installs them), not a promise",
  async () => {
    const install = fragment(page, 'asynchronous-providers', 'npm i').value;
    expect(install).toContain('typeorm@^0.2');
    expect(install).toContain('pg@^8');
    const previous = process.env.DATABASE_URL;
    process.env.DATABASE_URL = postgres.url;
    try {
      const {DatabaseModule} = compileModule(databaseModule(), 'async-database.module');
      let seen: any;
      @Injectable()
      class CatsRepository {
        constructor(@Inject('ASYNC_CONNECTION') connection: any) {
          seen = connection;
        }
      }
      @Module({imports: [DatabaseModule], providers: [CatsRepository]})
      class AppModule {}
      const logs = memoryLogger();
      const app = await NestFactory.create(AppModule, {logger: logs.logger, abortOnError: false});
      expect(logs.text()).toContain('DatabaseModule dependencies initialized');
      expect(typeof seen.then).toBe('undefined');
      expect(seen.isConnected).toBe(true);
      expect(seen.options.type).toBe('postgres');
      expect(await seen.query('select 1 + 1 as two')).toEqual([{two: 2}]);
      await seen.close();
      await app.close();
    } finally {
      if (previous === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = previous;
    }
  },
);

claim(
  `${page}#asynchronous-providers`,
  "consumers are created only after the factory's promise settles",
  async () => {
    const order: string[] = [];
    @Injectable()
    class Consumer {
      constructor(@Inject('SLOW') readonly value: string) {
        order.push(`consumer got ${value}`);
      }
    }
    @Module({
      providers: [
        {
          provide: 'SLOW',
          useFactory: async () => {
            await new Promise((r) => setTimeout(r, 100));
            order.push('factory done');
            return 'ready';
          },
        },
        Consumer,
      ],
    })
    class AppModule {}
    const app = await NestFactory.create(AppModule, {logger: false, abortOnError: false});
    expect(order).toEqual(['factory done', 'consumer got ready']);
    await app.close();
  },
);

claim.failure(
  `${page}#when-the-factory-fails`,
  'the database down at start: NestFactory.create() logs "ERROR [ExceptionHandler] connect ECONNREFUSED ..." and ends the process with exit code 1; the code after it never runs',
  async () => {
    const url = `postgres://postgres@127.0.0.1:${await closedPort()}/postgres`;
    const result = await runScript(dir, 'down-default.js', main(), undefined, 20_000, env(url));
    expect(result.code).toBe(1);
    expect(result.stdout).not.toMatch(/created|rejected/);
    expect(plain(result.stdout + result.stderr)).toMatch(
      /ERROR \[ExceptionHandler\] connect ECONNREFUSED 127\.0\.0\.1:\d+/,
    );
  },
);

/**
 * Creates an app around the page's module in this process, with { abortOnError: false }. The factory reads
 * DATABASE_URL when Nest calls it, later than create() is called: `run` restores the variable afterwards.
 */
async function withUrl<T>(
  url: string | undefined,
  run: (create: (logger?: unknown) => Promise<unknown>) => Promise<T>,
  source = databaseModule(),
): Promise<T> {
  const previous = process.env.DATABASE_URL;
  if (url === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = url;
  try {
    const {DatabaseModule} = compileModule(source, 'async-database.module');
    @Module({imports: [DatabaseModule]})
    class AppModule {}
    return await run((logger = false) =>
      NestFactory.create(AppModule, {logger, abortOnError: false}),
    );
  } finally {
    if (previous === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = previous;
  }
}

const settle = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e: Error) => e,
  );

claim.failure(
  `${page}#when-the-factory-fails`,
  "the database down at start, with { abortOnError: false }: NestFactory.create() rejects with the driver's error, which the caller can catch",
  async () => {
    const url = `postgres://postgres@127.0.0.1:${await closedPort()}/postgres`;
    const error = await withUrl(url, (create) => settle(create()));
    expect(error?.message).toMatch(/^connect ECONNREFUSED 127\.0\.0\.1:\d+$/);
  },
);

claim.failure(
  `${page}#asynchronous-providers`,
  'DATABASE_URL missing: the factory stops the start with "DATABASE_URL is not set"; without the check the driver would try its default host, localhost',
  async () => {
    const error = await withUrl(undefined, (create) => settle(create()));
    expect(error?.message).toBe('DATABASE_URL is not set');
    // Without the check, the driver takes its defaults: an undefined URL goes to localhost.
    const {createConnection} = nest('typeorm');
    const fallback = await createConnection({
      name: 'no-url',
      type: 'postgres',
      url: undefined,
      port: await closedPort(),
    }).then(
      () => null,
      (e: Error) => e,
    );
    expect(fallback?.message).toMatch(/^connect ECONNREFUSED 127\.0\.0\.1:\d+$/);
  },
);

/** The page's module without its connectTimeoutMS (as a reader who leaves it out writes it). */
const withoutTimeout = () =>
  applyEdits('database.module', databaseModule(), [
    [/\n\s*\/\/ Give up on a host[^\n]*\n\s*connectTimeoutMS: 5000,/, ''],
  ]);

claim.failure(
  `${page}#when-the-factory-fails`,
  'a database host that accepts the connection and never answers: the page\'s factory (connectTimeoutMS, here 1000 instead of 5000) makes NestFactory.create() reject with "Connection terminated due to connection timeout"',
  async () => {
    const silent = await silentServer();
    try {
      const url = `postgres://postgres@127.0.0.1:${silent.port}/postgres`;
      const started = Date.now();
      const source = applyEdits('database.module', databaseModule(), [
        ['connectTimeoutMS: 5000', 'connectTimeoutMS: 1000'],
      ]);
      const outcome = await withUrl(
        url,
        (create) =>
          Promise.race([
            settle(create()),
            new Promise((r) => setTimeout(() => r('still pending after 4 s'), 4000)),
          ]),
        source,
      );
      expect((outcome as Error)?.message).toBe('Connection terminated due to connection timeout');
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await silent.close();
    }
  },
);

claim.failure(
  `${page}#when-the-factory-fails`,
  'the same host without connectTimeoutMS: NestFactory.create() neither resolves nor rejects, and no error is logged, only no "DatabaseModule dependencies initialized" line',
  async () => {
    const silent = await silentServer();
    const logs = memoryLogger();
    try {
      const url = `postgres://postgres@127.0.0.1:${silent.port}/postgres`;
      const outcome = await withUrl(
        url,
        (create) =>
          Promise.race([
            create(logs.logger).then(
              () => 'resolved',
              () => 'rejected',
            ),
            new Promise((r) => setTimeout(() => r('still pending after 2 s'), 2000)),
          ]),
        withoutTimeout(),
      );
      expect(outcome).toBe('still pending after 2 s');
      expect(logs.lines.filter((line) => line.level === 'error')).toEqual([]);
      expect(logs.text()).toContain('log [NestFactory] Starting Nest application...');
      expect(logs.text()).not.toContain('DatabaseModule dependencies initialized');
    } finally {
      await silent.close();
    }
  },
);

claim.failure(
  `${page}#when-the-factory-fails`,
  'a factory whose promise never settles, with nothing else open: the process ends silently with exit code 0',
  async () => {
    const result = await runScript(
      dir,
      'never.js',
      `
const { Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
class AppModule {}
Module({ providers: [{ provide: 'ASYNC_CONNECTION', useFactory: () => new Promise(() => {}) }] })(AppModule);
NestFactory.create(AppModule).then(() => console.log('created'), () => console.log('rejected'));
process.on('exit', (code) => console.log('exit ' + code));
`,
    );
    expect(result.code).toBe(0);
    expect(plain(result.stdout)).toMatch(/Starting Nest application\.\.\.\nexit 0\n$/);
  },
);

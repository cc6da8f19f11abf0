import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {expect} from 'vitest';
import {claim, fragment, compileModule, nest, applyEdits} from '../../lib';
import {runScript} from './_support';

const {Module, Injectable, Inject} = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const page = 'docs/fundamentals/async-providers.md';

claim(
  `${page}#injection`,
  'the consumer of ASYNC_CONNECTION receives the open TypeORM connection, not a promise, once the async factory has finished',
  async () => {
    // sql.js stands in for the sqlite driver (no native build here); the factory is the page's.
    const source = applyEdits(
      `${page}`,
      fragment(page, 'asynchronous-providers', 'ASYNC_CONNECTION').value,
      [
        ["type: 'sqlite',", "type: 'sqljs',"],
        ["database: 'cats.sqlite',", ''],
      ],
    );
    const {DatabaseModule} = compileModule(source, 'async-database.module');
    let seen: any;
    @Injectable()
    class CatsRepository {
      constructor(@Inject('ASYNC_CONNECTION') connection: any) {
        seen = connection;
      }
    }
    @Module({imports: [DatabaseModule], providers: [CatsRepository]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, {logger: false, abortOnError: false});
    expect(typeof seen.then).toBe('undefined');
    expect(seen.isConnected).toBe(true);
    expect(seen.options.type).toBe('sqljs');
    await seen.close();
    await app.close();
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

claim(
  `${page}#asynchronous-providers`,
  'a rejected factory makes NestFactory.create() log the error and exit with code 1; with { abortOnError: false } the call rejects with it',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'behaviour-async-'));
    try {
      const script = (options: string) => `
const { Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
class AppModule {}
Module({ providers: [{ provide: 'ASYNC_CONNECTION', useFactory: async () => { throw new Error('connect ECONNREFUSED 127.0.0.1:5432'); } }] })(AppModule);
NestFactory.create(AppModule${options}).then(
  () => console.log('created'),
  (error) => { console.log('rejected: ' + error.message); process.exit(0); },
);
`;
      const byDefault = await runScript(dir, 'default.js', script(''));
      expect(byDefault.code).toBe(1);
      expect(byDefault.stdout).not.toContain('created');
      expect(byDefault.stdout).not.toContain('rejected');
      // eslint-disable-next-line no-control-regex -- strips ANSI colour codes from Nest's logger output
      expect((byDefault.stdout + byDefault.stderr).replace(/\x1b\[[0-9;]*m/g, '')).toMatch(
        /ERROR \[ExceptionHandler\] connect ECONNREFUSED 127\.0\.0\.1:5432/,
      );
      const handled = await runScript(
        dir,
        'handled.js',
        script(', { abortOnError: false, logger: false }'),
      );
      expect(handled.code).toBe(0);
      expect(handled.stdout.trim()).toBe('rejected: connect ECONNREFUSED 127.0.0.1:5432');
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  },
);

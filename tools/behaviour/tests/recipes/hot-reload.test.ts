import {afterAll, beforeAll, expect} from 'vitest';
import {claim, samples, service, nest, memoryLogger, type Service} from '../../lib';

const page = 'docs/recipes/hot-reload.md';
const {NestFactory} = nest('@nestjs/core');
const {Module} = nest('@nestjs/common');
const {TypeOrmModule} = nest('@nestjs/typeorm');
const typeorm = nest('typeorm');

let pg: Service;
beforeAll(async () => {
  pg = await service('postgres');
}, 60_000);
afterAll(async () => {
  const manager = typeorm.getConnectionManager();
  if (manager.has('default') && manager.get('default').isConnected)
    await manager.get('default').close();
  await pg?.stop();
});

/** What HMR does: dispose the old application with app.close() (not awaited) and start the new bundle's at once. */
async function reload(extra: Record<string, unknown>) {
  const options = {
    type: 'postgres',
    host: '127.0.0.1',
    port: pg.port,
    username: 'postgres',
    database: 'postgres',
    retryDelay: 200,
    ...extra,
  };
  @Module({imports: [TypeOrmModule.forRoot(options)]})
  class OldBundle {}
  @Module({imports: [TypeOrmModule.forRoot(options)]})
  class NewBundle {}
  const old = await NestFactory.create(OldBundle, {logger: false});
  const oldConnection = old.get(typeorm.Connection);
  const closing = old.close();
  const log = memoryLogger();
  const fresh = await NestFactory.create(NewBundle, {logger: log.logger});
  await closing;
  const connection = fresh.get(typeorm.Connection);
  return {log, fresh, connection, oldConnection};
}

claim(
  `${page}#known-limitations`,
  'without keepConnectionAlive, the new forRoot() meets the still-open connection: AlreadyHasActiveConnectionError, a retry log line and a retryDelay wait',
  async () => {
    const {log, fresh, connection, oldConnection} = await reload({});
    try {
      const retries = log.lines.filter((line) =>
        line.message.startsWith('Unable to connect to the database. Retrying (1)...'),
      );
      expect(retries.length).toBe(1);
      expect(connection).not.toBe(oldConnection);
      expect(connection.isConnected).toBe(true);
    } finally {
      await fresh.close();
    }
  },
  30_000,
);

claim(
  `${page}#known-limitations`,
  'with keepConnectionAlive: true, the old application leaves its connection open and the new forRoot() reuses it without a retry',
  async () => {
    const {log, fresh, connection, oldConnection} = await reload({keepConnectionAlive: true});
    try {
      expect(log.lines.filter((line) => line.message.startsWith('Unable to connect'))).toEqual([]);
      expect(connection).toBe(oldConnection);
      expect(connection.isConnected).toBe(true);
    } finally {
      await fresh.close();
      await connection.close();
    }
  },
  30_000,
);

claim(
  `${page}#known-limitations`,
  'an explicit entities list works: the connection knows the Cat entity',
  async () => {
    const set = samples(page, {
      files: {
        'cat.entity':
          "import { Entity, PrimaryGeneratedColumn, Column } from 'typeorm';\n@Entity() export class Cat { @PrimaryGeneratedColumn() id: number; @Column() name: string; }",
        'cats.module':
          "import { Module } from '@nestjs/common';\n@Module({}) export class CatsModule {}",
      },
      edit: {
        'app.module': [
          ["host: 'localhost'", "host: '127.0.0.1'"],
          ['port: 5432', `port: ${pg.port}`],
          ["database: 'cats'", "database: 'postgres'"],
        ],
      },
    });
    const app = await NestFactory.create(set.require('app.module').AppModule, {logger: false});
    try {
      const connection = app.get(typeorm.Connection);
      expect(connection.entityMetadatas.map((m: any) => m.name)).toEqual(['Cat']);
    } finally {
      await app.close();
    }
  },
  30_000,
);

claim.failure(
  `${page}#hot-module-replacement`,
  'a shutdown hook slower than the new bootstrap: the old server still holds the port, and the new listen() fails with EADDRINUSE',
  async () => {
    const {Injectable} = nest('@nestjs/common');
    const {freePort} = await import('../../lib');
    const port = await freePort();
    @Injectable()
    class SlowToStop {
      async onModuleDestroy() {
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    @Module({providers: [SlowToStop]})
    class Bundle {}
    const old = await NestFactory.create(Bundle, {logger: false});
    await old.listen(port, '127.0.0.1');
    // What module.hot.dispose(() => app.close()) does: the close is not awaited.
    const closing = old.close();
    const fresh = await NestFactory.create(Bundle, {logger: false});
    await expect(fresh.listen(port, '127.0.0.1')).rejects.toMatchObject({code: 'EADDRINUSE'});
    await closing;
    // Once the old application has finished closing, the port is free again.
    const later = await NestFactory.create(Bundle, {logger: false});
    await later.listen(port, '127.0.0.1');
    await Promise.all([later.close(), fresh.close().catch(() => undefined)]);
  },
);

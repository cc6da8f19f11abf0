import {afterAll, afterEach, beforeAll, describe, expect} from 'vitest';
import {
  claim,
  samples,
  fragment,
  compileModule,
  nest,
  service,
  freePort,
  memoryLogger,
  readPage,
  expectOutput,
  listen,
  applyEdits,
  type Service,
} from '../../lib';
import {restartablePostgres, startChild, type ChildApp} from './_child-app';

const {Module, Injectable, Controller} = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const {TypeOrmModule, getRepositoryToken, getConnectionToken, getEntityManagerToken} =
  nest('@nestjs/typeorm');
const {
  SequelizeModule,
  getModelToken,
  getConnectionToken: getSequelizeToken,
} = nest('@nestjs/sequelize');
const {Connection, EntityManager, getConnectionManager, getConnection} = nest('typeorm');
const {Sequelize} = nest('sequelize-typescript');
const {Client} = nest('pg');
const {Test} = nest('@nestjs/testing');
const page = 'docs/techniques/database.md';

let pg: Service;
let dbCounter = 0;
beforeAll(async () => {
  pg = await service('postgres');
}, 60_000);
afterAll(async () => {
  await pg?.stop();
});

let toClose: any[] = [];
afterEach(async () => {
  for (const app of toClose) await app.close().catch(() => undefined);
  toClose = [];
  // A start that failed half-way leaves its TypeORM connection open in TypeORM's global manager.
  for (const connection of getConnectionManager().connections)
    if (connection.isConnected) await connection.close();
});

/** A fresh, empty database on the test server. */
async function freshDb(): Promise<string> {
  const name = `db${process.pid}_${++dbCounter}`;
  const client = new Client({host: pg.host, port: pg.port, user: 'postgres', database: 'postgres'});
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  return name;
}

async function query(db: string, sql: string, values: unknown[] = []): Promise<any[]> {
  const client = new Client({host: pg.host, port: pg.port, user: 'postgres', database: db});
  await client.connect();
  try {
    return (await client.query(sql, values)).rows;
  } finally {
    await client.end();
  }
}

/** The nth version (1-based) of a file as the page shows it. */
function shown(filename: string, nth = 1, lang: 'ts' | 'js' = 'ts'): string {
  const fences = readPage(page).fences.filter((f) => f.filename === filename);
  const fence = fences[nth - 1];
  const code = fence && (lang === 'ts' ? fence.ts : fence.js);
  if (!code) throw new Error(`${page} shows no ${lang} version ${nth} of ${filename}`);
  return code;
}

/** The page's MySQL settings pointed at the test PostgreSQL server (every replacement must match). */
function toPostgres(code: string, db: string, extra = ''): string {
  const edits: [RegExp, string][] = [
    [/(type|dialect): 'mysql'/g, `$1: 'postgres'`],
    [/host: 'localhost'/g, `host: '${pg.host}'`],
    [/port: 3306/g, `port: ${pg.port}`],
    [/username: 'root'/g, `username: 'postgres'`],
    [/password: 'root'/g, `password: ''`],
    [/database: 'test'/g, `database: '${db}'${extra}`],
  ];
  return edits.reduce((out, [re, to]) => {
    if (!re.test(out)) throw new Error(`the page's settings changed: ${re} finds nothing`);
    return out.replace(re, to);
  }, code);
}

/** For the JavaScript halves: the page shows entities and models in TypeScript only, so a JS set re-exports them compiled. */
function compiledTs(files: Record<string, string>, names: string[]): Record<string, string> {
  const ts = samples(page, {files});
  const out: Record<string, string> = {};
  for (const name of names)
    out[name] =
      `module.exports = require(${JSON.stringify(`${ts.dir}/${name.split('/').pop()}.js`)});`;
  return out;
}

const usersController = `import { Controller } from '@nestjs/common';
@Controller('users') export class UsersController {}`;

async function create(module: unknown, options: Record<string, unknown> = {}): Promise<any> {
  for (const connection of getConnectionManager().connections)
    if (connection.isConnected) await connection.close();
  const app = await NestFactory.create(module, {logger: false, abortOnError: false, ...options});
  toClose.push(app);
  await app.init();
  return app;
}

describe('TypeORM', () => {
  for (const lang of ['ts', 'js'] as const) {
    claim(
      `${page}#repository-pattern`,
      `the page's UsersService finds, finds one (undefined when missing) and removes users; isActive defaults to true (${lang})`,
      async () => {
        const db = await freshDb();
        const entity = shown('user.entity', 1);
        const tsFiles = {
          'app.module': toPostgres(shown('app.module', 5), db),
          'user.entity': entity,
          'users/user.entity': entity,
          'users.module': shown('users.module', 1),
          'users.controller': usersController,
        };
        const set = samples(page, {
          lang,
          files:
            lang === 'ts'
              ? {...tsFiles, 'users.service': shown('users.service', 1)}
              : {
                  ...tsFiles,
                  ...compiledTs(tsFiles, ['user.entity', 'users/user.entity']),
                  'users.service': shown('users.service', 1, 'js'),
                },
        });
        const {AppModule} = set.require('app.module');
        const {UsersModule} = set.require('users.module');
        const {UsersService} = set.require('users.service');
        const {User} = set.require('user.entity');
        @Module({imports: [AppModule, UsersModule]})
        class Root {}
        const app = await create(Root);
        const users = app.get(UsersService);
        expect(await users.findAll()).toEqual([]);
        const repository = app.get(getRepositoryToken(User));
        const saved = await repository.save(
          repository.create({firstName: 'Ada', lastName: 'Lovelace'}),
        );
        expect(saved.isActive).toBe(true);
        const found = await users.findOne(saved.id);
        expect(found).toBeInstanceOf(User);
        expect(found).toMatchObject({firstName: 'Ada', lastName: 'Lovelace', isActive: true});
        expect(await users.findOne(999)).toBeUndefined();
        await users.remove(saved.id);
        expect(await users.findAll()).toEqual([]);
      },
    );
  }

  claim(
    `${page}#repository-pattern`,
    'a repository from forFeature() is visible in its module only; re-exporting TypeOrmModule shares it',
    async () => {
      const db = await freshDb();
      const entity = shown('user.entity', 1);
      const files = {
        'app.module': toPostgres(shown('app.module', 5), db),
        'user.entity': entity,
        'users/user.entity': entity,
        'users.controller': usersController,
      };
      const exporting = samples(page, {
        files: {
          ...files,
          'users.module': shown('users.module', 2),
          'users.service': shown('users.service', 1),
        },
      });
      const {AppModule} = exporting.require('app.module');
      const {UserHttpModule} = exporting.require('users-http.module');
      const {UsersService} = exporting.require('users.service');
      @Module({imports: [AppModule, UserHttpModule]})
      class Root {}
      const app = await create(Root);
      expect(await app.get(UsersService).findAll()).toEqual([]);
      await app.close();
      toClose = [];
      // Without the export, a module that imports UsersModule cannot resolve the repository.
      const closed = samples(page, {
        files: {
          ...files,
          'users.module': shown('users.module', 1).replace(
            'controllers: [UsersController],',
            'controllers: [UsersController],\n  exports: [],',
          ),
          'users.service': shown('users.service', 1),
        },
      });
      const {AppModule: AppModule2} = closed.require('app.module');
      const {UserHttpModule: Http2} = closed.require('users-http.module');
      @Module({imports: [AppModule2, Http2]})
      class Root2 {}
      await expect(NestFactory.create(Root2, {logger: false, abortOnError: false})).rejects.toThrow(
        /UserRepository/,
      );
      // The connection of the failed start is still being opened: wait for it, then close it.
      const manager = getConnectionManager();
      for (
        let i = 0;
        i < 100 && !(manager.has('default') && manager.get('default').isConnected);
        i += 1
      )
        await new Promise((r) => setTimeout(r, 20));
      await manager
        .get('default')
        .close()
        .catch(() => undefined);
    },
  );

  claim(
    `${page}#connecting-to-the-database`,
    'Connection and EntityManager are injectable in any module without importing TypeOrmModule there',
    async () => {
      const db = await freshDb();
      const set = samples(page, {files: {'app.module': toPostgres(shown('app.module', 1), db)}});
      const {AppModule} = set.require('app.module');
      @Injectable()
      class Elsewhere {
        constructor(
          readonly connection: any,
          readonly manager: any,
        ) {}
      }
      Reflect.defineMetadata('design:paramtypes', [Connection, EntityManager], Elsewhere);
      @Module({providers: [Elsewhere]})
      class FeatureModule {}
      @Module({imports: [AppModule, FeatureModule]})
      class Root {}
      const app = await create(Root);
      const {connection, manager} = app.get(Elsewhere);
      expect(connection).toBeInstanceOf(Connection);
      expect(connection.isConnected).toBe(true);
      expect(manager).toBe(connection.manager);
      expect(await manager.query('SELECT 1 AS one')).toEqual([{one: 1}]);
    },
  );

  claim(
    `${page}#injecting-the-connection-and-entitymanager`,
    "the page's AppModule receives the Connection in its constructor (ts, js)",
    async () => {
      const db = await freshDb();
      for (const lang of ['ts', 'js'] as const) {
        const code = shown('app.module', 4, lang).replace(
          'TypeOrmModule.forRoot()',
          `TypeOrmModule.forRoot(${JSON.stringify({type: 'postgres', host: pg.host, port: pg.port, username: 'postgres', database: db})})`,
        );
        const {AppModule} = samples(page, {lang, files: {'app.module': code}}).require(
          'app.module',
        );
        const app = await create(AppModule);
        expect(app.get(AppModule).connection).toBeInstanceOf(Connection);
        await app.close();
        toClose = [];
      }
    },
  );

  describe('#connecting-to-the-database retries', () => {
    const unreachable = async (extra: Record<string, unknown>) => {
      const port = await freePort();
      const log = memoryLogger();
      @Module({
        imports: [
          TypeOrmModule.forRoot({
            type: 'postgres',
            host: '127.0.0.1',
            port,
            username: 'postgres',
            retryDelay: 5,
            ...extra,
          }),
        ],
      })
      class Root {}
      const error = await NestFactory.create(Root, {logger: log.logger, abortOnError: false}).then(
        (app: any) => {
          toClose.push(app);
          return undefined;
        },
        (e: Error) => e,
      );
      return {
        error,
        lines: log.lines
          .filter((line) => line.context === 'TypeOrmModule')
          .map((line) => line.message),
      };
    };

    claim(
      `${page}#connecting-to-the-database`,
      'an unreachable database is retried with "Unable to connect to the database. Retrying (n)..."; retryAttempts defaults to 9 in total',
      async () => {
        const {error, lines} = await unreachable({});
        expect(error?.message).toMatch(/ECONNREFUSED/);
        expect(lines).toHaveLength(9);
        expect(lines[0]).toBe('Unable to connect to the database. Retrying (1)...');
        expect(lines[8]).toBe('Unable to connect to the database. Retrying (9)...');
      },
    );

    claim(
      `${page}#connecting-to-the-database`,
      'a named connection is named in the retry line; verboseRetryLog adds the message; toRetry returning false stops at once',
      async () => {
        const named = await unreachable({
          name: 'albumsConnection',
          retryAttempts: 2,
          verboseRetryLog: true,
        });
        expect(named.lines).toHaveLength(2);
        expect(named.lines[0]).toMatch(
          /^Unable to connect to the database \(albumsConnection\)\. Message: connect ECONNREFUSED 127\.0\.0\.1:\d+\. Retrying \(1\)\.\.\.$/,
        );
        let calls = 0;
        const stopped = await unreachable({retryAttempts: 5, toRetry: () => ((calls += 1), false)});
        expect(calls).toBe(1);
        expect(stopped.lines).toEqual([]);
        expect(stopped.error?.message).toMatch(/ECONNREFUSED/);
      },
    );
  });

  claim(
    `${page}#connecting-to-the-database`,
    'keepConnectionAlive: the connection survives app.close() and a later forRoot() reuses it',
    async () => {
      const db = await freshDb();
      const options = {
        type: 'postgres',
        host: pg.host,
        port: pg.port,
        username: 'postgres',
        database: db,
        keepConnectionAlive: true,
        name: 'kept',
      };
      @Module({imports: [TypeOrmModule.forRoot(options)]})
      class First {}
      const first = await NestFactory.create(First, {logger: false, abortOnError: false});
      toClose.push(first);
      const connection = first.get(getConnectionToken('kept'));
      await first.close();
      toClose = [];
      expect(connection.isConnected).toBe(true);
      @Module({imports: [TypeOrmModule.forRoot(options)]})
      class Second {}
      const second = await NestFactory.create(Second, {logger: false, abortOnError: false});
      toClose.push(second);
      expect(second.get(getConnectionToken('kept'))).toBe(connection);
      await connection.close();
    },
  );

  describe('#relations', () => {
    const relationFiles = (db: string, userEntity = shown('users/user.entity', 1)) => ({
      'app.module': toPostgres(shown('app.module', 5), db)
        .replace('entities: [User]', 'entities: [User, Photo, Album]')
        .replace(
          "import { User } from './users/user.entity';",
          "import { User } from './users/user.entity';\nimport { Photo } from './photos/photo.entity';\nimport { Album } from './albums/album.entity';",
        ),
      'user.entity': userEntity,
      'users/user.entity': userEntity,
    });

    claim(
      `${page}#relations`,
      'the photo table gets a userId foreign key, Album a join table; relations load only when asked for',
      async () => {
        const db = await freshDb();
        const set = samples(page, {files: relationFiles(db)});
        const {AppModule} = set.require('app.module');
        const {User} = set.require('users/user.entity');
        const {Photo} = set.require('photos/photo.entity');
        const app = await create(AppModule);
        const connection = app.get(Connection);
        const columns = (
          await query(
            db,
            "SELECT column_name FROM information_schema.columns WHERE table_name = 'photo'",
          )
        )
          .map((r) => r.column_name)
          .sort();
        expect(columns).toEqual(['id', 'url', 'userId']);
        const tables = (
          await query(
            db,
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
          )
        )
          .map((r) => r.table_name)
          .sort();
        expect(tables).toContain('album_photos_photo');
        const users = connection.getRepository(User);
        const user = await users.save(users.create({firstName: 'Ada', lastName: 'Lovelace'}));
        await connection.getRepository(Photo).save({url: 'a.png', user});
        const plain = await users.findOne(user.id);
        expect(plain.photos).toBeUndefined();
        const [withPhotos] = await users.find({relations: ['photos']});
        expect(withPhotos.photos.map((p: any) => p.url)).toEqual(['a.png']);
      },
    );

    claim(
      `${page}#relations`,
      'cascade: true makes save() on the user insert its photos',
      async () => {
        const db = await freshDb();
        const cascading = shown('users/user.entity', 1).replace(
          '@OneToMany(() => Photo, (photo) => photo.user)',
          '@OneToMany(() => Photo, (photo) => photo.user, { cascade: true })',
        );
        const set = samples(page, {files: relationFiles(db, cascading)});
        const {AppModule} = set.require('app.module');
        const {User} = set.require('users/user.entity');
        const app = await create(AppModule);
        const users = app.get(Connection).getRepository(User);
        await users.save(
          users.create({
            firstName: 'Ada',
            lastName: 'L',
            photos: [{url: 'one.png'}, {url: 'two.png'}],
          }),
        );
        expect((await query(db, 'SELECT url FROM photo ORDER BY url')).map((r) => r.url)).toEqual([
          'one.png',
          'two.png',
        ]);
      },
    );
  });

  describe('#auto-load-entities', () => {
    claim(
      `${page}#auto-load-entities`,
      'with autoLoadEntities, an entity registered with forFeature() is added to the connection',
      async () => {
        const db = await freshDb();
        const entity = shown('user.entity', 1);
        const set = samples(page, {
          files: {
            'app.module': toPostgres(shown('app.module', 6), db),
            'user.entity': entity,
            'users/user.entity': entity,
            'users.module': shown('users.module', 1),
            'users.service': shown('users.service', 1),
            'users.controller': usersController,
          },
        });
        const {AppModule} = set.require('app.module');
        const {UsersModule} = set.require('users.module');
        const {UsersService} = set.require('users.service');
        @Module({imports: [AppModule, UsersModule]})
        class Root {}
        const app = await create(Root);
        expect(await app.get(UsersService).findAll()).toEqual([]);
        // (Every forFeature() of this test file registered its own User class for the default connection.)
        expect(app.get(Connection).hasMetadata(set.require('user.entity').User)).toBe(true);
      },
    );

    claim(
      `${page}#auto-load-entities`,
      'an entity that is only the target of a relation is not added, and TypeORM fails on that relation',
      async () => {
        const db = await freshDb();
        const userEntity = shown('users/user.entity', 1);
        const set = samples(page, {
          files: {
            'app.module': toPostgres(shown('app.module', 6), db).replace(
              'autoLoadEntities: true,',
              'autoLoadEntities: true,\n      retryAttempts: 1,',
            ),
            'user.entity': userEntity,
            'users/user.entity': userEntity,
            'users.module': shown('users.module', 1),
            'users.service': shown('users.service', 1),
            'users.controller': usersController,
          },
        });
        const {AppModule} = set.require('app.module');
        const {UsersModule} = set.require('users.module');
        @Module({imports: [AppModule, UsersModule]})
        class Root {}
        await expect(
          NestFactory.create(Root, {logger: false, abortOnError: false}),
        ).rejects.toThrow('Entity metadata for User#photos was not found');
      },
    );
  });

  claim(
    `${page}#separating-entity-definition`,
    "the page's EntitySchema setup starts, and the repository (injected with the User class) returns User instances",
    async () => {
      const db = await freshDb();
      const set = samples(page, {
        files: {
          'app.module': toPostgres(shown('app.module', 7), db),
          'user.entity': shown('user.entity', 2),
          'users/user.entity': shown('user.entity', 2),
          'users.module': shown('users.module', 3),
          'users.service': shown('users.service', 1),
          'users.controller': usersController,
        },
      });
      const {AppModule} = set.require('app.module');
      const {UsersModule} = set.require('users.module');
      const {UsersService} = set.require('users.service');
      const {User} = set.require('user.entity');
      @Module({imports: [AppModule, UsersModule]})
      class Root {}
      const app = await create(Root, {abortOnError: false});
      const repository = app.get(getRepositoryToken(User));
      await repository.save({firstName: 'Ada', lastName: 'Lovelace'});
      const [user] = await app.get(UsersService).findAll();
      expect(user).toBeInstanceOf(User);
      expect(user).toMatchObject({firstName: 'Ada', isActive: true});
    },
  );

  describe('#transactions', () => {
    const txSet = (db: string, lang: 'ts' | 'js' = 'ts') => {
      const entity = shown('user.entity', 1);
      const tsFiles = {
        'app.module': toPostgres(shown('app.module', 5), db),
        'user.entity': entity,
        'users/user.entity': entity,
      };
      return samples(page, {
        lang,
        files: {
          ...tsFiles,
          ...(lang === 'ts' ? {} : compiledTs(tsFiles, ['user.entity', 'users/user.entity'])),
          'users.service': shown('users.service', 2, lang),
        },
      });
    };

    for (const lang of ['ts', 'js'] as const) {
      claim(
        `${page}#transactions`,
        `createMany() with a QueryRunner commits all users, or none when one fails (${lang})`,
        async () => {
          const db = await freshDb();
          const set = txSet(db, lang);
          const {AppModule} = set.require('app.module');
          const {UsersService} = set.require('users.service');
          const {User} = set.require('user.entity');
          @Module({imports: [AppModule], providers: [UsersService]})
          class Root {}
          const app = await create(Root);
          const make = (firstName: string | null) =>
            Object.assign(new User(), {firstName, lastName: 'X'});
          await app.get(UsersService).createMany([make('Ada'), make('Alan')]);
          expect(
            (await query(db, 'SELECT "firstName" FROM "user" ORDER BY id')).map((r) => r.firstName),
          ).toEqual(['Ada', 'Alan']);
          await expect(
            app.get(UsersService).createMany([make('Grace'), make(null)]),
          ).rejects.toThrow(/null value/);
          expect((await query(db, 'SELECT count(*)::int AS n FROM "user"'))[0].n).toBe(2);
        },
      );
    }

    claim(
      `${page}#transactions`,
      'connection.transaction() commits, or rolls back and rethrows when the callback throws; startTransaction() takes an isolation level',
      async () => {
        const db = await freshDb();
        const set = txSet(db);
        const {AppModule} = set.require('app.module');
        const {User} = set.require('user.entity');
        const {UsersService} = compileModule(
          `import { Injectable } from '@nestjs/common';
import { Connection } from 'typeorm';
@Injectable()
export class UsersService {
  constructor(private connection: Connection) {}
${fragment(page, 'transactions', 'this.connection.transaction').value}
}`,
          'tx-callback',
        );
        @Module({imports: [AppModule], providers: [UsersService]})
        class Root {}
        const app = await create(Root);
        const make = (firstName: string | null) =>
          Object.assign(new User(), {firstName, lastName: 'X'});
        await app.get(UsersService).createMany([make('Ada')]);
        await expect(app.get(UsersService).createMany([make('Grace'), make(null)])).rejects.toThrow(
          /null value/,
        );
        expect((await query(db, 'SELECT "firstName" FROM "user"')).map((r) => r.firstName)).toEqual(
          ['Ada'],
        );
        const runner = app.get(Connection).createQueryRunner();
        await runner.connect();
        await runner.startTransaction('SERIALIZABLE');
        expect((await runner.query('SHOW transaction_isolation'))[0].transaction_isolation).toBe(
          'serializable',
        );
        await runner.rollbackTransaction();
        await runner.release();
      },
    );
  });

  for (const lang of ['ts', 'js'] as const) {
    claim(
      `${page}#subscribers`,
      `the UserSubscriber provider registers itself and runs beforeInsert for User (${lang})`,
      async () => {
        const db = await freshDb();
        const entity = shown('user.entity', 1);
        const tsFiles = {
          'app.module': toPostgres(shown('app.module', 5), db),
          'user.entity': entity,
          'users/user.entity': entity,
          'users.controller': usersController,
        };
        const set = samples(page, {
          lang,
          files: {
            ...tsFiles,
            ...(lang === 'ts' ? {} : compiledTs(tsFiles, ['user.entity', 'users/user.entity'])),
            'users.module': shown('users.module', 4),
            'users.service': shown('users.service', 1, lang),
          },
        });
        const {AppModule} = set.require('app.module');
        const {UsersModule} = set.require('users.module');
        const {User} = set.require('user.entity');
        @Module({imports: [AppModule, UsersModule]})
        class Root {}
        const app = await create(Root);
        const printed: unknown[][] = [];
        const log = console.log;
        console.log = (...args: unknown[]) => void printed.push(args);
        try {
          await app.get(getRepositoryToken(User)).save({firstName: 'Ada', lastName: 'Lovelace'});
        } finally {
          console.log = log;
        }
        expect(printed).toEqual([['Inserting user:', 'Ada']]);
        expect(app.get(Connection).subscribers).toHaveLength(1);
      },
    );
  }

  describe('#multiple-databases', () => {
    claim(
      `${page}#multiple-databases`,
      "the page's two connections: AlbumsService gets the albumsConnection repository, Connection and EntityManager by name",
      async () => {
        const [userDb, albumDb] = [await freshDb(), await freshDb()];
        const albumEntity = shown('albums/album.entity', 1);
        const photoEntity = shown('photos/photo.entity', 1);
        const userEntity = shown('users/user.entity', 1);
        const appModule = shown('app.module', 8)
          .replace("type: 'mysql' as const", "type: 'postgres' as const")
          .replace('port: 3306', `port: ${pg.port}`)
          .replace("username: 'root'", "username: 'postgres'")
          .replace("password: 'root'", "password: ''")
          .replace("database: 'test',", '')
          .replace("host: 'user_db_host',", `host: '${pg.host}', database: '${userDb}',`)
          .replace("host: 'album_db_host',", `host: '${pg.host}', database: '${albumDb}',`);
        const set = samples(page, {
          files: {
            'app.module': appModule,
            'user.entity': userEntity,
            'users/user.entity': userEntity,
            'album.entity': albumEntity,
            'albums/album.entity': albumEntity,
            'photo.entity': photoEntity,
            'photos/photo.entity': photoEntity,
            'albums.module': shown('albums.module', 1),
            'albums.service': shown('albums.service', 1),
          },
        });
        const {AppModule} = set.require('app.module');
        const {AlbumsModule} = set.require('albums.module');
        const {AlbumsService} = set.require('albums.service');
        @Module({imports: [AppModule, AlbumsModule]})
        class Root {}
        const app = await create(Root, {abortOnError: false});
        expect(await app.get(AlbumsService).findAll()).toEqual([]);
        const albums = app.get(getConnectionToken('albumsConnection'));
        expect(albums.name).toBe('albumsConnection');
        expect(app.get(getEntityManagerToken('albumsConnection'))).toBe(albums.manager);
        expect(
          app.get(getRepositoryToken(set.require('album.entity').Album, 'albumsConnection')),
        ).toBeDefined();
        expect(app.get(Connection).name).toBe('default');
      },
    );
  });

  claim(
    `${page}#multiple-databases`,
    'two forRoot() calls without a name: providers get the first connection (repositories too), app.get() and getConnection() the second',
    async () => {
      const [first, second] = [await freshDb(), await freshDb()];
      const options = {type: 'postgres', host: pg.host, port: pg.port, username: 'postgres'};
      const entity = shown('user.entity', 1);
      const {User} = samples(page, {
        files: {'user.entity': entity, 'users/user.entity': entity},
      }).require('user.entity');
      @Injectable()
      class Reader {
        constructor(
          readonly connection: any,
          readonly users: any,
        ) {}
      }
      Reflect.defineMetadata('design:paramtypes', [Connection, Object], Reader);
      Reflect.defineMetadata(
        'self:paramtypes',
        [{index: 1, param: getRepositoryToken(User)}],
        Reader,
      );
      @Module({imports: [TypeOrmModule.forFeature([User])], providers: [Reader]})
      class Feature {}
      @Module({
        imports: [
          TypeOrmModule.forRoot({...options, database: first, entities: [User]}),
          TypeOrmModule.forRoot({...options, database: second, entities: [User]}),
          Feature,
        ],
      })
      class Root {}
      const app = await create(Root);
      const reader = app.get(Reader);
      try {
        const name = (connection: any) =>
          ({[first]: 'users', [second]: 'albums'})[connection.options.database as string];
        expect(reader.users.manager.connection).toBe(reader.connection);
        expect(app.get(EntityManager).connection).toBe(app.get(Connection));
        expectOutput(
          page,
          'duplicate-connection-name',
          [
            `injected Connection: ${name(reader.connection)}`,
            `app.get(Connection): ${name(app.get(Connection))}`,
            `getConnection(): ${name(getConnection())}`,
          ].join('\n'),
        );
        // Both are open: closing the app closes the second only (the first one's pool is left behind).
        expect(reader.connection.isConnected).toBe(true);
        expect(getConnection().isConnected).toBe(true);
      } finally {
        // The first connection is in no manager: the afterEach would not close it.
        await reader.connection.close();
      }
    },
  );

  claim(
    `${page}#multiple-databases`,
    'forRootAsync() with name next to useFactory registers the named tokens',
    async () => {
      const db = await freshDb();
      const code = fragment(
        page,
        'multiple-databases',
        "name: 'albumsConnection',\n  useFactory",
      ).value;
      const albumEntity = shown('albums/album.entity', 1);
      const set = samples(page, {
        files: {'album.entity': albumEntity, 'albums/album.entity': albumEntity},
      });
      const settings = code
        .replace(/;\s*$/, '')
        .replace("type: 'mysql'", "type: 'postgres'")
        .replace("host: 'album_db_host'", `host: '${pg.host}'`)
        .replace('port: 3306', `port: ${pg.port}`)
        .replace("username: 'root'", "username: 'postgres'")
        .replace("password: 'root'", "password: ''")
        .replace("database: 'albums'", `database: '${db}', synchronize: true`);
      const {make} = compileModule(
        `import { TypeOrmModule } from '@nestjs/typeorm';
import { Album } from '${set.dir}/album.entity.js';
import { Photo } from '${set.dir}/photo.entity.js';
import { User } from '${set.dir}/user.entity.js';
export function make() {
  return ${settings};
}`,
        'async-named',
      );
      @Module({imports: [make()]})
      class Root {}
      const app = await create(Root);
      expect(app.get(getConnectionToken('albumsConnection')).name).toBe('albumsConnection');
      expect(() => app.get(Connection)).toThrow();
    },
  );

  claim(
    `${page}#testing`,
    "a testing module resolves getRepositoryToken(User) to a stand-in; getRepositoryToken(Album, 'albumsConnection') names the named one",
    async () => {
      const entity = shown('user.entity', 1);
      const set = samples(page, {
        files: {
          'user.entity': entity,
          'users/user.entity': entity,
          'users.service': shown('users.service', 1),
        },
      });
      const {UsersService} = set.require('users.service');
      const {User} = set.require('user.entity');
      const usersRepository = {
        find: async () => [],
        findOne: async () => undefined,
        delete: async () => undefined,
      };
      const moduleRef = await Test.createTestingModule({
        providers: [UsersService, {provide: getRepositoryToken(User), useValue: usersRepository}],
      }).compile();
      expect(await moduleRef.get(UsersService).findAll()).toEqual([]);
      class Album {}
      expect(getRepositoryToken(Album, 'albumsConnection')).toBe(
        'albumsConnection_AlbumRepository',
      );
    },
  );

  claim(
    `${page}#custom-repository`,
    'forFeature([AuthorRepository]) makes the class its own token; findByName() runs; on a named connection @InjectRepository(AuthorRepository, name) resolves it',
    async () => {
      const db = await freshDb();
      const authorEntity = `import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
@Entity() export class Author { @PrimaryGeneratedColumn() id: number; @Column() firstName: string; @Column() lastName: string; }`;
      const set = samples(page, {files: {'author.entity': authorEntity}});
      const {AuthorsModule} = set.require('authors.module');
      const {AuthorsService} = set.require('authors.service');
      const {AuthorRepository} = set.require('author.repository');
      const {Author} = set.require('author.entity');
      @Module({
        imports: [
          TypeOrmModule.forRoot({
            type: 'postgres',
            host: pg.host,
            port: pg.port,
            username: 'postgres',
            database: db,
            entities: [Author],
            synchronize: true,
          }),
          AuthorsModule,
        ],
      })
      class Root {}
      const app = await create(Root);
      const repository = app.get(AuthorRepository);
      expect(repository).toBeInstanceOf(AuthorRepository);
      await repository.save({firstName: 'Ada', lastName: 'Lovelace'});
      expect(await app.get(AuthorsService).findByName('Ada', 'Lovelace')).toMatchObject({
        firstName: 'Ada',
      });
      expect(await app.get(AuthorsService).findByName('Alan', 'Turing')).toBeUndefined();
      expect(getRepositoryToken(AuthorRepository)).toBe(AuthorRepository);
      expect(getRepositoryToken(AuthorRepository, 'connectionName')).toBe(
        'connectionName_AuthorRepository',
      );
    },
  );

  describe('#async-configuration', () => {
    claim(
      `${page}#async-configuration`,
      "useClass: the page's TypeOrmConfigService (reading ConfigService) provides the options; autoLoadEntities picks up forFeature() entities",
      async () => {
        const db = await freshDb();
        const {ConfigModule, ConfigService} = nest('@nestjs/config');
        const set = samples(page, {
          files: {
            'typeorm-config.service': shown('typeorm-config.service', 1)
              .replace("type: 'mysql'", "type: 'postgres'")
              .replace(
                'autoLoadEntities: true,',
                'autoLoadEntities: true,\n      synchronize: true,',
              ),
          },
        });
        const {TypeOrmConfigService} = set.require('typeorm-config.service');
        const entity = shown('user.entity', 1);
        const {User} = samples(page, {
          files: {'user.entity': entity, 'users/user.entity': entity},
        }).require('user.entity');
        const env = {
          DB_HOST: pg.host,
          DB_PORT: String(pg.port),
          DB_USERNAME: 'postgres',
          DB_PASSWORD: '',
          DB_DATABASE: db,
        };
        @Module({
          imports: [
            ConfigModule.forRoot({isGlobal: true, ignoreEnvFile: true, load: [() => env]}),
            // A named connection keeps the entities other tests of this file registered for 'default' out.
            TypeOrmModule.forRootAsync({name: 'configured', useClass: TypeOrmConfigService}),
            TypeOrmModule.forFeature([User], 'configured'),
          ],
        })
        class Root {}
        const app = await create(Root);
        expect(app.get(getConnectionToken('configured')).options).toMatchObject({
          type: 'postgres',
          database: db,
          port: pg.port,
        });
        expect(await app.get(getRepositoryToken(User, 'configured')).find()).toEqual([]);
        void ConfigService;
      },
    );

    claim(
      `${page}#async-configuration`,
      'useExisting reuses the exported instance (created once); extraProviders adds a dependency no module offers',
      async () => {
        const db = await freshDb();
        let created = 0;
        @Injectable()
        class TypeOrmConfigService {
          constructor() {
            created += 1;
          }
          createTypeOrmOptions() {
            return {
              type: 'postgres',
              host: pg.host,
              port: pg.port,
              username: 'postgres',
              database: db,
            };
          }
        }
        @Module({providers: [TypeOrmConfigService], exports: [TypeOrmConfigService]})
        class DatabaseConfigModule {}
        @Module({
          imports: [
            DatabaseConfigModule,
            TypeOrmModule.forRootAsync({
              imports: [DatabaseConfigModule],
              useExisting: TypeOrmConfigService,
            }),
          ],
        })
        class Root {}
        const app = await create(Root);
        expect(created).toBe(1);
        expect(app.get(Connection).isConnected).toBe(true);
        await app.close();
        toClose = [];
        @Module({
          imports: [
            TypeOrmModule.forRootAsync({
              name: 'extra',
              extraProviders: [{provide: 'DB_NAME', useValue: db}],
              inject: ['DB_NAME'],
              useFactory: (name: string) => ({
                type: 'postgres',
                host: pg.host,
                port: pg.port,
                username: 'postgres',
                database: name,
              }),
            }),
          ],
        })
        class WithExtra {}
        const other = await create(WithExtra);
        expect(other.get(getConnectionToken('extra')).options.database).toBe(db);
      },
    );
  });

  claim(
    `${page}#custom-connection-factory`,
    'connectionFactory receives the options with auto-loaded entities; a rejection is retried after retryDelay',
    async () => {
      const db = await freshDb();
      const {createConnection} = nest('typeorm');
      const entity = shown('user.entity', 1);
      const {User} = samples(page, {
        files: {'user.entity': entity, 'users/user.entity': entity},
      }).require('user.entity');
      const received: any[] = [];
      let attempts = 0;
      const log = memoryLogger();
      @Module({
        imports: [
          TypeOrmModule.forRootAsync({
            name: 'factory',
            useFactory: () => ({
              type: 'postgres',
              host: pg.host,
              port: pg.port,
              username: 'postgres',
              database: db,
              autoLoadEntities: true,
              retryDelay: 10,
            }),
            connectionFactory: async (options: any) => {
              received.push(options);
              attempts += 1;
              if (attempts === 1) throw new Error('not yet');
              const connection = await createConnection(options);
              await connection.query('SELECT 1');
              return connection;
            },
          }),
          TypeOrmModule.forFeature([User], 'factory'),
        ],
      })
      class Root {}
      const app = await NestFactory.create(Root, {logger: log.logger, abortOnError: false});
      toClose.push(app);
      expect(attempts).toBe(2);
      expect(received[1].entities).toEqual([User]);
      expect(log.lines.filter((l) => l.context === 'TypeOrmModule').map((l) => l.message)).toEqual([
        'Unable to connect to the database (factory). Retrying (1)...',
      ]);
    },
  );
});

describe('Sequelize', () => {
  const sequelizeFiles = (
    db: string,
    lang: 'ts' | 'js' = 'ts',
    appModule = shown('app.module', 11),
  ) => {
    const tsFiles = {
      'app.module': toPostgres(appModule, db, ',\n      logging: false'),
      'user.model': shown('user.model', 1),
      'users/user.model': shown('user.model', 1),
      'users.module': shown('users.module', 5),
      'users.controller': usersController,
    };
    return {
      ...tsFiles,
      ...(lang === 'ts' ? {} : compiledTs(tsFiles, ['user.model', 'users/user.model'])),
      'users.service': shown('users.service', 3, lang),
    };
  };

  for (const lang of ['ts', 'js'] as const) {
    claim(
      `${page}#models`,
      `the page's UsersService finds and removes users through the injected model; Sequelize adds id, createdAt and updatedAt (${lang})`,
      async () => {
        const db = await freshDb();
        const set = samples(page, {lang, files: sequelizeFiles(db, lang)});
        const {AppModule} = set.require('app.module');
        const {UsersModule} = set.require('users.module');
        const {UsersService} = set.require('users.service');
        const {User} = set.require('user.model');
        @Module({imports: [AppModule, UsersModule]})
        class Root {}
        const app = await create(Root);
        await app.get(Sequelize).sync();
        const columns = (
          await query(
            db,
            "SELECT column_name FROM information_schema.columns WHERE table_name = 'Users'",
          )
        )
          .map((r) => r.column_name)
          .sort();
        expect(columns).toEqual([
          'createdAt',
          'firstName',
          'id',
          'isActive',
          'lastName',
          'updatedAt',
        ]);
        const users = app.get(UsersService);
        const created = await User.create({firstName: 'Ada', lastName: 'Lovelace'});
        expect(created.isActive).toBe(true);
        expect((await users.findAll()).map((u: any) => u.firstName)).toEqual(['Ada']);
        expect((await users.findOne(created.id)).lastName).toBe('Lovelace');
        await users.remove(created.id);
        expect(await users.findAll()).toEqual([]);
      },
    );
  }

  claim(
    `${page}#connecting-with-sequelizemodule`,
    'without autoLoadModels, an unreachable database does not stop the start: the first query (authenticate() in ping()) fails',
    async () => {
      const port = await freePort();
      const set = samples(page, {files: {'app.service': shown('app.service', 1)}});
      const {AppService} = set.require('app.service');
      const log = memoryLogger();
      @Module({
        imports: [
          SequelizeModule.forRoot({
            dialect: 'postgres',
            host: '127.0.0.1',
            port,
            username: 'postgres',
            database: 'x',
            logging: false,
            retryDelay: 5,
          }),
        ],
        providers: [AppService],
      })
      class Root {}
      const app = await NestFactory.create(Root, {logger: log.logger, abortOnError: false});
      toClose.push(app);
      await app.init();
      expect(log.lines.filter((l) => l.level === 'error')).toEqual([]);
      await expect(app.get(AppService).ping()).rejects.toThrow(/ECONNREFUSED/);
    },
  );

  claim(
    `${page}#connecting-with-sequelizemodule`,
    'with autoLoadModels, startup authenticates and retries: "Unable to connect to the database. Retrying (n)...", 9 attempts by default',
    async () => {
      const port = await freePort();
      const log = memoryLogger();
      @Module({
        imports: [
          SequelizeModule.forRoot({
            dialect: 'postgres',
            host: '127.0.0.1',
            port,
            username: 'postgres',
            database: 'x',
            logging: false,
            autoLoadModels: true,
            retryDelay: 5,
          }),
        ],
      })
      class Root {}
      await expect(
        NestFactory.create(Root, {logger: log.logger, abortOnError: false}),
      ).rejects.toThrow(/ECONNREFUSED/);
      const lines = log.lines.filter((l) => l.context === 'SequelizeModule').map((l) => l.message);
      expect(lines).toHaveLength(9);
      expect(lines[0]).toBe('Unable to connect to the database. Retrying (1)...');
    },
  );

  claim(
    `${page}#auto-load-models`,
    'autoLoadModels + synchronize creates the tables of forFeature() models at startup; synchronize: false does not',
    async () => {
      for (const synchronize of [true, false]) {
        const db = await freshDb();
        const set = samples(page, {
          files: {
            ...sequelizeFiles(db),
            'app.module': toPostgres(
              shown('app.module', 12),
              db,
              ',\n      logging: false',
            ).replace('synchronize: true', `synchronize: ${synchronize}`),
          },
        });
        const {AppModule} = set.require('app.module');
        const {UsersModule} = set.require('users.module');
        @Module({imports: [AppModule, UsersModule]})
        class Root {}
        const app = await create(Root);
        const tables = (
          await query(
            db,
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
          )
        ).map((r) => r.table_name);
        expect(tables).toEqual(synchronize ? ['Users'] : []);
        await app.close();
        toClose = [];
      }
    },
  );

  claim(
    `${page}#model-relations`,
    "the page's User and Photo models: photos have a userId foreign key and load with include",
    async () => {
      const db = await freshDb();
      const set = samples(page, {
        files: {
          'app.module': toPostgres(shown('app.module', 12), db, ',\n      logging: false'),
          'user.model': shown('users/user.model', 1),
          'users/user.model': shown('users/user.model', 1),
          'photo.model': shown('photos/photo.model', 1),
          'photos/photo.model': shown('photos/photo.model', 1),
        },
      });
      const {AppModule} = set.require('app.module');
      const {User} = set.require('users/user.model');
      const {Photo} = set.require('photos/photo.model');
      @Module({imports: [AppModule, SequelizeModule.forFeature([User, Photo])]})
      class Root {}
      const app = await create(Root);
      const user = await User.create({firstName: 'Ada', lastName: 'L'});
      await Photo.create({url: 'a.png', userId: user.id});
      const [loaded] = await User.findAll({include: [Photo]});
      expect(loaded.photos.map((p: any) => p.url)).toEqual(['a.png']);
      const fk = await query(
        db,
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'Photos' AND column_name = 'userId'",
      );
      expect(fk).toHaveLength(1);
      void app;
    },
  );

  for (const lang of ['ts', 'js'] as const) {
    claim(
      `${page}#sequelize-transactions`,
      `createPair() is managed: when the second create() fails the first is rolled back and the error propagates (${lang})`,
      async () => {
        const db = await freshDb();
        const set = samples(page, {
          lang,
          files: {
            ...sequelizeFiles(db, lang, shown('app.module', 12)),
            'users.service': shown('users.service', 4, lang),
          },
        });
        const {AppModule} = set.require('app.module');
        const {UsersModule} = set.require('users.module');
        const {UsersService} = set.require('users.service');
        const {User} = set.require('user.model');
        @Module({imports: [AppModule, UsersModule]})
        class Root {}
        const app = await create(Root);
        const service = app.get(UsersService);
        await service.createPair();
        expect(await User.count()).toBe(2);
        await query(
          db,
          'CREATE UNIQUE INDEX turing_once ON "Users" ("lastName") WHERE "lastName" = \'Turing\'',
        );
        await expect(service.createPair()).rejects.toThrow();
        expect(await User.count()).toBe(2);
      },
    );
  }

  claim(
    `${page}#multiple-sequelize-connections`,
    "AlbumsService gets the named connection's model and Sequelize instance; each connection creates its tables (autoLoadModels with synchronize)",
    async () => {
      const [userDb, albumDb] = [await freshDb(), await freshDb()];
      const album = `import { Column, Model, Table } from 'sequelize-typescript';
@Table export class Album extends Model { @Column title: string; }`;
      const appModule = shown('app.module', 13)
        .replace("dialect: 'mysql' as const", "dialect: 'postgres' as const")
        .replace('port: 3306', `port: ${pg.port}`)
        .replace("username: 'root'", "username: 'postgres'")
        .replace("password: 'root'", "password: ''")
        .replace("database: 'test',", 'logging: false,')
        .replace("host: 'user_db_host',", `host: '${pg.host}', database: '${userDb}',`)
        .replace("host: 'album_db_host',", `host: '${pg.host}', database: '${albumDb}',`);
      const set = samples(page, {
        files: {
          'app.module': appModule,
          'user.model': shown('user.model', 1),
          'users/user.model': shown('user.model', 1),
          'album.model': album,
          'albums/album.model': album,
          'albums.service': shown('albums.service', 3),
        },
      });
      const {AppModule} = set.require('app.module');
      const {AlbumsService} = set.require('albums.service');
      const {Album} = set.require('album.model');
      @Module({
        imports: [AppModule, SequelizeModule.forFeature([Album], 'albumsConnection')],
        providers: [AlbumsService],
      })
      class Root {}
      const app = await create(Root);
      const albums = app.get(AlbumsService);
      expect(albums.sequelize).toBe(app.get(getSequelizeToken('albumsConnection')));
      expect(albums.sequelize.config.database).toBe(albumDb);
      expect(app.get(Sequelize).config.database).toBe(userDb);
      expect(albums.albumModel).toBe(app.get(getModelToken(Album, 'albumsConnection')));
      // synchronize: true with autoLoadModels: each connection created its tables at startup.
      const tables = async (db: string) =>
        (
          await query(
            db,
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
          )
        ).map((row) => row.table_name);
      expect(await tables(userDb)).toContain('Users');
      expect(await tables(albumDb)).toContain('Albums');
    },
  );

  claim(
    `${page}#sequelize-async-configuration`,
    "useClass: the page's SequelizeConfigService; uri replaces the separate settings",
    async () => {
      const db = await freshDb();
      const set = samples(page, {
        files: {
          'sequelize-config.service': toPostgres(
            shown('sequelize-config.service', 1),
            db,
            ',\n      logging: false',
          ),
        },
      });
      const {SequelizeConfigService} = set.require('sequelize-config.service');
      @Module({imports: [SequelizeModule.forRootAsync({useClass: SequelizeConfigService})]})
      class Root {}
      const app = await create(Root);
      expect(app.get(Sequelize).config.database).toBe(db);
      await app.close();
      toClose = [];
      @Module({
        imports: [
          SequelizeModule.forRoot({
            uri: `postgres://postgres@${pg.host}:${pg.port}/${db}`,
            logging: false,
            autoLoadModels: true,
          }),
        ],
      })
      class WithUri {}
      const other = await create(WithUri);
      expect(other.get(Sequelize).config.database).toBe(db);
    },
  );
});

void Controller;

describe('more TypeORM and Sequelize claims', () => {
  claim(
    `${page}#separating-entity-definition`,
    'with target set, a name other than the class name breaks forFeature(): "No repository for "Human" was found"',
    async () => {
      const db = await freshDb();
      const {EntitySchema} = nest('typeorm');
      class Person {
        id!: number;
        nick!: string;
      }
      const PersonSchema = new EntitySchema({
        name: 'Human',
        target: Person,
        columns: {id: {type: Number, primary: true, generated: true}, nick: {type: String}},
      });
      @Module({
        imports: [
          TypeOrmModule.forRoot({
            name: 'schemas',
            type: 'postgres',
            host: pg.host,
            port: pg.port,
            username: 'postgres',
            database: db,
            entities: [PersonSchema],
            synchronize: true,
          }),
          TypeOrmModule.forFeature([PersonSchema], 'schemas'),
        ],
      })
      class Root {}
      await expect(NestFactory.create(Root, {logger: false, abortOnError: false})).rejects.toThrow(
        'No repository for "Human" was found',
      );
    },
  );

  claim(
    `${page}#multiple-sequelize-connections`,
    'two SequelizeModule.forRoot() calls without a name: providers get the first Sequelize instance, app.get(Sequelize) the second',
    async () => {
      const [first, second] = [await freshDb(), await freshDb()];
      const options = {
        dialect: 'postgres',
        host: pg.host,
        port: pg.port,
        username: 'postgres',
        logging: false,
      };
      @Injectable()
      class Reader {
        constructor(readonly sequelize: any) {}
      }
      Reflect.defineMetadata('design:paramtypes', [Sequelize], Reader);
      @Module({providers: [Reader]})
      class Feature {}
      @Module({
        imports: [
          SequelizeModule.forRoot({...options, database: first}),
          SequelizeModule.forRoot({...options, database: second}),
          Feature,
        ],
      })
      class Root {}
      const app = await create(Root);
      try {
        const name = (sequelize: any) =>
          ({[first]: 'users', [second]: 'albums'})[sequelize.config.database as string];
        expectOutput(
          page,
          'duplicate-sequelize-name',
          [
            `injected Sequelize: ${name(app.get(Reader).sequelize)}`,
            `app.get(Sequelize): ${name(app.get(Sequelize))}`,
          ].join('\n'),
        );
      } finally {
        await app.get(Reader).sequelize.close();
      }
    },
  );
});

describe('#using-an-ormconfigjson-file', () => {
  /** TypeORM's own configuration reader (the one that reads ormconfig.json) also takes TYPEORM_* variables: the tests use those, not a file in the project root. */
  const withTypeormEnv = async (db: string, fn: () => Promise<void>) => {
    const env = {
      TYPEORM_CONNECTION: 'postgres',
      TYPEORM_HOST: pg.host,
      TYPEORM_PORT: String(pg.port),
      TYPEORM_USERNAME: 'postgres',
      TYPEORM_DATABASE: db,
      TYPEORM_SYNCHRONIZE: 'true',
    };
    Object.assign(process.env, env);
    try {
      await fn();
    } finally {
      for (const key of Object.keys(env)) delete process.env[key];
    }
  };

  claim(
    `${page}#using-an-ormconfigjson-file`,
    "forRoot() without arguments leaves the settings to TypeORM's own configuration reader",
    async () => {
      const db = await freshDb();
      await withTypeormEnv(db, async () => {
        const {AppModule} = samples(page, {files: {'app.module': shown('app.module', 2)}}).require(
          'app.module',
        );
        const app = await create(AppModule);
        expect(app.get(Connection).options).toMatchObject({type: 'postgres', database: db});
      });
    },
  );

  claim(
    `${page}#using-an-ormconfigjson-file`,
    'getConnectionOptions() in forRootAsync(), with autoLoadEntities added, loads the entities of forFeature()',
    async () => {
      const db = await freshDb();
      // forFeature() records entities per connection name for the whole process: earlier tests of this file
      // registered other User classes (with relations) for 'default'. A real application has only its own.
      nest('@nestjs/typeorm/dist/entities-metadata.storage').EntitiesMetadataStorage.storage.delete(
        'default',
      );
      await withTypeormEnv(db, async () => {
        const entity = shown('user.entity', 1);
        const set = samples(page, {
          files: {
            'app.module': shown('app.module', 3),
            'user.entity': entity,
            'users/user.entity': entity,
          },
        });
        const {AppModule} = set.require('app.module');
        const {User} = set.require('user.entity');
        @Module({imports: [AppModule, TypeOrmModule.forFeature([User])]})
        class Root {}
        const app = await create(Root);
        expect(app.get(Connection).hasMetadata(User)).toBe(true);
        expect(await app.get(getRepositoryToken(User)).find()).toEqual([]);
      });
    },
  );
});

/** The page's TypeORM users feature (entity, module, service and controller, TS or JS halves) on a fresh database. */
async function usersApp(lang: 'ts' | 'js' = 'ts') {
  const db = await freshDb();
  const entity = shown('user.entity', 1);
  const tsFiles = {
    'app.module': toPostgres(shown('app.module', 5), db),
    'user.entity': entity,
    'users/user.entity': entity,
    'users.module': shown('users.module', 1),
  };
  const set = samples(page, {
    lang,
    files: {
      ...tsFiles,
      ...(lang === 'js' ? compiledTs(tsFiles, ['user.entity', 'users/user.entity']) : {}),
      'users.service': shown('users.service', 1, lang),
      'users.controller': shown('users.controller', 1, lang),
    },
  });
  const {AppModule} = set.require('app.module');
  const {UsersModule} = set.require('users.module');
  @Module({imports: [AppModule, UsersModule]})
  class Root {}
  const app = await create(Root);
  const {User} = set.require('user.entity');
  const repository = app.get(getRepositoryToken(User));
  await repository.save([
    {firstName: 'Alice', lastName: 'Liddell'},
    {firstName: 'Bob', lastName: 'Builder'},
  ]);
  return {app, db, repository, service: app.get(set.require('users.service').UsersService)};
}

describe('#repository-pattern: ids a client controls', () => {
  for (const lang of ['ts', 'js'] as const) {
    claim.abuse(
      `${page}#repository-pattern`,
      `the page's UsersController answers 400 for a non-numeric or SQL-like id (GET and DELETE, nothing deleted), 404 for a missing one (${lang})`,
      async () => {
        const {app, repository} = await usersApp(lang);
        const base = await listen(app);
        const status = async (path: string, method = 'GET') =>
          (await fetch(`${base}${path}`, {method})).status;
        expect(await status('/users/abc')).toBe(400);
        expect(await status(`/users/${encodeURIComponent('1 OR 1=1')}`)).toBe(400);
        expect(await status('/users/1.5')).toBe(400);
        expect(await status('/users/abc', 'DELETE')).toBe(400);
        expect(await status(`/users/${encodeURIComponent('1 OR 1=1')}`, 'DELETE')).toBe(400);
        expect(await repository.count()).toBe(2);
        const missing = await fetch(`${base}/users/99`);
        expect([missing.status, await missing.json()]).toEqual([
          404,
          {statusCode: 404, message: 'Not Found'},
        ]);
        const bob = await fetch(`${base}/users/2`);
        expect(await bob.json()).toMatchObject({id: 2, firstName: 'Bob'});
        expect(await status('/users/2', 'DELETE')).toBe(200);
        expect(await repository.count()).toBe(1);
      },
    );
  }

  claim.abuse(
    `${page}#repository-pattern`,
    "findOne(undefined), findOne(null) and findOne({}) resolve to the first row; the page's findOne() with the same ids resolves to undefined",
    async () => {
      const {repository, service} = await usersApp();
      for (const id of [undefined, null, {}])
        expect(await repository.findOne(id)).toMatchObject({id: 1, firstName: 'Alice'});
      for (const id of [undefined, null]) expect(await service.findOne(id)).toBeUndefined();
      await expect(service.findOne({})).rejects.toThrow(/invalid input syntax for type integer/);
    },
  );

  claim.abuse(
    `${page}#repository-pattern`,
    "delete({}) deletes every row; the page's remove() with an empty object from a JSON body deletes nothing",
    async () => {
      const {repository, service} = await usersApp();
      await expect(service.remove({})).rejects.toThrow(/invalid input syntax for type integer/);
      await service.remove(undefined);
      expect(await repository.count()).toBe(2);
      expect((await repository.delete({})).affected).toBe(2);
      expect(await repository.count()).toBe(0);
    },
  );
});

claim.abuse(
  `${page}#custom-repository`,
  "findByName() with a hostile name (' OR '1'='1) finds nothing: where conditions are sent as parameters, not spliced into the SQL",
  async () => {
    const db = await freshDb();
    const authorEntity = `import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
@Entity() export class Author { @PrimaryGeneratedColumn() id: number; @Column() firstName: string; @Column() lastName: string; }`;
    const set = samples(page, {files: {'author.entity': authorEntity}});
    const {AuthorsModule} = set.require('authors.module');
    const {AuthorsService} = set.require('authors.service');
    const {AuthorRepository} = set.require('author.repository');
    const {Author} = set.require('author.entity');
    @Module({
      imports: [
        TypeOrmModule.forRoot({
          type: 'postgres',
          host: pg.host,
          port: pg.port,
          username: 'postgres',
          database: db,
          entities: [Author],
          synchronize: true,
        }),
        AuthorsModule,
      ],
    })
    class Root {}
    const app = await create(Root);
    await app.get(AuthorRepository).save({firstName: 'Ada', lastName: 'Lovelace'});
    const authors = app.get(AuthorsService);
    expect(await authors.findByName("' OR '1'='1", "' OR '1'='1")).toBeUndefined();
    expect(await authors.findByName('Ada', "Lovelace' --")).toBeUndefined();
    expect(await authors.findByName('%', '%')).toBeUndefined();
    expect(await authors.findByName('Ada', 'Lovelace')).toMatchObject({firstName: 'Ada'});
  },
);

claim.failure(
  `${page}#async-configuration`,
  "with DB_HOST and DB_PORT not set, the page's factory does not stop the start: pg connects to what PGHOST and PGPORT name (+undefined is NaN, which pg replaces)",
  async () => {
    const db = await freshDb();
    const factory = fragment(page, 'async-configuration', "configService.get('DB_HOST')").value;
    const {ConfigModule} = nest('@nestjs/config');
    const {registration} = compileModule<any>(`
import { ConfigModule, ConfigService } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
export const registration = ${applyEdits('the factory', factory, [
      ["type: 'mysql'", "type: 'postgres'"],
    ])
      .trim()
      .replace(/;$/, '')};
`);
    const env = {
      DB_USERNAME: 'postgres',
      DB_DATABASE: db,
      PGHOST: pg.host,
      PGPORT: String(pg.port),
    };
    const saved = Object.fromEntries(
      [...Object.keys(env), 'DB_HOST', 'DB_PORT', 'DB_PASSWORD'].map((k) => [k, process.env[k]]),
    );
    Object.assign(process.env, env);
    for (const key of ['DB_HOST', 'DB_PORT', 'DB_PASSWORD']) delete process.env[key];
    try {
      @Module({imports: [ConfigModule.forRoot({ignoreEnvFile: true}), registration]})
      class Root {}
      const app = await create(Root);
      const connection = app.get(Connection);
      expect(connection.options.host).toBeUndefined();
      expect(connection.options.port).toBeNaN();
      expect(await connection.query('SELECT current_database() AS db')).toEqual([{db}]);
    } finally {
      for (const [key, value] of Object.entries(saved))
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
    }
  },
);

describe('Sequelize: ids a client controls', () => {
  claim.abuse(
    `${page}#models`,
    "the page's remove() of an id that does not exist resolves (no TypeError on null); findOne(undefined) throws instead of matching a row",
    async () => {
      const db = await freshDb();
      const set = samples(page, {
        files: {
          'app.module': toPostgres(shown('app.module', 11), db, ',\n      logging: false'),
          'user.model': shown('user.model', 1),
          'users/user.model': shown('user.model', 1),
          'users.module': shown('users.module', 5),
          'users.controller': usersController,
          'users.service': shown('users.service', 3),
        },
      });
      const {AppModule} = set.require('app.module');
      const {UsersModule} = set.require('users.module');
      const {UsersService} = set.require('users.service');
      const {User} = set.require('user.model');
      @Module({imports: [AppModule, UsersModule]})
      class Root {}
      const app = await create(Root);
      await app.get(Sequelize).sync();
      await User.create({firstName: 'Ada', lastName: 'Lovelace'});
      const users = app.get(UsersService);
      await expect(users.remove(99)).resolves.toBeUndefined();
      await expect(users.findOne(undefined)).rejects.toThrow(
        'WHERE parameter "id" has invalid "undefined" value',
      );
      expect(await User.count()).toBe(1);
    },
  );
});

/** A script that starts the set's AppModule with its UsersModule, as `main.ts` would with the default options. */
const usersMain = (options = '{ logger: ["error", "warn"], abortOnError: false }') => `
const { Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { AppModule } = require('./app.module.js');
const { UsersModule } = require('./users.module.js');
const started = Date.now();
process.on('exit', (code) => console.log('EXIT ' + code + ' after ' + (Date.now() - started) + ' ms'));
class Root {}
Module({ imports: [AppModule, UsersModule] })(Root);
NestFactory.create(Root, ${options}).then(async (app) => {
  await app.listen(0, '127.0.0.1');
  console.log('READY ' + (await app.getUrl()).replace('[::1]', '127.0.0.1'));
});
`;

describe('the database fails', () => {
  const children: ChildApp[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) await child.stop('SIGKILL');
  });

  claim.failure(
    `${page}#connecting-to-the-database`,
    'PostgreSQL down at start: one "Retrying (n)..." line per attempt (the last one too), pauses of retryDelay between them, then the error and exit code 1',
    async () => {
      const port = await freePort();
      const set = samples(page, {
        files: {
          'app.module': toPostgres(shown('app.module', 1), 'nowhere')
            .replace(`port: ${pg.port}`, `port: ${port}`)
            .replace(
              'synchronize: true,',
              'synchronize: true,\n      retryAttempts: 3,\n      retryDelay: 500,',
            ),
          'users.module': `import { Module } from '@nestjs/common';\n@Module({}) export class UsersModule {}`,
        },
      });
      // The reader's main.ts: NestFactory.create() with its default options.
      const child = startChild(set.dir, 'main.js', usersMain('{}'), {NO_COLOR: '1'});
      children.push(child);
      await child.waitFor(/Retrying \(1\)/);
      const firstFailure = Date.now();
      expect(await child.exited(20_000)).toEqual({code: 1, signal: null});
      const gaveUpAfter = Date.now() - firstFailure;
      const output = child.output();
      expect(output.match(/Unable to connect to the database\. Retrying \(\d\)\.\.\./g)).toEqual([
        'Unable to connect to the database. Retrying (1)...',
        'Unable to connect to the database. Retrying (2)...',
        'Unable to connect to the database. Retrying (3)...',
      ]);
      expect(output).toMatch(/ExceptionHandler\] connect ECONNREFUSED 127\.0\.0\.1:\d+/);
      expect(output).not.toContain('READY');
      // Two pauses of retryDelay: (retryAttempts - 1) x retryDelay before the process gives up.
      expect(gaveUpAfter).toBeGreaterThanOrEqual(1000);
    },
    30_000,
  );

  for (const orm of ['TypeORM', 'Sequelize'] as const) {
    claim.failure(
      orm === 'TypeORM'
        ? `${page}#connecting-to-the-database`
        : `${page}#connecting-with-sequelizemodule`,
      `${orm}: PostgreSQL restarted while the app runs: the process stays up, requests in between get 500 without connection details, and the next request after the restart succeeds`,
      async () => {
        const server = await restartablePostgres();
        try {
          await server.start();
          const setup = new Client({host: '127.0.0.1', port: server.port, user: 'postgres'});
          await setup.connect();
          await setup.query('CREATE DATABASE users');
          await setup.end();
          const settings = (code: string) =>
            toPostgres(code, 'users').replace(`port: ${pg.port}`, `port: ${server.port}`);
          const entity = shown('user.entity', 1);
          const files: Record<string, string> =
            orm === 'TypeORM'
              ? {
                  'app.module': settings(shown('app.module', 5)),
                  'user.entity': entity,
                  'users/user.entity': entity,
                  'users.module': shown('users.module', 1),
                  'users.service': shown('users.service', 1),
                  'users.controller': shown('users.controller', 1),
                }
              : {
                  'app.module': settings(shown('app.module', 11)).replace(
                    'models: [User],',
                    'models: [User],\n      logging: false,',
                  ),
                  'user.model': shown('user.model', 1),
                  'users/user.model': shown('user.model', 1),
                  'users.module': shown('users.module', 5),
                  'users.service': shown('users.service', 3),
                  // The TypeORM section's controller: findOne() resolves to null here, which it also answers with 404.
                  'users.controller': shown('users.controller', 1),
                };
          const set = samples(page, {files});
          const child = startChild(set.dir, 'main.js', usersMain(), {NO_COLOR: '1'});
          children.push(child);
          const [, base] = await child.waitFor(/READY (\S+)/);
          if (orm === 'Sequelize') {
            const client = new Client({
              host: '127.0.0.1',
              port: server.port,
              user: 'postgres',
              database: 'users',
            });
            await client.connect();
            await client.query(
              `CREATE TABLE "Users" (id serial PRIMARY KEY, "firstName" text, "lastName" text, "isActive" boolean, "createdAt" timestamptz, "updatedAt" timestamptz)`,
            );
            await client.end();
          }
          const get = async () => {
            const response = await fetch(`${base}/users/1`, {signal: AbortSignal.timeout(10_000)});
            return {status: response.status, body: await response.json()};
          };
          expect((await get()).status).toBe(404);
          await server.stop();
          expect(await get()).toEqual({
            status: 500,
            body: {statusCode: 500, message: 'Internal server error'},
          });
          await child.waitFor(/ECONNREFUSED/);
          await server.start();
          expect((await get()).status).toBe(404);
          expect(child.alive()).toBe(true);
        } finally {
          await server.destroy();
        }
      },
      60_000,
    );
  }
});

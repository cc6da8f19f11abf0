import {afterAll, beforeAll, expect} from 'vitest';
import {claim, samples, service, nest, memoryLogger, listen, type Service} from '../../lib';

const page = 'docs/recipes/sql-typeorm.md';
const {NestFactory} = nest('@nestjs/core');
const {Module, Injectable, Inject} = nest('@nestjs/common');
const typeorm = nest('typeorm');

let pg: Service;
beforeAll(async () => {
  pg = await service('postgres');
}, 60_000);
afterAll(async () => {
  await pg?.stop();
});

/** The page's connection, pointed at the bench's PostgreSQL; the samples sit in one folder, so the glob looks there. */
function connectionEdits(): [string, string][] {
  return [
    ["type: 'mysql'", "type: 'postgres'"],
    ["host: 'localhost'", "host: '127.0.0.1'"],
    ['port: 3306', `port: ${pg.port}`],
    ["username: 'root'", "username: 'postgres'"],
    ["database: 'gallery'", "database: 'postgres'"],
    ["__dirname + '/../**/*.entity{.ts,.js}'", "__dirname + '/*.entity.js'"],
  ];
}

function photoSet(lang: 'ts' | 'js', controllerEdits?: [string, string][]) {
  const ts = samples(page, {
    edit: {
      'database.providers': connectionEdits(),
      ...(controllerEdits ? {'photo.controller': controllerEdits} : {}),
    },
  });
  if (lang === 'ts') return ts;
  // The entity, the connection and the modules are shown in TypeScript only; the JS halves are the providers and the service.
  // They are re-exported from the TypeScript set, so the JS set uses the same compiled entity and modules.
  const files: Record<string, string> = {};
  for (const name of ['database.providers', 'database.module', 'photo.entity'])
    files[name] = `export * from ${JSON.stringify(`${ts.dir}/${name}.js`)};`;
  files['photo.module'] = ts.sources.get('photo.module')!.replace(/: \w+/g, '');
  return samples(page, {lang: 'js', files});
}

async function start(lang: 'ts' | 'js', controllerEdits?: [string, string][]) {
  const set = photoSet(lang, controllerEdits);
  const {PhotoModule} = set.require('photo.module');
  const {PhotoService} = set.require('photo.service');
  @Module({imports: [PhotoModule]})
  class AppModule {}
  const app = await NestFactory.create(AppModule, {logger: false});
  return {
    app,
    service: app.get(PhotoService),
    connection: app.get('DATABASE_CONNECTION', {strict: false}),
    set,
  };
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#using-the-repository`,
    `create() saves a photo with the column defaults, findPublished() and findOne() query it (${lang})`,
    async () => {
      const {app, service, connection} = await start(lang);
      try {
        await connection.query('DELETE FROM photo');
        const saved = await service.create('Sunset', 'sunset.jpg');
        expect(saved).toMatchObject({
          title: 'Sunset',
          filename: 'sunset.jpg',
          caption: '',
          views: 0,
          isPublished: false,
        });
        expect(typeof saved.id).toBe('number');
        expect(await service.findPublished()).toEqual([]);
        await connection.query('UPDATE photo SET "isPublished" = true WHERE id = $1', [saved.id]);
        expect((await service.findPublished()).map((p: any) => p.title)).toEqual(['Sunset']);
        expect((await service.findOne(saved.id)).filename).toBe('sunset.jpg');
        expect(await service.findOne(saved.id + 1000)).toBeUndefined();
      } finally {
        await app.close();
        await connection.close();
      }
    },
    30_000,
  );
}

claim(
  `${page}#the-connection-provider`,
  "the factory's promise is awaited: 'DATABASE_CONNECTION' is an open TypeORM connection, shared by the whole application",
  async () => {
    const {app, connection} = await start('ts');
    try {
      expect(connection).toBeInstanceOf(typeorm.Connection);
      expect(connection.isConnected).toBe(true);
      expect(app.get('DATABASE_CONNECTION', {strict: false})).toBe(connection);
    } finally {
      await app.close();
      await connection.close();
    }
  },
  30_000,
);

claim(
  `${page}#an-entity`,
  'synchronize: true creates the table from the entity, column types from the options or the emitted metadata',
  async () => {
    const {app, connection} = await start('ts');
    try {
      const columns = await connection.query(
        "SELECT column_name, data_type, character_maximum_length, column_default FROM information_schema.columns WHERE table_name = 'photo' ORDER BY ordinal_position",
      );
      const byName = Object.fromEntries(columns.map((c: any) => [c.column_name, c]));
      expect(Object.keys(byName)).toEqual([
        'id',
        'title',
        'caption',
        'filename',
        'views',
        'isPublished',
      ]);
      expect(byName.title).toMatchObject({
        data_type: 'character varying',
        character_maximum_length: 200,
      });
      expect(byName.caption.data_type).toBe('text');
      expect(byName.filename.data_type).toBe('character varying');
      expect(byName.views).toMatchObject({data_type: 'integer', column_default: '0'});
      expect(byName.isPublished).toMatchObject({data_type: 'boolean', column_default: 'false'});
    } finally {
      await app.close();
      await connection.close();
    }
  },
  30_000,
);

claim(
  `${page}#the-repository-provider`,
  "'PHOTO_REPOSITORY' is the connection's repository for Photo",
  async () => {
    const {app, connection, set} = await start('ts');
    try {
      const repository = app.get('PHOTO_REPOSITORY', {strict: false});
      expect(repository).toBeInstanceOf(typeorm.Repository);
      expect(repository.target).toBe(set.require('photo.entity').Photo);
      expect(repository.manager.connection).toBe(connection);
    } finally {
      await app.close();
      await connection.close();
    }
  },
  30_000,
);

claim(
  `${page}#what-you-give-up`,
  'nothing closes the connection when the application shuts down',
  async () => {
    const {app, connection} = await start('ts');
    await app.close();
    expect(connection.isConnected).toBe(true);
    await connection.close();
  },
  30_000,
);

claim(
  `${page}#what-you-give-up`,
  'a provider that calls connection.close() in onApplicationShutdown() closes it on app.close()',
  async () => {
    const set = photoSet('ts');
    const {DatabaseModule} = set.require('database.module');
    @Injectable()
    class ConnectionCloser {
      constructor(@Inject('DATABASE_CONNECTION') private readonly connection: any) {}
      async onApplicationShutdown() {
        await this.connection.close();
      }
    }
    @Module({imports: [DatabaseModule], providers: [ConnectionCloser]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, {logger: false});
    const connection = app.get('DATABASE_CONNECTION', {strict: false});
    expect(connection.isConnected).toBe(true);
    await app.close();
    expect(connection.isConnected).toBe(false);
  },
  30_000,
);

claim(
  `${page}#what-you-give-up`,
  'with the database unreachable, createConnection() rejects and the application does not start (no retry)',
  async () => {
    const set = samples(page, {
      edit: {
        'database.providers': connectionEdits().map(
          ([a, b]) => (a === 'port: 3306' ? [a, 'port: 1'] : [a, b]) as [string, string],
        ),
      },
    });
    const {DatabaseModule} = set.require('database.module');
    @Module({imports: [DatabaseModule]})
    class AppModule {}
    const started = Date.now();
    await expect(
      NestFactory.create(AppModule, {logger: false, abortOnError: false}),
    ).rejects.toThrow(/ECONNREFUSED/);
    expect(Date.now() - started).toBeLessThan(2000);
  },
);

claim(
  `${page}#what-you-give-up`,
  '@nestjs/typeorm makes 9 attempts by default before it gives up',
  async () => {
    const {TypeOrmModule} = nest('@nestjs/typeorm');
    @Module({
      imports: [
        TypeOrmModule.forRoot({
          type: 'postgres',
          host: '127.0.0.1',
          port: 1,
          username: 'postgres',
          retryDelay: 10,
        }),
      ],
    })
    class AppModule {}
    const log = memoryLogger();
    await expect(
      NestFactory.create(AppModule, {logger: log.logger, abortOnError: false}),
    ).rejects.toThrow(/ECONNREFUSED/);
    const attempts = log.lines.filter((line) =>
      line.message.startsWith('Unable to connect to the database.'),
    );
    expect(attempts.length).toBe(9);
  },
  30_000,
);

claim(
  `${page}#the-connection-provider`,
  'the database must exist: connecting to a missing one fails with database "gallery" does not exist',
  async () => {
    const set = samples(page, {
      edit: {'database.providers': connectionEdits().filter(([a]) => a !== "database: 'gallery'")},
    });
    const {DatabaseModule} = set.require('database.module');
    @Module({imports: [DatabaseModule]})
    class AppModule {}
    await expect(
      NestFactory.create(AppModule, {logger: false, abortOnError: false}),
    ).rejects.toThrow('database "gallery" does not exist');
  },
  30_000,
);

claim(
  `${page}#using-the-repository`,
  'a module that does not import PhotoModule cannot inject PhotoService',
  async () => {
    const set = photoSet('ts');
    const {PhotoModule} = set.require('photo.module');
    const {PhotoService} = set.require('photo.service');
    @Injectable()
    class GalleryService {
      constructor(@Inject(PhotoService) readonly photos: any) {}
    }
    @Module({providers: [GalleryService]})
    class GalleryModule {}
    @Module({imports: [PhotoModule, GalleryModule]})
    class AppModule {}
    await expect(
      NestFactory.create(AppModule, {logger: false, abortOnError: false}),
    ).rejects.toThrow(/Nest can't resolve dependencies of the GalleryService/);
    const manager = typeorm.getConnectionManager();
    if (manager.has('default') && manager.get('default').isConnected)
      await manager.get('default').close();
  },
  30_000,
);

claim(
  `${page}#what-you-give-up`,
  "overriding 'PHOTO_REPOSITORY' in a testing module that imports PhotoModule still connects; registering the service next to a mock does not",
  async () => {
    const {Test} = nest('@nestjs/testing');
    const set = samples(page, {
      edit: {
        'database.providers': connectionEdits().map(
          ([a, b]) => (a === 'port: 3306' ? [a, 'port: 1'] : [a, b]) as [string, string],
        ),
      },
    });
    const {PhotoModule} = set.require('photo.module');
    const {PhotoService} = set.require('photo.service');
    const mockRepository = {find: async () => [{title: 'mock'}]};
    await expect(
      Test.createTestingModule({imports: [PhotoModule]})
        .overrideProvider('PHOTO_REPOSITORY')
        .useValue(mockRepository)
        .compile(),
    ).rejects.toThrow(/ECONNREFUSED/);
    const moduleRef = await Test.createTestingModule({
      providers: [PhotoService, {provide: 'PHOTO_REPOSITORY', useValue: mockRepository}],
    }).compile();
    expect(await moduleRef.get(PhotoService).findPublished()).toEqual([{title: 'mock'}]);
    await moduleRef.close();
  },
);

// Abuse cases and failure modes.

claim.abuse(
  `${page}#using-the-repository`,
  "an id that never arrived: the page's findOne() finds nothing, where findOne(undefined) returns the first photo of the table",
  async () => {
    const {app, service, connection} = await start('ts');
    try {
      await connection.query('DELETE FROM photo');
      await service.create('Alice, private', 'alice.jpg');
      await service.create('Bob', 'bob.jpg');
      expect(await service.findOne(undefined)).toBeUndefined();
      // What the where clause prevents.
      const repository = connection.getRepository('Photo');
      expect((await repository.findOne(undefined)).title).toBe('Alice, private');
      expect((await repository.findOne(null)).title).toBe('Alice, private');
    } finally {
      await app.close();
      await connection.close();
    }
  },
  30_000,
);

for (const lang of ['ts', 'js'] as const) {
  claim.abuse(
    `${page}#using-the-repository`,
    `GET /photos/:id: a photo is 200; a missing one, 0, -1 and 99999999999 are 404; abc, 1.5, 1e1 and 0x10 are 400 (${lang})`,
    async () => {
      const {app, service, connection} = await start(lang);
      try {
        await connection.query('DELETE FROM photo');
        const saved = await service.create('Sunset', 'sunset.jpg');
        const base = await listen(app);
        const get = async (id: string) => {
          const response = await fetch(`${base}/photos/${id}`);
          return {status: response.status, text: await response.text()};
        };
        const found = await get(String(saved.id));
        expect(found.status).toBe(200);
        expect(JSON.parse(found.text)).toMatchObject({id: saved.id, title: 'Sunset'});
        for (const id of [String(saved.id + 1000), '0', '-1', '99999999999'])
          expect((await get(id)).status, id).toBe(404);
        for (const id of ['abc', '1.5', '1e1', '0x10'])
          expect((await get(id)).status, id).toBe(400);
      } finally {
        await app.close();
        await connection.close();
      }
    },
    30_000,
  );
}

claim.abuse(
  `${page}#using-the-repository`,
  "what the controller's checks prevent: without the if, a missing photo is 200 with an empty body; an id such as abc or 1.5 handed to the service, or 99999999999, fails the query (a 500)",
  async () => {
    const {app, service, connection} = await start('ts', [
      [
        '    if (!photo) {\n      throw new NotFoundException(`Photo ${id} not found`);\n    }\n',
        '',
      ],
    ]);
    try {
      const base = await listen(app);
      const response = await fetch(`${base}/photos/${2_000_000_000}`);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe('');
      await expect(service.findOne('abc')).rejects.toThrow(
        'invalid input syntax for type integer: "abc"',
      );
      await expect(service.findOne(1.5)).rejects.toThrow(
        'invalid input syntax for type integer: "1.5"',
      );
      await expect(service.findOne(99999999999)).rejects.toThrow(
        'value "99999999999" is out of range for type integer',
      );
    } finally {
      await app.close();
      await connection.close();
    }
  },
  30_000,
);

claim.failure(
  `${page}#what-you-give-up`,
  'the database closes the connection while the application runs (as on a restart): the next query works on a new connection',
  async () => {
    const {app, service, connection} = await start('ts');
    try {
      const [{pid: before}] = await connection.query('SELECT pg_backend_pid() AS pid');
      const admin = new (nest('pg').Client)({
        host: '127.0.0.1',
        port: pg.port,
        user: 'postgres',
        database: 'postgres',
      });
      await admin.connect();
      const {rows} = await admin.query('SELECT pg_terminate_backend($1) AS done', [before]);
      await admin.end();
      expect(rows[0].done).toBe(true);
      await new Promise((r) => setTimeout(r, 200));
      expect(Array.isArray(await service.findPublished())).toBe(true);
      const [{pid: after}] = await connection.query('SELECT pg_backend_pid() AS pid');
      expect(after).not.toBe(before);
    } finally {
      await app.close();
      await connection.close();
    }
  },
  30_000,
);

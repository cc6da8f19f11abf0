import {afterAll, beforeAll, expect} from 'vitest';
import {claim, freePort, samples, service, nest, listen, type Service} from '../../lib';

const page = 'docs/recipes/sql-sequelize.md';
const {NestFactory} = nest('@nestjs/core');
const {Module, Injectable, Inject} = nest('@nestjs/common');

let pg: Service;
beforeAll(async () => {
  pg = await service('postgres');
}, 60_000);
afterAll(async () => {
  await pg?.stop();
});

/** The page's connection, pointed at the bench's PostgreSQL (and without Sequelize's SQL logging on the console). */
const connection = (): [string, string][] => [
  ["dialect: 'mysql'", "dialect: 'postgres'"],
  ["host: 'localhost'", "host: '127.0.0.1'"],
  ['port: 3306', `port: ${pg.port}`],
  ["username: 'root'", "username: 'postgres'"],
  ["database: 'nest',", "database: 'postgres',\n        logging: false,"],
];

/** The page does not show the controller and the DTO that cats.module imports. */
const unshown: Record<string, string> = {
  'create-cat.dto': 'export class CreateCatDto { name: string; age: number; breed: string; }',
  'cats.controller': `
    import { Body, Controller, Get, Post } from '@nestjs/common';
    import { CatsService } from './cats.service';
    import { CreateCatDto } from './dto/create-cat.dto';
    @Controller('cats')
    export class CatsController {
      constructor(private readonly catsService: CatsService) {}
      @Post() create(@Body() dto: CreateCatDto) { return this.catsService.create(dto); }
      @Get() findAll() { return this.catsService.findAll(); }
    }`,
};

function catsSet(lang: 'ts' | 'js'): any {
  const ts = samples(page, {files: unshown, edit: {'database.providers': connection()}});
  if (lang === 'ts') return ts;
  // Models, the connection and the modules are shown in TypeScript only; the JS halves are the providers and the service.
  const files: Record<string, string> = {};
  for (const name of [
    'database.providers',
    'database.module',
    'cat.entity',
    'cats.controller',
    'create-cat.dto',
    'cats.module',
    'app.module',
  ]) {
    files[name] = `export * from ${JSON.stringify(`${ts.dir}/${name}.js`)};`;
  }
  return {ts, js: samples(page, {lang: 'js', files})};
}

async function close(app: any) {
  const sequelize = app.get('SEQUELIZE', {strict: false});
  await app.close();
  await sequelize.close();
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#model-injection`,
    `POST /cats creates a row through the injected model and GET /cats lists it (${lang})`,
    async () => {
      let AppModule: any;
      if (lang === 'ts') {
        AppModule = catsSet('ts').require('app.module').AppModule;
      } else {
        // The JS service and providers, wired into the TypeScript-only module with the same tokens.
        const {ts, js} = catsSet('js') as any;
        const {DatabaseModule} = ts.require('database.module');
        const {CatsController} = ts.require('cats.controller');
        const {CatsService} = js.require('cats.service');
        const {catsProviders} = ts.require('cats.providers');
        @Module({
          imports: [DatabaseModule],
          controllers: [CatsController],
          providers: [
            {provide: ts.require('cats.service').CatsService, useExisting: CatsService},
            CatsService,
            ...catsProviders,
          ],
        })
        class CatsModule {}
        AppModule = CatsModule;
      }
      const app = await NestFactory.create(AppModule, {logger: false});
      try {
        const base = await listen(app);
        const sequelize = app.get('SEQUELIZE', {strict: false});
        await sequelize.query('DELETE FROM "Cats"');
        const created = await fetch(`${base}/cats`, {
          method: 'POST',
          headers: {'content-type': 'application/json'},
          body: JSON.stringify({name: 'Tom', age: 3, breed: 'Maine Coon'}),
        });
        expect(created.status).toBe(201);
        const body = await created.json();
        expect(body).toMatchObject({name: 'Tom', age: 3, breed: 'Maine Coon'});
        expect(typeof body.id).toBe('number');
        expect(typeof body.createdAt).toBe('string');
        const list = await (await fetch(`${base}/cats`)).json();
        expect(list.map((cat: any) => cat.name)).toEqual(['Tom']);
      } finally {
        await close(app);
      }
    },
    30_000,
  );
}

claim(
  `${page}#model-injection`,
  'sync() creates the pluralized table Cats with id, the decorated columns typed from TypeScript, createdAt and updatedAt',
  async () => {
    const app = await NestFactory.create(catsSet('ts').require('app.module').AppModule, {
      logger: false,
    });
    try {
      const sequelize = app.get('SEQUELIZE', {strict: false});
      const [columns] = await sequelize.query(
        "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'Cats' ORDER BY ordinal_position",
      );
      expect(columns.map((c: any) => [c.column_name, c.data_type])).toEqual([
        ['id', 'integer'],
        ['name', 'character varying'],
        ['age', 'integer'],
        ['breed', 'character varying'],
        ['createdAt', 'timestamp with time zone'],
        ['updatedAt', 'timestamp with time zone'],
      ]);
    } finally {
      await close(app);
    }
  },
  30_000,
);

claim(
  `${page}#the-sequelize-provider`,
  'a model that is not registered with addModels() cannot be queried',
  async () => {
    const {Stray} = (await import('../../lib')).compileModule(`
    import { Table, Column, Model } from 'sequelize-typescript';
    @Table
    export class Stray extends Model { @Column name: string; }`);
    expect(() => Stray.findAll()).toThrow(
      /Model not initialized: Member "findAll" cannot be called\. "Stray" needs to be added to a Sequelize instance\./,
    );
  },
);

claim(
  `${page}#model-injection`,
  "the token lets a unit test replace 'CATS_REPOSITORY' with a mock, without a database",
  async () => {
    const {Test} = nest('@nestjs/testing');
    const set = samples(page, {files: unshown, edit: {'database.providers': connection()}});
    const {CatsService} = set.require('cats.service');
    const moduleRef = await Test.createTestingModule({
      providers: [
        CatsService,
        {provide: 'CATS_REPOSITORY', useValue: {findAll: async () => ['mock']}},
      ],
    }).compile();
    expect(await moduleRef.get(CatsService).findAll()).toEqual(['mock']);
    await moduleRef.close();
  },
);

claim(
  `${page}#model-injection`,
  "with useFactory and inject: ['SEQUELIZE'], the model provider is created after addModels() and sync()",
  async () => {
    const set = samples(page, {
      files: unshown,
      edit: {
        'database.providers': connection(),
        'cats.providers': [
          ['useValue: Cat,', "useFactory: () => Cat,\n    inject: ['SEQUELIZE'],"],
        ],
      },
    });
    const {Cat} = set.require('cat.entity');
    const {catsProviders} = set.require('cats.providers');
    const {DatabaseModule} = set.require('database.module');
    let registeredAtInjection: boolean | undefined;
    @Injectable()
    class Probe {
      constructor(@Inject('CATS_REPOSITORY') model: any) {
        registeredAtInjection = Boolean(model.sequelize);
      }
    }
    @Module({imports: [DatabaseModule], providers: [...catsProviders, Probe]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, {logger: false});
    try {
      expect(registeredAtInjection).toBe(true);
      expect(Cat.sequelize).toBe(app.get('SEQUELIZE', {strict: false}));
    } finally {
      await close(app);
    }
  },
  30_000,
);

claim(
  `${page}#closing-the-connection`,
  'nothing closes the pool when the application stops',
  async () => {
    const app = await NestFactory.create(catsSet('ts').require('app.module').AppModule, {
      logger: false,
    });
    const sequelize = app.get('SEQUELIZE', {strict: false});
    await app.close();
    const [[row]] = await sequelize.query('SELECT 1 AS one');
    expect(row.one).toBe(1);
    await sequelize.close();
  },
  30_000,
);

claim(
  `${page}#model-injection`,
  'CatsModule is loaded only once AppModule imports it: without it, /cats answers 404',
  async () => {
    @Module({})
    class EmptyAppModule {}
    const app = await NestFactory.create(EmptyAppModule, {logger: false});
    try {
      const base = await listen(app);
      expect((await fetch(`${base}/cats`)).status).toBe(404);
    } finally {
      await app.close();
    }
  },
);

// Abuse cases and failure modes.

const postCat = (base: string, body: unknown) =>
  fetch(`${base}/cats`, {
    method: 'POST',
    headers: {'content-type': 'application/json'},
    body: JSON.stringify(body),
  });

claim.abuse(
  `${page}#model-injection`,
  "a body with a made-up id and createdAt: the page's create() keeps the generated id and the server's timestamps; spreading the body would take both",
  async () => {
    const {AppModule} = catsSet('ts').require('app.module');
    const app = await NestFactory.create(AppModule, {logger: false});
    try {
      const base = await listen(app);
      const forged = {
        name: 'Tom',
        age: 3,
        breed: 'Siamese',
        id: 999,
        createdAt: '2000-01-01T00:00:00.000Z',
      };
      const created = await (await postCat(base, forged)).json();
      expect(created.id).not.toBe(999);
      expect(created.createdAt.startsWith('2000')).toBe(false);
      // What naming the fields prevents: the whole body given to create().
      const Cat = app.get('CATS_REPOSITORY', {strict: false});
      const spread = await Cat.create({...forged, id: 1999});
      expect([spread.id, spread.createdAt.toISOString()]).toEqual([
        1999,
        '2000-01-01T00:00:00.000Z',
      ]);
      await expect(Cat.create({...forged, id: 1999})).rejects.toThrow('Validation error');
    } finally {
      await close(app);
    }
  },
  30_000,
);

claim.abuse(
  `${page}#model-injection`,
  'without validation, a name that is an object or an array, or an age that is not a number: the insert fails, the client gets a 500 and no row is written',
  async () => {
    const {AppModule} = catsSet('ts').require('app.module');
    const app = await NestFactory.create(AppModule, {logger: false});
    try {
      const base = await listen(app);
      const Cat = app.get('CATS_REPOSITORY', {strict: false});
      const before = await Cat.count();
      for (const body of [
        {name: {$gt: ''}, age: 3, breed: 'Siamese'},
        {name: ['Tom', 'Jerry'], age: 3, breed: 'Siamese'},
        {name: 'Tom', age: 'three', breed: 'Siamese'},
      ]) {
        expect((await postCat(base, body)).status, JSON.stringify(body)).toBe(500);
      }
      expect(await Cat.count()).toBe(before);
    } finally {
      await close(app);
    }
  },
  30_000,
);

claim.failure(
  `${page}#closing-the-connection`,
  'the database unreachable at startup: sync() rejects at once with SequelizeConnectionRefusedError and the application does not start',
  async () => {
    const port = await freePort();
    const down = samples(page, {
      files: unshown,
      edit: {
        'database.providers': connection().map(([from, to]): [string, string] =>
          from === 'port: 3306' ? [from, `port: ${port}`] : [from, to],
        ),
      },
    });
    const started = Date.now();
    await expect(
      NestFactory.create(down.require('app.module').AppModule, {
        logger: false,
        abortOnError: false,
      }),
    ).rejects.toMatchObject({name: 'SequelizeConnectionRefusedError'});
    expect(Date.now() - started).toBeLessThan(2000);
  },
);

claim.failure(
  `${page}#closing-the-connection`,
  'the database closes the pooled connection while the application runs (as on a restart): the next request works',
  async () => {
    const {AppModule} = catsSet('ts').require('app.module');
    const app = await NestFactory.create(AppModule, {logger: false});
    try {
      const base = await listen(app);
      expect((await fetch(`${base}/cats`)).status).toBe(200);
      const admin = new (nest('pg').Client)({
        host: '127.0.0.1',
        port: pg.port,
        user: 'postgres',
        database: 'postgres',
      });
      await admin.connect();
      const {rowCount} = await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND datname = 'postgres' AND backend_type = 'client backend'",
      );
      await admin.end();
      expect(rowCount).toBeGreaterThanOrEqual(1);
      await new Promise((r) => setTimeout(r, 200));
      expect((await fetch(`${base}/cats`)).status).toBe(200);
    } finally {
      await close(app);
    }
  },
  30_000,
);

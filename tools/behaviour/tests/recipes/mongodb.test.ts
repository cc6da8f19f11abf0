/**
 * MongoDB has no server on this bench, so these tests check the wiring and what Mongoose builds without a
 * connection: the 'DATABASE_CONNECTION' provider is overridden with the (unconnected) Mongoose instance.
 * Not run here: the connection itself (connect()'s promise, queries reaching a server, the cats collection's
 * contents).
 */
import {expect} from 'vitest';
import {claim, expectOutput, freePort, samples, nest, listen} from '../../lib';

const page = 'docs/recipes/mongodb.md';
const {Test} = nest('@nestjs/testing');
const {NestFactory} = nest('@nestjs/core');
const {Module} = nest('@nestjs/common');
const mongoose = nest('mongoose');

/**
 * A Nest 8 project compiles without esModuleInterop, where \`import * as mongoose\` is the Mongoose instance
 * itself; the bench compiles with it, where the namespace object lacks the instance's prototype methods
 * (set(), connect()). The edit spells the page's import the way a Nest 8 project reads it.
 */
const instanceImport: Record<string, [string, string][]> = {
  'database.providers': [
    ["import * as mongoose from 'mongoose';", "import mongoose = require('mongoose');"],
  ],
};

const controller = `
  import { Controller, Get } from '@nestjs/common';
  import { CatsService } from './cats.service';
  @Controller('cats')
  export class CatsController {
    constructor(private readonly catsService: CatsService) {}
    @Get() findAll() { return this.catsService.findAll(); }
  }`;

async function wired() {
  const ts = samples(page, {files: {'cats.controller': controller}, edit: instanceImport});
  const {CatsModule} = ts.require('cats.module');
  return Test.createTestingModule({imports: [CatsModule]})
    .overrideProvider('DATABASE_CONNECTION')
    .useValue(mongoose)
    .compile();
}

claim(
  `${page}#model-injection`,
  "'CAT_MODEL' is a Mongoose model named Cat, bound to the instance behind 'DATABASE_CONNECTION', stored in the cats collection",
  async () => {
    const moduleRef = await wired();
    const model = moduleRef.get('CAT_MODEL', {strict: false});
    expect(model.modelName).toBe('Cat');
    expect(model.collection.collectionName).toBe('cats');
    expect(model.base).toBe(mongoose);
    await moduleRef.close();
    mongoose.deleteModel('Cat');
  },
);

claim(`${page}#model-injection`, 'the schema requires name and casts age to a number', async () => {
  const moduleRef = await wired();
  const Cat = moduleRef.get('CAT_MODEL', {strict: false});
  const missing = new Cat({age: 3}).validateSync();
  expect(Object.keys(missing.errors)).toEqual(['name']);
  expect(missing.errors.name.kind).toBe('required');
  expect(new Cat({name: 'Tom', age: '4'}).age).toBe(4);
  await moduleRef.close();
  mongoose.deleteModel('Cat');
});

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#model-injection`,
    `findByBreed() builds a query filtered by breed and sorted by age ascending; exec() returns a promise (${lang})`,
    async () => {
      const {CatsService} = (
        lang === 'ts'
          ? samples(page, {edit: instanceImport})
          : samples(page, {
              lang: 'js',
              edit: {
                'database.providers': [
                  [
                    "import * as mongoose from 'mongoose';",
                    "const mongoose = require('mongoose');",
                  ],
                ],
              },
            })
      ).require('cats.service');
      const calls: any[] = [];
      const model = {
        find(filter?: unknown) {
          const query = {
            filter,
            sort(order: unknown) {
              calls.push({filter, order});
              return query;
            },
            exec: () => Promise.resolve(['result']),
          };
          return query;
        },
      };
      const moduleRef = await Test.createTestingModule({
        providers: [CatsService, {provide: 'CAT_MODEL', useValue: model}],
      }).compile();
      const result = moduleRef.get(CatsService).findByBreed('Maine Coon');
      expect(result).toBeInstanceOf(Promise);
      expect(await result).toEqual(['result']);
      expect(calls).toEqual([{filter: {breed: 'Maine Coon'}, order: {age: 1}}]);
      await moduleRef.close();
    },
  );
}

claim(
  `${page}#model-injection`,
  'create() builds a document from the DTO and saves it',
  async () => {
    const {CatsService} = samples(page, {edit: instanceImport}).require('cats.service');
    const saved: unknown[] = [];
    class FakeModel {
      constructor(readonly data: unknown) {}
      save() {
        saved.push(this.data);
        return Promise.resolve(this);
      }
    }
    const moduleRef = await Test.createTestingModule({
      providers: [CatsService, {provide: 'CAT_MODEL', useValue: FakeModel}],
    }).compile();
    await moduleRef.get(CatsService).create({name: 'Tom', age: 3, breed: 'Maine Coon'});
    expect(saved).toEqual([{name: 'Tom', age: 3, breed: 'Maine Coon'}]);
    await moduleRef.close();
  },
);

claim(
  `${page}#model-injection`,
  'without CatsModule in AppModule the cats routes answer 404; with it they are mapped',
  async () => {
    @Module({})
    class Empty {}
    const empty = await NestFactory.create(Empty, {logger: false});
    expect((await fetch(`${await listen(empty)}/cats`)).status).toBe(404);
    await empty.close();
    const set = samples(page, {files: {'cats.controller': controller}, edit: instanceImport});
    const {AppModule} = set.require('app.module');
    const moduleRef = await Test.createTestingModule({imports: [AppModule]})
      .overrideProvider('DATABASE_CONNECTION')
      .useValue(mongoose)
      .overrideProvider('CAT_MODEL')
      .useValue({find: () => ({exec: async () => [{name: 'Tom'}]})})
      .compile();
    const app = moduleRef.createNestApplication(undefined, {logger: false});
    const response = await fetch(`${await listen(app)}/cats`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([{name: 'Tom'}]);
    await app.close();
  },
);

// Abuse cases and failure modes.

claim.abuse(
  `${page}#model-injection`,
  "?breed[$ne]=x reaches findByBreed() as { $ne: 'x' }; the page's sanitizeFilter wraps it in $eq (no longer an operator), where it would otherwise match every other breed",
  async () => {
    const byBreed = `
  import { Controller, Get, Query } from '@nestjs/common';
  import { CatsService } from './cats.service';
  @Controller('cats')
  export class CatsController {
    constructor(private readonly catsService: CatsService) {}
    @Get()
    findByBreed(@Query('breed') breed: string) {
      // No server here: the query waits for a connection, so the route answers without it.
      this.catsService.findByBreed(breed).catch(() => undefined);
      return { received: breed };
    }
  }`;
    const set = samples(page, {files: {'cats.controller': byBreed}, edit: instanceImport});
    const {CatSchema} = set.require('schemas/cat.schema');
    const queries: any[] = [];
    CatSchema.pre('find', function (this: any) {
      queries.push(this);
    });
    const {CatsModule} = set.require('cats.module');
    const filterFor = async () => {
      const moduleRef = await Test.createTestingModule({imports: [CatsModule]})
        .overrideProvider('DATABASE_CONNECTION')
        .useValue(mongoose)
        .compile();
      const app = moduleRef.createNestApplication(undefined, {logger: false});
      try {
        const response = await fetch(`${await listen(app)}/cats?breed[$ne]=x`);
        expect(await response.json()).toEqual({received: {$ne: 'x'}});
        await new Promise((r) => setTimeout(r, 100));
        return queries[queries.length - 1].getFilter();
      } finally {
        await app.close();
        mongoose.deleteModel('Cat');
      }
    };
    expect(mongoose.get('sanitizeFilter')).toBe(true);
    expect(await filterFor()).toEqual({breed: {$eq: {$ne: 'x'}}});
    // What the setting prevents.
    mongoose.set('sanitizeFilter', false);
    try {
      expect(await filterFor()).toEqual({breed: {$ne: 'x'}});
    } finally {
      mongoose.set('sanitizeFilter', true);
    }
  },
);

claim.failure(
  `${page}#getting-started`,
  "no MongoDB server: the page's connect() rejects with MongooseServerSelectionError (ECONNREFUSED) and the application does not start",
  async () => {
    const port = await freePort();
    // serverSelectionTimeoutMS shortened for the bench (30 s by default, as the page says).
    const set = samples(page, {
      files: {'cats.controller': controller},
      edit: {
        'database.providers': [
          ...instanceImport['database.providers'],
          [
            "mongoose.connect('mongodb://localhost/nest')",
            `mongoose.connect('mongodb://127.0.0.1:${port}/nest', { serverSelectionTimeoutMS: 500 })`,
          ],
        ],
      },
    });
    const {AppModule} = set.require('app.module');
    await expect(
      NestFactory.create(AppModule, {logger: false, abortOnError: false}),
    ).rejects.toMatchObject({
      name: 'MongooseServerSelectionError',
      message: `connect ECONNREFUSED 127.0.0.1:${port}`,
    });
    mongoose.deleteModel(/.*/);
  },
);

claim.abuse(
  `${page}#model-injection`,
  "a body with a chosen _id and an unknown isAdmin: the page's create() builds the document from the three fields only; the whole body would keep the _id",
  async () => {
    const set = samples(page, {files: {'cats.controller': controller}, edit: instanceImport});
    const {CatSchema} = set.require('schemas/cat.schema');
    const saved: any[] = [];
    CatSchema.pre('save', function (this: any) {
      saved.push(this.toObject());
    });
    const {CatsModule} = set.require('cats.module');
    const {CatsService} = set.require('cats.service');
    const moduleRef = await Test.createTestingModule({imports: [CatsModule]})
      .overrideProvider('DATABASE_CONNECTION')
      .useValue(mongoose)
      .compile();
    try {
      const body = {
        _id: '64b7f0c2a1b2c3d4e5f60718',
        name: 'Tom',
        age: 3,
        breed: 'Siamese',
        isAdmin: true,
      };
      // No server: save() waits for a connection, after the pre('save') hook has seen the document.
      moduleRef
        .get(CatsService)
        .create(body)
        .catch(() => undefined);
      const Cat = moduleRef.get('CAT_MODEL', {strict: false});
      new Cat(body).save().catch(() => undefined);
      await new Promise((r) => setTimeout(r, 100));
      const [fromService, fromBody] = saved;
      expect(String(fromService._id)).not.toBe(body._id);
      expect(fromService).not.toHaveProperty('isAdmin');
      expect(String(fromBody._id)).toBe(body._id);
      expect(fromBody).not.toHaveProperty('isAdmin');
    } finally {
      await moduleRef.close();
      mongoose.deleteModel('Cat');
    }
  },
);

claim.abuse(
  `${page}#model-injection`,
  'with sanitizeFilter, ?breed[$ne]=x never reaches the server: findByBreed() rejects at once with the CastError shown, a 500 for a controller that passes the query value on',
  async () => {
    const byBreed = `
  import { Controller, Get, Query } from '@nestjs/common';
  import { CatsService } from './cats.service';
  @Controller('cats')
  export class CatsController {
    constructor(private readonly catsService: CatsService) {}
    @Get()
    findByBreed(@Query('breed') breed: string) {
      return this.catsService.findByBreed(breed);
    }
    @Get('error')
    async error(@Query('breed') breed: string) {
      try {
        await this.catsService.findByBreed(breed);
        return { error: null };
      } catch (error) {
        return { error: \`\${error.name}: \${error.message}\` };
      }
    }
  }`;
    const set = samples(page, {files: {'cats.controller': byBreed}, edit: instanceImport});
    const {CatsModule} = set.require('cats.module');
    const moduleRef = await Test.createTestingModule({imports: [CatsModule]})
      .overrideProvider('DATABASE_CONNECTION')
      .useValue(mongoose)
      .compile();
    const app = moduleRef.createNestApplication(undefined, {logger: false});
    try {
      const base = await listen(app);
      const started = Date.now();
      const {error} = await (await fetch(`${base}/cats/error?breed[$ne]=x`)).json();
      // No server here: a query that got past the cast would wait for a connection instead.
      expect(Date.now() - started).toBeLessThan(1000);
      expectOutput(page, 'mongodb-cast-error', error);
      const response = await fetch(`${base}/cats?breed[$ne]=x`);
      expect(response.status).toBe(500);
    } finally {
      await app.close();
      mongoose.deleteModel('Cat');
    }
  },
);

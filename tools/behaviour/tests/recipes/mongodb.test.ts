/**
 * MongoDB has no server on this bench, so these tests check the wiring and what Mongoose builds without a
 * connection: the 'DATABASE_CONNECTION' provider is overridden with the (unconnected) Mongoose instance.
 * Not run here: the connection itself (connect()'s promise, queries reaching a server, the cats collection's
 * contents).
 */
import {expect} from 'vitest';
import {claim, samples, nest, listen} from '../../lib';

const page = 'docs/recipes/mongodb.md';
const {Test} = nest('@nestjs/testing');
const {NestFactory} = nest('@nestjs/core');
const {Module} = nest('@nestjs/common');
const mongoose = nest('mongoose');

const controller = `
  import { Controller, Get } from '@nestjs/common';
  import { CatsService } from './cats.service';
  @Controller('cats')
  export class CatsController {
    constructor(private readonly catsService: CatsService) {}
    @Get() findAll() { return this.catsService.findAll(); }
  }`;

async function wired() {
  const ts = samples(page, {files: {'cats.controller': controller}});
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
      const {CatsService} = (lang === 'ts' ? samples(page) : samples(page, {lang: 'js'})).require(
        'cats.service',
      );
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
    const {CatsService} = samples(page).require('cats.service');
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
    const set = samples(page, {files: {'cats.controller': controller}});
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

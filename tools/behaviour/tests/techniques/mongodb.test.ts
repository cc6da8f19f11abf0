import {afterEach, describe, expect} from 'vitest';
import {
  claim,
  samples,
  fragment,
  compileModule,
  nest,
  freePort,
  memoryLogger,
  readPage,
  listen,
} from '../../lib';

// MongoDB has no server here: these tests run what works without one (schemas, models built on a
// Mongoose instance that never connects, tokens, options, the retry and error path of forRoot()).
const {Module, Injectable} = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const {MongooseModule, getModelToken, getConnectionToken} = nest('@nestjs/mongoose');
const mongoose = nest('mongoose');
const {Test} = nest('@nestjs/testing');
const page = 'docs/techniques/mongodb.md';

let toClose: any[] = [];
afterEach(async () => {
  for (const app of toClose) await app.close().catch(() => undefined);
  toClose = [];
});

/** A Mongoose instance of its own (models compile without a connection). */
const offline = () => new mongoose.Mongoose();

function shown(filename: string, nth = 1): string {
  const fence = readPage(page).fences.filter((f) => f.filename === filename)[nth - 1];
  if (!fence?.ts) throw new Error(`${page} shows no version ${nth} of ${filename}`);
  return fence.ts;
}

const catSchema = () =>
  samples(page, {files: {'schemas/cat.schema': shown('schemas/cat.schema', 1)}}).require(
    'schemas/cat.schema',
  );

describe('#defining-a-schema', () => {
  claim(
    `${page}#defining-a-schema`,
    'createForClass(Cat) returns a Mongoose Schema whose types are inferred (String, Number, String)',
    () => {
      const {CatSchema} = catSchema();
      expect(CatSchema).toBeInstanceOf(mongoose.Schema);
      expect(CatSchema.path('name').instance).toBe('String');
      expect(CatSchema.path('age').instance).toBe('Number');
      expect(CatSchema.path('breed').instance).toBe('String');
    },
  );

  claim(
    `${page}#defining-a-schema`,
    'a model registered as Cat.name is stored in the cats collection',
    () => {
      const {Cat, CatSchema} = catSchema();
      const model = offline().model(Cat.name, CatSchema);
      expect(model.collection.name).toBe('cats');
    },
  );

  claim(
    `${page}#schema-options`,
    '@Schema({ timestamps: true, collection: "felines" }) adds createdAt/updatedAt and sets the collection',
    () => {
      const {Cat} = compileModule(
        `import { Schema } from '@nestjs/mongoose';
${fragment(page, 'schema-options', '@Schema({').value}`,
        'mongo-schema-options',
      );
      const {SchemaFactory} = nest('@nestjs/mongoose');
      const schema = SchemaFactory.createForClass(Cat);
      const model = offline().model('Cat', schema);
      expect(model.collection.name).toBe('felines');
      expect(schema.path('createdAt')).toBeDefined();
      expect(schema.path('updatedAt')).toBeDefined();
    },
  );

  claim(
    `${page}#property-options`,
    'required, [String], an ObjectId ref, an array of refs and raw() become the Mongoose definitions the page describes',
    () => {
      const code = (contains: string) => fragment(page, 'property-options', contains).value;
      const {CatSchema} = compileModule(
        `import * as mongoose from 'mongoose';
import { Prop, Schema, SchemaFactory, raw } from '@nestjs/mongoose';
export class Owner {}
@Schema()
export class Cat {
${code('@Prop({ required: true })')}
${code('@Prop([String])')}
  @Prop({ type: mongoose.Schema.Types.ObjectId, ref: 'Owner' })
  owner: Owner;
${code('owners: Owner[]')}
  @Prop(
    raw({
      firstName: { type: String },
      lastName: { type: String },
    }),
  )
  keeper: Record<string, any>;
}
export const CatSchema = SchemaFactory.createForClass(Cat);`,
        'mongo-props',
      );
      expect(code('owner: Owner;')).toContain(
        "@Prop({ type: mongoose.Schema.Types.ObjectId, ref: 'Owner' })",
      );
      expect(code('raw({')).toContain('firstName: { type: String }');
      expect(CatSchema.path('name').isRequired).toBe(true);
      expect(CatSchema.path('tags').instance).toBe('Array');
      expect(CatSchema.path('tags').caster.instance).toBe('String');
      expect(CatSchema.path('owner').instance).toBe('ObjectID');
      expect(CatSchema.path('owner').options.ref).toBe('Owner');
      expect(CatSchema.path('owners').caster.options.ref).toBe('Owner');
      expect(CatSchema.path('keeper.firstName').instance).toBe('String');
      const Model = offline().model('Cat', CatSchema);
      const error = new Model({}).validateSync();
      expect(Object.keys(error.errors)).toEqual(['name']);
      const cat = new Model({name: 'Tom', tags: ['a', 1]});
      expect(cat.tags).toEqual(['a', '1']);
    },
  );

  claim(
    `${page}#virtuals`,
    'the label virtual is computed, and toJSON() leaves it out unless { toJSON: { virtuals: true } }',
    () => {
      const {Cat, CatSchema} = catSchema();
      const code = fragment(page, 'virtuals', "CatSchema.virtual('label')").value;
      new Function('CatSchema', code.replace('(this: Cat)', '()'))(CatSchema);
      const Model = offline().model(Cat.name, CatSchema);
      const cat = new Model({name: 'Tom', breed: 'Tabby'});
      expect(cat.label).toBe('Tom the Tabby');
      expect(cat.toJSON().label).toBeUndefined();
      const {SchemaFactory} = nest('@nestjs/mongoose');
      const {WithVirtuals} = compileModule(
        `import { Prop, Schema } from '@nestjs/mongoose';
@Schema({ toJSON: { virtuals: true } })
export class WithVirtuals { @Prop() name: string; @Prop() breed: string; }`,
        'mongo-virtuals',
      );
      const schema = SchemaFactory.createForClass(WithVirtuals);
      new Function('CatSchema', code.replace('(this: Cat)', '()'))(schema);
      expect(new (offline().model('W', schema))({name: 'Tom', breed: 'Tabby'}).toJSON().label).toBe(
        'Tom the Tabby',
      );
    },
  );

  claim(`${page}#schemas-without-decorators`, 'a hand-written schema is used the same way', () => {
    const {CatSchema} = samples(page, {
      files: {'schemas/cat.schema': shown('schemas/cat.schema', 2)},
    }).require('schemas/cat.schema');
    const model = offline().model('Cat', CatSchema);
    expect(model.collection.name).toBe('cats');
    expect(new model({name: 'Tom', age: '3'}).age).toBe(3);
  });
});

describe('#connecting-to-mongodb', () => {
  const unreachable = async (options: Record<string, unknown>) => {
    const port = await freePort();
    const log = memoryLogger();
    @Module({
      imports: [
        MongooseModule.forRoot(`mongodb://127.0.0.1:${port}/nest`, {
          serverSelectionTimeoutMS: 100,
          ...options,
        }),
      ],
    })
    class AppModule {}
    const error = await NestFactory.create(AppModule, {
      logger: log.logger,
      abortOnError: false,
    }).then(
      (app: any) => (toClose.push(app), undefined),
      (e: Error) => e,
    );
    return {
      error,
      lines: log.lines.filter((l) => l.context === 'MongooseModule').map((l) => l.message),
    };
  };

  claim(
    `${page}#connecting-to-mongodb`,
    'an unreachable server: "Unable to connect to the database. Retrying (n)..." per attempt, retryAttempts in total, then the bootstrap fails with the last error',
    async () => {
      const {error, lines} = await unreachable({retryAttempts: 3, retryDelay: 10});
      expect(lines).toEqual(
        [1, 2, 3].map((n) => `Unable to connect to the database. Retrying (${n})...`),
      );
      expect(error?.name).toBe('MongooseServerSelectionError');
      expect(error?.message).toMatch(/ECONNREFUSED/);
    },
  );

  claim(`${page}#connecting-to-mongodb`, 'retryAttempts defaults to 9', async () => {
    const {lines} = await unreachable({retryDelay: 1, serverSelectionTimeoutMS: 20});
    expect(lines).toHaveLength(9);
  });

  claim(
    `${page}#connecting-to-mongodb`,
    "the page's connectionErrorFactory changes the error the bootstrap fails with",
    async () => {
      const code = fragment(page, 'connecting-to-mongodb', 'connectionErrorFactory').value;
      const factory = new Function(
        `return ${/connectionErrorFactory: (\([\s\S]*?\n {2}\})/.exec(code)![1]};`,
      )();
      const {error} = await unreachable({retryAttempts: 1, connectionErrorFactory: factory});
      expect(error?.message).toMatch(/^MongoDB unreachable: connect ECONNREFUSED/);
    },
  );
});

describe('tokens and wiring', () => {
  claim(
    `${page}#using-a-model-in-a-service`,
    "the page's CatsService (TS and JS) gets the model registered under getModelToken(Cat.name)",
    async () => {
      for (const lang of ['ts', 'js'] as const) {
        const files: Record<string, string> = {
          'schemas/cat.schema': shown('schemas/cat.schema', 1),
          'dto/create-cat.dto': shown('dto/create-cat.dto', 1),
        };
        if (lang === 'js') {
          const ts = samples(page, {files});
          files['schemas/cat.schema'] =
            `module.exports = require(${JSON.stringify(`${ts.dir}/cat.schema.js`)});`;
          files['dto/create-cat.dto'] = 'export class CreateCatDto {}';
        }
        const set = samples(page, {lang, files});
        const {CatsService} = set.require('cats.service');
        const {Cat, CatSchema} = set.require('schemas/cat.schema');
        expect(getModelToken(Cat.name)).toBe('CatModel');
        const Model = offline().model(Cat.name, CatSchema);
        let saved: unknown;
        Model.prototype.save = async function () {
          saved = this.toObject();
          return this;
        };
        Model.find = () => ({exec: async () => [{name: 'Tom', age: 3, breed: 'Tabby'}]});
        const moduleRef = await Test.createTestingModule({
          providers: [CatsService, {provide: getModelToken(Cat.name), useValue: Model}],
        }).compile();
        const service = moduleRef.get(CatsService);
        await expect(service.findAll()).resolves.toHaveLength(1);
        await service.create({name: 'Felix', age: 2, breed: 'Siamese'});
        expect(saved).toMatchObject({name: 'Felix', age: 2, breed: 'Siamese'});
      }
    },
  );

  claim(
    `${page}#multiple-databases`,
    'a model on a named connection gets a token with the connection name; @InjectModel(name, connection) asks for it',
    () => {
      expect(getConnectionToken('cats')).toBe('catsConnection');
      expect(getConnectionToken()).toBe('DatabaseConnection');
      expect(getModelToken('Cat', 'cats')).toBe('catsConnection/CatModel');
      const {InjectModel} = nest('@nestjs/mongoose');
      class Consumer {
        constructor(readonly model: unknown) {}
      }
      InjectModel('Cat', 'cats')(Consumer, undefined, 0);
      expect(Reflect.getMetadata('self:paramtypes', Consumer)).toEqual([
        {index: 0, param: 'catsConnection/CatModel'},
      ]);
    },
  );

  claim(
    `${page}#multiple-databases`,
    'without the connection name, a model registered on "cats" cannot be resolved (Nest looks on the default connection)',
    async () => {
      const {CatsModule} = samples(page, {
        files: {'schemas/cat.schema': shown('schemas/cat.schema', 1)},
        pick: {'cats.module': 3},
      }).require('cats.module');
      const {Cat} = catSchema();
      const {InjectModel} = nest('@nestjs/mongoose');
      @Injectable()
      class Reader {
        constructor(readonly model: unknown) {}
      }
      InjectModel(Cat.name)(Reader, undefined, 0);
      @Module({imports: [CatsModule], providers: [Reader]})
      class Feature {}
      await expect(Test.createTestingModule({imports: [Feature]}).compile()).rejects.toThrow(
        /CatModel/,
      );
    },
  );

  claim(
    `${page}#testing`,
    "the page's spec: a mock under getModelToken(Cat.name) is what CatsService.findAll() reads",
    async () => {
      const set = samples(page, {
        files: {
          'schemas/cat.schema': shown('schemas/cat.schema', 1),
          'dto/create-cat.dto': shown('dto/create-cat.dto', 1),
        },
      });
      const spec = set.sources.get('cats.service.spec')!;
      expect(spec).toContain('provide: getModelToken(Cat.name)');
      const {CatsService} = set.require('cats.service');
      const {Cat} = set.require('schemas/cat.schema');
      const catModel = {find: () => ({exec: async () => [{name: 'Tom', age: 3, breed: 'Tabby'}]})};
      const moduleRef = await Test.createTestingModule({
        providers: [CatsService, {provide: getModelToken(Cat.name), useValue: catModel}],
      }).compile();
      await expect(moduleRef.get(CatsService).findAll()).resolves.toHaveLength(1);
    },
  );

  claim(
    `${page}#async-configuration`,
    'forRootAsync(): useFactory, useClass (createMongooseOptions()) and useExisting provide the uri; connectionName sits next to the factory',
    async () => {
      const port = await freePort();
      const uri = `mongodb://127.0.0.1:${port}/nest`;
      const {MongooseConfigService} = samples(page, {
        edit: {
          'mongoose-config.service': [
            [
              "uri: 'mongodb://localhost/nest',",
              `uri: '${uri}', serverSelectionTimeoutMS: 50, retryAttempts: 1,`,
            ],
          ],
        },
      }).require('mongoose-config.service');
      let created = 0;
      const original = MongooseConfigService.prototype.createMongooseOptions;
      MongooseConfigService.prototype.createMongooseOptions = function () {
        created += 1;
        return original.call(this);
      };
      const attempt = async (imports: unknown[]) => {
        @Module({imports})
        class AppModule {}
        return NestFactory.create(AppModule, {logger: false, abortOnError: false}).then(
          (app: any) => (toClose.push(app), undefined),
          (e: Error) => e,
        );
      };
      expect(
        (await attempt([MongooseModule.forRootAsync({useClass: MongooseConfigService})]))?.message,
      ).toMatch(/ECONNREFUSED/);
      expect(created).toBe(1);
      @Module({providers: [MongooseConfigService], exports: [MongooseConfigService]})
      class DatabaseConfigModule {}
      expect(
        (
          await attempt([
            MongooseModule.forRootAsync({
              imports: [DatabaseConfigModule],
              useExisting: MongooseConfigService,
            }),
          ])
        )?.message,
      ).toMatch(/ECONNREFUSED/);
      expect(created).toBe(2);
      const named = MongooseModule.forRootAsync({
        connectionName: 'cats',
        useFactory: () => ({uri, serverSelectionTimeoutMS: 50, retryAttempts: 1}),
      });
      const core = (named.imports ?? [])[0] as any;
      const tokens = (core.providers ?? []).map((p: any) => p.provide);
      expect(tokens).toContain('catsConnection');
      expect((await attempt([named]))?.message).toMatch(/ECONNREFUSED/);
    },
  );
});

claim(
  `${page}#discriminators`,
  'discriminator models set kind themselves, validate their own fields, and share the base collection; value stores another string',
  () => {
    const set = samples(page);
    const {Event, EventSchema} = set.require('event.schema');
    const {ClickedLinkEvent, ClickedLinkEventSchema} = set.require('clicked-link-event.schema');
    const {SignUpEvent, SignUpEventSchema} = set.require('sign-up-event.schema');
    const instance = offline();
    const Base = instance.model(Event.name, EventSchema);
    const Clicked = Base.discriminator(ClickedLinkEvent.name, ClickedLinkEventSchema);
    const SignUp = Base.discriminator(SignUpEvent.name, SignUpEventSchema, 'signup');
    const click = new Clicked({time: new Date(), url: 'https://example.com'});
    expect(click.kind).toBe('ClickedLinkEvent');
    expect(click.validateSync()).toBeUndefined();
    expect(Object.keys(new Clicked({time: new Date()}).validateSync().errors)).toEqual(['url']);
    expect(new SignUp({time: new Date(), user: 'ada'}).kind).toBe('signup');
    expect(Clicked.collection.name).toBe(Base.collection.name);
    expect(Base.collection.name).toBe('events');
  },
);

describe('#hooks-middleware and #plugins', () => {
  claim(
    `${page}#hooks-middleware`,
    "a pre('validate') hook written with function sees the document as this",
    async () => {
      const {Cat, CatSchema} = catSchema();
      const seen: unknown[] = [];
      CatSchema.pre('validate', function (this: any) {
        seen.push(this.name);
      });
      const Model = offline().model(Cat.name, CatSchema);
      await new Model({name: 'Tom'}).validate();
      expect(seen).toEqual(['Tom']);
    },
  );

  claim(
    `${page}#plugins`,
    'a plugin registered on a connection runs for every schema compiled into a model on it; a schema plugin only for that schema',
    () => {
      const {SchemaFactory} = nest('@nestjs/mongoose');
      const connection = offline().createConnection();
      const applied: string[] = [];
      connection.plugin(
        (schema: any) => void applied.push(schema.path('name') ? 'with name' : 'other'),
      );
      const {Cat} = catSchema();
      const {Owner} = compileModule(
        `import { Prop, Schema } from '@nestjs/mongoose';
@Schema() export class Owner { @Prop() email: string; }`,
        'mongo-owner',
      );
      connection.model('Cat', SchemaFactory.createForClass(Cat));
      connection.model('Owner', SchemaFactory.createForClass(Owner));
      expect(applied).toEqual(['with name', 'other']);
      const local: string[] = [];
      const own = SchemaFactory.createForClass(Cat);
      own.plugin(() => void local.push('cat schema'));
      offline().model('Cat', own);
      offline().model('Owner', SchemaFactory.createForClass(Owner));
      expect(local).toEqual(['cat schema']);
    },
  );
});

describe('request data in filters and updates (no server: the connection never opens)', () => {
  /**
   * The Cat model on a connection that never opens, with bufferCommands off so that a query fails at
   * once instead of waiting; a pre hook keeps the query, whose filter and update are then inspected.
   */
  function offlineCats(instance = offline(), connectionOptions: Record<string, unknown> = {}) {
    const {Cat, CatSchema} = catSchema();
    const schema = CatSchema.clone();
    schema.set('bufferCommands', false);
    const seen: any[] = [];
    schema.pre(['find', 'findOneAndUpdate'], function (this: any) {
      seen.push(this);
    });
    const {uri, ...options} = connectionOptions;
    const connection = uri
      ? instance.createConnection(uri as string, {...options, serverSelectionTimeoutMS: 200})
      : instance.createConnection();
    connection.asPromise?.()?.catch(() => undefined);
    const model = connection.model(Cat.name, schema, undefined, {overwriteModels: true});
    return {model, seen, Cat, connection};
  }

  claim.abuse(
    `${page}#filters-from-request-data`,
    "GET /cats/search?name[$ne]=x: Express makes name { $ne: 'x' }; the page's findByName() sends { $eq: { $ne: 'x' } }, without sanitizeFilter the filter would match every cat",
    async () => {
      const method = fragment(page, 'filters-from-request-data', 'findByName(name: string)').value;
      const {model, seen} = offlineCats();
      const {make} = compileModule<any>(`
import { Controller, Get, Query } from '@nestjs/common';
export function make(catModel: any) {
  @Controller('cats')
  class SearchController {
    catModel = catModel;
    ${method}
    findByNameUnsafe(name: string) { return this.catModel.find({ name }).exec(); }
    @Get('search') search(@Query('name') name: string) { return this.findByName(name); }
    @Get('unsafe') unsafe(@Query('name') name: string) { return this.findByNameUnsafe(name); }
  }
  return SearchController;
}
`);
      @Module({controllers: [make(model)]})
      class AppModule {}
      const app = await NestFactory.create(AppModule, {logger: false});
      toClose.push(app);
      const base = await listen(app);
      // The query fails afterwards (no server): the filter it was about to send is what matters.
      expect((await fetch(`${base}/cats/search?name[$ne]=x`)).status).toBe(500);
      expect((await fetch(`${base}/cats/unsafe?name[$ne]=x`)).status).toBe(500);
      expect(seen.map((query) => query.getFilter())).toEqual([
        {name: {$eq: {$ne: 'x'}}},
        {name: {$ne: 'x'}},
      ]);
    },
  );

  claim.abuse(
    `${page}#filters-from-request-data`,
    "sanitizeFilter set on the connection (what MongooseModule.forRoot() passes to createConnection()) leaves { $ne } as it is; mongoose.set('sanitizeFilter', true) wraps it",
    async () => {
      const hostile = {name: {$ne: 'x'}};
      const onConnection = offlineCats(offline(), {
        uri: 'mongodb://127.0.0.1:1/cats',
        sanitizeFilter: true,
      });
      await onConnection.model
        .find(hostile)
        .exec()
        .catch(() => undefined);
      expect(onConnection.seen[0].getFilter()).toEqual({name: {$ne: 'x'}});
      const global = offline();
      global.set('sanitizeFilter', true);
      const sanitized = offlineCats(global);
      await sanitized.model
        .find({name: {$ne: 'x'}})
        .exec()
        .catch(() => undefined);
      expect(sanitized.seen[0].getFilter()).toEqual({name: {$eq: {$ne: 'x'}}});
    },
  );

  claim.abuse(
    `${page}#using-a-model-in-a-service`,
    "update operators in a raw body ($unset, $inc) go into the page's findByIdAndUpdate() as they are; a whitelisting ValidationPipe drops them",
    async () => {
      const method = fragment(
        page,
        'using-a-model-in-a-service',
        'findByIdAndUpdate(id, changes',
      ).value;
      const {model, seen} = offlineCats();
      const {CatsUpdater, UpdateCatDto} = compileModule<any>(`
import { NotFoundException } from '@nestjs/common';
import { IsInt, IsOptional, IsString } from 'class-validator';
type Cat = any;
export class UpdateCatDto {
  @IsOptional() @IsString() name?: string;
  @IsOptional() @IsInt() age?: number;
}
export class CatsUpdater {
  constructor(private catModel: any) {}
  ${method}
}
`);
      const updater = new CatsUpdater(model);
      const body = {$unset: {name: 1}, $inc: {age: 100}};
      await updater.update('62f0c1a4e4b0a1b2c3d4e5f6', body).catch(() => undefined);
      expect(seen[0].getUpdate()).toMatchObject({$unset: {name: 1}, $inc: {age: 100}});
      const {ValidationPipe} = nest('@nestjs/common');
      const pipe = new ValidationPipe({whitelist: true});
      const cleaned = await pipe.transform(
        {...body, age: 4},
        {type: 'body', metatype: UpdateCatDto},
      );
      expect(cleaned).toEqual({age: 4});
    },
  );

  claim.failure(
    `${page}#using-a-model-in-a-service`,
    'POST /cats with "age": "old" fails in save() with a ValidationError (Cast to Number failed), which the client receives as a 500',
    async () => {
      const set = samples(page, {
        files: {'schemas/cat.schema': shown('schemas/cat.schema', 1)},
      });
      const {CatsController} = set.require('cats.controller');
      const {CatsService} = set.require('cats.service');
      const {model, Cat} = offlineCats();
      const errors: string[] = [];
      @Module({
        controllers: [CatsController],
        providers: [CatsService, {provide: getModelToken(Cat.name), useValue: model}],
      })
      class AppModule {}
      const app = await NestFactory.create(AppModule, {
        logger: {...memoryLogger().logger, error: (message: string) => errors.push(message)},
      });
      toClose.push(app);
      const base = await listen(app);
      const response = await fetch(`${base}/cats`, {
        method: 'POST',
        headers: {'content-type': 'application/json'},
        body: JSON.stringify({name: 'Tom', age: 'old', breed: 'Tabby'}),
      });
      expect([response.status, await response.json()]).toEqual([
        500,
        {statusCode: 500, message: 'Internal server error'},
      ]);
      expect(errors.join('\n')).toContain('Cast to Number failed for value "old"');
    },
  );
});

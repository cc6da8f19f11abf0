import {afterAll, beforeAll, describe, expect} from 'vitest';
import {claim, samples, nest, expectOutput, compileModule, readPage, typeErrors} from '../../lib';
import {start, gql, type Started, nodeChild} from './_support';

const {Module, ValidationPipe} = nest('@nestjs/common');
const {GraphQLModule, GraphQLSchemaHost} = nest('@nestjs/graphql');
const {printType} = nest('graphql');
const page = 'docs/graphql/mapped-types.md';

const files = {
  'cats/models/cat.model': `
import { Field, ID, Int, ObjectType } from '@nestjs/graphql';

@ObjectType()
export class Cat {
  @Field(() => ID)
  id: string;

  @Field()
  name: string;

  @Field(() => Int)
  age: number;

  @Field()
  breed: string;
}
`,
  'cats.service': `
import { Injectable } from '@nestjs/common';

@Injectable()
export class CatsService {
  async update(id: string, input: any) {
    return { id, name: 'Tom', age: 3, breed: 'Tabby', ...input };
  }
}
`,
};

describe('the page’s derived inputs in one app', () => {
  let started: Started;
  let schema: any;
  beforeAll(async () => {
    const set = samples(page, {pick: {'cats/dto/update-cat.input': 1}, files});
    const {CatsResolver} = set.require('cats/cats.resolver');
    const {CatsService} = set.require('cats.service');
    const dir = set.dir;
    const {Extra} = compileModule(`
import { Args, Mutation, Resolver } from '@nestjs/graphql';
const { RenameCatInput } = require(${JSON.stringify(dir + '/rename-cat.input.js')});
const { RegisterStrayInput } = require(${JSON.stringify(dir + '/register-stray.input.js')});
const { AdmitCatInput } = require(${JSON.stringify(dir + '/admit-cat.input.js')});
const { UpdateStrayInput } = require(${JSON.stringify(dir + '/update-stray.input.js')});
@Resolver()
export class Extra {
  @Mutation(() => String) rename(@Args('input') input: RenameCatInput) { return JSON.stringify(input); }
  @Mutation(() => String) register(@Args('input') input: RegisterStrayInput) { return JSON.stringify(input); }
  @Mutation(() => String) admit(@Args('input') input: AdmitCatInput) { return JSON.stringify(input); }
  @Mutation(() => String) updateStray(@Args('input') input: UpdateStrayInput) { return JSON.stringify(input); }
}`);
    const {Resolver, Query} = nest('@nestjs/graphql');
    @Resolver()
    class Q {
      @Query(() => String)
      ping() {
        return 'pong';
      }
    }
    @Module({
      imports: [GraphQLModule.forRoot({autoSchemaFile: true})],
      providers: [CatsResolver, CatsService, Extra, Q],
    })
    class AppModule {}
    started = await start(AppModule, {before: (app) => app.useGlobalPipes(new ValidationPipe())});
    schema = started.app.get(GraphQLSchemaHost).schema;
  });
  afterAll(() => started?.close());

  const fieldsOf = (name: string) =>
    Object.values(schema.getType(name).getFields()).map((f: any) => `${f.name}: ${f.type}`);

  claim(`${page}#partial`, 'PartialType(CreateCatInput) gives the SDL the page shows', () => {
    expectOutput(page, 'update-cat-sdl', printType(schema.getType('UpdateCatInput')));
  });

  claim(
    `${page}#partial`,
    'the derived input keeps the validation rules, made optional: {} passes, a too long name fails',
    async () => {
      const ok = await gql(
        `${started.base}/graphql`,
        'mutation { updateCat(id: "1", input: {}) { name } }',
      );
      expect(ok.body).toEqual({data: {updateCat: {name: 'Tom'}}});
      const bad = await gql(
        `${started.base}/graphql`,
        `mutation { updateCat(id: "1", input: { name: "${'x'.repeat(51)}" }) { name } }`,
      );
      expect(bad.body.errors[0].extensions.response.message).toEqual([
        'name must be shorter than or equal to 50 characters',
      ]);
    },
  );

  claim.abuse(
    `${page}#composition`,
    "null for a required field passes the derived input's validation (@IsOptional skips null), and the page's updateCat refuses it with BAD_USER_INPUT before the service runs",
    async () => {
      // The rules of PartialType(OmitType(...)) let null through to any resolver that takes the input.
      const echoed = await gql(
        `${started.base}/graphql`,
        'mutation { updateStray(input: { name: null, age: null }) }',
      );
      expect(echoed.body).toEqual({data: {updateStray: '{"name":null,"age":null}'}});
      const refused = await gql(
        `${started.base}/graphql`,
        'mutation { updateCat(id: "1", input: { name: null, age: 4 }) { name } }',
      );
      expect(refused.body.data).toBeNull();
      expect(refused.body.errors[0].message).toBe('name cannot be null');
      expect(refused.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      const kept = await gql(
        `${started.base}/graphql`,
        'mutation { updateCat(id: "1", input: { age: 4 }) { name age } }',
      );
      expect(kept.body).toEqual({data: {updateCat: {name: 'Tom', age: 4}}});
    },
  );

  claim(`${page}#pick`, 'PickType keeps only the listed fields', () => {
    expect(fieldsOf('RenameCatInput')).toEqual(['name: String!']);
  });

  claim(`${page}#omit`, 'OmitType removes the listed fields', () => {
    expect(fieldsOf('RegisterStrayInput')).toEqual(['name: String!', 'age: Int!']);
  });

  claim(
    `${page}#intersection`,
    'IntersectionType has the fields of both classes, with the validation rules of both',
    async () => {
      expect(fieldsOf('AdmitCatInput')).toEqual([
        'name: String!',
        'age: Int!',
        'breed: String!',
        'vaccinated: Boolean!',
        'allergies: String',
      ]);
      const bad = await gql(
        `${started.base}/graphql`,
        'mutation { admit(input: { name: "", age: -1, breed: "x", vaccinated: true }) }',
      );
      expect(bad.body.errors[0].extensions.response.message).toEqual([
        'name must be longer than or equal to 1 characters',
        'age must not be less than 0',
      ]);
    },
  );

  claim(
    `${page}#composition`,
    'PartialType(OmitType(...)) has every field but breed, all optional',
    () => {
      expect(fieldsOf('UpdateStrayInput')).toEqual(['name: String', 'age: Int']);
    },
  );
});

claim(
  `${page}#mapped-types`,
  'PartialType from @nestjs/mapped-types copies no GraphQL fields: the derived input has none and the schema fails',
  async () => {
    const set = samples(page, {pick: {'cats/dto/update-cat.input': 1}, files});
    const {Wrong} = compileModule(`
import { InputType, Args, Query, Resolver } from '@nestjs/graphql';
import { PartialType } from '@nestjs/mapped-types';
const { CreateCatInput } = require(${JSON.stringify(set.dir + '/create-cat.input.js')});
@InputType()
export class WrongUpdateInput extends PartialType(CreateCatInput) {}
@Resolver()
export class Wrong {
  @Query(() => String) probe(@Args('input') input: WrongUpdateInput) { return 'x'; }
}`);
    @Module({imports: [GraphQLModule.forRoot({autoSchemaFile: true})], providers: [Wrong]})
    class AppModule {}
    const errors: string[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args.map(String).join(' '));
    try {
      await expect(start(AppModule)).rejects.toThrow('Schema generation error');
    } finally {
      console.error = original;
    }
    expect(errors.join('\n')).toContain(
      'Input Object type WrongUpdateInput must define one or more fields.',
    );
  },
);

claim(
  `${page}#pick`,
  'without as const the keys still narrow: the class has only name, and a misspelled key does not compile (tsc 4.9)',
  () => {
    const fences = readPage(page).fences;
    const input = fences.find((f) => f.filename === 'cats/dto/create-cat.input')!.ts!;
    const rename = fences.find((f) => f.filename === 'cats/dto/rename-cat.input')!.ts!;
    expect(rename).toContain("['name'] as const");
    const plain = rename.replace("['name'] as const", "['name']");
    const use = (from: string, property: string) =>
      `import { RenameCatInput } from './${from}';\nexport const value: string = new RenameCatInput().${property};\n`;
    // One program: the page's file, the same without the assertion, and a misspelled key.
    const errors = typeErrors({
      'create-cat.input': input,
      'rename-cat.input': rename,
      'rename-plain': plain,
      'rename-misspelled': plain.replace("['name']", "['nmae']"),
      'use-page': use('rename-cat.input', 'name'),
      'use-plain': use('rename-plain', 'name'),
      'use-plain-breed': use('rename-plain', 'breed'),
    });
    expect(
      errors.map((e) => `${e.at.split(':')[0]} ${e.code} ${e.message.split('\n')[0]}`),
    ).toEqual([
      `rename-misspelled TS2322 Type '"nmae"' is not assignable to type 'keyof CreateCatInput'.`,
      `use-plain-breed TS2339 Property 'breed' does not exist on type 'RenameCatInput'.`,
    ]);
  },
  // CPU-bound: a few seconds alone, much more on a loaded machine.
  180_000,
);

claim.abuse(
  `${page}#partial`,
  'with the input derived from the model without its id, updateCat(input: { id: "2" }) is refused; derived from the whole model it would overwrite the id',
  async () => {
    // In child processes: each builds its own Cat and UpdateCatInput types.
    const run = async (edit: [string, string][]) => {
      const set = samples(page, {
        pick: {'cats/dto/update-cat.input': 2},
        files,
        edit: {'cats/dto/update-cat.input': edit},
      });
      const child = nodeChild(`
const { Module: NestModule } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { GraphQLModule, Query, Resolver } = require('@nestjs/graphql');
class Ping { ping() { return 'pong'; } }
Query(() => String)(Ping.prototype, 'ping', Object.getOwnPropertyDescriptor(Ping.prototype, 'ping'));
Resolver()(Ping);
const { CatsResolver } = require(${JSON.stringify(set.dir + '/cats.resolver.js')});
const { CatsService } = require(${JSON.stringify(set.dir + '/cats.service.js')});
class AppModule {}
NestModule({ imports: [GraphQLModule.forRoot({ autoSchemaFile: true, debug: false })], providers: [CatsResolver, CatsService, Ping] })(AppModule);
(async () => {
  const app = await NestFactory.create(AppModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  const response = await fetch((await app.getUrl()) + '/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'mutation { updateCat(id: "1", input: { id: "2", name: "Tom" }) { id name } }' }),
  });
  console.log('RESULT ' + JSON.stringify(await response.json()));
  await app.close();
})();`);
      try {
        await child.waitFor('RESULT');
        return JSON.parse(/RESULT (.*)/.exec(child.out)![1]);
      } finally {
        await child.kill();
      }
    };
    const safe = await run([]);
    expect(safe.errors[0].message).toBe('Field "id" is not defined by type "UpdateCatInput".');
    const whole = await run([
      ["OmitType(Cat, ['id'] as const)", 'Cat'],
      ['import { InputType, OmitType, PartialType }', 'import { InputType, PartialType }'],
    ]);
    expect(whole).toEqual({data: {updateCat: {id: '2', name: 'Tom'}}});
  },
  20_000,
);

import {expect} from 'vitest';
import {existsSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {claim, samples, nest, fragment, compileModule} from '../../lib';
import {tempDir} from './_support';

const page = 'docs/graphql/generating-sdl.md';

const files = {
  'cats/cats.resolver': `
import { Field, Int, ObjectType, Query, Resolver } from '@nestjs/graphql';

@ObjectType()
export class Cat {
  @Field()
  name: string;

  @Field(() => Int)
  age: number;
}

export class Database {
  constructor() {
    (globalThis as any).__sdlDatabaseCreated = true;
  }
}

@Resolver(() => Cat)
export class CatsResolver {
  constructor(private readonly database: Database) {
    (globalThis as any).__sdlResolverCreated = true;
  }

  @Query(() => [Cat])
  cats(): Cat[] {
    return [];
  }
}
`,
  'owners/owners.resolver': `
import { Field, ObjectType, Query, Resolver } from '@nestjs/graphql';

@ObjectType()
export class Owner {
  @Field()
  fullName: string;
}

@Resolver(() => Owner)
export class OwnersResolver {
  @Query(() => [Owner])
  owners(): Owner[] {
    return [];
  }
}
`,
};

async function until(condition: () => boolean, ms = 10000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

claim(
  `${page}#generating-sdl`,
  'the script writes the SDL of the given resolvers without a header comment and without creating the resolvers or their dependencies',
  async () => {
    const file = join(tempDir(), 'schema.gql');
    const set = samples(page, {
      files,
      edit: {
        'generate-schema': [
          ["writeFileSync('schema.gql'", `writeFileSync(${JSON.stringify(file)}`],
        ],
      },
    });
    set.require('generate-schema');
    await until(() => existsSync(file));
    const sdl = readFileSync(file, 'utf8');
    expect(sdl.startsWith('type Cat {')).toBe(true);
    expect(sdl).toContain(
      fragment(page, 'generating-sdl', 'type Cat').value.trim().split('\n\ntype Query')[0],
    );
    expect(sdl).toContain('type Query {\n  cats: [Cat!]!\n  owners: [Owner!]!\n}');
    expect(sdl).not.toContain('AUTOMATICALLY GENERATED');
    expect((globalThis as any).__sdlResolverCreated).toBeUndefined();
    expect((globalThis as any).__sdlDatabaseCreated).toBeUndefined();
  },
);

claim(
  `${page}#generating-sdl`,
  'create() takes scalar classes and BuildSchemaOptions (numberScalarMode, orphanedTypes)',
  async () => {
    const {NestFactory} = nest('@nestjs/core');
    const {GraphQLSchemaBuilderModule, GraphQLSchemaFactory} = nest('@nestjs/graphql');
    const {printSchema} = nest('graphql');
    const {R, Dog, DateScalar} = compileModule(`
import { CustomScalar, Field, ObjectType, Query, Resolver, Scalar } from '@nestjs/graphql';
@Scalar('Date', () => Date)
export class DateScalar implements CustomScalar<number, Date> {
  parseValue(value: number) { return new Date(value); }
  serialize(value: Date) { return value.getTime(); }
  parseLiteral() { return new Date(); }
}
@ObjectType() export class Dog { @Field() name: string; }
@ObjectType() class Counter { @Field() value: number; @Field() at: Date; }
@Resolver() export class R { @Query(() => Counter) counter() { return null; } }
`);
    const app = await NestFactory.createApplicationContext(GraphQLSchemaBuilderModule, {
      logger: false,
    });
    try {
      const schema = await app
        .get(GraphQLSchemaFactory)
        .create([R], [DateScalar], {numberScalarMode: 'integer', orphanedTypes: [Dog]});
      const sdl = printSchema(schema);
      expect(sdl).toContain('value: Int!');
      expect(sdl).toContain('at: Date!');
      expect(sdl).toContain('type Dog {');
    } finally {
      await app.close();
    }
  },
);

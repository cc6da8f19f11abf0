import {expect} from 'vitest';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {claim, samples, nest, expectOutput, fragment, compileModule} from '../../lib';
import {start, gql, tempDir} from './_support';

const {Module} = nest('@nestjs/common');
const {GraphQLModule, GraphQLSchemaHost} = nest('@nestjs/graphql');
const {printType} = nest('graphql');
const page = 'docs/graphql/scalars.md';

const set = samples(page, {under: 'custom-scalars'});

function app(
  resolverSource: string,
  options: Record<string, unknown> = {},
  providers: unknown[] = [],
) {
  const {R} = compileModule(`
import { Args, Field, Float, ID, Int, ObjectType, Query, Resolver, GraphQLTimestamp, GraphQLISODateTime } from '@nestjs/graphql';
const { Cat } = require(${JSON.stringify(set.dir + '/cat.model.js')});
${resolverSource}
`);
  @Module({
    imports: [GraphQLModule.forRoot({autoSchemaFile: true, ...options})],
    providers: [R, ...providers],
  })
  class AppModule {}
  return start(AppModule);
}

claim(
  `${page}#built-in-scalars`,
  'the Cat model generates ID, String, Int, Float and Boolean fields as shown',
  async () => {
    const started = await app(
      `@Resolver() export class R { @Query((returns) => Cat) cat() { return { id: 1, name: 'Tom', age: 3, weightKg: 4.5, vaccinated: true }; } }`,
    );
    try {
      expectOutput(
        page,
        'cat-sdl',
        printType(started.app.get(GraphQLSchemaHost).schema.getType('Cat')),
      );
      const {body} = await gql(
        `${started.base}/graphql`,
        '{ cat { id name age weightKg vaccinated } }',
      );
      expect(body).toEqual({
        data: {cat: {id: '1', name: 'Tom', age: 3, weightKg: 4.5, vaccinated: true}},
      });
    } finally {
      await started.close();
    }
  },
);

const datesResolver = `
@ObjectType('DatedCat')
class DatedCat {
  ${fragment('docs/graphql/scalars.md', 'dates', 'createdAt: Date').value}
  ${fragment('docs/graphql/scalars.md', 'dates', 'lastSeenAt').value}
}
@Resolver() export class R {
  @Query((returns) => DatedCat) cat() { return { createdAt: new Date('2021-11-05T10:15:00.000Z'), lastSeenAt: new Date(1638316800000) }; }
  @Query((returns) => DatedCat, { nullable: true }) raw() { return { createdAt: '2021-11-05T10:15:00.000Z', lastSeenAt: 1638316800000 }; }
}`;

claim(
  `${page}#dates`,
  'a Date property defaults to DateTime (ISO string), and GraphQLTimestamp gives milliseconds: the response shows both',
  async () => {
    const started = await app(datesResolver);
    try {
      const schema = started.app.get(GraphQLSchemaHost).schema;
      expect(printType(schema.getType('DatedCat'))).toBe(
        'type DatedCat {\n  createdAt: DateTime!\n  lastSeenAt: Timestamp!\n}',
      );
      const {body} = await gql(`${started.base}/graphql`, '{ cat { createdAt lastSeenAt } }');
      expectOutput(page, 'dates-response', body);
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#dates`,
  'a date returned as a string or number serializes as null (an error on a non-nullable field)',
  async () => {
    const started = await app(datesResolver);
    try {
      const {body} = await gql(`${started.base}/graphql`, '{ raw { createdAt lastSeenAt } }');
      expect(body.data).toEqual({raw: null});
      expect(body.errors[0].message).toBe(
        'Cannot return null for non-nullable field DatedCat.createdAt.',
      );
    } finally {
      await started.close();
    }
  },
);

claim.abuse(
  `${page}#dates`,
  'the built-in DateTime checks no input: a date argument receives Invalid Date, 1970 dates, and null for an inline non-string (the block shown)',
  async () => {
    const started = await app(
      `@Resolver() export class R {
  @Query((returns) => String)
  articles(@Args('publishedAfter') publishedAfter: Date) {
    if (publishedAfter === null) return 'null';
    return Number.isNaN(publishedAfter.getTime()) ? 'Invalid Date' : publishedAfter.toISOString();
  }
}`,
    );
    try {
      const schema = started.app.get(GraphQLSchemaHost).schema;
      expect(String(schema.getQueryType().getFields().articles.args[0].type)).toBe('DateTime!');
      const lines: string[] = [];
      const query = 'query ($d: DateTime!) { articles(publishedAfter: $d) }';
      for (const value of ['not-a-date', 0, true]) {
        const {body} = await gql(`${started.base}/graphql`, query, {d: value});
        lines.push(`variable ${JSON.stringify(value)} -> ${body.data.articles}`);
      }
      const inline = await gql(`${started.base}/graphql`, '{ articles(publishedAfter: 5) }');
      lines.push(`inline 5 -> ${inline.body.data.articles}`);
      expectOutput(page, 'built-in-date-inputs', lines.join('\n'));
    } finally {
      await started.close();
    }
  },
);

claim(`${page}#dates`, "dateScalarMode: 'timestamp' makes Date properties Timestamp", async () => {
  const started = await app(datesResolver, {buildSchemaOptions: {dateScalarMode: 'timestamp'}});
  try {
    const schema = started.app.get(GraphQLSchemaHost).schema;
    expect(String(schema.getType('DatedCat').getFields().createdAt.type)).toBe('Timestamp!');
  } finally {
    await started.close();
  }
});

claim(
  `${page}#numbers`,
  "numberScalarMode: 'integer' makes a plain number Int; the default is Float",
  async () => {
    const source = `@ObjectType('Counter') class Counter { @Field() value: number; }
@Resolver() export class R { @Query((returns) => Counter) counter() { return { value: 3 }; } }`;
    for (const [mode, type] of [
      [undefined, 'Float!'],
      ['integer', 'Int!'],
    ]) {
      const started = await app(source, mode ? {buildSchemaOptions: {numberScalarMode: mode}} : {});
      try {
        expect(
          String(
            started.app.get(GraphQLSchemaHost).schema.getType('Counter').getFields().value.type,
          ),
        ).toBe(type);
      } finally {
        await started.close();
      }
    }
  },
);

claim(`${page}#numbers`, 'an Int outside 32 bits makes serialization fail', async () => {
  const started = await app(
    `@Resolver() export class R { @Query((returns) => Int, { nullable: true }) big() { return 2 ** 31; } }`,
  );
  try {
    const {body} = await gql(`${started.base}/graphql`, '{ big }');
    expect(body.data).toEqual({big: null});
    expect(body.errors[0].message).toBe(
      'Int cannot represent non 32-bit signed integer value: 2147483648',
    );
  } finally {
    await started.close();
  }
});

const articleResolver = `
const { DateScalar } = require(${JSON.stringify(set.dir + '/date.scalar.js')});
@ObjectType()
class Article {
  @Field()
  title: string;

  ${fragment('docs/graphql/scalars.md', 'custom-scalars', 'publishedAt: Date').value}
}
@Resolver() export class R {
  @Query((returns) => [Article])
  articles(@Args('publishedAfter', { type: () => Date }) after: Date) {
    if (!(after instanceof Date)) throw new Error('not a Date');
    return [{ title: 'Later', publishedAt: new Date(after.getTime() + 1) }];
  }
}
export { DateScalar };`;

claim(
  `${page}#custom-scalars`,
  'the @Scalar class registered as a provider replaces the date scalar: the schema shows scalar Date and Article as on the page',
  async () => {
    const {DateScalar} = set.require('common/scalars/date.scalar');
    const started = await app(articleResolver, {}, [DateScalar]);
    try {
      const schema = started.app.get(GraphQLSchemaHost).schema;
      expectOutput(
        page,
        'date-scalar-sdl',
        `${printType(schema.getType('Date'))}\n\n${printType(schema.getType('Article'))}`,
      );
      const query = fragment(page, 'custom-scalars', 'articles(publishedAfter').value.replace(
        'title',
        'title\n    publishedAt',
      );
      const {body} = await gql(`${started.base}/graphql`, query);
      expect(body).toEqual({data: {articles: [{title: 'Later', publishedAt: 1638316800001}]}});
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#custom-scalars`,
  'a literal that parseLiteral() rejects is reported as a validation error of the query',
  async () => {
    const {DateScalar} = set.require('common/scalars/date.scalar');
    const started = await app(articleResolver, {}, [DateScalar]);
    try {
      const {body} = await gql(
        `${started.base}/graphql`,
        '{ articles(publishedAfter: "yesterday") { title } }',
      );
      expect(body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(body.errors[0].message).toContain('Date literals must be integers (milliseconds)');
      const variables = await gql(
        `${started.base}/graphql`,
        'query($d: Date!) { articles(publishedAfter: $d) { publishedAt } }',
        {d: 5},
      );
      expect(variables.body).toEqual({data: {articles: [{publishedAt: 6}]}});
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#importing-a-scalar`,
  'code first: GraphQLJSON used in a type function is added to the schema and passes any JSON value',
  async () => {
    const started = await app(`import GraphQLJSON from 'graphql-type-json';
@ObjectType('Thing') class Thing { ${fragment(page, 'importing-a-scalar', 'GraphQLJSON, {').value} }
@Resolver() export class R { @Query((returns) => Thing) thing() { return { metadata: { a: [1, 'b'] } }; } }`);
    try {
      expect(started.app.get(GraphQLSchemaHost).schema.getType('JSON')).toBeDefined();
      const {body} = await gql(`${started.base}/graphql`, '{ thing { metadata } }');
      expect(body).toEqual({data: {thing: {metadata: {a: [1, 'b']}}}});
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#schema-first`,
  'schema first: the UUID GraphQLScalarType passed in resolvers validates values against scalar UUID',
  async () => {
    const {UuidScalar} = set.require('common/scalars/uuid.scalar');
    const dir = tempDir({
      's.graphql': 'scalar UUID\n\ntype Query {\n  echo(id: UUID!): UUID!\n}\n',
    });
    const {Resolver, Query, Args} = nest('@nestjs/graphql');
    @Resolver()
    class EchoResolver {
      @Query()
      echo(@Args('id') id: string) {
        return id;
      }
    }
    @Module({
      imports: [
        GraphQLModule.forRoot({typePaths: [`${dir}/*.graphql`], resolvers: {UUID: UuidScalar}}),
      ],
      providers: [EchoResolver],
    })
    class AppModule {}
    const started = await start(AppModule);
    try {
      const id = '123e4567-e89b-12d3-a456-426614174000';
      expect((await gql(`${started.base}/graphql`, `{ echo(id: "${id}") }`)).body).toEqual({
        data: {echo: id},
      });
      const bad = await gql(`${started.base}/graphql`, '{ echo(id: "nope") }');
      expect(bad.body.errors[0].message).toContain('Value is not a valid UUID: nope');
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#typings-for-custom-scalars`,
  'the generated definitions: a type alias per scalar (UUID = string, Decimal = _Big with the header import), none for Date, other scalars any or defaultScalarType',
  async () => {
    const sdl =
      'scalar UUID\nscalar Decimal\nscalar Date\nscalar Color\n\ntype Article {\n  id: UUID!\n  price: Decimal!\n  publishedAt: Date!\n  tint: Color\n}\n\ntype Query {\n  article: Article\n}\n';
    const dir = tempDir({'article.graphql': sdl});
    const forRoot = fragment(page, 'typings-for-custom-scalars', 'customScalarTypeMapping').value;
    const generate = async (edit: (source: string) => string) => {
      const {UuidScalar} = set.require('common/scalars/uuid.scalar');
      const {options} = compileModule<{options: (uuid: unknown) => unknown}>(`
import { join } from 'path';
const GraphQLModule = { forRoot: (o: any) => o };
export const options = (UuidScalar: unknown) => ${edit(
        forRoot
          .replace(
            "typePaths: ['./**/*.graphql']",
            `typePaths: [${JSON.stringify(`${dir}/*.graphql`)}]`,
          )
          .replace("join(process.cwd(), 'src/graphql.ts')", JSON.stringify(`${dir}/graphql.ts`)),
      ).replace(/;\s*$/, '')};
`);
      @Module({imports: [GraphQLModule.forRoot(options(UuidScalar))]})
      class AppModule {}
      const started = await start(AppModule);
      await started.close();
      return readFileSync(join(dir, 'graphql.ts'), 'utf8');
    };
    const mapped = await generate((source) => source);
    expect(mapped).toContain("import _Big from 'big.js';");
    expect(mapped).toContain('export type UUID = string;');
    expect(mapped).toContain('export type Decimal = _Big;');
    expect(mapped).toContain('export type Color = any;');
    expect(mapped).not.toMatch(/export type Date\b/);
    expect(mapped).toMatch(
      /export class Article \{[^}]*id: UUID;[^}]*price: Decimal;[^}]*publishedAt: Date;/,
    );
    const unmapped = await generate((source) =>
      source
        .replace(/customScalarTypeMapping: \{[^}]*\},/, "defaultScalarType: 'unknown',")
        .replace(/additionalHeader: [^\n]*\n/, ''),
    );
    expect(unmapped).toContain('export type UUID = unknown;');
    expect(unmapped).toContain('export type Decimal = unknown;');
    expect(unmapped).not.toMatch(/export type Date\b/);
    expect(unmapped).toMatch(/publishedAt: Date;/);
  },
  60_000,
);

// ---- The custom Date scalar against hostile values ----

claim.abuse(
  `${page}#custom-scalars`,
  'a variable that is not whole milliseconds ("not-a-date", "2021-11-05", 1.5) is refused before the resolver runs',
  async () => {
    const {DateScalar} = set.require('common/scalars/date.scalar');
    const started = await app(articleResolver, {}, [DateScalar]);
    try {
      for (const value of ['not-a-date', '2021-11-05', 1.5]) {
        const {status, body} = await gql(
          `${started.base}/graphql`,
          'query($d: Date!) { articles(publishedAfter: $d) { title } }',
          {d: value},
        );
        expect(status).toBe(400);
        expect(body.errors[0].message).toBe(
          `Variable "$d" got invalid value ${JSON.stringify(value)}; Expected type "Date". Date values must be whole milliseconds within the range of a Date`,
        );
      }
    } finally {
      await started.close();
    }
  },
);

claim.abuse(
  `${page}#custom-scalars`,
  'an INT literal beyond the range of a Date (99999999999999999999) is a validation error, not an invalid Date in the resolver',
  async () => {
    const {DateScalar} = set.require('common/scalars/date.scalar');
    const started = await app(articleResolver, {}, [DateScalar]);
    try {
      const {body} = await gql(
        `${started.base}/graphql`,
        '{ articles(publishedAfter: 99999999999999999999) { title } }',
      );
      expect(body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(body.errors[0].message).toBe(
        'Expected value of type "Date!", found 99999999999999999999; Date values must be whole milliseconds within the range of a Date',
      );
    } finally {
      await started.close();
    }
  },
);

claim.failure(
  `${page}#custom-scalars`,
  'a resolver returning the date as a string (as some drivers do) gets the scalar’s own field error, not "value.getTime is not a function"',
  async () => {
    const {DateScalar} = set.require('common/scalars/date.scalar');
    const started = await app(
      articleResolver.replace(
        'publishedAt: new Date(after.getTime() + 1)',
        "publishedAt: '2021-12-01T00:00:00.000Z'",
      ),
      {debug: false},
      [DateScalar],
    );
    try {
      const {body} = await gql(
        `${started.base}/graphql`,
        '{ articles(publishedAfter: 5) { title publishedAt } }',
      );
      expect(body.errors[0].message).toBe('Date can only serialize a valid Date instance');
      expect(body.errors[0].path).toEqual(['articles', 0, 'publishedAt']);
      expect(body.data).toBeNull();
    } finally {
      await started.close();
    }
  },
);

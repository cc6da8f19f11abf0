import {expect} from 'vitest';
import {claim, samples, nest, fragment, expectOutput, compileModule, readPage} from '../../lib';
import {start, gql, tempDir} from './_support';

const {Module} = nest('@nestjs/common');
const {GraphQLModule, GraphQLSchemaHost, Resolver, Query, Args} = nest('@nestjs/graphql');
const {printType} = nest('graphql');
const page = 'docs/graphql/unions-and-enums.md';

// Flattened by file name, cats/models/cat.model (the enum section's) would replace search/models/cat.model.
const searchCat = readPage(page).fences.find((f) => f.filename === 'search/models/cat.model')!.ts!;
const searchService = (rows: string) => ({
  'cats/models/cat.model': searchCat,
  'search/search.service': `
import { Injectable } from '@nestjs/common';
import { Cat } from './models/cat.model';
import { Owner } from './models/owner.model';

@Injectable()
export class SearchService {
  async search(term: string): Promise<any[]> {
    return ${rows};
  }
}
`,
});
const instances =
  "[Object.assign(new Cat(), { id: '1', name: 'Tom', breed: 'Tabby' }), Object.assign(new Owner(), { id: '2', fullName: 'Tom Smith' })]";
const plain =
  "[{ id: '1', name: 'Tom', breed: 'Tabby' }, { id: '2', fullName: 'Tom Smith' }, ...(term === 'x' ? [{ id: '3' }] : [])]";
const expected = {
  data: {
    search: [
      {__typename: 'Cat', name: 'Tom', breed: 'Tabby'},
      {__typename: 'Owner', fullName: 'Tom Smith'},
    ],
  },
};

async function appOf(set: any) {
  const {SearchResolver} = set.require('search/search.resolver');
  const {SearchService} = set.require('search/search.service');
  @Module({
    imports: [GraphQLModule.forRoot({autoSchemaFile: true})],
    providers: [SearchResolver, SearchService],
  })
  class AppModule {}
  return start(AppModule);
}

claim(
  `${page}#code-first`,
  'createUnionType() gives the SDL the page shows; instances are told apart with instanceof',
  async () => {
    const started = await appOf(
      samples(page, {pick: {'search/search-result.union': 1}, files: searchService(instances)}),
    );
    try {
      const schema = started.app.get(GraphQLSchemaHost).schema;
      expectOutput(
        page,
        'search-union-sdl',
        `${printType(schema.getType('SearchResult'))}\n\n${printType(schema.getQueryType())}`,
      );
      expect(
        (
          await gql(
            `${started.base}/graphql`,
            fragment(page, 'unions', 'query FindEverything').value,
          )
        ).body,
      ).toEqual(expected);
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#code-first`,
  'with resolveType() plain objects resolve; returning null fails the field',
  async () => {
    const set = samples(page, {
      files: searchService(plain),
      edit: {'search/search-result.union': [["name: 'SearchResult',", "name: 'SearchRow',"]]},
    });
    const started = await appOf(set);
    try {
      expect(
        (
          await gql(
            `${started.base}/graphql`,
            '{ search(term: "tom") { __typename ... on Cat { name breed } ... on Owner { fullName } } }',
          )
        ).body,
      ).toEqual(expected);
      const {body} = await gql(`${started.base}/graphql`, '{ search(term: "x") { __typename } }');
      expect(body.data).toBeNull();
      expect(body.errors[0].message).toMatch(
        /Abstract type "SearchRow" must resolve to an Object type at runtime for field "Query.search"/,
      );
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#schema-first`,
  'schema first: the __resolveType resolver named after the union picks the member',
  async () => {
    const dir = tempDir({
      'search.graphql': fragment(page, 'schema-first', 'union SearchResult').value,
    });
    const {SearchResultResolver} = samples(page, {files: searchService(plain)}).require(
      'search/search-result.resolver',
    );
    @Resolver()
    class Queries {
      @Query()
      search() {
        return [
          {id: '1', name: 'Tom', breed: 'Tabby'},
          {id: '2', fullName: 'Tom Smith'},
        ];
      }
    }
    @Module({
      imports: [GraphQLModule.forRoot({typePaths: [`${dir}/*.graphql`]})],
      providers: [SearchResultResolver, Queries],
    })
    class AppModule {}
    const started = await start(AppModule);
    try {
      expect(
        (
          await gql(
            `${started.base}/graphql`,
            '{ search(term: "tom") { __typename ... on Cat { name breed } ... on Owner { fullName } } }',
          )
        ).body,
      ).toEqual(expected);
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#code-first-1`,
  'registerEnumType(): the client sends LONG, the resolver receives "long", and returned values go out as names; the SDL carries descriptions and deprecations',
  async () => {
    const set = samples(page, {under: 'code-first-1'});
    const {CoatLength} = set.require('cats/enums/coat-length.enum');
    const {Cat} = set.require('cats/models/cat.model');
    const received: unknown[] = [];
    @Resolver()
    class CatsResolver {
      @Query(() => [Cat])
      cats(@Args('coatLength', {type: () => CoatLength}) coatLength: string) {
        received.push(coatLength);
        return [{name: 'Tom', coatLength}];
      }
    }
    @Module({imports: [GraphQLModule.forRoot({autoSchemaFile: true})], providers: [CatsResolver]})
    class AppModule {}
    const started = await start(AppModule);
    try {
      const schema = started.app.get(GraphQLSchemaHost).schema;
      expectOutput(page, 'coat-length-sdl', printType(schema.getType('CoatLength')));
      const {body} = await gql(
        `${started.base}/graphql`,
        '{ cats(coatLength: LONG) { name coatLength } }',
      );
      expect(body).toEqual({data: {cats: [{name: 'Tom', coatLength: 'LONG'}]}});
      expect(received).toEqual(['long']);
      const invalid = await gql(`${started.base}/graphql`, '{ cats(coatLength: EXTRA) { name } }');
      expect(invalid.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(received).toEqual(['long']);
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#code-first-1`,
  'an enum used in a decorator without registerEnumType() makes schema generation fail',
  async () => {
    const {R} = compileModule(`
import { Args, Query, Resolver } from '@nestjs/graphql';
enum Size { S = 's', L = 'l' }
@Resolver()
export class R {
  @Query(() => String) size(@Args('size', { type: () => Size }) size: Size) { return size; }
}`);
    @Module({imports: [GraphQLModule.forRoot({autoSchemaFile: true})], providers: [R]})
    class AppModule {}
    await expect(start(AppModule)).rejects.toThrow(/Cannot determine a GraphQL input type/);
  },
);

claim(
  `${page}#schema-first-1`,
  'schema first: the resolvers map turns LONG into "long" for the resolver and back; an unmapped value is a field error',
  async () => {
    const sdl =
      fragment(page, 'schema-first-1', 'enum CoatLength').value +
      '\ntype Query {\n  cats(coatLength: CoatLength!): [Cat!]!\n  odd: CoatLength\n}\n';
    const dir = tempDir({'cats.graphql': sdl});
    const received: unknown[] = [];
    @Resolver()
    class CatsResolver {
      @Query()
      cats(@Args('coatLength') coatLength: string) {
        received.push(coatLength);
        return [{name: 'Tom', coatLength}];
      }
      @Query()
      odd() {
        return 'extra-long';
      }
    }
    @Module({providers: [CatsResolver]})
    class CatsModule {}
    (globalThis as any).__enums = {CatsModule};
    const set = samples(page, {
      under: 'schema-first-1',
      files: {'cats/cats.module': 'export const { CatsModule } = (globalThis as any).__enums;\n'},
      edit: {'app.module': [["typePaths: ['./**/*.graphql']", `typePaths: ['${dir}/*.graphql']`]]},
    });
    const started = await start(set.require('app.module').AppModule);
    try {
      const {body} = await gql(
        `${started.base}/graphql`,
        '{ cats(coatLength: LONG) { coatLength } }',
      );
      expect(body).toEqual({data: {cats: [{coatLength: 'LONG'}]}});
      expect(received).toEqual(['long']);
      const odd = await gql(`${started.base}/graphql`, '{ odd }');
      expect(odd.body.data).toEqual({odd: null});
      expect(odd.body.errors[0].message).toMatch(
        /Enum "CoatLength" cannot represent value: "extra-long"/,
      );
    } finally {
      await started.close();
    }
  },
);

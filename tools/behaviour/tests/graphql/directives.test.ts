import {expect} from 'vitest';
import {readFileSync} from 'node:fs';
import {join, dirname} from 'node:path';
import {claim, samples, nest, fragment, compileModule} from '../../lib';
import {start, gql, tempDir} from './_support';

const {Module} = nest('@nestjs/common');
const {GraphQLModule} = nest('@nestjs/graphql');
const page = 'docs/graphql/directives.md';

// `npm i @graphql-tools/utils@^8` as the page says: here the 8.x copy that apollo-server-core brings.
const utils8 = join(
  dirname(
    require.resolve('apollo-server-core/package.json', {paths: [join(__dirname, '..', '..')]}),
  ),
  'node_modules',
  '@graphql-tools',
  'utils',
);

const files = {
  'cats/cats.service': `
import { Injectable } from '@nestjs/common';

@Injectable()
export class CatsService {
  async findAll() {
    return [{ name: 'Tom', age: 3, breed: 'Maine Coon', nickname: 'T' }];
  }
}
`,
  'cats/cats.module': `
import { Module } from '@nestjs/common';
import { CatsResolver } from './cats.resolver';
import { CatsService } from './cats.service';

@Module({ providers: [CatsResolver, CatsService] })
export class CatsModule {}
`,
};

const set = samples(page, {
  pick: {'cats/models/cat.model': 1, 'app.module': 1},
  files,
  edit: {
    'common/directives/upper-case.directive': [["from '@graphql-tools/utils'", `from '${utils8}'`]],
    'app.module': [["autoSchemaFile: 'schema.gql'", 'autoSchemaFile: true']],
  },
});

claim(
  `${page}#code-first`,
  '@upper on a field and on a query handler upper-cases the result ("Maine Coon" becomes "MAINE COON")',
  async () => {
    const started = await start(set.require('app.module').AppModule);
    try {
      const {body} = await gql(
        `${started.base}/graphql`,
        '{ cats { name breed } greeting(name: "Tom") }',
      );
      expect(body).toEqual({
        data: {cats: [{name: 'Tom', breed: 'MAINE COON'}], greeting: 'HELLO, TOM'},
      });
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#code-first`,
  'the directives array replaces the default list: without specifiedDirectives, @include is unknown',
  async () => {
    const {CatsModule} = set.require('cats/cats.module');
    const {upperDirectiveTransformer} = set.require('common/directives/upper-case.directive');
    const {GraphQLDirective, DirectiveLocation} = nest('graphql');
    @Module({
      imports: [
        CatsModule,
        GraphQLModule.forRoot({
          autoSchemaFile: true,
          transformSchema: (schema: any) => upperDirectiveTransformer(schema, 'upper'),
          buildSchemaOptions: {
            directives: [
              new GraphQLDirective({
                name: 'upper',
                locations: [DirectiveLocation.FIELD_DEFINITION],
              }),
            ],
          },
        }),
      ],
    })
    class AppModule {}
    const started = await start(AppModule);
    try {
      const {body} = await gql(
        `${started.base}/graphql`,
        '{ cats { name @include(if: true) breed } }',
      );
      expect(body.errors[0].message).toBe('Unknown directive "@include".');
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#code-first`,
  'the SDL file written by autoSchemaFile does not show the applied @upper',
  async () => {
    const {CatsModule} = set.require('cats/cats.module');
    const source = set.sources.get('app.module')!;
    const file = join(tempDir(), 'schema.gql');
    (globalThis as any).__dir = {
      CatsModule,
      upperDirectiveTransformer: set.require('common/directives/upper-case.directive')
        .upperDirectiveTransformer,
    };
    const started = await start(
      compileModule(
        source
          .replace(
            "import { CatsModule } from './cats/cats.module';",
            'const { CatsModule } = (globalThis as any).__dir;',
          )
          .replace(
            "import { upperDirectiveTransformer } from './common/directives/upper-case.directive';",
            'const { upperDirectiveTransformer } = (globalThis as any).__dir;',
          )
          .replace('autoSchemaFile: true', `autoSchemaFile: ${JSON.stringify(file)}`),
      ).AppModule,
    );
    try {
      const sdl = readFileSync(file, 'utf8');
      expect(sdl).toContain('directive @upper on FIELD_DEFINITION');
      expect(sdl).toMatch(/\n {2}breed: String!\n/);
      expect(sdl).toMatch(/\n {2}greeting\(name: String!\): String!\n/);
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#deprecating-fields`,
  'deprecationReason: introspection reports the field deprecated and the SDL shows @deprecated',
  async () => {
    const {Cat} = samples(page, {pick: {'cats/models/cat.model': 2}}).require(
      'cats/models/cat.model',
    );
    const {Resolver, Query, GraphQLSchemaHost} = nest('@nestjs/graphql');
    const {printSchema} = nest('graphql');
    @Resolver()
    class R {
      @Query(() => Cat)
      pet() {
        return {name: 'Tom', nickname: 'T'};
      }
    }
    @Module({imports: [GraphQLModule.forRoot({autoSchemaFile: true})], providers: [R]})
    class AppModule {}
    const started = await start(AppModule);
    try {
      const {body} = await gql(
        `${started.base}/graphql`,
        '{ __type(name: "Cat") { fields(includeDeprecated: true) { name isDeprecated deprecationReason } } }',
      );
      expect(body.data.__type.fields).toContainEqual({
        name: 'nickname',
        isDeprecated: true,
        deprecationReason: 'Use the "name" field instead.',
      });
      expect(printSchema(started.app.get(GraphQLSchemaHost).schema)).toContain(
        'nickname: String @deprecated(reason: "Use the \\"name\\" field instead.")',
      );
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#schema-first`,
  'schema first: the SDL declares @upper, transformSchema applies it',
  async () => {
    const dir = tempDir({'cats.graphql': fragment(page, 'schema-first', 'directive @upper').value});
    const {upperDirectiveTransformer} = set.require('common/directives/upper-case.directive');
    const {CatsService} = set.require('cats/cats.service');
    const {Resolver, Query} = nest('@nestjs/graphql');
    @Resolver('Cat')
    class CatsResolver {
      constructor(private readonly catsService: any) {}
      @Query()
      cats() {
        return this.catsService.findAll();
      }
    }
    Reflect.defineMetadata('design:paramtypes', [CatsService], CatsResolver);
    @Module({providers: [CatsResolver, CatsService]})
    class CatsModule {}
    (globalThis as any).__sf = {CatsModule, upperDirectiveTransformer};
    const sf = samples(page, {
      pick: {'app.module': 2},
      files: {'cats/cats.module': 'export const { CatsModule } = (globalThis as any).__sf;\n'},
      edit: {
        'app.module': [["typePaths: ['./**/*.graphql']", `typePaths: ['${dir}/*.graphql']`]],
        'common/directives/upper-case.directive': [
          ["from '@graphql-tools/utils'", `from '${utils8}'`],
        ],
      },
    });
    const started = await start(sf.require('app.module').AppModule);
    try {
      const {body} = await gql(`${started.base}/graphql`, '{ cats { name breed } }');
      expect(body).toEqual({data: {cats: [{name: 'Tom', breed: 'MAINE COON'}]}});
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#class-based-directives`,
  'schemaDirectives with a SchemaDirectiveVisitor class (graphql-tools 7) works with typePaths and with autoSchemaFile',
  async () => {
    const {UpperCaseDirective} = compileModule(
      fragment(page, 'class-based-directives', 'extends SchemaDirectiveVisitor').value,
    );
    const dir = tempDir({'cats.graphql': fragment(page, 'schema-first', 'directive @upper').value});
    const {CatsModule} = set.require('cats/cats.module');
    const {Resolver, Query} = nest('@nestjs/graphql');
    @Resolver('Cat')
    class SdlCats {
      @Query()
      cats() {
        return [{name: 'Tom', age: 3, breed: 'Maine Coon'}];
      }
    }
    @Module({
      imports: [
        GraphQLModule.forRoot({
          typePaths: [`${dir}/*.graphql`],
          schemaDirectives: {upper: UpperCaseDirective},
        }),
      ],
      providers: [SdlCats],
    })
    class SchemaFirst {}
    const {GraphQLDirective, DirectiveLocation, specifiedDirectives} = nest('graphql');
    @Module({
      imports: [
        CatsModule,
        GraphQLModule.forRoot({
          autoSchemaFile: true,
          schemaDirectives: {upper: UpperCaseDirective},
          buildSchemaOptions: {
            directives: [
              ...specifiedDirectives,
              new GraphQLDirective({
                name: 'upper',
                locations: [DirectiveLocation.FIELD_DEFINITION],
              }),
            ],
          },
        }),
      ],
    })
    class CodeFirst {}
    for (const module of [SchemaFirst, CodeFirst]) {
      const started = await start(module);
      try {
        const {body} = await gql(`${started.base}/graphql`, '{ cats { breed } }');
        expect(body).toEqual({data: {cats: [{breed: 'MAINE COON'}]}});
      } finally {
        await started.close();
      }
    }
  },
);

claim(
  `${page}#code-first`,
  'without the GraphQLDirective declaration, @upper is silently ignored (the breed comes back unchanged)',
  async () => {
    const {CatsModule} = set.require('cats/cats.module');
    const {upperDirectiveTransformer} = set.require('common/directives/upper-case.directive');
    @Module({
      imports: [
        CatsModule,
        GraphQLModule.forRoot({
          autoSchemaFile: true,
          transformSchema: (schema: any) => upperDirectiveTransformer(schema, 'upper'),
        }),
      ],
    })
    class AppModule {}
    const started = await start(AppModule);
    try {
      const {body} = await gql(`${started.base}/graphql`, '{ cats { breed } }');
      expect(body).toEqual({data: {cats: [{breed: 'Maine Coon'}]}});
    } finally {
      await started.close();
    }
  },
);

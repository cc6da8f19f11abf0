import {afterAll, beforeAll, describe, expect} from 'vitest';
import {readFileSync, statSync} from 'node:fs';
import {join} from 'node:path';
import {claim, samples, nest, expectOutput, compileModule, fragment} from '../../lib';
import {start, gql, tempDir, catsService, nodeChild, type Started} from './_support';

const {Module} = nest('@nestjs/common');
const {GraphQLModule} = nest('@nestjs/graphql');
const page = 'docs/graphql/quick-start.md';

function catsSet(edit: Record<string, any> = {}) {
  return samples(page, {under: 'example', files: {'cats.service': catsService}, edit});
}

describe('code first example', () => {
  let started: Started;
  let schemaFile: string;
  beforeAll(async () => {
    const {CatsModule} = catsSet().require('cats/cats.module');
    schemaFile = join(tempDir(), 'schema.gql');
    @Module({
      imports: [CatsModule, GraphQLModule.forRoot({autoSchemaFile: schemaFile, sortSchema: true})],
    })
    class AppModule {}
    started = await start(AppModule);
  });
  afterAll(() => started?.close());

  claim(
    `${page}#example`,
    'with sortSchema the generated file is the schema the page prints',
    async () => {
      expectOutput(page, 'cats-schema', readFileSync(schemaFile, 'utf8'));
    },
  );

  claim(`${page}#getting-started`, 'the endpoint is served at /graphql by default', async () => {
    const {status, body} = await gql(`${started.base}/graphql`, '{ cats { id name age breed } }');
    expect(status).toBe(200);
    expect(body).toEqual({data: {cats: [{id: '1', name: 'Tom', age: 3, breed: 'Tabby'}]}});
  });

  claim(`${page}#example`, 'the mutation adds a cat from the input type', async () => {
    const {body} = await gql(
      `${started.base}/graphql`,
      'mutation { addCat(input: { name: "Kit", age: 1 }) { id name breed } }',
    );
    expect(body).toEqual({data: {addCat: {id: '2', name: 'Kit', breed: null}}});
  });

  claim(
    `${page}#graphql-playground`,
    'outside production the playground loads at the endpoint URL',
    async () => {
      const response = await fetch(`${started.base}/graphql`, {headers: {accept: 'text/html'}});
      expect(response.status).toBe(200);
      expect(await response.text()).toMatch(/GraphQL Playground/);
    },
  );
});

const {Resolver, Query} = nest('@nestjs/graphql');

@Resolver()
class HelloResolver {
  @Query(() => String)
  hello() {
    return 'world';
  }
}

claim(
  `${page}#getting-started`,
  'a global prefix is ignored by the endpoint unless useGlobalPrefix is true, then it is prepended to path',
  async () => {
    for (const useGlobalPrefix of [false, true]) {
      @Module({
        imports: [GraphQLModule.forRoot({autoSchemaFile: true, useGlobalPrefix})],
        providers: [HelloResolver],
      })
      class AppModule {}
      const started = await start(AppModule, {before: (app) => app.setGlobalPrefix('api')});
      try {
        const plain = await gql(`${started.base}/graphql`, '{ hello }');
        const prefixed = await gql(`${started.base}/api/graphql`, '{ hello }');
        expect([plain.status, prefixed.status]).toEqual(useGlobalPrefix ? [404, 200] : [200, 404]);
      } finally {
        await started.close();
      }
    }
  },
);

claim(`${page}#getting-started`, 'the path option moves the endpoint', async () => {
  @Module({
    imports: [GraphQLModule.forRoot({autoSchemaFile: true, path: '/api/gql'})],
    providers: [HelloResolver],
  })
  class AppModule {}
  const started = await start(AppModule);
  try {
    expect((await gql(`${started.base}/api/gql`, '{ hello }')).body).toEqual({
      data: {hello: 'world'},
    });
    expect((await gql(`${started.base}/graphql`, '{ hello }')).status).toBe(404);
  } finally {
    await started.close();
  }
});

claim(
  `${page}#getting-started`,
  'without a query, code first fails at boot with "Schema generation error (code-first approach)" and logs that Query must be provided',
  async () => {
    @Module({imports: [GraphQLModule.forRoot({autoSchemaFile: true})]})
    class AppModule {}
    const printed: string[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void printed.push(args.map(String).join(' '));
    try {
      await expect(start(AppModule)).rejects.toThrow(
        'Schema generation error (code-first approach)',
      );
    } finally {
      console.error = original;
    }
    expect(printed.join('\n')).toMatch(/Query root type must be provided/);
  },
);

claim(
  `${page}#graphql-playground`,
  'playground: false turns the landing page off (GET with Accept: text/html gets no playground)',
  async () => {
    @Module({
      imports: [GraphQLModule.forRoot({autoSchemaFile: true, playground: false})],
      providers: [HelloResolver],
    })
    class AppModule {}
    const started = await start(AppModule);
    try {
      const response = await fetch(`${started.base}/graphql`, {headers: {accept: 'text/html'}});
      expect(await response.text()).not.toMatch(/GraphQL Playground/);
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#graphql-playground`,
  'with NODE_ENV=production and no playground option, the playground is off and introspection is refused',
  async () => {
    const previous = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      @Module({
        imports: [GraphQLModule.forRoot({autoSchemaFile: true})],
        providers: [HelloResolver],
      })
      class AppModule {}
      const started = await start(AppModule);
      try {
        const response = await fetch(`${started.base}/graphql`, {headers: {accept: 'text/html'}});
        expect(await response.text()).not.toMatch(/GraphQL Playground/);
        const {body} = await gql(`${started.base}/graphql`, '{ __schema { queryType { name } } }');
        expect(body.errors[0].message).toMatch(/introspection is not allowed/i);
      } finally {
        await started.close();
      }
    } finally {
      process.env.NODE_ENV = previous;
    }
  },
);

claim(
  `${page}#multiple-endpoints`,
  'include limits each endpoint to the resolvers of the listed modules',
  async () => {
    @Resolver()
    class CatsOnly {
      @Query(() => String)
      cat() {
        return 'cat';
      }
    }
    @Resolver()
    class OwnersOnly {
      @Query(() => String)
      owner() {
        return 'owner';
      }
    }
    @Module({providers: [CatsOnly]})
    class CatsModule {}
    @Module({providers: [OwnersOnly]})
    class OwnersModule {}
    const set = samples(page, {
      under: 'multiple-endpoints',
      edit: {
        'app.module': [
          ["autoSchemaFile: 'cats-schema.gql'", 'autoSchemaFile: true'],
          ["autoSchemaFile: 'owners-schema.gql'", 'autoSchemaFile: true'],
          ["import { CatsModule } from './cats/cats.module';", ''],
          ["import { OwnersModule } from './owners/owners.module';", ''],
          [
            '@Module({',
            'const { CatsModule, OwnersModule } = (global as any).__gqlModules;\n@Module({',
          ],
        ],
      },
    });
    (global as any).__gqlModules = {CatsModule, OwnersModule};
    const {AppModule} = set.require('app.module');
    const started = await start(AppModule);
    try {
      expect((await gql(`${started.base}/cats-graphql`, '{ cat }')).body).toEqual({
        data: {cat: 'cat'},
      });
      expect((await gql(`${started.base}/owners-graphql`, '{ owner }')).body).toEqual({
        data: {owner: 'owner'},
      });
      const wrong = await gql(`${started.base}/cats-graphql`, '{ owner }');
      expect(wrong.body.errors[0].message).toBe('Cannot query field "owner" on type "Query".');
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#schema-first`,
  'typePaths globs are merged into one schema and matched to resolver methods',
  async () => {
    const dir = tempDir({
      'cats/cats.graphql':
        'type Cat {\n  id: ID!\n  name: String!\n  age: Int!\n  breed: String\n}\n\ntype Query {\n  cats: [Cat!]!\n  cat(id: ID!): Cat\n}\n',
    });
    const {Resolver: R, Query: Q, Args} = nest('@nestjs/graphql');
    @R('Query')
    class CatsResolver {
      @Q()
      cats() {
        return [{id: '1', name: 'Tom', age: 3}];
      }
      @Q('cat')
      one(@Args('id') id: string) {
        return id === '1' ? {id, name: 'Tom', age: 3} : null;
      }
    }
    const {AppModule: Base} = samples(page, {
      pick: {'app.module': 5},
      edit: {'app.module': [["'./**/*.graphql'", `'${dir}/**/*.graphql'`]]},
    }).require('app.module');
    @Module({imports: [Base], providers: [CatsResolver]})
    class AppModule {}
    const started = await start(AppModule);
    try {
      const {body} = await gql(
        `${started.base}/graphql`,
        '{ cats { name breed } cat(id: "2") { name } }',
      );
      expect(body).toEqual({data: {cats: [{name: 'Tom', breed: null}], cat: null}});
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#accessing-the-generated-schema`,
  'GraphQLSchemaHost throws before the module initialised and holds the schema after app.init()',
  async () => {
    const {GraphQLSchemaHost} = nest('@nestjs/graphql');
    const {printSchema} = nest('graphql');
    const {NestFactory} = nest('@nestjs/core');
    @Module({imports: [GraphQLModule.forRoot({autoSchemaFile: true})], providers: [HelloResolver]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, {logger: false});
    try {
      expect(() => app.get(GraphQLSchemaHost).schema).toThrow(
        'GraphQL schema has not yet been created.',
      );
      await app.init();
      expect(printSchema(app.get(GraphQLSchemaHost).schema)).toContain('hello: String!');
    } finally {
      await app.close();
    }
  },
);

claim(
  `${page}#accessing-the-generated-schema`,
  "the page's SchemaInspectorService reads the schema in onApplicationBootstrap()",
  async () => {
    const {SchemaInspectorService} = samples(page).require('schema-inspector.service');
    @Module({
      imports: [GraphQLModule.forRoot({autoSchemaFile: true})],
      providers: [HelloResolver, SchemaInspectorService],
    })
    class AppModule {}
    const lines: string[] = [];
    const original = console.log;
    console.log = (...args: unknown[]) => void lines.push(args.join(' '));
    try {
      const {NestFactory} = nest('@nestjs/core');
      const app = await NestFactory.create(AppModule, {logger: false});
      await app.init();
      await app.close();
    } finally {
      console.log = original;
    }
    expect(lines).toContain('Queries: hello');
  },
);

claim(
  `${page}#async-configuration`,
  'forRootAsync with the ConfigService factory builds the options at runtime',
  async () => {
    process.env.GRAPHQL_PLAYGROUND = 'false';
    const {AppModule: Base} = samples(page, {under: 'async-configuration'}).require('app.module');
    @Module({imports: [Base], providers: [HelloResolver]})
    class AppModule {}
    const started = await start(AppModule);
    try {
      expect((await gql(`${started.base}/graphql`, '{ hello }')).body).toEqual({
        data: {hello: 'world'},
      });
      const html = await fetch(`${started.base}/graphql`, {headers: {accept: 'text/html'}});
      expect(await html.text()).not.toMatch(/GraphQL Playground/);
    } finally {
      await started.close();
      delete process.env.GRAPHQL_PLAYGROUND;
    }
  },
);

claim(
  `${page}#async-configuration`,
  'useClass instantiates the GqlOptionsFactory inside the module (its imports resolve ConfigService)',
  async () => {
    const {GqlConfigService} = samples(page).require('gql-config.service');
    const {ConfigModule} = nest('@nestjs/config');
    @Module({
      imports: [GraphQLModule.forRootAsync({imports: [ConfigModule], useClass: GqlConfigService})],
      providers: [HelloResolver],
    })
    class AppModule {}
    const started = await start(AppModule);
    try {
      expect((await gql(`${started.base}/graphql`, '{ hello }')).body).toEqual({
        data: {hello: 'world'},
      });
    } finally {
      await started.close();
    }
  },
);

describe('CORS on the GraphQL endpoint', () => {
  const evil = {origin: 'https://evil.example.com'};
  async function corsOf(
    options: Record<string, unknown>,
    enable?: unknown,
  ): Promise<string | null> {
    @Module({
      imports: [GraphQLModule.forRoot({autoSchemaFile: true, ...options})],
      providers: [HelloResolver],
    })
    class AppModule {}
    const started = await start(AppModule, {
      before: (app) => (enable ? app.enableCors(enable) : undefined),
    });
    try {
      const response = await gql(`${started.base}/graphql`, '{ hello }', undefined, evil);
      return response.headers.get('access-control-allow-origin');
    } finally {
      await started.close();
    }
  }

  claim(
    `${page}#cors`,
    'without the cors option Apollo answers every origin with *, even when app.enableCors() lists origins',
    async () => {
      expect(await corsOf({}, {origin: ['https://app.example.com']})).toBe('*');
    },
  );

  claim(`${page}#cors`, 'cors: false leaves the endpoint to app.enableCors()', async () => {
    expect(await corsOf({cors: false}, {origin: ['https://app.example.com']})).toBeNull();
  });

  claim.abuse(
    `${page}#cors`,
    'a CORS preflight from a foreign origin gets no Access-Control-Allow-Origin with the page’s cors options; the listed origin gets it with credentials',
    async () => {
      const text = fragment(page, 'cors', 'credentials: true').value;
      const options = new Function(
        `return ${text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'))}`,
      )();
      @Module({imports: [GraphQLModule.forRoot(options)], providers: [HelloResolver]})
      class AppModule {}
      const started = await start(AppModule);
      try {
        const preflight = (origin: string) =>
          fetch(`${started.base}/graphql`, {
            method: 'OPTIONS',
            headers: {
              origin,
              'access-control-request-method': 'POST',
              'access-control-request-headers': 'content-type',
            },
          });
        const foreign = await preflight('https://evil.example.com');
        expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
        const own = await preflight('https://app.example.com');
        expect(own.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
        expect(own.headers.get('access-control-allow-credentials')).toBe('true');
      } finally {
        await started.close();
      }
    },
  );

  claim(`${page}#cors`, 'cors with options applies them on the endpoint', async () => {
    expect(
      await corsOf({cors: {origin: ['https://app.example.com'], credentials: true}}),
    ).toBeNull();
    @Module({
      imports: [
        GraphQLModule.forRoot({
          autoSchemaFile: true,
          cors: {origin: ['https://app.example.com'], credentials: true},
        }),
      ],
      providers: [HelloResolver],
    })
    class AppModule {}
    const started = await start(AppModule);
    try {
      const response = await gql(`${started.base}/graphql`, '{ hello }', undefined, {
        origin: 'https://app.example.com',
      });
      expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
      expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    } finally {
      await started.close();
    }
  });
});

claim(
  `${page}#playground-settings`,
  'a landing page plugin with the playground on fails at startup with "Only one plugin can implement renderLandingPage."',
  async () => {
    const {ApolloServerPluginLandingPageLocalDefault} = nest('apollo-server-core');
    @Module({
      imports: [
        GraphQLModule.forRoot({
          autoSchemaFile: true,
          playground: true,
          plugins: [ApolloServerPluginLandingPageLocalDefault()],
        }),
      ],
      providers: [HelloResolver],
    })
    class AppModule {}
    await expect(start(AppModule)).rejects.toThrow(
      'Only one plugin can implement renderLandingPage.',
    );
  },
);

describe('on Fastify (apollo-server-fastify)', () => {
  const {FastifyAdapter} = nest('@nestjs/platform-fastify');

  claim(
    `${page}#installation`,
    'with the Fastify adapter GraphQLModule loads the Fastify integration and serves queries',
    async () => {
      @Module({
        imports: [GraphQLModule.forRoot({autoSchemaFile: true})],
        providers: [HelloResolver],
      })
      class AppModule {}
      const started = await start(AppModule, {adapter: new FastifyAdapter()});
      try {
        expect((await gql(`${started.base}/graphql`, '{ hello }')).body).toEqual({
          data: {hello: 'world'},
        });
        const response = await gql(`${started.base}/graphql`, '{ hello }', undefined, {
          origin: 'https://evil.example.com',
        });
        expect(response.headers.get('access-control-allow-origin')).toBe('*');
      } finally {
        await started.close();
      }
    },
  );

  claim(
    `${page}#installation`,
    'with another adapter type it throws "No support for current HttpAdapter"',
    async () => {
      const {ExpressAdapter} = nest('@nestjs/platform-express');
      class OtherAdapter extends ExpressAdapter {
        getType() {
          return 'koa';
        }
      }
      @Module({
        imports: [GraphQLModule.forRoot({autoSchemaFile: true})],
        providers: [HelloResolver],
      })
      class AppModule {}
      await expect(start(AppModule, {adapter: new OtherAdapter()})).rejects.toThrow(
        'No support for current HttpAdapter: koa',
      );
    },
  );

  claim(
    `${page}#multiple-endpoints`,
    'two endpoints on Fastify fail on the shared health check route unless disableHealthCheck is set',
    async () => {
      const endpoints = (extra: Record<string, unknown>) => [
        GraphQLModule.forRoot({autoSchemaFile: true, path: '/a', ...extra}),
        GraphQLModule.forRoot({autoSchemaFile: true, path: '/b', ...extra}),
      ];
      @Module({imports: endpoints({}), providers: [HelloResolver]})
      class Clashing {}
      await expect(start(Clashing, {adapter: new FastifyAdapter()})).rejects.toThrow(
        /server-health/,
      );
      @Module({imports: endpoints({disableHealthCheck: true}), providers: [HelloResolver]})
      class Working {}
      const started = await start(Working, {adapter: new FastifyAdapter()});
      try {
        expect((await gql(`${started.base}/b`, '{ hello }')).body).toEqual({
          data: {hello: 'world'},
        });
      } finally {
        await started.close();
      }
    },
  );
});

claim(
  `${page}#playground-settings`,
  'an object passed as playground reaches the playground page (its settings are in the HTML)',
  async () => {
    const options = compileModule<{options: any}>(
      `export const options: any = {};\nconst GraphQLModule = { forRoot: (o: any) => Object.assign(options, o) };\n${fragment(page, 'playground-settings', "'request.credentials'").value}`,
    ).options;
    @Module({imports: [GraphQLModule.forRoot(options)], providers: [HelloResolver]})
    class AppModule {}
    const started = await start(AppModule);
    try {
      const html = await (
        await fetch(`${started.base}/graphql`, {headers: {accept: 'text/html'}})
      ).text();
      expect(html).toMatch(/GraphQL Playground/);
      expect(html).toMatch(/"request\.credentials":\s*"include"/);
      expect(html).toMatch(/"editor\.theme":\s*"light"/);
    } finally {
      await started.close();
    }
  },
);

describe('generated TypeScript definitions', () => {
  const sdl = `${fragment(page, 'schema-first', 'type Cat').value}
input CreateCatInput {
  name: String!
}

type Mutation {
  createCat(input: CreateCatInput!): Cat!
}
`;
  /** Starts and stops the page's app.module with its typePaths and path pointed at `dir`. */
  async function startOnce(dir: string, extra = '') {
    const set = samples(page, {
      under: 'generating-typescript-definitions',
      edit: {
        'app.module': [
          ["typePaths: ['./**/*.graphql']", `typePaths: [${JSON.stringify(`${dir}/*.graphql`)}]`],
          [
            "path: join(process.cwd(), 'src/graphql.ts'),",
            `path: ${JSON.stringify(`${dir}/graphql.ts`)},${extra}`,
          ],
        ],
      },
    });
    const {AppModule} = set.require('app.module');
    const started = await start(AppModule);
    await started.close();
    return join(dir, 'graphql.ts');
  }

  claim(
    `${page}#generating-typescript-definitions`,
    'each start writes src/graphql.ts: interfaces by default, root types as IQuery and IMutation; the file is saved only when its content changed',
    async () => {
      const dir = tempDir({'cats.graphql': sdl});
      const file = await startOnce(dir);
      const first = readFileSync(file, 'utf8');
      expect(first).toMatch(
        /export interface Cat \{[^}]*id: string;[^}]*breed\?: Nullable<string>;/,
      );
      expect(first).toMatch(/export interface CreateCatInput \{\s*name: string;\s*\}/);
      expect(first).toMatch(
        /export interface IQuery \{[^}]*cats\(\): Cat\[\] \| Promise<Cat\[\]>;/,
      );
      expect(first).toMatch(/export interface IMutation \{[^}]*createCat\(input: CreateCatInput\)/);
      expect(first).not.toMatch(/export class/);
      const written = statSync(file).mtimeMs;
      await new Promise((done) => setTimeout(done, 50));
      await startOnce(dir);
      expect(statSync(file).mtimeMs).toBe(written);
    },
    60_000,
  );

  claim(
    `${page}#generating-typescript-definitions`,
    "outputAs: 'class' writes classes instead of interfaces",
    async () => {
      const dir = tempDir({'cats.graphql': sdl});
      const file = await startOnce(dir, "\n        outputAs: 'class',");
      const text = readFileSync(file, 'utf8');
      expect(text).toMatch(/export class Cat \{/);
      expect(text).toMatch(/export abstract class IQuery \{/);
      expect(text).not.toMatch(/export interface/);
    },
    60_000,
  );

  claim(
    `${page}#generating-typings-on-demand`,
    "the page's generate-typings script writes the same classes without starting an application",
    async () => {
      const dir = tempDir({'src/cats/cats.graphql': sdl});
      const script = samples(page, {
        under: 'generating-typings-on-demand',
        edit: {
          'generate-typings': [
            [
              "typePaths: ['./src/**/*.graphql']",
              `typePaths: [${JSON.stringify(`${dir}/src/**/*.graphql`)}]`,
            ],
            [
              "path: join(process.cwd(), 'src/graphql.ts'),",
              `path: ${JSON.stringify(`${dir}/src/graphql.ts`)},`,
            ],
            ['definitionsFactory.generate({', 'export const done = definitionsFactory.generate({'],
          ],
        },
      });
      await script.require('generate-typings').done;
      const text = readFileSync(join(dir, 'src', 'graphql.ts'), 'utf8');
      expect(text).toMatch(/export class Cat \{/);
      expect(text).toMatch(/export abstract class IMutation \{/);
    },
    60_000,
  );
});

// ---- Production settings: what the defaults serve to anyone, and what the page's options change ----

@Resolver()
class BoomResolver {
  @Query(() => String)
  boom(): string {
    throw new Error('connect ECONNREFUSED 10.0.0.5:5432');
  }
}

/** The options object of the production-settings sample. */
function productionOptions(): Record<string, unknown> {
  const text = fragment(page, 'production-settings', 'csrfPrevention: true').value;
  return new Function(`return ${text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'))}`)();
}

/** Starts HelloResolver and BoomResolver with these options, with NODE_ENV set (or removed) around the start. */
async function withNodeEnv<T>(
  nodeEnv: string | undefined,
  options: Record<string, unknown>,
  use: (started: Started) => Promise<T>,
): Promise<T> {
  const previous = process.env.NODE_ENV;
  if (nodeEnv === undefined) delete process.env.NODE_ENV;
  else process.env.NODE_ENV = nodeEnv;
  try {
    @Module({
      imports: [GraphQLModule.forRoot({autoSchemaFile: true, ...options})],
      providers: [HelloResolver, BoomResolver],
    })
    class AppModule {}
    const started = await start(AppModule);
    try {
      return await use(started);
    } finally {
      await started.close();
    }
  } finally {
    process.env.NODE_ENV = previous;
  }
}

/** What an endpoint gives away: the stack trace of an error, the playground page, introspection. */
async function exposure(started: Started) {
  const boom = await gql(`${started.base}/graphql`, '{ boom }');
  const html = await (
    await fetch(`${started.base}/graphql`, {headers: {accept: 'text/html'}})
  ).text();
  const schema = await gql(`${started.base}/graphql`, '{ __schema { queryType { name } } }');
  return {
    stacktrace: Boolean(boom.body.errors[0].extensions.exception?.stacktrace),
    playground: /GraphQL Playground/.test(html),
    introspection: schema.body.data?.__schema.queryType.name === 'Query',
  };
}

claim.failure(
  `${page}#production-settings`,
  'NODE_ENV not set: the defaults send stack traces, serve the playground and answer introspection; the page’s options turn all three off',
  async () => {
    // In a process started without NODE_ENV (Apollo reads it once, when it is loaded).
    const set = samples(page, {
      under: 'getting-started',
      files: {
        'exposure.app': `
import { Module } from '@nestjs/common';
import { GraphQLModule, Query, Resolver } from '@nestjs/graphql';
@Resolver()
class ProbeResolver {
  @Query(() => String) hello() { return 'world'; }
  @Query(() => String) boom(): string { throw new Error('connect ECONNREFUSED 10.0.0.5:5432'); }
}
@Module({
  imports: [GraphQLModule.forRoot({ autoSchemaFile: true, ...JSON.parse(process.env.GQL_OPTIONS || '{}') })],
  providers: [ProbeResolver],
})
export class AppModule {}`,
      },
    });
    const run = async (options: Record<string, unknown>) => {
      const child = nodeChild(
        `
const { NestFactory } = require('@nestjs/core');
const { AppModule } = require(${JSON.stringify(set.dir + '/exposure.app.js')});
(async () => {
  const app = await NestFactory.create(AppModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  console.log('LISTENING ' + (await app.getUrl()));
})();`,
        {NODE_ENV: undefined, GQL_OPTIONS: JSON.stringify(options)},
      );
      try {
        await child.waitFor('LISTENING');
        const base = /LISTENING (\S+)/.exec(child.out)![1];
        return await exposure({base} as Started);
      } finally {
        await child.kill();
      }
    };
    expect(await run({})).toEqual({stacktrace: true, playground: true, introspection: true});
    expect(await run(productionOptions())).toEqual({
      stacktrace: false,
      playground: false,
      introspection: false,
    });
  },
);

claim.abuse(
  `${page}#production-settings`,
  'a cross-site GET query (foreign Origin, a cookie, no special header) runs by default; csrfPrevention: true refuses it with the message shown, JSON POSTs still pass',
  async () => {
    const crossSite = {origin: 'https://evil.example.com', cookie: 'session=alice'};
    const get = (base: string, query: string, headers: Record<string, string> = crossSite) =>
      fetch(`${base}/graphql?query=${encodeURIComponent(query)}`, {headers});
    await withNodeEnv('production', {}, async (started) => {
      const response = await get(started.base, '{ hello }');
      expect([response.status, await response.json()]).toEqual([200, {data: {hello: 'world'}}]);
      const mutation = await get(started.base, 'mutation { hello }');
      expect(mutation.status).toBe(405);
      expect((await mutation.json()).errors[0].message).toBe('GET supports only query operation');
    });
    await withNodeEnv('production', productionOptions(), async (started) => {
      const response = await get(started.base, '{ hello }');
      expect(response.status).toBe(400);
      expectOutput(page, 'csrf-blocked', (await response.text()).trim());
      const preflighted = await get(started.base, '{ hello }', {
        ...crossSite,
        'apollo-require-preflight': 'true',
      });
      expect(await preflighted.json()).toEqual({data: {hello: 'world'}});
      expect(
        (await gql(`${started.base}/graphql`, '{ hello }', undefined, crossSite)).body,
      ).toEqual({
        data: {hello: 'world'},
      });
    });
  },
);

claim(
  `${page}#production-settings`,
  'with csrfPrevention: true, a GET without Content-Type and a text/plain POST are refused; a GET with application/json or apollo-require-preflight passes',
  async () => {
    await withNodeEnv('production', productionOptions(), async (started) => {
      const url = `${started.base}/graphql?query=${encodeURIComponent('{ hello }')}`;
      expect((await fetch(url)).status).toBe(400);
      const plain = await fetch(`${started.base}/graphql`, {
        method: 'POST',
        headers: {'content-type': 'text/plain'},
        body: JSON.stringify({query: '{ hello }'}),
      });
      expect(plain.status).toBe(400);
      const passing: Record<string, string>[] = [
        {'content-type': 'application/json'},
        {'apollo-require-preflight': 'true'},
        {'x-apollo-operation-name': 'Hello'},
      ];
      for (const headers of passing) {
        const response = await fetch(url, {headers});
        expect([response.status, await response.json()]).toEqual([200, {data: {hello: 'world'}}]);
      }
    });
  },
);

claim.abuse(
  `${page}#production-settings`,
  'one POST with an array of 50 operations runs all 50 by default; allowBatchedHttpRequests: false refuses the array with 400',
  async () => {
    const batch = JSON.stringify(Array.from({length: 50}, () => ({query: '{ hello }'})));
    const send = (base: string) =>
      fetch(`${base}/graphql`, {
        method: 'POST',
        headers: {'content-type': 'application/json'},
        body: batch,
      });
    await withNodeEnv('production', {}, async (started) => {
      const response = await send(started.base);
      const results = await response.json();
      expect([response.status, results.length, results[49]]).toEqual([
        200,
        50,
        {data: {hello: 'world'}},
      ]);
    });
    await withNodeEnv('production', productionOptions(), async (started) => {
      const response = await send(started.base);
      expect(response.status).toBe(400);
      expect((await response.json()).errors[0].message).toBe('Operation batching disabled.');
    });
  },
);

claim.abuse(
  `${page}#production-settings`,
  'in production, Apollo warns at startup that persisted queries use an unbounded cache (memory exhaustion); cache: "bounded" removes the warning',
  async () => {
    const warningsWith = async (options: Record<string, unknown>) => {
      const warnings: string[] = [];
      const logger = {
        debug: () => undefined,
        info: () => undefined,
        warn: (message: string) => warnings.push(message),
        error: () => undefined,
      };
      await withNodeEnv('production', {...options, logger}, async () => undefined);
      return warnings.filter((w) => w.includes('unbounded cache'));
    };
    const [warning] = await warningsWith({});
    expect(warning).toMatch(
      /^Persisted queries are enabled and are using an unbounded cache\. Your server is vulnerable to denial of service attacks via memory exhaustion\./,
    );
    expect(await warningsWith(productionOptions())).toEqual([]);
  },
);

claim.failure(
  `${page}#async-configuration`,
  'with NODE_ENV missing, the factory’s debug (=== "development") keeps stack traces out; a !== "production" test would send them',
  async () => {
    const withTest = async (edit: [string, string][]) => {
      const {AppModule: Base} = samples(page, {
        under: 'async-configuration',
        edit: {'app.module': edit},
      }).require('app.module');
      const previous = process.env.NODE_ENV;
      delete process.env.NODE_ENV;
      try {
        @Module({imports: [Base], providers: [BoomResolver]})
        class AppModule {}
        const started = await start(AppModule);
        try {
          const {body} = await gql(`${started.base}/graphql`, '{ boom }');
          return Boolean(body.errors[0].extensions.exception?.stacktrace);
        } finally {
          await started.close();
        }
      } finally {
        process.env.NODE_ENV = previous;
      }
    };
    expect(await withTest([])).toBe(false);
    expect(
      await withTest([
        [
          "configService.get<string>('NODE_ENV') === 'development'",
          "configService.get<string>('NODE_ENV') !== 'production'",
        ],
      ]),
    ).toBe(true);
  },
);

claim.failure(
  `${page}#schema-first`,
  'typePaths that match no file (no .graphql files next to dist/) stop the application at startup with the message quoted',
  async () => {
    const {AppModule} = samples(page, {under: 'schema-first'}).require('app.module');
    const {NestFactory} = nest('@nestjs/core');
    const previous = process.cwd();
    // An empty working directory: what a container holding only the compiled JavaScript has.
    process.chdir(tempDir());
    try {
      await expect(
        NestFactory.create(AppModule, {logger: false, abortOnError: false}).then((app: any) =>
          app.init(),
        ),
      ).rejects.toThrow(
        'No type definitions were found with the specified file name patterns: "./**/*.graphql".',
      );
    } finally {
      process.chdir(previous);
    }
  },
);

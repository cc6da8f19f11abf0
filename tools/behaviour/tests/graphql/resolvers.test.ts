import {afterAll, beforeAll, describe, expect} from 'vitest';
import {
  claim,
  samples,
  nest,
  expectOutput,
  fragment,
  compileModule,
  readPage,
  typeErrors,
} from '../../lib';
import {start, gql, tempDir, type Started} from './_support';

const {Module} = nest('@nestjs/common');
const {GraphQLModule, GraphQLSchemaHost} = nest('@nestjs/graphql');
const {printType} = nest('graphql');
const page = 'docs/graphql/resolvers.md';

const postsFiles = {
  'posts.service': `
import { Injectable } from '@nestjs/common';

@Injectable()
export class PostsService {
  private readonly posts = [
    { id: 1, title: 'Notes on the engine', votes: 3, authorId: 1 },
    { id: 2, title: 'On numbers', votes: 1, authorId: 1 },
    { id: 3, title: 'Compilers', votes: 9, authorId: 2 },
  ];

  async findAllByAuthor(authorId: number, options: { limit?: number } = {}) {
    const found = this.posts.filter((post) => post.authorId === authorId);
    return options.limit === undefined ? found : found.slice(0, options.limit);
  }
}
`,
  'posts.module': `
import { Module } from '@nestjs/common';
import { PostsService } from './posts.service';

@Module({ providers: [PostsService], exports: [PostsService] })
export class PostsModule {}
`,
};

function sdl(schema: any, name: string): string {
  return printType(schema.getType(name));
}

// Type metadata is global to the process: the page's models are compiled once per file.
const blog = samples(page, {under: 'code-first-resolver', files: postsFiles});

describe('the blog API of the page (code first)', () => {
  let started: Started;
  let schema: any;
  beforeAll(async () => {
    const {AppModule} = blog.require('app.module');
    started = await start(AppModule);
    schema = started.app.get(GraphQLSchemaHost).schema;
  });
  afterAll(() => started?.close());

  claim(`${page}#object-types`, 'the Author model generates the SDL the page shows', () => {
    expectOutput(page, 'author-sdl', sdl(schema, 'Author'));
  });

  claim(
    `${page}#code-first-resolver`,
    'the resolver adds author(id: Int!): Author! to Query',
    () => {
      expectOutput(page, 'author-query-sdl', sdl(schema, 'Query'));
    },
  );

  claim(`${page}#code-first-resolver`, 'the response mirrors the query under data', async () => {
    const query = fragment(page, 'code-first-resolver', 'query {').value;
    const {body} = await gql(`${started.base}/graphql`, query);
    expectOutput(page, 'author-response', body);
  });

  claim(
    `${page}#descriptions-and-deprecation`,
    'descriptions of the type and field and the deprecation reason reach the schema',
    () => {
      const post = schema.getType('Post');
      expect(post.description).toBe('A blog post written by an author');
      expect(post.getFields().votes.description).toBe('Number of upvotes');
      expect(post.getFields().headline.deprecationReason).toBe('Use the title field instead');
      expect(printType(post)).toContain(
        'headline: String @deprecated(reason: "Use the title field instead")',
      );
    },
  );

  claim(
    `${page}#code-first-resolver`,
    'the posts field resolver receives the author as parent',
    async () => {
      const {body} = await gql(
        `${started.base}/graphql`,
        '{ author(id: 2) { firstName posts { title } } }',
      );
      expect(body).toEqual({data: {author: {firstName: 'Grace', posts: [{title: 'Compilers'}]}}});
    },
  );
});

/** A resolver class around a method fragment of the page, with the page's models and services. */
function resolverWith(method: string, imports = ''): any {
  blog.require('app.module');
  const dir = blog.dir;
  return compileModule(`
import { BadRequestException, NotFoundException, UseGuards, CanActivate, Injectable } from '@nestjs/common';
import { Args, Int, Info, Parent, Query, ResolveField, Resolver, Context } from '@nestjs/graphql';
import { GraphQLResolveInfo, FieldNode } from 'graphql';
const { Author } = require(${JSON.stringify(dir + '/author.model.js')});
const { Post } = require(${JSON.stringify(dir + '/post.model.js')});
const { AuthorsService } = require(${JSON.stringify(dir + '/authors.service.js')});
const { PostsService } = require(${JSON.stringify(dir + '/posts.service.js')});
${imports}

@Resolver((of) => Author)
export class FragmentResolver {
  constructor(private readonly authorsService: AuthorsService, private readonly postsService: PostsService) {}
  ${method}
}
Reflect.defineMetadata('design:paramtypes', [AuthorsService, PostsService], FragmentResolver);
export { AuthorsService, PostsService, Author, Post };
`);
}

async function startWith(resolver: any, options: Record<string, unknown> = {}): Promise<Started> {
  const {FragmentResolver, AuthorsService, PostsService} = resolver;
  @Module({
    imports: [GraphQLModule.forRoot({autoSchemaFile: true, ...options})],
    providers: [FragmentResolver, AuthorsService, PostsService],
  })
  class AppModule {}
  return start(AppModule);
}

claim(
  `${page}#errors-and-missing-data`,
  'a NotFoundException in a resolver gives the error body the page shows (code "404", the response, no path/locations), data null',
  async () => {
    const method = fragment(page, 'errors-and-missing-data', 'NotFoundException').value;
    const started = await startWith(resolverWith(method));
    try {
      const {status, body} = await gql(
        `${started.base}/graphql`,
        '{\n  author(id: 42) {\n    firstName\n  }\n}',
      );
      expect(status).toBe(200);
      expectOutput(page, 'not-found-error', body);
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#errors-and-missing-data`,
  'with autoTransformHttpErrors: false the error keeps path and locations, with code INTERNAL_SERVER_ERROR',
  async () => {
    const method = fragment(page, 'errors-and-missing-data', 'NotFoundException').value;
    const started = await startWith(resolverWith(method), {
      autoTransformHttpErrors: false,
      debug: false,
    });
    try {
      const {body} = await gql(
        `${started.base}/graphql`,
        '{\n  author(id: 42) {\n    firstName\n  }\n}',
      );
      expect(body.errors[0]).toMatchObject({
        message: 'Author 42 not found',
        path: ['author'],
        locations: [{line: 2, column: 3}],
        extensions: {code: 'INTERNAL_SERVER_ERROR'},
      });
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#errors-and-missing-data`,
  'a 400, 401 or 403 exception becomes BAD_USER_INPUT, UNAUTHENTICATED or FORBIDDEN',
  async () => {
    const started = await startWith(
      resolverWith(`
  @Query((returns) => String, { nullable: true })
  fail(@Args('status', { type: () => Int }) status: number) {
    const common = require('@nestjs/common');
    const Exception = { 400: common.BadRequestException, 401: common.UnauthorizedException, 403: common.ForbiddenException }[status];
    throw new Exception();
  }`),
    );
    try {
      const codes: string[] = [];
      for (const status of [400, 401, 403]) {
        const {body} = await gql(`${started.base}/graphql`, `{ fail(status: ${status}) }`);
        codes.push(body.errors[0].extensions.code);
      }
      expect(codes).toEqual(['BAD_USER_INPUT', 'UNAUTHENTICATED', 'FORBIDDEN']);
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#errors-and-missing-data`,
  'with nullable: true only the author field is null and data stays',
  async () => {
    const started = await startWith(
      resolverWith(`
  @Query((returns) => Author, { nullable: true })
  async author(@Args('id', { type: () => Int }) id: number) {
    throw new NotFoundException('Author ' + id + ' not found');
  }
  @Query((returns) => String)
  hello() { return 'hi'; }`),
    );
    try {
      const {body} = await gql(`${started.base}/graphql`, '{ author(id: 42) { firstName } hello }');
      expect(body.data).toEqual({author: null, hello: 'hi'});
      expect(body.errors).toHaveLength(1);
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#arguments`,
  'inline @Args: lastName is a nullable String, limit an Int defaulting to 10',
  async () => {
    const method = fragment(page, 'arguments', 'async authors(').value.replace(
      'this.authorsService.findMany({ lastName, limit })',
      '[{ id: limit, lastName }]',
    );
    const started = await startWith(resolverWith(method));
    try {
      const schema = started.app.get(GraphQLSchemaHost).schema;
      const args = schema
        .getQueryType()
        .getFields()
        .authors.args.map(
          (a: any) =>
            `${a.name}: ${a.type}${a.defaultValue !== undefined ? ` = ${a.defaultValue}` : ''}`,
        );
      expect(args.sort()).toEqual(['lastName: String', 'limit: Int = 10']);
      const {body} = await gql(`${started.base}/graphql`, '{ authors { id lastName } }');
      expect(body).toEqual({data: {authors: [{id: 10, lastName: null}]}});
    } finally {
      await started.close();
    }
  },
);

claim.abuse(
  `${page}#arguments`,
  'limit: null and limit: 100000000 are refused with BAD_USER_INPUT before findMany() runs (the default arrives only when limit is left out)',
  async () => {
    const calls: unknown[] = [];
    (globalThis as any).__findMany = calls;
    const method = fragment(page, 'arguments', 'async authors(').value.replace(
      'return this.authorsService.findMany({ lastName, limit });',
      '(globalThis as any).__findMany.push(limit);\n  return [{ id: limit, lastName }];',
    );
    const started = await startWith(resolverWith(method));
    try {
      for (const value of ['null', '100000000', '0']) {
        const {body} = await gql(`${started.base}/graphql`, `{ authors(limit: ${value}) { id } }`);
        expect(body.data).toBeNull();
        expect(body.errors[0].message).toBe('limit must be between 1 and 50');
        expect(body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      }
      const {body} = await gql(`${started.base}/graphql`, '{ authors { id } }');
      expect(body).toEqual({data: {authors: [{id: 10}]}});
      expect(calls).toEqual([10]);
    } finally {
      delete (globalThis as any).__findMany;
      await started.close();
    }
  },
);

claim(
  `${page}#dedicated-arguments-class`,
  'an @ArgsType class gives flat arguments, the defaulted one nullable: searchAuthors(term: String!, country: String, limit: Int = 10)',
  async () => {
    const method = fragment(page, 'dedicated-arguments-class', 'searchAuthors(').value.replace(
      'this.authorsService.search(args)',
      '[{ id: args.limit, lastName: args.term }]',
    );
    const started = await startWith(
      resolverWith(
        method,
        `const { SearchAuthorsArgs } = require(${JSON.stringify(blog.dir + '/search-authors.args.js')});`,
      ),
      {},
    );
    try {
      const schema = started.app.get(GraphQLSchemaHost).schema;
      const field = printType(schema.getQueryType())
        .split('\n')
        .find((line: string) => line.trim().startsWith('searchAuthors('));
      expectOutput(page, 'search-authors-sdl', `type Query {\n${field}\n}`);
      const {body} = await gql(
        `${started.base}/graphql`,
        '{ searchAuthors(term: "Lo") { id lastName } }',
      );
      expect(body).toEqual({data: {searchAuthors: [{id: 10, lastName: 'Lo'}]}});
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#dedicated-arguments-class`,
  'the class-validator rules run when a ValidationPipe is active (term too short gives BAD_USER_INPUT)',
  async () => {
    const {ValidationPipe} = nest('@nestjs/common');
    const method = fragment(page, 'dedicated-arguments-class', 'searchAuthors(').value.replace(
      'this.authorsService.search(args)',
      '[]',
    );
    const {FragmentResolver, AuthorsService, PostsService} = resolverWith(
      method,
      `const { SearchAuthorsArgs } = require(${JSON.stringify(blog.dir + '/search-authors.args.js')});`,
    );
    @Module({
      imports: [GraphQLModule.forRoot({autoSchemaFile: true})],
      providers: [FragmentResolver, AuthorsService, PostsService],
    })
    class AppModule {}
    const started = await start(AppModule, {
      before: (app) => app.useGlobalPipes(new ValidationPipe()),
    });
    try {
      const {body} = await gql(
        `${started.base}/graphql`,
        '{ searchAuthors(term: "L", limit: 99) { id } }',
      );
      expect(body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      expect(body.errors[0].extensions.response.message).toEqual([
        'term must be longer than or equal to 2 characters',
        'limit must not be greater than 50',
      ]);
    } finally {
      await started.close();
    }
  },
);

/** One version of a page file, compiled against the blog set (so it shares its model classes). */
function pageFile(filename: string, nth: number): any {
  const fences = readPage(page).fences.filter((f) => f.filename === filename);
  const source = fences[nth - 1].ts!.replace(
    /from '(\.[^']+)'/g,
    (_, path: string) => `from '${blog.dir}/${path.split('/').pop()}'`,
  );
  return compileModule(source, filename.split('/').pop());
}

claim(
  `${page}#query-handler-names`,
  'the name option publishes getAuthor() as author: the Query type the page shows, and the query is served',
  async () => {
    const {AuthorsResolver} = pageFile('authors/authors.resolver', 2);
    expect(AuthorsResolver.prototype.getAuthor).toBeTypeOf('function');
    const {AuthorsService} = blog.require('authors/authors.service');
    @Module({
      imports: [GraphQLModule.forRoot({autoSchemaFile: true})],
      providers: [AuthorsResolver, AuthorsService],
    })
    class AppModule {}
    const started = await start(AppModule);
    try {
      const schema = started.app.get(GraphQLSchemaHost).schema;
      expectOutput(page, 'query-name-sdl', printType(schema.getQueryType()));
      const {body} = await gql(`${started.base}/graphql`, '{ author(id: 1) { firstName } }');
      expect(body.data.author.firstName).toBe('Ada');
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#class-inheritance`,
  'property initializers of PaginationArgs become defaults 0 and 20, and ListAuthorsArgs adds lastName',
  async () => {
    const started = await startWith(
      resolverWith(
        `
  @Query((returns) => String)
  list(@Args() args: ListAuthorsArgs) { return JSON.stringify(args); }`,
        `const { ListAuthorsArgs } = require(${JSON.stringify(blog.dir + '/list-authors.args.js')});`,
      ),
    );
    try {
      const schema = started.app.get(GraphQLSchemaHost).schema;
      const args = schema
        .getQueryType()
        .getFields()
        .list.args.map(
          (a: any) =>
            `${a.name}: ${a.type}${a.defaultValue !== undefined ? ` = ${a.defaultValue}` : ''}`,
        );
      expect(args.sort()).toEqual(['lastName: String', 'limit: Int = 20', 'offset: Int = 0']);
      const {body} = await gql(`${started.base}/graphql`, '{ list }');
      expect(JSON.parse(body.data.list)).toEqual({offset: 0, limit: 20});
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#class-inheritance`,
  'isAbstract keeps BaseModel out of the schema; Comment has id, createdAt and text',
  async () => {
    const started = await startWith(
      resolverWith(
        `
  @Query((returns) => Comment)
  comment() { return { id: '1', createdAt: new Date(0), text: 'hi' }; }`,
        `const { Comment } = require(${JSON.stringify(blog.dir + '/base.model.js')});`,
      ),
    );
    try {
      const schema = started.app.get(GraphQLSchemaHost).schema;
      expect(schema.getType('BaseModel')).toBeUndefined();
      expect(Object.keys(schema.getType('Comment').getFields()).sort()).toEqual([
        'createdAt',
        'id',
        'text',
      ]);
      const {body} = await gql(`${started.base}/graphql`, '{ comment { id createdAt text } }');
      expect(body).toEqual({
        data: {comment: {id: '1', createdAt: '1970-01-01T00:00:00.000Z', text: 'hi'}},
      });
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#resolver-inheritance`,
  'a resolver extending BaseResolver(Author) gets findAllAuthor: [Author!]! served by loadAll()',
  async () => {
    const {AuthorsResolver} = pageFile('authors/authors.resolver', 3);
    const {AuthorsService} = blog.require('authors/authors.service');
    @Module({
      imports: [GraphQLModule.forRoot({autoSchemaFile: true})],
      providers: [AuthorsResolver, AuthorsService],
    })
    class AppModule {}
    const started = await start(AppModule);
    try {
      const schema = started.app.get(GraphQLSchemaHost).schema;
      expectOutput(page, 'find-all-sdl', printType(schema.getQueryType()));
      const {body} = await gql(`${started.base}/graphql`, '{ findAllAuthor { firstName } }');
      expect(body).toEqual({data: {findAllAuthor: [{firstName: 'Ada'}, {firstName: 'Grace'}]}});
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#generics`,
  'Paginated(Author) produces the AuthorEdge and PaginatedAuthors types the page shows',
  async () => {
    const method = fragment(page, 'generics', 'authorsPage(').value.replace(
      'this.authorsService.paginate(args.offset, args.limit)',
      '({ edges: [], totalCount: 0, hasNextPage: false })',
    );
    const started = await startWith(
      resolverWith(
        method,
        `const { PaginatedAuthors } = require(${JSON.stringify(blog.dir + '/paginated-authors.model.js')});
const { PaginationArgs } = require(${JSON.stringify(blog.dir + '/pagination.args.js')});`,
      ),
    );
    try {
      const schema = started.app.get(GraphQLSchemaHost).schema;
      expectOutput(
        page,
        'paginated-sdl',
        `${printType(schema.getType('AuthorEdge'))}\n\n${printType(schema.getType('PaginatedAuthors'))}`,
      );
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#field-resolvers`,
  'a field resolver declared only in the resolver adds posts(limit: Int = 5) and fullName: String! to Author',
  async () => {
    const posts = fragment(page, 'field-resolvers', "@ResolveField('posts'").value;
    const fullName = fragment(page, 'field-resolvers', "@ResolveField('fullName'").value;
    const started = await startWith(
      resolverWith(`
  @Query((returns) => Author)
  async author(@Args('id', { type: () => Int }) id: number) { return this.authorsService.findOneById(id); }
  ${posts}
  ${fullName}`),
    );
    try {
      const schema = started.app.get(GraphQLSchemaHost).schema;
      expectOutput(page, 'author-with-field-resolvers', printType(schema.getType('Author')));
      const {body} = await gql(
        `${started.base}/graphql`,
        '{ author(id: 1) { fullName posts(limit: 1) { title } all: posts { id } } }',
      );
      expect(body).toEqual({
        data: {
          author: {
            fullName: 'Ada Lovelace',
            posts: [{title: 'Notes on the engine'}],
            all: [{id: 1}, {id: 2}],
          },
        },
      });
    } finally {
      await started.close();
    }
  },
);

claim.abuse(
  `${page}#field-resolvers`,
  'posts(limit: null) and posts(limit: 100000) on the field resolver are refused with the range error (posts is non-null, so the nullable author becomes null); posts(limit: 1) still works',
  async () => {
    const posts = fragment(page, 'field-resolvers', "@ResolveField('posts'").value;
    const started = await startWith(
      resolverWith(`
  @Query((returns) => Author, { nullable: true })
  async author(@Args('id', { type: () => Int }) id: number) { return this.authorsService.findOneById(id); }
  ${posts}`),
    );
    try {
      for (const value of ['null', '100000']) {
        const {body} = await gql(
          `${started.base}/graphql`,
          `{ author(id: 1) { firstName posts(limit: ${value}) { title } } }`,
        );
        expect(body.data).toEqual({author: null});
        expect(body.errors[0].message).toBe('limit must be between 1 and 50');
      }
      const {body} = await gql(
        `${started.base}/graphql`,
        '{ author(id: 1) { posts(limit: 1) { title } } }',
      );
      expect(body).toEqual({data: {author: {posts: [{title: 'Notes on the engine'}]}}});
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#field-resolvers`,
  'guards do not run for field resolvers unless fieldResolverEnhancers lists them',
  async () => {
    const calls: string[] = [];
    (global as any).__guardCalls = calls;
    const resolver = resolverWith(
      `
  @Query((returns) => Author)
  @UseGuards(CountingGuard)
  async author(@Args('id', { type: () => Int }) id: number) { return this.authorsService.findOneById(id); }
  @ResolveField('fullName', (returns) => String)
  @UseGuards(CountingGuard)
  fullName(@Parent() author: any) { return author.firstName; }`,
      `
@Injectable()
class CountingGuard implements CanActivate {
  canActivate(context: any) { (global as any).__guardCalls.push(context.getHandler().name); return true; }
}`,
    );
    for (const enhancers of [[], ['guards']]) {
      calls.length = 0;
      const started = await startWith(resolver, {fieldResolverEnhancers: enhancers});
      try {
        await gql(`${started.base}/graphql`, '{ author(id: 1) { fullName } }');
      } finally {
        await started.close();
      }
      expect(calls).toEqual(enhancers.length ? ['author', 'fullName'] : ['author']);
    }
  },
);

claim(
  `${page}#graphql-argument-decorators`,
  'a context function adds its own values (locale from accept-language) next to req',
  async () => {
    const contextOption = fragment(page, 'graphql-argument-decorators', 'locale').value;
    const options = compileModule(
      `import { GraphQLModule } from '@nestjs/graphql';\nexport const options: any = {};\nconst forRoot = (o: any) => Object.assign(options, o);\nconst G = { forRoot };\n${contextOption.replace('GraphQLModule.forRoot', 'G.forRoot')}`,
    ).options;
    const started = await startWith(
      resolverWith(`
  @Query((returns) => String)
  locale(@Context('locale') locale: string, @Context('req') req: any, @Info() info: GraphQLResolveInfo) { return locale + ' ' + req.method + ' ' + info.fieldName; }`),
      options,
    );
    try {
      const {body} = await gql(`${started.base}/graphql`, '{ locale }', undefined, {
        'accept-language': 'fr',
      });
      expect(body).toEqual({data: {locale: 'fr POST locale'}});
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#schema-first`,
  "schema first: Query declared in two files is merged, and @Resolver('Author') binds posts() to Author.posts",
  async () => {
    const [authorsSdl, postsSdl] = [
      fragment(page, 'schema-first', 'type Author').value,
      fragment(page, 'schema-first', 'posts(authorId').value,
    ];
    const dir = tempDir({'authors/authors.graphql': authorsSdl, 'posts/posts.graphql': postsSdl});
    const {AuthorsResolver} = pageFile('authors/authors.resolver', 4);
    const {AuthorsService} = blog.require('authors/authors.service');
    const {PostsService} = blog.require('posts.service');
    const {Resolver, Query} = nest('@nestjs/graphql');
    @Resolver()
    class PostsQueries {
      @Query()
      posts() {
        return [];
      }
      @Query()
      post() {
        return null;
      }
    }
    @Module({
      imports: [GraphQLModule.forRoot({typePaths: [`${dir}/**/*.graphql`]})],
      providers: [AuthorsResolver, AuthorsService, PostsService, PostsQueries],
    })
    class AppModule {}
    const started = await start(AppModule);
    try {
      const schema = started.app.get(GraphQLSchemaHost).schema;
      expect(Object.keys(schema.getQueryType().getFields()).sort()).toEqual([
        'author',
        'post',
        'posts',
      ]);
      const {body} = await gql(
        `${started.base}/graphql`,
        '{ author(id: 1) { firstName posts { title votes } } }',
      );
      expect(body).toEqual({
        data: {
          author: {
            firstName: 'Ada',
            posts: [
              {title: 'Notes on the engine', votes: 3},
              {title: 'On numbers', votes: 1},
            ],
          },
        },
      });
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#code-first-resolver`,
  'a resolver may return a plain value, a Promise or an Observable; Nest waits for the result',
  async () => {
    const started = await startWith(
      resolverWith(`
  @Query((returns) => Int) plain() { return 1; }
  @Query((returns) => Int) promised() { return Promise.resolve(2); }
  @Query((returns) => Int) observed() { const { timer } = require('rxjs'); const { map } = require('rxjs/operators'); return timer(20).pipe(map(() => 3)); }`),
    );
    try {
      expect((await gql(`${started.base}/graphql`, '{ plain promised observed }')).body).toEqual({
        data: {plain: 1, promised: 2, observed: 3},
      });
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#nullability`,
  "nullable: true gives [String!], 'items' gives [String]!, 'itemsAndList' gives [String]",
  async () => {
    const model = fragment(page, 'nullability', "nullable: 'items'").value.replace(
      '@ObjectType()\nexport class Author',
      "@ObjectType('Lists')\nexport class Lists",
    );
    (globalThis as any).__lists = compileModule(model).Lists;
    const started = await startWith(
      resolverWith(
        `@Query((returns) => (globalThis as any).__lists) lists() { return { aliases: null, tags: [null], interests: null }; }`,
      ),
    );
    try {
      const type = started.app.get(GraphQLSchemaHost).schema.getType('Lists');
      const fields = Object.fromEntries(
        Object.values(type.getFields()).map((f: any) => [f.name, String(f.type)]),
      );
      expect(fields).toEqual({aliases: '[String!]', tags: '[String]!', interests: '[String]'});
      expect(
        (await gql(`${started.base}/graphql`, '{ lists { aliases tags interests } }')).body,
      ).toEqual({data: {lists: {aliases: null, tags: [null], interests: null}}});
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#graphql-argument-decorators`,
  '@Args() and @Context() take a property name; a string passed to @Info(), @Parent() or @Root() does not compile (tsc 4.9)',
  () => {
    const resolver = (params: string) => `
import { Args, Context, Info, Parent, ResolveField, Resolver, Root } from '@nestjs/graphql';
import { GraphQLResolveInfo } from 'graphql';
@Resolver()
export class AuthorsResolver {
  @ResolveField()
  field(${params}) { return 1; }
}
`;
    // One program, one file per variant: the diagnostics name the file they come from.
    const errors = typeErrors({
      named: resolver("@Args('id') id: number, @Context('req') req: unknown"),
      whole: resolver(
        '@Info() info: GraphQLResolveInfo, @Parent() parent: unknown, @Root() root: unknown',
      ),
      info: resolver("@Info('fieldName') name: string"),
      parent: resolver("@Parent('id') id: number"),
      root: resolver("@Root('id') id: number"),
    });
    expect(errors.map((e) => `${e.at.split(':')[0]} ${e.code}`)).toEqual([
      'info TS2345',
      'parent TS2554',
      'root TS2554',
    ]);
  },
  // CPU-bound: a few seconds alone, much more on a loaded machine.
  180_000,
);

// ---- Abuse cases and failure modes of the page's resolvers ----

claim.failure(
  `${page}#errors-and-missing-data`,
  'the code first author() query for an id that does not exist returns undefined: the client gets the non-null error shown',
  async () => {
    const method = fragment(page, 'code-first-resolver', 'async author(').value;
    const resolver = resolverWith(
      method.slice(method.indexOf('@Query'), method.indexOf('@ResolveField')),
    );
    const started = await startWith(resolver, {debug: false});
    try {
      const {status, body} = await gql(
        `${started.base}/graphql`,
        '{ author(id: 42) { firstName } }',
      );
      expect(status).toBe(200);
      expectOutput(page, 'null-author', body);
    } finally {
      await started.close();
    }
  },
);

claim.abuse(
  `${page}#code-first-resolver`,
  'a string or a 64-bit number for the Int id is refused by GraphQL before the resolver runs',
  async () => {
    const method = fragment(page, 'code-first-resolver', 'async author(').value;
    const resolver = resolverWith(
      method
        .slice(method.indexOf('@Query'), method.indexOf('@ResolveField'))
        .replace(
          'return this.authorsService',
          '(globalThis as any).__authorCalls = ((globalThis as any).__authorCalls ?? 0) + 1;\n    return this.authorsService',
        ),
    );
    const started = await startWith(resolver, {debug: false});
    try {
      const asString = await gql(`${started.base}/graphql`, '{ author(id: "1") { firstName } }');
      expect(asString.status).toBe(400);
      expect(asString.body.errors[0].message).toBe('Int cannot represent non-integer value: "1"');
      const tooBig = await gql(
        `${started.base}/graphql`,
        'query ($id: Int!) { author(id: $id) { firstName } }',
        {id: 2 ** 40},
      );
      expect(tooBig.body.errors[0].message).toBe(
        'Variable "$id" got invalid value 1099511627776; Int cannot represent non 32-bit signed integer value: 1099511627776',
      );
      expect((globalThis as any).__authorCalls ?? 0).toBe(0);
    } finally {
      delete (globalThis as any).__authorCalls;
      await started.close();
    }
  },
);

claim.abuse(
  `${page}#dedicated-arguments-class`,
  'without a ValidationPipe, searchAuthors(term: "L", limit: 100000) reaches the service unchecked',
  async () => {
    const method = fragment(page, 'dedicated-arguments-class', 'searchAuthors(').value.replace(
      'return this.authorsService.search(args);',
      '(globalThis as any).__searchArgs = { ...args };\n  return [];',
    );
    const {FragmentResolver, AuthorsService, PostsService} = resolverWith(
      method,
      `const { SearchAuthorsArgs } = require(${JSON.stringify(blog.dir + '/search-authors.args.js')});`,
    );
    @Module({
      imports: [GraphQLModule.forRoot({autoSchemaFile: true})],
      providers: [FragmentResolver, AuthorsService, PostsService],
    })
    class AppModule {}
    const started = await start(AppModule);
    try {
      const {body} = await gql(
        `${started.base}/graphql`,
        '{ searchAuthors(term: "L", limit: 100000) { id } }',
      );
      expect(body).toEqual({data: {searchAuthors: []}});
      expect((globalThis as any).__searchArgs).toEqual({term: 'L', limit: 100000});
    } finally {
      delete (globalThis as any).__searchArgs;
      await started.close();
    }
  },
);

describe('the @Info() sample: which columns a query makes the service load', () => {
  let started: Started;
  const requested: string[][] = [];
  beforeAll(async () => {
    const method = fragment(page, 'graphql-argument-decorators', '@Info() info').value;
    const resolver = compileModule(`
import { Info, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { GraphQLResolveInfo, SelectionNode } from 'graphql';
const { Author } = require(${JSON.stringify(blog.dir + '/author.model.js')});
const { Post } = require(${JSON.stringify(blog.dir + '/post.model.js')});

/** A service that loads only the requested columns, as a database query with a column list does. */
export class ColumnsService {
  static requested: string[][] = [];
  private readonly rows = [{ id: 1, firstName: 'Ada', lastName: 'Lovelace', posts: [] }];
  async findAll({ fields }: { fields: string[] }) {
    ColumnsService.requested.push([...fields].sort());
    return this.rows.map((row: any) => Object.fromEntries(fields.map((f) => [f, row[f]])));
  }
}

@Resolver((of) => Author)
export class InfoResolver {
  constructor(private readonly authorsService: ColumnsService) {}
  ${method}
  /** Like the page's posts() field resolver: it needs the author's id. */
  @ResolveField('posts', () => [Post])
  posts(@Parent() author: any) { return [{ id: 1, title: 'posts of author ' + author.id }]; }
}
Reflect.defineMetadata('design:paramtypes', [ColumnsService], InfoResolver);
`);
    resolver.ColumnsService.requested = requested;
    @Module({
      imports: [GraphQLModule.forRoot({autoSchemaFile: true})],
      providers: [resolver.InfoResolver, resolver.ColumnsService],
    })
    class AppModule {}
    started = await start(AppModule);
  });
  afterAll(() => started?.close());

  claim.abuse(
    `${page}#graphql-argument-decorators`,
    'fields selected through a named or an inline fragment are loaded (not null)',
    async () => {
      const {body} = await gql(
        `${started.base}/graphql`,
        'query { authors { id ...Names ... on Author { lastName } } } fragment Names on Author { firstName }',
      );
      expect(body).toEqual({data: {authors: [{id: 1, firstName: 'Ada', lastName: 'Lovelace'}]}});
      expect(requested.at(-1)).toEqual(['firstName', 'id', 'lastName']);
    },
  );

  claim.abuse(
    `${page}#graphql-argument-decorators`,
    'the same field selected twice (authors { firstName } authors { lastName }) loads the columns of both selections',
    async () => {
      const {body} = await gql(
        `${started.base}/graphql`,
        '{ authors { firstName } authors { lastName } }',
      );
      expect(body).toEqual({data: {authors: [{firstName: 'Ada', lastName: 'Lovelace'}]}});
      expect(requested.at(-1)).toEqual(['firstName', 'id', 'lastName']);
    },
  );

  claim.abuse(
    `${page}#graphql-argument-decorators`,
    "an Apollo Client style query (__typename, a field resolver, no id) loads only real columns plus id, so posts() gets the author's id",
    async () => {
      const {body} = await gql(
        `${started.base}/graphql`,
        '{ authors { __typename firstName posts { title } } }',
      );
      expect(requested.at(-1)).toEqual(['firstName', 'id']);
      expect(body).toEqual({
        data: {
          authors: [
            {__typename: 'Author', firstName: 'Ada', posts: [{title: 'posts of author 1'}]},
          ],
        },
      });
    },
  );
});

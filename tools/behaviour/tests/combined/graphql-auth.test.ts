/**
 * The authentication chapter's GraphQL section (GqlAuthGuard, the request in the GraphQL context,
 * @CurrentUser()) with the GraphQL resolvers chapter's blog API (Author, AuthorsResolver with its posts
 * field resolver, MeResolver, the context function), and the chapter's REST login for the tokens.
 */
import {afterAll, beforeAll, describe, expect} from 'vitest';
import {claim, fragment, listen, nest, samples} from '../../lib';
import {authPage, authPart, combine, combinedSecret, login, sign, users} from './_support';

process.env.JWT_SECRET = combinedSecret;
const {NestFactory} = nest('@nestjs/core');
const resolversPage = 'docs/graphql/resolvers.md';

/** PostsModule and PostsService, which the resolvers chapter uses without showing them. */
const postsFiles = {
  'posts.service': `
import { Injectable } from '@nestjs/common';

@Injectable()
export class PostsService {
  private readonly posts = [
    { id: 1, title: 'Notes on the engine', votes: 3, authorId: 1 },
    { id: 2, title: 'Compilers', votes: 9, authorId: 2 },
  ];

  async findAllByAuthor(authorId: number) {
    return this.posts.filter((post) => post.authorId === authorId);
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

/**
 * A resolver a reader writes with the chapter's @CurrentUser(), and a guarded field of Author (an
 * e-mail address only signed-in callers may read), with @CurrentUser() in a field resolver.
 */
const readerResolvers = `
import { UseGuards } from '@nestjs/common';
import { Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { GqlAuthGuard } from './auth/gql-auth.guard';
import { CurrentUser } from './auth/current-user.decorator';
import { Author } from './authors/models/author.model';

@Resolver()
export class WhoAmIResolver {
  @Query(() => String)
  @UseGuards(GqlAuthGuard)
  whoAmI(@CurrentUser() user: { userId: number; username: string }) {
    return user.username;
  }
}

@Resolver(() => Author)
export class AuthorPrivateFieldsResolver {
  @ResolveField('email', () => String, { nullable: true })
  @UseGuards(GqlAuthGuard)
  email(@Parent() author: Author) {
    return author.firstName.toLowerCase() + '@example.com';
  }

  @ResolveField('readBy', () => String, { nullable: true })
  readBy(@CurrentUser() user: { username: string } | undefined) {
    return user ? user.username : null;
  }
}
`;

/** The resolvers chapter's app.module with the context function of "GraphQL argument decorators". */
function graphModuleEdit(fieldResolverEnhancers?: string): [string, string] {
  const contextFunction = fragment(resolversPage, 'graphql-argument-decorators', 'locale:').value;
  const context = /^\s*(context: .*,)$/m.exec(contextFunction)![1];
  return [
    '      autoSchemaFile: true,\n',
    `      autoSchemaFile: true,\n      ${context}\n${fieldResolverEnhancers ? `      fieldResolverEnhancers: ${fieldResolverEnhancers},\n` : ''}`,
  ];
}

/**
 * The combined app, and the same app with fieldResolverEnhancers: ['guards'] (one compilation: the
 * models' type metadata is global to the process, and a second copy of them breaks the schema).
 */
function graphApp() {
  const enhanced = samples(resolversPage, {
    under: 'code-first-resolver',
    edit: {'app.module': [graphModuleEdit("['guards']")]},
    files: postsFiles,
  }).sources.get('app.module')!;
  const root = (graph: string) => `
import { Module } from '@nestjs/common';
import { AuthModule } from './auth/auth.module';
import { AppController } from './app.controller';
import { AppModule as GraphModule } from './${graph}';
import { AuthorPrivateFieldsResolver, WhoAmIResolver } from './reader.resolvers';

@Module({
  imports: [GraphModule, AuthModule],
  controllers: [AppController],
  providers: [WhoAmIResolver, AuthorPrivateFieldsResolver],
})
export class AppModule {}
`;
  const set = combine(
    [
      {
        page: resolversPage,
        options: {
          under: 'code-first-resolver',
          edit: {
            // The context function of "GraphQL argument decorators"
            'app.module': [graphModuleEdit()],
            // MeResolver registered next to AuthorsResolver, in the authors feature module
            'authors/authors.module': [
              [
                'providers: [AuthorsResolver, AuthorsService],',
                'providers: [AuthorsResolver, AuthorsService, MeResolver],',
              ],
              [
                "import { AuthorsService } from './authors.service';",
                "import { AuthorsService } from './authors.service';\nimport { MeResolver } from './me.resolver';",
              ],
            ],
          },
          files: postsFiles,
        },
        take: {
          'app.module': 'graph.module',
          'authors/authors.module': 'authors/authors.module',
          'authors/authors.resolver': 'authors/authors.resolver',
          'authors/authors.service': 'authors/authors.service',
          'authors/me.resolver': 'authors/me.resolver',
          'authors/models/author.model': 'authors/models/author.model',
          'posts/models/post.model': 'posts/models/post.model',
          'posts.service': 'posts.service',
          'posts.module': 'posts.module',
        },
      },
      authPart(),
    ],
    {
      'auth/gql-auth.guard': fragment(authPage, 'graphql', 'class GqlAuthGuard').value,
      'auth/current-user.decorator': fragment(authPage, 'graphql', 'export const CurrentUser')
        .value,
      'reader.resolvers': readerResolvers,
      'graph-enhanced.module': enhanced,
      'app.module': root('graph.module'),
      'app-enhanced.module': root('graph-enhanced.module'),
    },
  );
  return {
    AppModule: set.require('app.module').AppModule,
    EnhancedModule: set.require('app-enhanced.module').AppModule,
  };
}

const {AppModule, EnhancedModule} = graphApp();

async function gql(base: string, query: string, token?: string) {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token === undefined ? {} : {authorization: `Bearer ${token}`}),
    },
    body: JSON.stringify({query}),
  });
  return {status: response.status, body: await response.json()};
}

describe('the combined GraphQL app (guards do not run for field resolvers)', () => {
  let app: any;
  let base: string;
  let tokens: {alice: string; bob: string};
  beforeAll(async () => {
    app = await NestFactory.create(AppModule, {logger: false});
    base = await listen(app);
    tokens = {alice: await login(base, ...users.alice), bob: await login(base, ...users.bob)};
  });
  afterAll(async () => app?.close());

  claim(
    `${resolversPage}#graphql-argument-decorators`,
    "MeResolver behind the authentication chapter's GqlAuthGuard answers the signed-in caller's author: alice (userId 1) gets Ada, bob (userId 2) Grace, and a valid user without an author record null, without an error",
    async () => {
      for (const [token, expected] of [
        [tokens.alice, {id: 1, firstName: 'Ada'}],
        [tokens.bob, {id: 2, firstName: 'Grace'}],
        [sign({sub: 3, username: 'carol'}), null],
      ] as const) {
        const {body} = await gql(base, '{ me { id firstName } }', token);
        expect(body, JSON.stringify(body)).toEqual({data: {me: expected}});
      }
    },
  );

  claim.abuse(
    `${authPage}#graphql`,
    "no token, a malformed one, another secret's, an expired one: GqlAuthGuard refuses the query with an 'Unauthorized' error and no data, over HTTP 200",
    async () => {
      const expired = sign({sub: 1, username: 'alice', exp: Math.floor(Date.now() / 1000) - 5});
      const foreign = sign({sub: 1, username: 'alice'}, {secret: 'y'.repeat(40)});
      for (const token of [undefined, 'a.b.c', foreign, expired]) {
        const {status, body} = await gql(base, '{ whoAmI }', token);
        expect(status).toBe(200);
        expect(body.data, String(token)).toBeNull();
        expect(body.errors.map((error: any) => error.message)).toEqual(['Unauthorized']);
      }
    },
  );

  claim.abuse(
    `${authPage}#graphql`,
    "with the resolvers chapter's context function ({ req, res, locale }), two users in turn each get their own name from @CurrentUser(): alice, bob, alice",
    async () => {
      const seen: string[] = [];
      for (const token of [tokens.alice, tokens.bob, tokens.alice])
        seen.push((await gql(base, '{ whoAmI }', token)).body.data.whoAmI);
      expect(seen).toEqual(['alice', 'bob', 'alice']);
    },
  );

  claim.abuse(
    `${authPage}#graphql`,
    'alice, bob and anonymous callers at the same time (45 queries at once): each user gets their own name, each anonymous caller the Unauthorized error',
    async () => {
      const callers = Array.from(
        {length: 45},
        (_, i) => [tokens.alice, tokens.bob, undefined][i % 3],
      );
      const answers = await Promise.all(callers.map((token) => gql(base, '{ whoAmI }', token)));
      answers.forEach(({body}, i) => {
        if (i % 3 === 2) expect(body.errors?.[0]?.message, String(i)).toBe('Unauthorized');
        else expect(body.data?.whoAmI, String(i)).toBe(i % 3 === 0 ? 'alice' : 'bob');
      });
    },
  );

  claim.abuse(
    `${resolversPage}#field-resolvers`,
    "@UseGuards(GqlAuthGuard) on a field resolver does nothing by default: an anonymous caller reads the 'guarded' email field of the public author query",
    async () => {
      const {body} = await gql(base, '{ author(id: 1) { firstName email } }');
      expect(body).toEqual({data: {author: {firstName: 'Ada', email: 'ada@example.com'}}});
    },
  );

  claim.abuse(
    `${resolversPage}#field-resolvers`,
    '@CurrentUser() in a field resolver under a query that no guard protects finds no user, even when alice sends a valid token (nothing ran Passport)',
    async () => {
      const {body} = await gql(base, '{ author(id: 2) { readBy } }', tokens.alice);
      expect(body).toEqual({data: {author: {readBy: null}}});
    },
  );
});

describe("fieldResolverEnhancers: ['guards']", () => {
  let app: any;
  let base: string;
  beforeAll(async () => {
    app = await NestFactory.create(EnhancedModule, {logger: false});
    base = await listen(app);
  });
  afterAll(async () => app?.close());

  claim(
    `${resolversPage}#field-resolvers`,
    "with fieldResolverEnhancers: ['guards'], the guarded field refuses an anonymous caller (null and an Unauthorized error, the rest of the author still answered) and answers alice",
    async () => {
      const anonymous = await gql(base, '{ author(id: 1) { firstName email } }');
      expect(anonymous.body.data).toEqual({author: {firstName: 'Ada', email: null}});
      expect(
        anonymous.body.errors.map((error: any) => [error.message, error.extensions.code]),
      ).toEqual([['Unauthorized', 'UNAUTHENTICATED']]);
      const alice = await login(base, ...users.alice);
      const signedIn = await gql(base, '{ author(id: 1) { firstName email } }', alice);
      expect(signedIn.body).toEqual({data: {author: {firstName: 'Ada', email: 'ada@example.com'}}});
    },
  );
});

import {afterAll, beforeAll, describe, expect} from 'vitest';
import {posix} from 'node:path';
import {
  claim,
  nest,
  readPage,
  compileModule,
  fragment,
  expectOutput,
  samples,
  freePort,
} from '../../lib';
import {start, gql, tempDir, type Started} from './_support';

const {Module} = nest('@nestjs/common');
const page = 'docs/graphql/federation.md';

/** The page's files by name; each compiled from one version of its fence, imports resolved within `registry`. */
const registry: Record<string, any> = {};
(globalThis as any).__fed = registry;

function fence(filename: string, nth = 1): string {
  const list = readPage(page).fences.filter((f) => f.filename === filename);
  if (!list[nth - 1]) throw new Error(`${page} shows ${filename} ${list.length} time(s)`);
  return list[nth - 1].ts!;
}

/** Compiles a page file under `key`; its relative imports read the registry (by the path they name). */
function load(key: string, source: string): any {
  const dir = posix.dirname(key);
  const rewritten = source.replace(
    /import\s+(\{[^}]+\})\s+from\s+'(\.[^']+)';/g,
    (_, names: string, spec: string) => {
      const target = posix.normalize(posix.join(dir, spec));
      return `const ${names.replace(/\s+as\s+/g, ': ')} = (globalThis as any).__fed[${JSON.stringify(target)}];`;
    },
  );
  registry[key] = compileModule(rewritten, key.replace(/\W+/g, '-'));
  return registry[key];
}

const postsService = `
import { Injectable } from '@nestjs/common';

@Injectable()
export class PostsService {
  private readonly posts = [
    { id: '10', title: 'Federation in practice', content: '...', authorId: '1' },
  ];

  async findLatest() {
    return this.posts;
  }

  async findByAuthor(authorId: string) {
    return this.posts.filter((post) => post.authorId === authorId);
  }
}
`;

const sdlQuery = () => fragment(page, 'running-the-services', '_service').value;

const usersSaw: (string | undefined)[] = [];

describe('schema first services behind a gateway', () => {
  let users: Started;
  let posts: Started;
  let gateway: Started;
  beforeAll(async () => {
    const usersDir = tempDir({
      'users.graphql': fragment(page, 'users-service', 'type User @key').value,
    });
    const postsDir = tempDir({
      'posts.graphql': fragment(page, 'posts-service', 'type Post @key').value,
    });
    // users service
    load('users/users.service', fence('users/users.service'));
    load('users/users.resolver', fence('users/users.resolver', 1));
    const {AppModule: UsersApp} = load(
      'users-app',
      fence('app.module', 1).replace(
        "typePaths: ['**/*.graphql']",
        `typePaths: ['${usersDir}/*.graphql']`,
      ),
    );
    users = await start(UsersApp, {
      before: (app) =>
        app.use((req: any, _res: unknown, next: () => void) => {
          usersSaw.push(req.headers.authorization);
          next();
        }),
    });
    // posts service
    load('posts/posts.service', postsService);
    load('posts/posts.resolver', fence('posts/posts.resolver', 1));
    load('posts/users.resolver', fence('posts/users.resolver', 1));
    const {AppModule: PostsApp} = load(
      'posts-app',
      fence('app.module', 2).replace(
        "typePaths: ['**/*.graphql']",
        `typePaths: ['${postsDir}/*.graphql']`,
      ),
    );
    posts = await start(PostsApp);
    // gateway
    const {AppModule: GatewayApp} = load(
      'gateway-app',
      fence('app.module', 5)
        .replace("'http://localhost:3001/graphql'", `'${users.base}/graphql'`)
        .replace("'http://localhost:3002/graphql'", `'${posts.base}/graphql'`),
    );
    gateway = await start(GatewayApp);
  });
  afterAll(async () => {
    await gateway?.close();
    await posts?.close();
    await users?.close();
  });

  claim(
    `${page}#running-the-services`,
    'a service answers _service { sdl } with its SDL, federation directives included',
    async () => {
      const {body} = await gql(`${users.base}/graphql`, sdlQuery());
      expect(body.data._service.sdl).toContain('type User @key(fields: "id")');
      expect(body.data._service.sdl).toContain('extend type Query');
    },
  );

  claim(
    `${page}#users-service`,
    'the users service resolves _entities references through @ResolveReference()',
    async () => {
      const query = fragment(page, 'how-the-gateway-resolves-a-query', '_entities').value;
      const variables = JSON.parse(
        fragment(page, 'how-the-gateway-resolves-a-query', '"representations"').value,
      );
      const {body} = await gql(`${users.base}/graphql`, query, variables);
      expect(body).toEqual({data: {_entities: [{name: 'Ada'}, {name: 'Linus'}]}});
    },
  );

  claim(
    `${page}#posts-service`,
    'without a reference resolver, the posts service uses the reference itself as the parent of User.posts',
    async () => {
      const {body} = await gql(
        `${posts.base}/graphql`,
        'query($r: [_Any!]!) { _entities(representations: $r) { ... on User { posts { title } } } }',
        {r: [{__typename: 'User', id: '1'}]},
      );
      expect(body).toEqual({data: {_entities: [{posts: [{title: 'Federation in practice'}]}]}});
    },
  );

  claim(
    `${page}#federated-gateway`,
    'the gateway composes both services: one query combines posts, their authors and the authors’ posts',
    async () => {
      const {body} = await gql(
        `${gateway.base}/graphql`,
        fragment(page, 'federated-gateway', 'PostsWithAuthors').value,
      );
      expectOutput(page, 'gateway-response', body);
    },
  );

  claim(
    `${page}#federated-gateway`,
    'the gateway ignores playground: GET with Accept: text/html shows Apollo’s own landing page, not GraphQL Playground',
    async () => {
      const html = await (
        await fetch(`${gateway.base}/graphql`, {headers: {accept: 'text/html'}})
      ).text();
      expect(html).not.toMatch(/GraphQL Playground/);
      expect(html).toMatch(/apollo/i);
    },
  );

  claim(
    `${page}#sharing-context`,
    'with the data source from GATEWAY_BUILD_SERVICE, the client’s Authorization header reaches the services',
    async () => {
      load('authenticated-data-source', fence('authenticated-data-source'));
      load('build-service.module', fence('build-service.module'));
      const {AppModule} = load(
        'gateway-auth-app',
        fence('app.module', 6)
          .replace("'http://localhost:3001/graphql'", `'${users.base}/graphql'`)
          .replace("'http://localhost:3002/graphql'", `'${posts.base}/graphql'`),
      );
      const authGateway = await start(AppModule);
      try {
        usersSaw.length = 0;
        const {body} = await gql(
          `${authGateway.base}/graphql`,
          '{ latestPosts { author { name } } }',
          undefined,
          {authorization: 'Bearer t0k3n'},
        );
        expect(body).toEqual({data: {latestPosts: [{author: {name: 'Ada'}}]}});
        expect(usersSaw).toContain('Bearer t0k3n');
      } finally {
        await authGateway.close();
      }
    },
  );
});

describe('the gateway when a service is down', () => {
  claim.failure(
    `${page}#federated-gateway`,
    'a service that is down when the gateway starts stops the gateway at startup with the message quoted',
    async () => {
      const closed = `http://127.0.0.1:${await freePort()}/graphql`;
      const {AppModule} = load(
        'gateway-down-app',
        fence('app.module', 5)
          .replace("'http://localhost:3001/graphql'", `'${closed}'`)
          .replace("'http://localhost:3002/graphql'", `'${closed}'`),
      );
      const {NestFactory} = nest('@nestjs/core');
      let message = '';
      try {
        const app = await NestFactory.create(AppModule, {logger: false, abortOnError: false});
        await app.init();
        await app.close();
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toBe(
        `Couldn't load service definitions for "users" at ${closed}: request to ${closed} failed, reason: connect ECONNREFUSED ${closed.slice('http://'.length, -'/graphql'.length)}`,
      );
    },
  );

  claim.failure(
    `${page}#federated-gateway`,
    'a service that goes down while the gateway runs: its fields fail with an error naming its internal address (the block shown); formatError in the server options replaces it',
    async () => {
      const usersDir = tempDir({
        'users.graphql': fragment(page, 'users-service', 'type User @key').value,
      });
      const postsDir = tempDir({
        'posts.graphql': fragment(page, 'posts-service', 'type Post @key').value,
      });
      load('users/users.service', fence('users/users.service'));
      load('users/users.resolver', fence('users/users.resolver', 1));
      const {AppModule: UsersApp} = load(
        'users-down-app',
        fence('app.module', 1).replace(
          "typePaths: ['**/*.graphql']",
          `typePaths: ['${usersDir}/*.graphql']`,
        ),
      );
      load('posts/posts.service', postsService);
      load('posts/posts.resolver', fence('posts/posts.resolver', 1));
      load('posts/users.resolver', fence('posts/users.resolver', 1));
      const {AppModule: PostsApp} = load(
        'posts-down-app',
        fence('app.module', 2).replace(
          "typePaths: ['**/*.graphql']",
          `typePaths: ['${postsDir}/*.graphql']`,
        ),
      );
      const users = await start(UsersApp);
      const posts = await start(PostsApp);
      const {AppModule} = load(
        'gateway-later-app',
        fence('app.module', 5)
          .replace("'http://localhost:3001/graphql'", `'${users.base}/graphql'`)
          .replace("'http://localhost:3002/graphql'", `'${posts.base}/graphql'`),
      );
      const masked = load(
        'gateway-masked-app',
        fence('app.module', 5)
          .replace("'http://localhost:3001/graphql'", `'${users.base}/graphql'`)
          .replace("'http://localhost:3002/graphql'", `'${posts.base}/graphql'`)
          .replace(
            'cors: true,',
            "cors: true,\n        formatError: (error) => error.extensions?.code === 'INTERNAL_SERVER_ERROR' ? { message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } } : error,",
          ),
      ).AppModule;
      const gateway = await start(AppModule);
      const maskedGateway = await start(masked);
      try {
        await posts.close();
        const port = new URL(posts.base).port;
        const latest = await gql(`${gateway.base}/graphql`, '{ latestPosts { title } }');
        expectOutput(page, 'gateway-service-down', latest.body, [
          [new RegExp(`127\\.0\\.0\\.1:${port}`, 'g'), 'ADDRESS'],
          [/localhost:3002/g, 'ADDRESS'],
          [/127\.0\.0\.1:3002/g, 'ADDRESS'],
        ]);
        const hidden = await gql(`${maskedGateway.base}/graphql`, '{ latestPosts { title } }');
        expect(hidden.body.errors).toEqual([
          {message: 'Internal server error', extensions: {code: 'INTERNAL_SERVER_ERROR'}},
        ]);
        // The users service still answers through the gateway.
        expect((await gql(`${gateway.base}/graphql`, '{ __typename }')).body).toEqual({
          data: {__typename: 'Query'},
        });
      } finally {
        await maskedGateway.close();
        await gateway.close();
        await users.close();
      }
    },
  );
});

/** Replaces `search` in a page file, failing when the page no longer contains it. */
function edited(source: string, edits: [string, string][]): string {
  let out = source;
  for (const [search, replacement] of edits) {
    if (!out.includes(search)) throw new Error(`the page's sample no longer contains ${search}`);
    out = out.split(search).join(replacement);
  }
  return out;
}

const entitiesQuery =
  'query ($r: [_Any!]!) { _entities(representations: $r) { ... on User { id name } } }';
const twoUsers = {
  r: [
    {__typename: 'User', id: '1'},
    {__typename: 'User', id: '2'},
  ],
};

/** Stands for "your own service that validates the header": one valid token. */
const authServiceSource = `
import { Injectable } from '@nestjs/common';

@Injectable()
export class AuthService {
  async verifyToken(header?: string) {
    return header === 'Bearer staff-token' ? { id: 'staff' } : null;
  }
}
`;
/** Stands for the authentication chapter's GqlAuthGuard: the same token check, from the GraphQL context. */
const gqlAuthGuardSource = `
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';

@Injectable()
export class GqlAuthGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const { req } = GqlExecutionContext.create(context).getContext();
    return req?.headers?.authorization === 'Bearer staff-token';
  }
}
`;

describe('protecting reference resolvers (code first users service)', () => {
  const {GraphQLFederationModule} = nest('@nestjs/graphql');
  let classGuarded: Started;
  let enhanced: Started;
  let checked: Started;
  beforeAll(async () => {
    load('users/models/user.model', fence('users/models/user.model'));
    load('users/users.service', fence('users/users.service'));
    const {AuthService} = load('auth/auth.service', authServiceSource);
    const {GqlAuthGuard} = load('auth/gql-auth.guard', gqlAuthGuardSource);
    const {UsersService} = registry['users/users.service'];
    // The code first UsersResolver of the page, with @UseGuards() on the class as the section says.
    const {UsersResolver: Guarded} = load(
      'users/guarded-users.resolver',
      edited(fence('users/users.resolver', 2), [
        [
          "import { Args, ID, Query, ResolveReference, Resolver } from '@nestjs/graphql';",
          "import { UseGuards } from '@nestjs/common';\nimport { Args, ID, Query, ResolveReference, Resolver } from '@nestjs/graphql';\nimport { GqlAuthGuard } from '../auth/gql-auth.guard';",
        ],
        ['@Resolver(() => User)', '@Resolver(() => User)\n@UseGuards(GqlAuthGuard)'],
      ]),
    );
    const serve = (resolver: unknown, extra: Record<string, unknown> = {}) => {
      @Module({
        imports: [GraphQLFederationModule.forRoot({autoSchemaFile: true, ...extra})],
        providers: [resolver, UsersService, AuthService, GqlAuthGuard],
      })
      class UsersApp {}
      return start(UsersApp);
    };
    classGuarded = await serve(Guarded);
    enhanced = await serve(Guarded, {fieldResolverEnhancers: ['guards']});
    // The page's own resolver that checks the caller in resolveReference().
    const {UsersResolver: Checked} = load('users/users.resolver', fence('users/users.resolver', 3));
    checked = await serve(Checked);
  });
  afterAll(async () => {
    await classGuarded?.close();
    await enhanced?.close();
    await checked?.close();
  });

  claim.abuse(
    `${page}#protecting-reference-resolvers`,
    'a guard on the UsersResolver class does not run for @ResolveReference(): the user query refuses an anonymous caller, _entities gives it both users (the block shown)',
    async () => {
      const user = await gql(`${classGuarded.base}/graphql`, '{ user(id: "2") { name } }');
      expect(user.body.errors[0].message).toBe('Forbidden resource');
      expect(user.body.data).toEqual({user: null});
      const entities = await gql(`${classGuarded.base}/graphql`, entitiesQuery, twoUsers);
      expectOutput(page, 'entities-without-guard', entities.body);
    },
  );

  claim.abuse(
    `${page}#protecting-reference-resolvers`,
    "with fieldResolverEnhancers: ['guards'] the guard runs for the reference but finds info where the context should be: it refuses a valid token too",
    async () => {
      const headers = {authorization: 'Bearer staff-token'};
      const user = await gql(`${enhanced.base}/graphql`, '{ user(id: "2") { name } }', {}, headers);
      expect(user.body).toEqual({data: {user: {name: 'Linus'}}});
      const entities = await gql(`${enhanced.base}/graphql`, entitiesQuery, twoUsers, headers);
      expect(entities.body.data).toEqual({_entities: [null, null]});
      expect(entities.body.errors.map((e: any) => e.message)).toEqual([
        'Forbidden resource',
        'Forbidden resource',
      ]);
    },
  );

  claim.abuse(
    `${page}#protecting-reference-resolvers`,
    "the page's resolveReference() reads req from its context argument: anonymous and wrong tokens get UNAUTHENTICATED and null, a valid token gets the users",
    async () => {
      const callers: Record<string, string>[] = [{}, {authorization: 'Bearer forged'}];
      for (const headers of callers) {
        const {body} = await gql(`${checked.base}/graphql`, entitiesQuery, twoUsers, headers);
        expect(body.data).toEqual({_entities: [null, null]});
        expect(body.errors.map((e: any) => e.extensions.code)).toEqual([
          'UNAUTHENTICATED',
          'UNAUTHENTICATED',
        ]);
        const user = await gql(
          `${checked.base}/graphql`,
          '{ user(id: "2") { name } }',
          {},
          headers,
        );
        expect(user.body.errors[0].message).toBe('Forbidden resource');
      }
      const {body} = await gql(`${checked.base}/graphql`, entitiesQuery, twoUsers, {
        authorization: 'Bearer staff-token',
      });
      expect(body).toEqual({
        data: {
          _entities: [
            {id: '1', name: 'Ada'},
            {id: '2', name: 'Linus'},
          ],
        },
      });
    },
  );
});

describe('code first posts service', () => {
  let withOrphans: Started;
  let without: Started;
  beforeAll(async () => {
    // Flattened by file name, the posts service's user.model and users.resolver come last on the page and win.
    const set = samples(page, {
      pick: {
        'posts/models/user.model': 1,
        'posts/models/post.model': 1,
        'posts/posts.resolver': 2,
        'posts/users.resolver': 2,
        'app.module': 4,
      },
      files: {'posts/posts.service': postsService},
    });
    withOrphans = await start(set.require('app.module').AppModule);
    const {GraphQLFederationModule} = nest('@nestjs/graphql');
    const {PostsResolver} = set.require('posts/posts.resolver');
    const {UsersResolver} = set.require('posts/users.resolver');
    const {PostsService} = set.require('posts/posts.service');
    @Module({
      imports: [GraphQLFederationModule.forRoot({autoSchemaFile: true})],
      providers: [PostsResolver, UsersResolver, PostsService],
    })
    class PlainApp {}
    without = await start(PlainApp);
  });
  afterAll(async () => {
    await withOrphans?.close();
    await without?.close();
  });

  claim(
    `${page}#posts-service-1`,
    'the extension of User is in the service SDL with and without orphanedTypes (Post.author reaches it)',
    async () => {
      const a = (await gql(`${withOrphans.base}/graphql`, sdlQuery())).body.data._service.sdl;
      const b = (await gql(`${without.base}/graphql`, sdlQuery())).body.data._service.sdl;
      for (const sdl of [a, b]) {
        expect(sdl).toMatch(
          /type User @extends @key\(fields: "id"\) \{\s*id: ID! @external\s*posts: \[Post!\]!\s*\}/,
        );
      }
    },
  );
});

claim(
  `${page}#limitations`,
  'subscriptions in a federated service stop it with "No support for subscriptions yet when using Apollo Federation"',
  async () => {
    const {GraphQLFederationModule} = nest('@nestjs/graphql');
    const dir = tempDir({
      's.graphql':
        'type Thing @key(fields: "id") {\n  id: ID!\n}\n\nextend type Query {\n  thing: Thing\n}\n',
    });
    @Module({
      imports: [
        GraphQLFederationModule.forRoot({
          typePaths: [`${dir}/*.graphql`],
          installSubscriptionHandlers: true,
        }),
      ],
    })
    class AppModule {}
    await expect(start(AppModule)).rejects.toThrow(
      'No support for subscriptions yet when using Apollo Federation',
    );
  },
);

claim(
  `${page}#limitations`,
  'a service registered with the plain GraphQLModule does not expose _service',
  async () => {
    const {GraphQLModule, Resolver, Query} = nest('@nestjs/graphql');
    @Resolver()
    class Plain {
      @Query(() => String)
      hello() {
        return 'x';
      }
    }
    @Module({imports: [GraphQLModule.forRoot({autoSchemaFile: true})], providers: [Plain]})
    class AppModule {}
    const started = await start(AppModule);
    try {
      const {body} = await gql(`${started.base}/graphql`, '{ _service { sdl } }');
      expect(body.errors[0].message).toBe('Cannot query field "_service" on type "Query".');
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#computed-fields-with-requires`,
  'with @requires, the gateway fetches name from the users service first and the posts service finds it on the parent',
  async () => {
    const {Resolver, ResolveField, Parent, Query} = nest('@nestjs/graphql');
    const {GraphQLFederationModule} = nest('@nestjs/graphql');
    const usersDir = tempDir({
      'users.graphql': fragment(page, 'users-service', 'type User @key').value,
    });
    const postsSdl =
      'type Post @key(fields: "id") {\n  id: ID!\n  title: String!\n  author: User\n}\n\n' +
      fragment(page, 'computed-fields-with-requires', 'signature: String! @requires').value +
      '\nextend type Query {\n  latestPosts: [Post!]!\n}\n';
    const postsDir = tempDir({'posts.graphql': postsSdl});
    @Resolver('Post')
    class PostsResolver {
      @Query()
      latestPosts() {
        return [{id: '10', title: 'Federation in practice', authorId: '1'}];
      }
      @ResolveField()
      author(@Parent() post: {authorId: string}) {
        return {__typename: 'User', id: post.authorId};
      }
    }
    @Resolver('User')
    class UsersResolver {
      @ResolveField()
      signature(@Parent() user: {name: string}) {
        return `Posted by ${user.name}`;
      }
      @ResolveField()
      posts() {
        return [];
      }
    }
    load('users/users.service', fence('users/users.service'));
    load('users/users.resolver', fence('users/users.resolver', 1));
    const {AppModule: UsersApp} = load(
      'users-app-requires',
      fence('app.module', 1).replace(
        "typePaths: ['**/*.graphql']",
        `typePaths: ['${usersDir}/*.graphql']`,
      ),
    );
    @Module({
      imports: [GraphQLFederationModule.forRoot({typePaths: [`${postsDir}/*.graphql`]})],
      providers: [PostsResolver, UsersResolver],
    })
    class PostsApp {}
    const users = await start(UsersApp);
    const posts = await start(PostsApp);
    const {AppModule: GatewayApp} = load(
      'gateway-app-requires',
      fence('app.module', 5)
        .replace("'http://localhost:3001/graphql'", `'${users.base}/graphql'`)
        .replace("'http://localhost:3002/graphql'", `'${posts.base}/graphql'`),
    );
    const gateway = await start(GatewayApp);
    try {
      const {body} = await gql(
        `${gateway.base}/graphql`,
        '{ latestPosts { title author { signature } } }',
      );
      expect(body).toEqual({
        data: {
          latestPosts: [{title: 'Federation in practice', author: {signature: 'Posted by Ada'}}],
        },
      });
    } finally {
      await gateway.close();
      await posts.close();
      await users.close();
    }
  },
);

import {createRequire} from 'node:module';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect} from 'vitest';
import {
  claim,
  samples,
  nest,
  expectOutput,
  fragment,
  compileModule,
  memoryLogger,
  readPage,
  service,
  freePort,
  findBinary,
  type Service,
} from '../../lib';
import {start, gql, nodeChild, type Started} from './_support';

const {Module} = nest('@nestjs/common');
const {GraphQLModule, GraphQLSchemaHost} = nest('@nestjs/graphql');
const {printType} = nest('graphql');
const WebSocket = nest('ws');
const {createClient} = nest('graphql-ws');
const {SubscriptionClient} = nest('subscriptions-transport-ws');
const page = 'docs/graphql/subscriptions.md';

const commentsService = `
import { Injectable } from '@nestjs/common';

@Injectable()
export class CommentsService {
  private nextId = 31;

  async create(input: { postId: number; text: string }) {
    return { id: this.nextId++, createdAt: new Date(), ...input };
  }

  toModel(value: any) {
    return { ...value, text: value.text.toUpperCase() };
  }
}
`;

// One set of models per process (type metadata is global).
const authFiles = {
  'auth/auth.service': `
import { Injectable } from '@nestjs/common';

/** The tokens the service accepts right now (a test revokes one). */
export const validTokens = new Set(['good']);

@Injectable()
export class AuthService {
  async verifyToken(token?: string) {
    return token !== undefined && validTokens.has(token) ? { name: 'ada' } : null;
  }
}
`,
  'auth/auth.module': `
import { Module } from '@nestjs/common';
import { AuthService } from './auth.service';

@Module({ providers: [AuthService], exports: [AuthService] })
export class AuthModule {}
`,
};
const fences = readPage(page).fences;
/** The page's Redis PubSubModule and its resolver that injects PUB_SUB (the last versions of both files). */
const redisModule = fences.filter((f) => f.filename === 'pub-sub/pub-sub.module').at(-1)!.ts!;
const providerResolver = fences
  .filter((f) => f.filename === 'comments/comments.resolver')
  .find((f) => f.ts!.includes('PUB_SUB'))!.ts!;
/** The page's resolvers plus a mutation that publishes through the injected engine, as addComment() does. */
const redisApp = `
import { Inject, Module } from '@nestjs/common';
import { Args, GraphQLModule, Int, Mutation, Query, Resolver } from '@nestjs/graphql';
import { PubSubEngine } from 'graphql-subscriptions';
import { PUB_SUB, PubSubModule } from './pub-sub.module';
import { CommentsResolver } from './comments-provider.resolver';
import { Comment } from './comment.model';

let lastId = 0;

@Resolver(() => Comment)
export class AddCommentResolver {
  constructor(@Inject(PUB_SUB) private readonly pubSub: PubSubEngine) {}
  @Query(() => String) ping() { return 'pong'; }
  @Mutation(() => Comment)
  async addComment(@Args('text') text: string) {
    const comment = { id: ++lastId, postId: 1, text, createdAt: new Date() };
    await this.pubSub.publish('commentAdded', { commentAdded: comment });
    return comment;
  }
}

@Module({
  imports: [PubSubModule, GraphQLModule.forRoot({ autoSchemaFile: true, subscriptions: { 'graphql-ws': true } })],
  providers: [CommentsResolver, AddCommentResolver],
})
export class AppModule {}
`;
const set = samples(page, {
  under: 'publishing',
  files: {
    'comments/comments.service': commentsService,
    ...authFiles,
    'pub-sub.module': redisModule,
    'comments-provider.resolver': providerResolver,
    'redis-app.module': redisApp,
  },
});
const dir = set.dir;

/** A resolver built around a fragment of the page, with the page's Comment model and a module-level pubSub. */
function resolverWith(body: string): any {
  set.require('comments/models/comment.model');
  return compileModule(`
import { Args, Int, Mutation, Query, Resolver, Subscription, Context } from '@nestjs/graphql';
import { PubSub } from 'graphql-subscriptions';
const { Comment } = require(${JSON.stringify(dir + '/comment.model.js')});
const { CommentsService } = require(${JSON.stringify(dir + '/comments.service.js')});
const { AddCommentInput } = require(${JSON.stringify(dir + '/add-comment.input.js')});
export const pubSub = new PubSub();

@Resolver((of) => Comment)
export class CommentsResolver {
  constructor(private readonly commentsService: CommentsService) {}
  @Query(() => String) ping() { return 'pong'; }
  ${body}
}
Reflect.defineMetadata('design:paramtypes', [CommentsService], CommentsResolver);
export { CommentsService };
`);
}

async function startWith(
  resolver: any,
  options: Record<string, unknown>,
  logger?: any,
): Promise<Started> {
  @Module({
    imports: [GraphQLModule.forRoot({autoSchemaFile: true, ...options})],
    providers: [resolver.CommentsResolver, resolver.CommentsService],
  })
  class AppModule {}
  return start(AppModule, {logger});
}

/** Subscribes with the graphql-ws client and collects results. */
function graphqlWs(
  url: string,
  query: string,
  variables?: Record<string, unknown>,
  connectionParams?: Record<string, unknown>,
) {
  const results: any[] = [];
  const errors: any[] = [];
  let closed: any;
  let acked = false;
  const client = createClient({
    url,
    webSocketImpl: WebSocket,
    lazy: false,
    retryAttempts: 0,
    connectionParams,
    on: {connected: () => void (acked = true), closed: (event: any) => void (closed = event)},
  });
  const dispose = client.subscribe(
    {query, variables},
    {
      next: (r: any) => results.push(r),
      error: (e: any) => errors.push(e),
      complete: () => undefined,
    },
  );
  return {
    results,
    errors,
    get closed() {
      return closed;
    },
    get acked() {
      return acked;
    },
    close: async () => {
      dispose();
      await client.dispose();
    },
  };
}

/** Subscribes with the legacy subscriptions-transport-ws client. */
function transportWs(
  url: string,
  query: string,
  variables?: Record<string, unknown>,
  connectionParams?: Record<string, unknown>,
) {
  const results: any[] = [];
  const errors: any[] = [];
  const client = new SubscriptionClient(
    url,
    {
      reconnect: false,
      connectionParams,
      connectionCallback: (error: any) => error && errors.push(error),
    },
    WebSocket,
  );
  const subscription = client
    .request({query, variables})
    .subscribe({next: (r: any) => results.push(r), error: (e: any) => errors.push(e)});
  return {
    results,
    errors,
    client,
    close: () => {
      subscription.unsubscribe();
      client.close();
    },
  };
}

async function until(condition: () => boolean, what: string, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const wsUrl = (base: string, path = '/graphql') => base.replace('http', 'ws') + path;

describe('the page’s comments app with graphql-ws', () => {
  let started: Started;
  beforeAll(async () => {
    const {AppModule: Base} = set.require('app.module');
    const {CommentsResolver} = set.require('comments/comments.resolver');
    const {CommentsService} = set.require('comments/comments.service');
    @Module({imports: [Base], providers: [CommentsResolver, CommentsService]})
    class AppModule {}
    // The page's resolver has only a mutation and a subscription; a query comes from a tiny extra resolver.
    const {Resolver, Query} = nest('@nestjs/graphql');
    @Resolver()
    class Ping {
      @Query(() => String)
      ping() {
        return 'pong';
      }
    }
    @Module({imports: [AppModule], providers: [Ping]})
    class Root {}
    started = await start(Root);
  });
  afterAll(() => started?.close());

  claim(`${page}#code-first`, 'the subscription is added to the Subscription root type', () => {
    expectOutput(
      page,
      'subscription-sdl',
      printType(started.app.get(GraphQLSchemaHost).schema.getSubscriptionType()),
    );
  });

  claim(
    `${page}#publishing`,
    'a graphql-ws client on ws://…/graphql receives the comment published by the mutation, shaped like a query result',
    async () => {
      const sub = graphqlWs(
        wsUrl(started.base),
        fragment(page, 'code-first', 'subscription {').value,
      );
      try {
        await until(() => sub.acked, 'connection_ack');
        await new Promise((resolve) => setTimeout(resolve, 100));
        const {body} = await gql(
          `${started.base}/graphql`,
          'mutation { addComment(input: { postId: 12, text: "Great article, thanks!" }) { id } }',
        );
        expect(body).toEqual({data: {addComment: {id: 31}}});
        await until(() => sub.results.length === 1, 'the event');
        expectOutput(page, 'comment-event', sub.results[0]);
      } finally {
        await sub.close();
      }
    },
  );

  claim(
    `${page}#graphql-ws`,
    'with graphql-ws alone, the legacy protocol (GraphQL Playground’s) gets no subscription results',
    async () => {
      const legacy = transportWs(wsUrl(started.base), 'subscription { commentAdded { id } }');
      try {
        await new Promise((resolve) => setTimeout(resolve, 300));
        await gql(
          `${started.base}/graphql`,
          'mutation { addComment(input: { postId: 1, text: "x" }) { id } }',
        );
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(legacy.results).toEqual([]);
      } finally {
        legacy.close();
      }
    },
  );
});

const publishing = `
  @Mutation((returns) => Comment)
  async addComment(@Args('input') input: AddCommentInput) {
    const comment = await this.commentsService.create(input);
    await pubSub.publish('commentAdded', { commentAdded: comment });
    return comment;
  }
  @Subscription((returns) => Comment)
  commentAdded() {
    return pubSub.asyncIterator('commentAdded');
  }`;

async function publishAndCollect(
  base: string,
  sub: {results: any[]},
  mutation: string,
  count = 1,
): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 150));
  await gql(`${base}/graphql`, mutation);
  await until(() => sub.results.length >= count, 'the event');
}

claim(
  `${page}#subscriptions-transport-ws`,
  'installSubscriptionHandlers: true serves the subscriptions-transport-ws protocol',
  async () => {
    const started = await startWith(resolverWith(publishing), {installSubscriptionHandlers: true});
    const sub = transportWs(wsUrl(started.base), 'subscription { commentAdded { text } }');
    try {
      await publishAndCollect(
        started.base,
        sub,
        'mutation { addComment(input: { postId: 1, text: "legacy" }) { id } }',
      );
      expect(sub.results[0]).toEqual({data: {commentAdded: {text: 'legacy'}}});
    } finally {
      sub.close();
      await started.close();
    }
  },
);

claim(
  `${page}#subscriptions-transport-ws`,
  'when installSubscriptionHandlers and subscriptions are both set, subscriptions wins (graphql-ws only)',
  async () => {
    const started = await startWith(resolverWith(publishing), {
      installSubscriptionHandlers: true,
      subscriptions: {'graphql-ws': true},
    });
    const legacy = transportWs(wsUrl(started.base), 'subscription { commentAdded { text } }');
    const modern = graphqlWs(wsUrl(started.base), 'subscription { commentAdded { text } }');
    try {
      await publishAndCollect(
        started.base,
        modern,
        'mutation { addComment(input: { postId: 1, text: "both" }) { id } }',
      );
      expect(modern.results[0]).toEqual({data: {commentAdded: {text: 'both'}}});
      expect(legacy.results).toEqual([]);
    } finally {
      legacy.close();
      await modern.close();
      await started.close();
    }
  },
);

claim(
  `${page}#both-protocols-at-once`,
  'with both keys, each client gets its protocol; the legacy library announces "graphql-ws", graphql-ws announces "graphql-transport-ws"',
  async () => {
    const started = await startWith(resolverWith(publishing), {
      subscriptions: {'graphql-ws': true, 'subscriptions-transport-ws': true},
    });
    const legacy = transportWs(wsUrl(started.base), 'subscription { commentAdded { text } }');
    const modern = graphqlWs(wsUrl(started.base), 'subscription { commentAdded { text } }');
    try {
      await publishAndCollect(
        started.base,
        modern,
        'mutation { addComment(input: { postId: 1, text: "to both" }) { id } }',
      );
      await until(() => legacy.results.length === 1, 'the legacy event');
      expect(legacy.results[0]).toEqual(modern.results[0]);
      expect(legacy.client.client.protocol).toBe('graphql-ws');
      const raw = new WebSocket(wsUrl(started.base), 'graphql-transport-ws');
      await new Promise((resolve) => raw.once('open', resolve));
      expect(raw.protocol).toBe('graphql-transport-ws');
      raw.close();
    } finally {
      legacy.close();
      await modern.close();
      await started.close();
    }
  },
);

claim(
  `${page}#publishing`,
  'a payload whose key does not match the field name gives an error for the non-nullable field',
  async () => {
    const started = await startWith(
      resolverWith(publishing.replace('{ commentAdded: comment }', '{ comment }')),
      {subscriptions: {'graphql-ws': true}},
    );
    const sub = graphqlWs(wsUrl(started.base), 'subscription { commentAdded { text } }');
    try {
      await publishAndCollect(
        started.base,
        sub,
        'mutation { addComment(input: { postId: 1, text: "x" }) { id } }',
      );
      expect(sub.results[0].data).toBeNull();
      expect(sub.results[0].errors[0].message).toBe(
        'Cannot return null for non-nullable field Subscription.commentAdded.',
      );
    } finally {
      await sub.close();
      await started.close();
    }
  },
);

claim(
  `${page}#filtering-subscriptions`,
  'the filter gets the payload and the field arguments (also for an inline argument without variables); only comments of the subscribed post arrive',
  async () => {
    const filtered = fragment(page, 'filtering-subscriptions', 'filter:').value;
    const started = await startWith(
      resolverWith(
        publishing.replace(
          /@Subscription\(\(returns\) => Comment\)\n\s*commentAdded\(\) \{\n\s*return pubSub.asyncIterator\('commentAdded'\);\n\s*\}/,
          filtered,
        ),
      ),
      {subscriptions: {'graphql-ws': true}},
    );
    const sub = graphqlWs(
      wsUrl(started.base),
      fragment(page, 'filtering-subscriptions', 'CommentsOfPost').value,
      {postId: 12},
    );
    // An inline argument and no variables at all: the filter still gets postId, since it receives the field arguments.
    const inline = graphqlWs(
      wsUrl(started.base),
      'subscription { commentAdded(postId: 7) { text } }',
    );
    try {
      await new Promise((resolve) => setTimeout(resolve, 150));
      await gql(
        `${started.base}/graphql`,
        'mutation { addComment(input: { postId: 7, text: "other" }) { id } }',
      );
      await publishAndCollect(
        started.base,
        sub,
        'mutation { addComment(input: { postId: 12, text: "mine" }) { id } }',
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(sub.results.map((r) => r.data.commentAdded.text)).toEqual(['mine']);
      expect(inline.results.map((r) => r.data.commentAdded.text)).toEqual(['other']);
    } finally {
      await inline.close();
      await sub.close();
      await started.close();
    }
  },
);

claim(
  `${page}#mutating-subscription-payloads`,
  'a resolve function declared as a regular function runs with this bound to the resolver instance',
  async () => {
    const withThis = fragment(page, 'mutating-subscription-payloads', 'resolve(this').value.replace(
      'this: CommentsResolver, ',
      'this: any, ',
    );
    const body = publishing
      .replace('{ commentAdded: comment }', 'comment')
      .replace(
        /@Subscription\(\(returns\) => Comment\)\n\s*commentAdded\(\) \{\n\s*return pubSub.asyncIterator\('commentAdded'\);\n\s*\}/,
        withThis,
      );
    const started = await startWith(resolverWith(body), {subscriptions: {'graphql-ws': true}});
    const sub = graphqlWs(wsUrl(started.base), 'subscription { commentAdded { text } }');
    try {
      await publishAndCollect(
        started.base,
        sub,
        'mutation { addComment(input: { postId: 1, text: "shout" }) { id } }',
      );
      expect(sub.results[0]).toEqual({data: {commentAdded: {text: 'SHOUT'}}});
    } finally {
      await sub.close();
      await started.close();
    }
  },
);

claim(
  `${page}#customize-subscriptions-server`,
  "'graphql-ws': { path: '/subscriptions' } serves subscriptions on that path",
  async () => {
    const started = await startWith(resolverWith(publishing), {
      subscriptions: {'graphql-ws': {path: '/subscriptions'}},
    });
    const sub = graphqlWs(
      wsUrl(started.base, '/subscriptions'),
      'subscription { commentAdded { text } }',
    );
    try {
      await publishAndCollect(
        started.base,
        sub,
        'mutation { addComment(input: { postId: 1, text: "path" }) { id } }',
      );
      expect(sub.results[0]).toEqual({data: {commentAdded: {text: 'path'}}});
    } finally {
      await sub.close();
      await started.close();
    }
  },
);

claim(
  `${page}#publishing`,
  'a request-scoped resolver with @Subscription() makes Nest log that such resolvers must be static',
  async () => {
    const {Scope, Injectable} = nest('@nestjs/common');
    const resolver = resolverWith(publishing);
    @Injectable({scope: Scope.REQUEST})
    class Scoped {}
    void Scoped;
    const log = memoryLogger();
    const {Resolver: R, Subscription: S, Query: Q} = nest('@nestjs/graphql');
    const {PubSub} = nest('graphql-subscriptions');
    const pubSub = new PubSub();
    @R()
    @Injectable({scope: Scope.REQUEST})
    class ScopedResolver {
      @Q(() => String)
      hi() {
        return 'hi';
      }
      @S(() => String)
      ticks() {
        return pubSub.asyncIterator('ticks');
      }
    }
    void resolver;
    @Module({
      imports: [GraphQLModule.forRoot({autoSchemaFile: true, subscriptions: {'graphql-ws': true}})],
      providers: [ScopedResolver],
    })
    class AppModule {}
    const started = await start(AppModule, {logger: log.logger});
    await started.close();
    expect(
      log.lines
        .filter((l) => l.level === 'error')
        .map((l) => l.message)
        .join('\n'),
    ).toMatch(/must be static \(singleton\)/);
  },
);

/** A resolver whose subscription answers with the user found in the GraphQL context. */
function whoAmIResolver(): any {
  return compileModule(`
import { Query, Resolver, Subscription } from '@nestjs/graphql';
import { PubSub } from 'graphql-subscriptions';
export const pubSub = new PubSub();
@Resolver()
export class WhoResolver {
  @Query(() => String) ping() { return 'pong'; }
  @Subscription(() => String, { resolve: (payload, args, context) => (context.user ? context.user.name : 'anonymous') + (context.req ? ' with req' : '') })
  whoAmI() { return pubSub.asyncIterator('tick'); }
}`);
}

function withAuthApp(moduleSource: string, who: any): any {
  const rewritten = moduleSource
    .replace(
      "import { AuthModule } from './auth/auth.module';",
      `const { AuthModule } = require(${JSON.stringify(dir + '/auth.module.js')});`,
    )
    .replace(
      "import { AuthService } from './auth/auth.service';",
      `const { AuthService } = require(${JSON.stringify(dir + '/auth.service.js')});`,
    );
  const {AppModule} = compileModule(rewritten);
  @Module({imports: [AppModule], providers: [who.WhoResolver]})
  class Root {}
  return Root;
}

claim(
  `${page}#with-graphql-ws`,
  'graphql-ws: onConnect returning false refuses the connection (close 4403 Forbidden)',
  async () => {
    const who = whoAmIResolver();
    const started = await start(
      withAuthApp(readPage(page).fences.filter((f) => f.filename === 'app.module')[1].ts!, who),
    );
    const sub = graphqlWs(wsUrl(started.base), 'subscription { whoAmI }', undefined, {
      authToken: 'bad',
    });
    try {
      await until(() => sub.closed !== undefined, 'the close');
      expect(sub.acked).toBe(false);
      expect([sub.closed.code, sub.closed.reason]).toEqual([4403, 'Forbidden']);
    } finally {
      await sub.close();
      await started.close();
    }
  },
);

claim(
  `${page}#with-graphql-ws`,
  'graphql-ws: the user stored on extra in onConnect reaches the GraphQL context through the context function',
  async () => {
    const who = whoAmIResolver();
    const started = await start(
      withAuthApp(readPage(page).fences.filter((f) => f.filename === 'app.module')[1].ts!, who),
    );
    const sub = graphqlWs(wsUrl(started.base), 'subscription { whoAmI }', undefined, {
      authToken: 'good',
    });
    try {
      await until(() => sub.acked, 'connection_ack');
      await new Promise((resolve) => setTimeout(resolve, 150));
      await who.pubSub.publish('tick', {});
      await until(() => sub.results.length === 1, 'the event');
      expect(sub.results[0]).toEqual({data: {whoAmI: 'ada'}});
    } finally {
      await sub.close();
      await started.close();
    }
  },
);

claim(
  `${page}#with-subscriptions-transport-ws`,
  'subscriptions-transport-ws: the object onConnect returns is the context (no req: the context function is not called); a throw refuses',
  async () => {
    const who = whoAmIResolver();
    const options = fragment(
      page,
      'with-subscriptions-transport-ws',
      'GraphQLModule.forRootAsync',
    ).value;
    const source = `import { Module } from '@nestjs/common';
import { GraphQLModule } from '@nestjs/graphql';
import { AuthModule } from './auth/auth.module';
import { AuthService } from './auth/auth.service';
@Module({ imports: [${options.trim().replace(/;$/, '').replace('autoSchemaFile: true,', 'autoSchemaFile: true,\n    context: ({ req }) => ({ req, fromContextFunction: true }),')}] })
export class AppModule {}`;
    const started = await start(withAuthApp(source, who));
    const good = transportWs(wsUrl(started.base), 'subscription { whoAmI }', undefined, {
      authToken: 'good',
    });
    const bad = transportWs(wsUrl(started.base), 'subscription { whoAmI }', undefined, {
      authToken: 'bad',
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      await who.pubSub.publish('tick', {});
      await until(
        () => good.results.length === 1 && bad.errors.length > 0,
        'the event and the refusal',
      );
      expect(good.results[0]).toEqual({data: {whoAmI: 'ada'}});
      expect(bad.errors[0].message).toBe('Invalid authentication token');
      expect(bad.results).toEqual([]);
    } finally {
      good.close();
      bad.close();
      await started.close();
    }
  },
);

// ---- PubSub as a provider: the page's RedisPubSub against a real Redis, and what happens when Redis fails ----

claim(
  `${page}#pubsub-as-a-provider`,
  'the install line names the ioredis major that graphql-redis-subscriptions@^2 (2.7 today) loads: ioredis 5',
  () => {
    const semver = nest('semver');
    const install = fences.find(
      (f) => f.lang === 'bash' && f.value.includes('graphql-redis-subscriptions@'),
    )!.value;
    const range = (name: string) => new RegExp(`${name}@(\\S+)`).exec(install)![1];
    const library = nest('graphql-redis-subscriptions/package.json');
    expect(semver.satisfies(library.version, range('graphql-redis-subscriptions'))).toBe(true);
    // The copy RedisPubSub requires is its own (nested) ioredis, whatever the application has.
    const {RedisPubSub} = nest('graphql-redis-subscriptions');
    const pubSub = new RedisPubSub({connection: {lazyConnect: true}});
    const fromLibrary = createRequire(
      join(
        __dirname,
        '..',
        '..',
        'node_modules',
        'graphql-redis-subscriptions',
        'dist',
        'index.js',
      ),
    );
    const used = fromLibrary('ioredis/package.json');
    expect(pubSub.getPublisher()).toBeInstanceOf(fromLibrary('ioredis').default);
    expect(used.version).toMatch(/^5\./);
    expect(semver.satisfies(used.version, range('ioredis'))).toBe(true);
    expect(semver.intersects(library.optionalDependencies.ioredis, range('ioredis'))).toBe(true);
    pubSub.getPublisher().disconnect();
    pubSub.getSubscriber().disconnect();
  },
);

/** A redis-server on a given port (the tests need to stop and start Redis on the port an app was given). */
async function redisOn(port: number): Promise<{stop: () => Promise<void>}> {
  const {spawn} = require('node:child_process') as typeof import('node:child_process');
  const {connect} = require('node:net') as typeof import('node:net');
  const child = spawn(
    findBinary('redis'),
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {stdio: 'ignore'},
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let i = 0; ; i += 1) {
    const open = await new Promise<boolean>((done) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        done(true);
      });
      socket.once('error', () => done(false));
    });
    if (open) break;
    if (i > 200) throw new Error(`redis-server did not listen on ${port}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return {
    stop: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** The page's module in its own set (with bench edits), started in a child process on a free port. */
function childApp(edits: [string, string][], env: NodeJS.ProcessEnv) {
  const childSet = samples(page, {
    under: 'pubsub-as-a-provider',
    files: {
      'redis-app.module': redisApp.replace(
        "'./comments-provider.resolver'",
        "'./comments.resolver'",
      ),
    },
    edit: {'pub-sub/pub-sub.module': edits},
  });
  return nodeChild(
    `
const { NestFactory } = require('@nestjs/core');
const { AppModule } = require(${JSON.stringify(childSet.dir + '/redis-app.module.js')});
(async () => {
  const app = await NestFactory.create(AppModule, { logger: ['error'] });
  if (process.env.SHUTDOWN_HOOKS) app.enableShutdownHooks();
  await app.listen(0, '127.0.0.1');
  console.log('LISTENING ' + (await app.getUrl()));
  if (process.env.CLOSE_AFTER_START) {
    await app.close();
    console.log('CLOSED');
  }
})();
`,
    env,
  );
}

const listening = (out: string) => /LISTENING (\S+)/.exec(out)![1];
// Reconnection attempts every 20 ms instead of ioredis' growing delays (up to 2 s): the same number of
// attempts, 20 of them before a queued command is dropped, in a fraction of a second.
const fastRetries: [string, string] = [
  'maxRetriesPerRequest: null,',
  'maxRetriesPerRequest: null,\n            retryStrategy: () => 20,',
];

claim.failure(
  `${page}#when-redis-is-unavailable`,
  'without maxRetriesPerRequest: null, a subscription started while Redis is down ends the process: the rejection is unhandled',
  async () => {
    const port = await freePort();
    const child = childApp([['maxRetriesPerRequest: null,', 'retryStrategy: () => 20,']], {
      REDIS_PORT: String(port),
    });
    try {
      await child.waitFor('LISTENING');
      const sub = graphqlWs(wsUrl(listening(child.out)), 'subscription { commentAdded { id } }');
      const code = await Promise.race([
        child.exited,
        new Promise((resolve) => setTimeout(() => resolve('alive'), 10_000)),
      ]);
      await sub.close();
      expect(code).toBe(1);
      const line = child.out.split('\n').find((l) => l.startsWith('MaxRetriesPerRequestError'));
      expectOutput(page, 'redis-max-retries', line!);
      expect(child.out).toContain('ECONNREFUSED');
    } finally {
      await child.kill();
    }
  },
  20_000,
);

claim.failure(
  `${page}#when-redis-is-unavailable`,
  'with the page’s factory and Redis down at start: the app starts, outlives the 20 attempts, the mutation answers once Redis is up, and later events arrive',
  async () => {
    const port = await freePort();
    const child = childApp([fastRetries], {REDIS_PORT: String(port)});
    let redis: {stop: () => Promise<void>} | undefined;
    try {
      await child.waitFor('LISTENING');
      const base = listening(child.out);
      const sub = graphqlWs(wsUrl(base), 'subscription { commentAdded { text } }');
      try {
        let answered: any;
        const pending = gql(
          `${base}/graphql`,
          'mutation { addComment(text: "during the outage") { id } }',
        ).then((response) => (answered = response));
        // Far more than 20 attempts at 20 ms: the default setting would have ended the process by now.
        await new Promise((resolve) => setTimeout(resolve, 2500));
        expect([child.code, child.signal, answered]).toEqual([null, null, undefined]);
        redis = await redisOn(port);
        expect((await pending).body).toEqual({data: {addComment: {id: 1}}});
        // Events published from now on reach the subscription that waited through the outage.
        const end = Date.now() + 5000;
        while (!sub.results.some((r) => r.data?.commentAdded.text === 'after the outage')) {
          if (Date.now() > end) throw new Error(`no event after the outage:\n${child.out}`);
          await gql(`${base}/graphql`, 'mutation { addComment(text: "after the outage") { id } }');
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      } finally {
        await sub.close();
      }
    } finally {
      await child.kill();
      await redis?.stop();
    }
  },
  20_000,
);

claim.failure(
  `${page}#when-redis-is-unavailable`,
  'app.close() leaves the two Redis connections open and the process running; SIGTERM ends it, with or without enableShutdownHooks()',
  async () => {
    const redis = await service('redis');
    try {
      const closed = childApp([], {REDIS_PORT: String(redis.port), CLOSE_AFTER_START: '1'});
      try {
        await closed.waitFor('CLOSED');
        await new Promise((resolve) => setTimeout(resolve, 1500));
        expect([closed.code, closed.signal]).toEqual([null, null]);
        await closed.kill('SIGTERM');
        expect(closed.signal).toBe('SIGTERM');
      } finally {
        await closed.kill();
      }
      const hooked = childApp([], {REDIS_PORT: String(redis.port), SHUTDOWN_HOOKS: '1'});
      try {
        await hooked.waitFor('LISTENING');
        await hooked.kill('SIGTERM');
        expect(hooked.signal).toBe('SIGTERM');
      } finally {
        await hooked.kill();
      }
    } finally {
      await redis.stop();
    }
  },
  20_000,
);

describe('the page’s RedisPubSub in this process, with a real Redis', () => {
  let redis: Service;
  let previous: string | undefined;
  beforeAll(async () => {
    redis = await service('redis');
    previous = process.env.REDIS_PORT;
  });
  afterAll(async () => {
    if (previous === undefined) delete process.env.REDIS_PORT;
    else process.env.REDIS_PORT = previous;
    await redis?.stop();
  });

  async function startRedisApp(port: string): Promise<Started> {
    process.env.REDIS_PORT = port;
    const {AppModule} = set.require('redis-app.module');
    return start(AppModule);
  }

  async function closeRedisApp(started: Started): Promise<void> {
    const pubSub = started.app.get('PUB_SUB');
    await started.close();
    // When a subscription ends, graphql-redis-subscriptions sends UNSUBSCRIBE and PUNSUBSCRIBE and drops
    // their promises. disconnect() right after a client left rejected them ('Connection is closed.') with
    // nobody to handle it; close() sends QUIT after them and waits for their replies.
    await pubSub.close();
  }

  claim(
    `${page}#pubsub-as-a-provider`,
    'two instances share events through Redis: a comment added on one reaches a subscriber of the other',
    async () => {
      const first = await startRedisApp(String(redis.port));
      const second = await startRedisApp(String(redis.port));
      const sub = graphqlWs(wsUrl(first.base), 'subscription { commentAdded { text } }');
      try {
        await until(() => sub.acked, 'connection_ack');
        await publishAndCollect(
          second.base,
          sub,
          'mutation { addComment(text: "from the other instance") { id } }',
        );
        expect(sub.results[0]).toEqual({data: {commentAdded: {text: 'from the other instance'}}});
      } finally {
        await sub.close();
        await closeRedisApp(first);
        await closeRedisApp(second);
      }
    },
  );

  claim(
    `${page}#when-redis-is-unavailable`,
    'app.close() leaves the two Redis connections open; app.get(PUB_SUB).close() right after a client left ends both, with no rejection left behind',
    async () => {
      const started = await startRedisApp(String(redis.port));
      const pubSub = started.app.get('PUB_SUB');
      const rejections: unknown[] = [];
      const onRejection = (reason: unknown) => rejections.push(reason);
      process.on('unhandledRejection', onRejection);
      try {
        const sub = graphqlWs(wsUrl(started.base), 'subscription { commentAdded { text } }');
        await until(() => sub.acked, 'connection_ack');
        await new Promise((resolve) => setTimeout(resolve, 100));
        await sub.close();
        await started.close();
        expect([pubSub.getPublisher().status, pubSub.getSubscriber().status]).toEqual([
          'ready',
          'ready',
        ]);
        // close() resolves on the two QUIT replies; each connection ends once Redis closes it.
        await pubSub.close();
        await until(
          () => pubSub.getPublisher().status === 'end' && pubSub.getSubscriber().status === 'end',
          'both connections ended',
        );
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(rejections).toEqual([]);
      } finally {
        process.off('unhandledRejection', onRejection);
      }
    },
  );

  claim(
    `${page}#pubsub`,
    'with the in-memory PubSub, a subscriber of one instance never sees a comment added on another',
    async () => {
      // One compilation per instance: two processes load the module file once each, so each has its PubSub.
      const inMemory = fences.filter((f) => f.filename === 'pub-sub/pub-sub.module')[0].ts!;
      const {CommentsResolver} = set.require('comments-provider.resolver');
      const {AddCommentResolver} = set.require('redis-app.module');
      const instance = () => {
        @Module({
          imports: [
            compileModule(inMemory).PubSubModule,
            GraphQLModule.forRoot({autoSchemaFile: true, subscriptions: {'graphql-ws': true}}),
          ],
          providers: [CommentsResolver, AddCommentResolver],
        })
        class InMemoryApp {}
        return start(InMemoryApp);
      };
      const first = await instance();
      const second = await instance();
      const sub = graphqlWs(wsUrl(first.base), 'subscription { commentAdded { text } }');
      try {
        await until(() => sub.acked, 'connection_ack');
        await new Promise((resolve) => setTimeout(resolve, 150));
        await gql(`${second.base}/graphql`, 'mutation { addComment(text: "elsewhere") { id } }');
        await publishAndCollect(first.base, sub, 'mutation { addComment(text: "here") { id } }');
        expect(sub.results.map((r) => r.data.commentAdded.text)).toEqual(['here']);
      } finally {
        await sub.close();
        await first.close();
        await second.close();
      }
    },
  );

  claim.failure(
    `${page}#when-redis-is-unavailable`,
    'Redis restarted while the app runs: the subscription resumes, and events published after the reconnection arrive',
    async () => {
      const port = await freePort();
      let server = await redisOn(port);
      const started = await startRedisApp(String(port));
      const sub = graphqlWs(wsUrl(started.base), 'subscription { commentAdded { text } }');
      try {
        await until(() => sub.acked, 'connection_ack');
        await publishAndCollect(
          started.base,
          sub,
          'mutation { addComment(text: "before") { id } }',
        );
        await server.stop();
        server = await redisOn(port);
        const end = Date.now() + 8000;
        while (!sub.results.some((r) => r.data.commentAdded.text === 'after the restart')) {
          if (Date.now() > end) throw new Error('no event after the restart');
          await gql(
            `${started.base}/graphql`,
            'mutation { addComment(text: "after the restart") { id } }',
          );
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(sub.results[0].data.commentAdded.text).toBe('before');
      } finally {
        await sub.close();
        await closeRedisApp(started);
        await server.stop();
      }
    },
    20_000,
  );

  claim.failure(
    `${page}#pubsub-as-a-provider`,
    'with ioredis’ ready check on, a SUBSCRIBE sent while the connection is being checked is lost with every later one; enableReadyCheck: false keeps them',
    async () => {
      process.env.REDIS_PORT = String(redis.port);
      const factoryOf = (module: any) => Reflect.getMetadata('providers', module)[0].useFactory;
      const received = async (pubSub: any): Promise<unknown[]> => {
        const got: unknown[] = [];
        const errors: string[] = [];
        pubSub.getSubscriber().on('error', (error: Error) => errors.push(error.message));
        // The first subscription goes out the moment the connection opens, before the ready check answers.
        pubSub.getSubscriber().once('connect', () => {
          pubSub
            .asyncIterator('commentAdded')
            .next()
            .then((r: any) => got.push(r.value));
        });
        await until(() => pubSub.getSubscriber().status === 'ready', 'a ready connection');
        await new Promise((resolve) => setTimeout(resolve, 200));
        pubSub
          .asyncIterator('commentAdded')
          .next()
          .then((r: any) => got.push(r.value));
        await new Promise((resolve) => setTimeout(resolve, 200));
        await pubSub.publish('commentAdded', {commentAdded: {id: 1}});
        await new Promise((resolve) => setTimeout(resolve, 300));
        pubSub.getPublisher().disconnect();
        pubSub.getSubscriber().disconnect();
        return [
          got,
          errors.includes('Connection in subscriber mode, only subscriber commands may be used'),
        ];
      };
      const {PubSubModule} = set.require('pub-sub.module');
      expect(await received(factoryOf(PubSubModule)())).toEqual([
        [{commentAdded: {id: 1}}, {commentAdded: {id: 1}}],
        false,
      ]);
      const withCheck = compileModule(redisModule.replace('enableReadyCheck: false,', ''));
      expect(await received(factoryOf(withCheck.PubSubModule)())).toEqual([[], true]);
    },
  );

  claim.failure(
    `${page}#pubsub-as-a-provider`,
    'a REDIS_PORT that is not a port number stops the application at startup with the factory’s message',
    async () => {
      process.env.REDIS_PORT = '63790x';
      const {AppModule} = set.require('redis-app.module');
      const {NestFactory} = nest('@nestjs/core');
      await expect(
        NestFactory.create(AppModule, {logger: false, abortOnError: false}),
      ).rejects.toThrow('REDIS_PORT is not a port number: "63790x"');
    },
  );
});

// ---- Authentication over WebSockets: callers without a token, from another origin, with a revoked token ----

describe('the page’s graphql-ws onConnect app', () => {
  let started: Started;
  let who: any;
  beforeAll(async () => {
    who = whoAmIResolver();
    started = await start(
      withAuthApp(fences.filter((f) => f.filename === 'app.module')[1].ts!, who),
    );
  });
  afterAll(() => started?.close());

  claim.abuse(
    `${page}#with-graphql-ws`,
    'a client that sends no connection parameters at all, or no authToken, is refused like a wrong token (4403 Forbidden)',
    async () => {
      for (const params of [undefined, {}, {authToken: ''}]) {
        const sub = graphqlWs(wsUrl(started.base), 'subscription { whoAmI }', undefined, params);
        try {
          await until(() => sub.closed !== undefined, 'the close');
          expect([sub.acked, sub.closed.code, sub.closed.reason]).toEqual([
            false,
            4403,
            'Forbidden',
          ]);
        } finally {
          await sub.close();
        }
      }
    },
  );

  claim.abuse(
    `${page}#with-graphql-ws`,
    'a WebSocket from a foreign Origin is accepted at the handshake (no origin check): the token decides; onConnect sees the origin in extra.request.headers',
    async () => {
      class ForeignWebSocket extends WebSocket {
        constructor(url: string, protocols?: string | string[]) {
          super(url, protocols, {headers: {origin: 'https://evil.example'}});
        }
      }
      const connect = (params?: Record<string, unknown>, base = started.base) => {
        const results: any[] = [];
        let closed: any;
        let acked = false;
        const client = createClient({
          url: wsUrl(base),
          webSocketImpl: ForeignWebSocket,
          lazy: false,
          retryAttempts: 0,
          connectionParams: params,
          on: {connected: () => void (acked = true), closed: (event: any) => void (closed = event)},
        });
        client.subscribe(
          {query: 'subscription { whoAmI }'},
          {next: (r: any) => results.push(r), error: () => undefined, complete: () => undefined},
        );
        return {
          client,
          results,
          get acked() {
            return acked;
          },
          get closed() {
            return closed;
          },
        };
      };
      const anonymous = connect();
      const withToken = connect({authToken: 'good'});
      try {
        await until(() => anonymous.closed !== undefined && withToken.acked, 'both answers');
        expect(anonymous.closed.code).toBe(4403);
        await new Promise((resolve) => setTimeout(resolve, 150));
        await who.pubSub.publish('tick', {});
        await until(() => withToken.results.length === 1, 'the event');
        expect(withToken.results[0]).toEqual({data: {whoAmI: 'ada'}});
      } finally {
        await anonymous.client.dispose();
        await withToken.client.dispose();
      }
      // What onConnect can read: the handshake's Origin header is there to compare.
      let origin: unknown;
      const {GraphQLModule: G} = nest('@nestjs/graphql');
      @Module({
        imports: [
          G.forRoot({
            autoSchemaFile: true,
            subscriptions: {
              'graphql-ws': {
                onConnect: (context: any) => {
                  origin = context.extra.request.headers.origin;
                  return false;
                },
              },
            },
          }),
        ],
        providers: [who.WhoResolver],
      })
      class OriginApp {}
      const app = await start(OriginApp);
      const probe = connect(undefined, app.base);
      try {
        await until(() => probe.closed !== undefined, 'the close');
        expect(origin).toBe('https://evil.example');
      } finally {
        await probe.client.dispose();
        await app.close();
      }
    },
  );

  claim.abuse(
    `${page}#using-the-user-in-resolvers-and-guards`,
    'a token revoked after onConnect does not stop the events: the open connection keeps receiving them',
    async () => {
      const {validTokens} = set.require('auth/auth.service');
      validTokens.add('revocable');
      const sub = graphqlWs(wsUrl(started.base), 'subscription { whoAmI }', undefined, {
        authToken: 'revocable',
      });
      try {
        await until(() => sub.acked, 'connection_ack');
        await new Promise((resolve) => setTimeout(resolve, 150));
        validTokens.delete('revocable');
        await who.pubSub.publish('tick', {});
        await until(() => sub.results.length === 1, 'the event');
        expect(sub.results[0]).toEqual({data: {whoAmI: 'ada'}});
        // A new connection with the same token is refused now.
        const again = graphqlWs(wsUrl(started.base), 'subscription { whoAmI }', undefined, {
          authToken: 'revocable',
        });
        await until(() => again.closed !== undefined, 'the close');
        expect(again.closed.code).toBe(4403);
        await again.close();
      } finally {
        validTokens.delete('revocable');
        await sub.close();
      }
    },
  );
});

claim.abuse(
  `${page}#with-subscriptions-transport-ws`,
  'a raw connection_init without payload gets "Invalid authentication token", not a TypeError about connectionParams',
  async () => {
    const who = whoAmIResolver();
    const options = fragment(
      page,
      'with-subscriptions-transport-ws',
      'GraphQLModule.forRootAsync',
    ).value;
    const source = `import { Module } from '@nestjs/common';
import { GraphQLModule } from '@nestjs/graphql';
import { AuthModule } from './auth/auth.module';
import { AuthService } from './auth/auth.service';
@Module({ imports: [${options.trim().replace(/;$/, '')}] })
export class AppModule {}`;
    const started = await start(withAuthApp(source, who));
    const raw = new WebSocket(wsUrl(started.base), 'graphql-ws');
    try {
      const reply = await new Promise<any>((resolve, reject) => {
        raw.once('open', () => raw.send(JSON.stringify({type: 'connection_init'})));
        raw.once('message', (data: Buffer) => resolve(JSON.parse(data.toString())));
        raw.once('error', reject);
      });
      expect(reply).toEqual({
        type: 'connection_error',
        payload: {message: 'Invalid authentication token'},
      });
    } finally {
      raw.close();
      await started.close();
    }
  },
);

claim.abuse(
  `${page}#using-the-user-in-resolvers-and-guards`,
  'with WsAuthGuard on the subscription, an anonymous graphql-ws subscriber gets a Forbidden resource error and no events',
  async () => {
    const {WsAuthGuard} = compileModule(
      fences.find((f) => f.filename === 'auth/ws-auth.guard')!.ts!,
    );
    const guarded = compileModule(`
import { UseGuards } from '@nestjs/common';
import { Query, Resolver, Subscription } from '@nestjs/graphql';
import { PubSub } from 'graphql-subscriptions';
export const pubSub = new PubSub();
export function build(guard: any) {
  @Resolver()
  class GuardedResolver {
    @Query(() => String) ping() { return 'pong'; }
    @Subscription(() => String, { resolve: () => 'event' })
    @UseGuards(guard)
    guarded() { return pubSub.asyncIterator('guarded'); }
  }
  return GuardedResolver;
}`);
    @Module({
      imports: [
        GraphQLModule.forRoot({
          autoSchemaFile: true,
          subscriptions: {'graphql-ws': true},
          context: ({req, extra}: any) => (extra ? {user: extra.user} : {req}),
        }),
      ],
      providers: [guarded.build(WsAuthGuard)],
    })
    class GuardedApp {}
    const started = await start(GuardedApp);
    const sub = graphqlWs(wsUrl(started.base), 'subscription { guarded }');
    try {
      await until(() => sub.errors.length > 0 || sub.results.length > 0, 'the answer');
      await guarded.pubSub.publish('guarded', {});
      await new Promise((resolve) => setTimeout(resolve, 150));
      const answer = sub.errors[0] ?? sub.results[0];
      const errors = Array.isArray(answer) ? answer : answer.errors;
      expect(errors[0].message).toBe('Forbidden resource');
      expect(sub.results.filter((r) => r.data)).toEqual([]);
    } finally {
      await sub.close();
      await started.close();
    }
  },
);

claim.abuse(
  `${page}#filtering-subscriptions`,
  'the page’s filter compares the argument only: a second client that names post 12 receives its comments too',
  async () => {
    const filtered = fragment(page, 'filtering-subscriptions', 'filter:').value;
    const started = await startWith(
      resolverWith(
        publishing.replace(
          /@Subscription\(\(returns\) => Comment\)\n\s*commentAdded\(\) \{\n\s*return pubSub.asyncIterator\('commentAdded'\);\n\s*\}/,
          filtered,
        ),
      ),
      {subscriptions: {'graphql-ws': true}},
    );
    const query = fragment(page, 'filtering-subscriptions', 'CommentsOfPost').value;
    const owner = graphqlWs(wsUrl(started.base), query, {postId: 12}, {user: 'alice'});
    const stranger = graphqlWs(wsUrl(started.base), query, {postId: 12}, {user: 'bob'});
    try {
      await until(() => owner.acked && stranger.acked, 'both connections');
      await publishAndCollect(
        started.base,
        stranger,
        'mutation { addComment(input: { postId: 12, text: "for the post’s readers" }) { id } }',
      );
      await until(() => owner.results.length === 1, 'the owner’s event');
      expect(stranger.results).toEqual(owner.results);
    } finally {
      await owner.close();
      await stranger.close();
      await started.close();
    }
  },
);

/** The page's subscriptions-transport-ws options (onConnect that throws without a valid token) around `resolver`. */
function legacyAuthApp(resolver: any): any {
  const options = fragment(
    page,
    'with-subscriptions-transport-ws',
    'GraphQLModule.forRootAsync',
  ).value;
  const {AppModule} = compileModule(`import { Module } from '@nestjs/common';
import { GraphQLModule } from '@nestjs/graphql';
const { AuthModule } = require(${JSON.stringify(dir + '/auth.module.js')});
const { AuthService } = require(${JSON.stringify(dir + '/auth.service.js')});
@Module({ imports: [${options.trim().replace(/;$/, '')}] })
export class AppModule {}`);
  @Module({imports: [AppModule], providers: [resolver.CommentsResolver, resolver.CommentsService]})
  class LegacyApp {}
  return LegacyApp;
}

/** A raw subscriptions-transport-ws client that skips connection_init and sends `start` at once. */
function startWithoutInit(base: string, query: string) {
  const messages: any[] = [];
  const raw = new WebSocket(wsUrl(base), 'graphql-ws');
  raw.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString())));
  const opened = new Promise<void>((resolve, reject) => {
    raw.once('open', () => {
      raw.send(JSON.stringify({id: '1', type: 'start', payload: {query}}));
      resolve();
    });
    raw.once('error', reject);
  });
  return {messages, opened, close: () => raw.close()};
}

describe('subscriptions-transport-ws: a client that never sends connection_init', () => {
  const query = 'subscription { commentAdded { id text } }';

  claim.abuse(
    `${page}#with-subscriptions-transport-ws`,
    'onConnect never runs for a client that sends start without connection_init: it receives the comments (the block shown)',
    async () => {
      const started = await start(legacyAuthApp(resolverWith(publishing)));
      const raw = startWithoutInit(started.base, query);
      try {
        await raw.opened;
        await new Promise((resolve) => setTimeout(resolve, 150));
        await gql(
          `${started.base}/graphql`,
          'mutation { addComment(input: { postId: 12, text: "Great article, thanks!" }) { id } }',
        );
        await until(() => raw.messages.length > 0, 'the event');
        expectOutput(page, 'legacy-without-init', raw.messages[0]);
      } finally {
        raw.close();
        await started.close();
      }
    },
  );

  claim.abuse(
    `${page}#using-the-user-in-resolvers-and-guards`,
    'with WsAuthGuard on the subscription, the same client gets Forbidden resource and no event; graphql-ws closes a subscribe before connection_init with 4401',
    async () => {
      const {WsAuthGuard} = compileModule(
        fences.find((f) => f.filename === 'auth/ws-auth.guard')!.ts!,
      );
      const {UseGuards} = nest('@nestjs/common');
      const resolver = resolverWith(publishing);
      const subscribe = Object.getOwnPropertyDescriptor(
        resolver.CommentsResolver.prototype,
        'commentAdded',
      )!;
      UseGuards(WsAuthGuard)(resolver.CommentsResolver.prototype, 'commentAdded', subscribe);
      const legacy = await start(legacyAuthApp(resolver));
      const raw = startWithoutInit(legacy.base, query);
      const who = whoAmIResolver();
      const modern = await start(
        withAuthApp(fences.filter((f) => f.filename === 'app.module')[1].ts!, who),
      );
      const direct = new WebSocket(wsUrl(modern.base), 'graphql-transport-ws');
      const directOpened = new Promise<void>((resolve) => direct.once('open', () => resolve()));
      let closed: {code: number; reason: string} | undefined;
      direct.on('close', (code: number, reason: Buffer) => {
        closed = {code, reason: reason.toString()};
      });
      try {
        await raw.opened;
        await until(() => raw.messages.length >= 2, 'the refusal');
        expect(raw.messages[0].payload.errors[0].message).toBe('Forbidden resource');
        expect(raw.messages[1]).toEqual({type: 'complete', id: '1', payload: null});
        await resolver.pubSub.publish('commentAdded', {
          commentAdded: {id: 1, postId: 12, text: 'x', createdAt: new Date()},
        });
        await new Promise((resolve) => setTimeout(resolve, 150));
        expect(raw.messages.filter((m) => m.payload?.data)).toEqual([]);
        await directOpened;
        direct.send(
          JSON.stringify({id: '1', type: 'subscribe', payload: {query: 'subscription { whoAmI }'}}),
        );
        await until(() => closed !== undefined, 'the close');
        expect(closed).toEqual({code: 4401, reason: 'Unauthorized'});
      } finally {
        raw.close();
        direct.close();
        await legacy.close();
        await modern.close();
      }
    },
  );
});

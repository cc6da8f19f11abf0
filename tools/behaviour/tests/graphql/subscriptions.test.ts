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
} from '../../lib';
import {start, gql, type Started} from './_support';

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

@Injectable()
export class AuthService {
  async verifyToken(token?: string) {
    return token === 'good' ? { name: 'ada' } : null;
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
const set = samples(page, {
  under: 'publishing',
  files: {'comments/comments.service': commentsService, ...authFiles},
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

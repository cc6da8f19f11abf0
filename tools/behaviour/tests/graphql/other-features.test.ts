import {afterAll, beforeAll, describe, expect} from 'vitest';
import {claim, samples, nest, expectOutput, compileModule, memoryLogger, readPage} from '../../lib';
import {start, gql, type Started} from './_support';

const {Module, ValidationPipe} = nest('@nestjs/common');
const {GraphQLModule} = nest('@nestjs/graphql');
const page = 'docs/graphql/other-features.md';

const files = {
  'cats/models/cat.model': `
import { Field, ID, ObjectType } from '@nestjs/graphql';

@ObjectType()
export class Cat {
  @Field(() => ID)
  id: string;

  @Field()
  name: string;
}
`,
  'cats/cats.service': `
import { Injectable } from '@nestjs/common';

@Injectable()
export class CatsService {
  async findOne(id: string) {
    return id === '1' ? { id, name: 'Tom' } : undefined;
  }
}
`,
  'users/models/user.model': `
import { Field, ObjectType } from '@nestjs/graphql';

@ObjectType()
export class User {
  @Field()
  name: string;
}
`,
  'auth/gql-auth.guard': `
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';

@Injectable()
export class GqlAuthGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = GqlExecutionContext.create(context).getContext().req;
    req.user = req.headers['x-user'] ? { name: req.headers['x-user'] } : undefined;
    return Boolean(req.user);
  }
}
`,
};

const set = samples(page, {files});
const dir = set.dir;
const req = (name: string) => JSON.stringify(`${dir}/${name}.js`);

describe('one app with the page’s enhancers', () => {
  let started: Started;
  const log = memoryLogger();
  beforeAll(async () => {
    process.env.API_KEY = 's3cret';
    const {Extra} = compileModule(`
import { Args, Field, InputType, Int, Mutation, Query, ResolveField, Parent, Resolver } from '@nestjs/graphql';
import { UseFilters, UseGuards, UseInterceptors } from '@nestjs/common';
import { EntityNotFoundError } from 'typeorm';
import { Min } from 'class-validator';
const { ApiKeyGuard } = require(${req('api-key.guard')});
const { RolesGuard } = require(${req('roles.guard')});
const { TimingInterceptor } = require(${req('timing.interceptor')});
const { EntityNotFoundFilter } = require(${req('entity-not-found.filter')});
const { Cat } = require(${req('cat.model')});

@InputType()
class PageInput {
  @Field(() => Int)
  @Min(1)
  size: number;
}

@Resolver(() => Cat)
export class Extra {
  @Query(() => String) @UseGuards(ApiKeyGuard) secret() { return 'granted'; }
  @Query(() => String) @UseGuards(RolesGuard) admin() { return 'admin'; }
  @Query(() => [Cat]) @UseInterceptors(TimingInterceptor) cats() { return [{ id: '1', name: 'Tom' }, { id: '2', name: 'Kit' }]; }
  @ResolveField(() => String) @UseInterceptors(TimingInterceptor) shout(@Parent() cat: any) { return cat.name.toUpperCase(); }
  @Query(() => Int) page(@Args('input') input: PageInput) { return input.size; }
  @Query(() => String) @UseFilters(EntityNotFoundFilter) missing() { throw new EntityNotFoundError('Cat', { id: 9 }); }
  @Query(() => String, { nullable: true }) broken() { throw new Error('connect ECONNREFUSED 10.0.0.5:5432'); }
  @Query(() => String, { nullable: true }) fail(@Args('status', { type: () => Int }) status: number) {
    const common = require('@nestjs/common');
    const Exception = { 400: common.BadRequestException, 401: common.UnauthorizedException, 403: common.ForbiddenException, 409: common.ConflictException }[status];
    throw new Exception();
  }
}`);
    const {CatsResolver} = set.require('cats/cats.resolver');
    const {CatsService} = set.require('cats/cats.service');
    const {UsersResolver} = set.require('users/users.resolver');
    @Module({
      imports: [
        GraphQLModule.forRoot({
          autoSchemaFile: true,
          context: ({req: request}: any) => {
            request.user = request.headers['x-roles']
              ? {roles: String(request.headers['x-roles']).split(',')}
              : request.headers['x-roles-string']
                ? {roles: String(request.headers['x-roles-string'])}
                : undefined;
            return {req: request};
          },
        }),
      ],
      providers: [CatsResolver, CatsService, UsersResolver, Extra],
    })
    class AppModule {}
    started = await start(AppModule, {
      logger: log.logger,
      before: (app) => app.useGlobalPipes(new ValidationPipe({whitelist: true})),
    });
  });
  afterAll(() => started?.close());
  const url = () => `${started.base}/graphql`;

  claim(
    `${page}#execution-context`,
    'ApiKeyGuard reads the Authorization header from req in the GraphQL context; false gives a FORBIDDEN GraphQL error',
    async () => {
      expect(
        (await gql(url(), '{ secret }', undefined, {authorization: 'Bearer s3cret'})).body,
      ).toEqual({data: {secret: 'granted'}});
      const {body} = await gql(url(), '{ secret }', undefined, {authorization: 'Bearer nope'});
      expect(body.errors[0].message).toBe('Forbidden resource');
      expect(body.errors[0].extensions.code).toBe('FORBIDDEN');
    },
  );

  claim.failure(
    `${page}#execution-context`,
    'with API_KEY missing or empty, ApiKeyGuard refuses everyone, "Bearer undefined" and "Bearer " included',
    async () => {
      const previous = process.env.API_KEY;
      try {
        for (const value of [undefined, '']) {
          if (value === undefined) delete process.env.API_KEY;
          else process.env.API_KEY = value;
          for (const authorization of ['Bearer undefined', 'Bearer ', 'Bearer']) {
            const {body} = await gql(url(), '{ secret }', undefined, {authorization});
            expect(body.errors[0].extensions.code).toBe('FORBIDDEN');
          }
        }
      } finally {
        process.env.API_KEY = previous;
      }
    },
  );

  claim(
    `${page}#execution-context`,
    "getType<GqlContextType>() is 'graphql' in a resolver: RolesGuard finds the request in the context",
    async () => {
      expect((await gql(url(), '{ admin }', undefined, {'x-roles': 'admin'})).body).toEqual({
        data: {admin: 'admin'},
      });
      expect(
        (await gql(url(), '{ admin }', undefined, {'x-roles': 'user'})).body.errors[0].extensions
          .code,
      ).toBe('FORBIDDEN');
    },
  );

  claim.abuse(
    `${page}#execution-context`,
    "RolesGuard: a user whose roles is the string 'nonadmin' is refused (no substring match); a message whose payload claims { user: { roles: ['admin'] } } is refused",
    async () => {
      const forged = await gql(url(), '{ admin }', undefined, {'x-roles-string': 'nonadmin'});
      expect(forged.body.errors[0].extensions.code).toBe('FORBIDDEN');
      // The guard on a microservice message: the first argument of the call is the payload.
      const {ExecutionContextHost} = nest('@nestjs/core/helpers/execution-context-host');
      const {RolesGuard} = set.require('common/guards/roles.guard');
      const message = new ExecutionContextHost([{user: {roles: ['admin']}}, {}]);
      message.setType('rpc');
      expect(new RolesGuard().canActivate(message)).toBe(false);
    },
  );

  claim(
    `${page}#interceptors`,
    'the TimingInterceptor logs "Query.cats: N ms"; it does not run on the field resolver by default',
    async () => {
      log.lines.length = 0;
      await gql(url(), '{ cats { name shout } }');
      const lines = log.lines
        .filter((line) => line.context === 'TimingInterceptor')
        .map((line) => line.message);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^Query\.cats: \d+ ms$/);
    },
  );

  claim(
    `${page}#pipes`,
    'a global ValidationPipe validates @Args() input types; the failure is BAD_USER_INPUT',
    async () => {
      expect((await gql(url(), '{ page(input: { size: 2 }) }')).body).toEqual({data: {page: 2}});
      const {body} = await gql(url(), '{ page(input: { size: 0 }) }');
      expect(body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      expect(body.errors[0].extensions.response.message).toEqual(['size must not be less than 1']);
    },
  );

  claim(
    `${page}#exception-filters`,
    'the filter returns a UserInputError that the client receives',
    async () => {
      const {body} = await gql(url(), '{ missing }');
      expect(body.errors[0].message).toBe('Nothing found for "missing"');
      expect(body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    },
  );

  claim(
    `${page}#returning-errors`,
    'a NotFoundException gives the body the page shows',
    async () => {
      expectOutput(page, 'cat-not-found', (await gql(url(), '{ cat(id: "42") { name } }')).body);
    },
  );

  claim(
    `${page}#returning-errors`,
    '400, 401, 403 become BAD_USER_INPUT, UNAUTHENTICATED, FORBIDDEN; other statuses use the status as the code',
    async () => {
      const codes: string[] = [];
      for (const status of [400, 401, 403, 409])
        codes.push(
          (await gql(url(), `{ fail(status: ${status}) }`)).body.errors[0].extensions.code,
        );
      expect(codes).toEqual(['BAD_USER_INPUT', 'UNAUTHENTICATED', 'FORBIDDEN', '409']);
    },
  );

  claim(
    `${page}#returning-errors`,
    'an error that is not an HTTP exception keeps its message, with code INTERNAL_SERVER_ERROR',
    async () => {
      const {body} = await gql(url(), '{ broken }');
      expect(body.errors[0].message).toBe('connect ECONNREFUSED 10.0.0.5:5432');
      expect(body.errors[0].extensions.code).toBe('INTERNAL_SERVER_ERROR');
    },
  );

  claim(
    `${page}#custom-decorators`,
    '@CurrentUser() returns req.user set by the guard',
    async () => {
      expect((await gql(url(), '{ whoAmI { name } }', undefined, {'x-user': 'ada'})).body).toEqual({
        data: {whoAmI: {name: 'ada'}},
      });
    },
  );
});

claim(
  `${page}#execute-enhancers-at-the-field-resolver-level`,
  "with fieldResolverEnhancers: ['interceptors'] the interceptor also runs for each item's field resolver",
  async () => {
    const {TimingInterceptor} = set.require('common/interceptors/timing.interceptor');
    const {Resolver, Query, ResolveField, Parent} = nest('@nestjs/graphql');
    const {UseInterceptors} = nest('@nestjs/common');
    const {Cat} = set.require('cats/models/cat.model');
    @Resolver(() => Cat)
    @UseInterceptors(TimingInterceptor)
    class R {
      @Query(() => [Cat])
      kittens() {
        return [
          {id: '1', name: 'Tom'},
          {id: '2', name: 'Kit'},
        ];
      }
      @ResolveField(() => String)
      loud(@Parent() cat: any) {
        return cat.name.toUpperCase();
      }
    }
    const log = memoryLogger();
    @Module({
      imports: [
        GraphQLModule.forRoot({
          autoSchemaFile: true,
          fieldResolverEnhancers: ['guards', 'interceptors', 'filters'],
        }),
      ],
      providers: [R],
    })
    class AppModule {}
    const started = await start(AppModule, {logger: log.logger});
    try {
      await gql(`${started.base}/graphql`, '{ kittens { loud } }');
    } finally {
      await started.close();
    }
    const lines = log.lines
      .filter((line) => line.context === 'TimingInterceptor')
      .map((line) => line.message.replace(/\d+ ms/, 'N ms'));
    expect(lines.sort()).toEqual(['Cat.loud: N ms', 'Cat.loud: N ms', 'Query.kittens: N ms']);
  },
);

claim.abuse(
  `${page}#returning-errors`,
  'with the page’s formatError, a database error’s message becomes "Internal server error" (Nest logs the original); HTTP exceptions and GraphQL validation errors keep theirs',
  async () => {
    const appModule = readPage(page)
      .fences.filter((f) => f.filename === 'app.module')
      .find((f) => f.ts!.includes('formatError'))!.ts!;
    const {AppModule: Formatted} = compileModule(
      appModule.replace("autoSchemaFile: 'schema.gql'", 'autoSchemaFile: true'),
    );
    const {Probe} = compileModule(`
import { NotFoundException } from '@nestjs/common';
import { Query, Resolver } from '@nestjs/graphql';
const { Cat } = require(${req('cat.model')});
@Resolver(() => Cat)
export class Probe {
  @Query(() => String, { nullable: true }) database() { throw new Error('connect ECONNREFUSED 10.0.0.5:5432'); }
  @Query(() => String, { nullable: true }) missing() { throw new NotFoundException('Cat 42 not found'); }
  @Query(() => Cat, { nullable: true }) nameless() { return { id: '7', name: null }; }
}`);
    @Module({imports: [Formatted], providers: [Probe]})
    class AppModule {}
    const log = memoryLogger();
    const started = await start(AppModule, {logger: log.logger});
    const url = `${started.base}/graphql`;
    try {
      expect((await gql(url, '{ database }')).body).toEqual({
        errors: [
          {
            message: 'Internal server error',
            locations: [{line: 1, column: 3}],
            path: ['database'],
            extensions: {code: 'INTERNAL_SERVER_ERROR'},
          },
        ],
        data: {database: null},
      });
      expect(log.text()).toContain('connect ECONNREFUSED 10.0.0.5:5432');
      const completion = (await gql(url, '{ nameless { name } }')).body.errors[0];
      expect(completion.message).toBe('Internal server error');
      const missing = (await gql(url, '{ missing }')).body.errors[0];
      expect([missing.message, missing.extensions.code]).toEqual(['Cat 42 not found', '404']);
      const invalid = (await gql(url, '{ nope }')).body.errors[0];
      expect([invalid.message, invalid.extensions.code]).toEqual([
        'Cannot query field "nope" on type "Query".',
        'GRAPHQL_VALIDATION_FAILED',
      ]);
    } finally {
      await started.close();
    }
  },
);

claim.abuse(
  `${page}#custom-decorators`,
  "@CurrentUser() in a graphql-ws subscription, with the subscriptions chapter's context function (no req): it returns the user from the context instead of failing",
  async () => {
    const WebSocket = nest('ws');
    const {createClient} = nest('graphql-ws');
    const {CurrentUser} = set.require('common/decorators/current-user.decorator');
    const {Resolver, Query, Subscription} = nest('@nestjs/graphql');
    const {PubSub} = nest('graphql-subscriptions');
    const pubSub = new PubSub();
    const seen: unknown[] = [];
    @Resolver()
    class WatchResolver {
      @Query(() => String)
      ping() {
        return 'pong';
      }

      @Subscription(() => String)
      watch(@CurrentUser() user: {name: string}) {
        seen.push(user?.name);
        return pubSub.asyncIterator('watch');
      }
    }
    @Module({
      imports: [
        GraphQLModule.forRoot({
          autoSchemaFile: true,
          subscriptions: {
            'graphql-ws': {
              onConnect: (context: any) => {
                context.extra.user = {name: context.connectionParams?.user};
              },
            },
          },
          context: ({req, extra}: any) => (extra ? {user: extra.user} : {req}),
        }),
      ],
      providers: [WatchResolver],
    })
    class SubscriptionApp {}
    const started = await start(SubscriptionApp);
    const errors: unknown[] = [];
    const client = createClient({
      url: started.base.replace('http', 'ws') + '/graphql',
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: {user: 'ada'},
    });
    try {
      client.subscribe(
        {query: 'subscription { watch }'},
        {
          next: (result: any) => void (result.errors && errors.push(...result.errors)),
          error: (e: unknown) => errors.push(e),
          complete: () => undefined,
        },
      );
      const end = Date.now() + 3000;
      while (seen.length === 0 && errors.length === 0 && Date.now() < end) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(errors).toEqual([]);
      expect(seen).toEqual(['ada']);
    } finally {
      await client.dispose();
      await started.close();
    }
  },
);

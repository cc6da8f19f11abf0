import {afterAll, beforeAll, describe, expect} from 'vitest';
import {claim, samples, nest, compileModule, fragment, expectOutput, readPage} from '../../lib';
import {start, gql, tempDir, type Started} from './_support';

const {Module, ValidationPipe} = nest('@nestjs/common');
const {GraphQLModule, GraphQLSchemaHost} = nest('@nestjs/graphql');
const {printType} = nest('graphql');
const page = 'docs/graphql/mutations.md';

const files = {
  'posts/models/post.model': `
import { Field, Int, ObjectType } from '@nestjs/graphql';

@ObjectType()
export class Post {
  @Field((type) => Int)
  id: number;

  @Field((type) => Int)
  votes: number;
}
`,
  'posts/posts.service': `
import { Injectable } from '@nestjs/common';

@Injectable()
export class PostsService {
  readonly order: string[] = [];
  private readonly votes = new Map<number, number>();

  async upvoteById(id: number, weight = 1) {
    this.order.push('start ' + id);
    await new Promise((resolve) => setTimeout(resolve, id === 1 ? 80 : 5));
    this.votes.set(id, (this.votes.get(id) ?? 0) + weight);
    this.order.push('end ' + id);
    return { id, votes: this.votes.get(id) };
  }
}
`,
};

const set = samples(page, {pick: {'posts/posts.resolver': 1}, files});
const dir = set.dir;

function inputResolver(): any {
  set.require('posts/models/post.model');
  return compileModule(`
import { Args, Mutation, Query, Resolver } from '@nestjs/graphql';
const { Post } = require(${JSON.stringify(dir + '/post.model.js')});
const { PostsService } = require(${JSON.stringify(dir + '/posts.service.js')});
const { UpvotePostInput } = require(${JSON.stringify(dir + '/upvote-post.input.js')});
@Resolver(() => Post)
export class InputResolver {
  constructor(private readonly postsService: PostsService) {}
  @Query(() => String) ping() { return 'pong'; }
  ${fragment(page, 'input-types', "@Args('vote')").value}
}
Reflect.defineMetadata('design:paramtypes', [PostsService], InputResolver);
export { PostsService };`);
}

claim(`${page}#mutations`, 'several mutations in one document run one after another', async () => {
  const {PostsResolver} = set.require('posts/posts.resolver');
  const {PostsService} = set.require('posts/posts.service');
  const {InputResolver} = inputResolver();
  void InputResolver;
  const {Resolver, Query} = nest('@nestjs/graphql');
  @Resolver()
  class Ping {
    @Query(() => String)
    ping() {
      return 'pong';
    }
  }
  @Module({
    imports: [GraphQLModule.forRoot({autoSchemaFile: true})],
    providers: [PostsResolver, PostsService, Ping],
  })
  class AppModule {}
  const started = await start(AppModule);
  try {
    const {body} = await gql(
      `${started.base}/graphql`,
      'mutation { a: upvotePost(postId: 1) { votes } b: upvotePost(postId: 2) { votes } }',
    );
    expect(body).toEqual({data: {a: {votes: 1}, b: {votes: 1}}});
    expect(started.app.get(PostsService).order).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
  } finally {
    await started.close();
  }
});

claim(
  `${page}#input-types`,
  'the input type and the mutation appear in the schema as shown; a variable of the input type works',
  async () => {
    const {InputResolver, PostsService} = inputResolver();
    @Module({
      imports: [GraphQLModule.forRoot({autoSchemaFile: true})],
      providers: [InputResolver, PostsService],
    })
    class AppModule {}
    const started = await start(AppModule, {
      before: (app) => app.useGlobalPipes(new ValidationPipe()),
    });
    try {
      const schema = started.app.get(GraphQLSchemaHost).schema;
      expectOutput(
        page,
        'upvote-input-sdl',
        `${printType(schema.getType('UpvotePostInput'))}\n\n${printType(schema.getMutationType())}`,
      );
      const variables = JSON.parse(fragment(page, 'input-types', '"vote"').value);
      const {body} = await gql(
        `${started.base}/graphql`,
        fragment(page, 'input-types', 'mutation UpvotePost').value,
        variables,
      );
      expect(body).toEqual({data: {upvotePost: {id: 12, votes: 2}}});
      const defaulted = await gql(
        `${started.base}/graphql`,
        'mutation { upvotePost(vote: { postId: 12 }) { votes } }',
      );
      expect(defaulted.body).toEqual({data: {upvotePost: {votes: 3}}});
      const invalid = await gql(
        `${started.base}/graphql`,
        'mutation { upvotePost(vote: { postId: 12, weight: 9 }) { votes } }',
      );
      expect(invalid.body.errors[0].extensions.response.message).toEqual([
        'weight must not be greater than 5',
      ]);
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#schema-first`,
  'schema first: @Mutation() binds the method to the SDL field of the same name',
  async () => {
    const sdl =
      'type Post {\n  id: Int!\n  votes: Int!\n}\n\ntype Query {\n  ping: String\n}\n\n' +
      fragment(page, 'schema-first', 'type Mutation').value;
    const schemaDir = tempDir({'posts.graphql': sdl});
    const source = readPage(page)
      .fences.filter((f) => f.filename === 'posts/posts.resolver')[1]
      .ts!.replace("import { Post } from '../graphql';", 'type Post = any;')
      .replace(
        "import { PostsService } from './posts.service';",
        `const { PostsService } = require(${JSON.stringify(dir + '/posts.service.js')});`,
      );
    const {PostsResolver} = compileModule(source);
    Reflect.defineMetadata(
      'design:paramtypes',
      [set.require('posts/posts.service').PostsService],
      PostsResolver,
    );
    @Module({
      imports: [GraphQLModule.forRoot({typePaths: [`${schemaDir}/*.graphql`]})],
      providers: [PostsResolver, set.require('posts/posts.service').PostsService],
    })
    class AppModule {}
    const started = await start(AppModule);
    try {
      const {body} = await gql(
        `${started.base}/graphql`,
        'mutation { upvotePost(postId: 4) { id votes } }',
      );
      expect(body).toEqual({data: {upvotePost: {id: 4, votes: 1}}});
    } finally {
      await started.close();
    }
  },
);

describe('the page’s input type behind a global ValidationPipe: hostile inputs', () => {
  let started: Started;
  let service: any;
  const mutation = fragment(page, 'input-types', 'mutation UpvotePost').value;
  beforeAll(async () => {
    const {InputResolver, PostsService} = inputResolver();
    @Module({
      imports: [GraphQLModule.forRoot({autoSchemaFile: true, debug: false})],
      providers: [InputResolver, PostsService],
    })
    class AppModule {}
    started = await start(AppModule, {
      before: (app) => app.useGlobalPipes(new ValidationPipe()),
    });
    service = started.app.get(PostsService);
  });
  afterAll(() => started?.close());

  claim.abuse(
    `${page}#input-types`,
    'an explicit weight: null passes GraphQL (the field is nullable) but fails @Min/@Max: the service is not called',
    async () => {
      service.order.length = 0;
      const {body} = await gql(`${started.base}/graphql`, mutation, {
        vote: {postId: 12, weight: null},
      });
      expect(body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      expect(body.errors[0].extensions.response.message).toEqual([
        'weight must not be greater than 5',
        'weight must not be less than 1',
      ]);
      expect(service.order).toEqual([]);
    },
  );

  claim.abuse(
    `${page}#input-types`,
    'a variable with a field the input type does not declare ("admin": true) is refused by GraphQL with the message quoted',
    async () => {
      const {status, body} = await gql(`${started.base}/graphql`, mutation, {
        vote: {postId: 12, admin: true},
      });
      expect(status).toBe(400);
      expect(body.errors[0].message).toBe(
        'Variable "$vote" got invalid value { postId: 12, admin: true }; Field "admin" is not defined by type "UpvotePostInput".',
      );
    },
  );

  claim.abuse(
    `${page}#input-types`,
    'a string where the input type says Int ("postId": "12") is refused by GraphQL with the message quoted',
    async () => {
      const {status, body} = await gql(`${started.base}/graphql`, mutation, {
        vote: {postId: '12'},
      });
      expect(status).toBe(400);
      expect(body.errors[0].message).toBe(
        'Variable "$vote" got invalid value "12" at "vote.postId"; Int cannot represent non-integer value: "12"',
      );
    },
  );

  claim.abuse(
    `${page}#input-types`,
    'a 200 KB request is refused with 413 by Nest’s JSON body parser before GraphQL reads it',
    async () => {
      service.order.length = 0;
      const response = await fetch(`${started.base}/graphql`, {
        method: 'POST',
        headers: {'content-type': 'application/json'},
        body: JSON.stringify({
          query: mutation,
          variables: {vote: {postId: 12}, padding: 'x'.repeat(200 * 1024)},
        }),
      });
      expect(response.status).toBe(413);
      expect(await response.json()).toEqual({statusCode: 413, message: 'request entity too large'});
      expect(service.order).toEqual([]);
    },
  );
});

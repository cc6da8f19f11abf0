import {expect} from 'vitest';
import {claim, samples, nest, memoryLogger} from '../../lib';
import {start, gql} from './_support';

const {Module} = nest('@nestjs/common');
const {GraphQLModule, Resolver, Query} = nest('@nestjs/graphql');
const page = 'docs/graphql/plugins.md';

@Resolver()
class CatsResolver {
  @Query(() => [String])
  cats() {
    return ['Tom'];
  }
}
@Module({providers: [CatsResolver]})
class CatsModule {}
(globalThis as any).__plugins = {CatsModule};

const cats = {'cats/cats.module': 'export const { CatsModule } = (globalThis as any).__plugins;\n'};

claim(
  `${page}#custom-plugins`,
  'the TimingPlugin provider is discovered and logs "<operation> took N ms" for each request',
  async () => {
    const set = samples(page, {
      under: 'custom-plugins',
      files: cats,
      edit: {'app.module': [["autoSchemaFile: 'schema.gql'", 'autoSchemaFile: true']]},
    });
    const log = memoryLogger();
    const started = await start(set.require('app.module').AppModule, {logger: log.logger});
    try {
      await gql(`${started.base}/graphql`, 'query Cats { cats }');
      await gql(`${started.base}/graphql`, '{ cats }');
      const lines = log.lines
        .filter((line) => line.context === 'TimingPlugin')
        .map((line) => line.message);
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(/^Cats took \d+ ms$/);
      expect(lines[1]).toMatch(/^anonymous operation took \d+ ms$/);
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#custom-plugins`,
  'with include, a plugin provided outside the listed modules is not discovered',
  async () => {
    const {TimingPlugin} = samples(page, {under: 'custom-plugins', files: cats}).require(
      'common/plugins/timing.plugin',
    );
    const log = memoryLogger();
    @Module({
      imports: [CatsModule, GraphQLModule.forRoot({autoSchemaFile: true, include: [CatsModule]})],
      providers: [TimingPlugin],
    })
    class AppModule {}
    const started = await start(AppModule, {logger: log.logger});
    try {
      expect((await gql(`${started.base}/graphql`, '{ cats }')).body).toEqual({
        data: {cats: ['Tom']},
      });
      expect(log.lines.filter((line) => line.context === 'TimingPlugin')).toEqual([]);
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#using-external-plugins`,
  "with playground: false, Apollo's local landing page plugin serves its page at the endpoint",
  async () => {
    const set = samples(page, {
      under: 'using-external-plugins',
      files: cats,
      edit: {'app.module': [["autoSchemaFile: 'schema.gql'", 'autoSchemaFile: true']]},
    });
    const started = await start(set.require('app.module').AppModule);
    try {
      const html = await (
        await fetch(`${started.base}/graphql`, {headers: {accept: 'text/html'}})
      ).text();
      expect(html).not.toMatch(/GraphQL Playground/);
      expect(html).toMatch(/embeddable-sandbox|apollo-server-landing-page/);
    } finally {
      await started.close();
    }
  },
);

claim.failure(
  `${page}#custom-plugins`,
  'a willSendResponse() hook that throws turns a mutation that already ran into a 500 with the hook’s message',
  async () => {
    const set = samples(page, {
      under: 'custom-plugins',
      files: cats,
      edit: {
        'app.module': [["autoSchemaFile: 'schema.gql'", 'autoSchemaFile: true']],
        'common/plugins/timing.plugin': [
          ['logger.log(', "throw new Error('metrics service unreachable');\n        logger.log("],
        ],
      },
    });
    const {Mutation} = nest('@nestjs/graphql');
    const changes: string[] = [];
    @Resolver()
    class AdoptResolver {
      @Mutation(() => String)
      adopt() {
        changes.push('Tom adopted');
        return 'adopted';
      }
    }
    @Module({imports: [set.require('app.module').AppModule], providers: [AdoptResolver]})
    class AppModule {}
    const started = await start(AppModule);
    try {
      const response = await fetch(`${started.base}/graphql`, {
        method: 'POST',
        headers: {'content-type': 'application/json'},
        body: JSON.stringify({query: 'mutation { adopt }'}),
      });
      expect(response.status).toBe(500);
      expect((await response.json()).errors[0].message).toBe('metrics service unreachable');
      expect(changes).toEqual(['Tom adopted']);
    } finally {
      await started.close();
    }
  },
);

claim.abuse(
  `${page}#custom-plugins`,
  'per-request state in a class property: a request that starts meanwhile overwrites it, and the slow request logs the fast one’s duration',
  async () => {
    const {Plugin, Args, Int} = nest('@nestjs/graphql');
    const {Logger} = nest('@nestjs/common');
    // The page's TimingPlugin with startedAt moved to the instance, as the hint warns against.
    @Plugin()
    class SharedStatePlugin {
      private readonly logger = new Logger('SharedStatePlugin');
      private startedAt = 0;
      async requestDidStart() {
        this.startedAt = Date.now();
        return {
          willSendResponse: async (context: any) => {
            this.logger.log(`${context.operationName} took ${Date.now() - this.startedAt} ms`);
          },
        };
      }
    }
    @Resolver()
    class SlowResolver {
      @Query(() => Int)
      async wait(@Args('ms', {type: () => Int}) ms: number) {
        await new Promise((resolve) => setTimeout(resolve, ms));
        return ms;
      }
    }
    @Module({
      imports: [GraphQLModule.forRoot({autoSchemaFile: true})],
      providers: [SlowResolver, SharedStatePlugin],
    })
    class AppModule {}
    const log = memoryLogger();
    const started = await start(AppModule, {logger: log.logger});
    try {
      const slow = gql(`${started.base}/graphql`, 'query Slow { wait(ms: 1200) }');
      await new Promise((resolve) => setTimeout(resolve, 800));
      await gql(`${started.base}/graphql`, 'query Fast { wait(ms: 1) }');
      await slow;
      const durations = Object.fromEntries(
        log.lines
          .filter((line) => line.context === 'SharedStatePlugin')
          .map((line) => /^(\w+) took (\d+) ms$/.exec(line.message)!.slice(1))
          .map(([name, ms]) => [name, Number(ms)]),
      );
      // The slow request took 1200 ms or more (its resolver waits that long), but measures from the
      // start of the fast request.
      expect(durations.Slow).toBeLessThan(1200);
    } finally {
      await started.close();
    }
  },
);

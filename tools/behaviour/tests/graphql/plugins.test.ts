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

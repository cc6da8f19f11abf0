import {afterAll, beforeAll, describe, expect} from 'vitest';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {claim, samples, nest, expectOutput, memoryLogger} from '../../lib';
import {start, gql, tempDir, catsService, type Started} from './_support';

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
    const {CatsModule} = catsSet().require('cats.module');
    schemaFile = join(tempDir(), 'schema.gql');
    @Module({imports: [CatsModule, GraphQLModule.forRoot({autoSchemaFile: schemaFile, sortSchema: true})]})
    class AppModule {}
    started = await start(AppModule);
  });
  afterAll(() => started?.close());

  claim(`${page}#example`, 'with sortSchema the generated file is the schema the page prints', async () => {
    expectOutput(page, 'cats-schema', readFileSync(schemaFile, 'utf8'));
  });

  claim(`${page}#getting-started`, 'the endpoint is served at /graphql by default', async () => {
    const {status, body} = await gql(`${started.base}/graphql`, '{ cats { id name age breed } }');
    expect(status).toBe(200);
    expect(body).toEqual({data: {cats: [{id: '1', name: 'Tom', age: 3, breed: 'Tabby'}]}});
  });

  claim(`${page}#example`, 'the mutation adds a cat from the input type', async () => {
    const {body} = await gql(`${started.base}/graphql`, 'mutation { addCat(input: { name: "Kit", age: 1 }) { id name breed } }');
    expect(body).toEqual({data: {addCat: {id: '2', name: 'Kit', breed: null}}});
  });

  claim(`${page}#graphql-playground`, 'outside production the playground loads at the endpoint URL', async () => {
    const response = await fetch(`${started.base}/graphql`, {headers: {accept: 'text/html'}});
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/GraphQL Playground/);
  });
});

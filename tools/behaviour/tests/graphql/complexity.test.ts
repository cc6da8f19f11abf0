import {afterAll, beforeAll, describe, expect} from 'vitest';
import {claim, samples, memoryLogger} from '../../lib';
import {start, gql, type Started} from './_support';

const page = 'docs/graphql/complexity.md';

const files = {
  'cats/cats.service': `
import { Injectable } from '@nestjs/common';

@Injectable()
export class CatsService {
  readonly calls: number[] = [];

  async findMany(first: number) {
    this.calls.push(first);
    return Array.from({ length: first }, (_, i) => ({ name: 'cat ' + i, pedigreeCertificate: 'none' }));
  }
}
`,
  'cats/cats.module': `
import { Module } from '@nestjs/common';
import { CatsResolver } from './cats.resolver';
import { CatsService } from './cats.service';

@Module({ providers: [CatsResolver, CatsService] })
export class CatsModule {}
`,
};

describe('the page’s ComplexityPlugin', () => {
  let started: Started;
  let service: any;
  const log = memoryLogger();
  beforeAll(async () => {
    const set = samples(page, {
      files,
      edit: {'app.module': [["autoSchemaFile: 'schema.gql'", 'autoSchemaFile: true']]},
    });
    started = await start(set.require('app.module').AppModule, {logger: log.logger});
    service = started.app.get(set.require('cats/cats.service').CatsService);
  });
  afterAll(() => started?.close());

  claim(
    `${page}#querymutation-level-complexity`,
    'cats(first: 5) { name } costs 5 and runs; the debug line logs the cost (anonymous: the request body names no operationName)',
    async () => {
      const {status, body} = await gql(
        `${started.base}/graphql`,
        'query Small { cats(first: 5) { name } }',
      );
      expect(status).toBe(200);
      expect(body.data.cats).toHaveLength(5);
      expect(log.lines).toContainEqual(
        expect.objectContaining({
          level: 'debug',
          message: 'anonymous costs 5',
          context: 'ComplexityPlugin',
        }),
      );
    },
  );

  claim(
    `${page}#querymutation-level-complexity`,
    'cats(first: 20) with pedigreeCertificate costs 20 * (1 + 5) = 120 and is rejected before any resolver runs',
    async () => {
      service.calls.length = 0;
      const {body} = await gql(
        `${started.base}/graphql`,
        '{ cats(first: 20) { name pedigreeCertificate } }',
      );
      expect(body.errors[0].message).toBe('This operation costs 120, more than the allowed 50.');
      expect(body.data).toBeUndefined();
      expect(service.calls).toEqual([]);
    },
  );

  claim(
    `${page}#getting-started`,
    'a field without declared complexity costs 1 plus its children (default first: 10, name only: 10)',
    async () => {
      await gql(`${started.base}/graphql`, 'query Default { cats { name } }');
      expect(log.lines).toContainEqual(expect.objectContaining({message: 'anonymous costs 10'}));
    },
  );

  claim.abuse(
    `${page}#querymutation-level-complexity`,
    'negative or null first cannot pay for the rest of a query: the aliased -1000/100 pair costs 601 and is rejected; first: -1 or null is refused by the resolver',
    async () => {
      service.calls.length = 0;
      const pair = await gql(
        `${started.base}/graphql`,
        '{ a: cats(first: -1000) { name } b: cats(first: 100) { name pedigreeCertificate } }',
      );
      expect(pair.body.errors[0].message).toBe(
        'This operation costs 601, more than the allowed 50.',
      );
      for (const value of ['-1', 'null']) {
        const {body} = await gql(`${started.base}/graphql`, `{ cats(first: ${value}) { name } }`);
        expect(body.errors[0].message).toBe('first must be 1 or more');
        expect(body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      }
      expect(service.calls).toEqual([]);
    },
  );

  claim.abuse(
    `${page}#querymutation-level-complexity`,
    'aliases add up: ten cats(first: 5) { name } cost 50 and run, an eleventh makes 55 and is rejected',
    async () => {
      const aliases = (count: number) =>
        `{ ${Array.from({length: count}, (_, i) => `c${i}: cats(first: 5) { name }`).join(' ')} }`;
      const ten = await gql(`${started.base}/graphql`, aliases(10));
      expect(Object.keys(ten.body.data)).toHaveLength(10);
      const eleven = await gql(`${started.base}/graphql`, aliases(11));
      expect(eleven.body.errors[0].message).toBe(
        'This operation costs 55, more than the allowed 50.',
      );
    },
  );

  claim.abuse(
    `${page}#querymutation-level-complexity`,
    'a named or inline fragment costs what its fields cost: cats(first: 10) { ...Full } costs 60 and is rejected',
    async () => {
      const named = await gql(
        `${started.base}/graphql`,
        '{ cats(first: 10) { ...Full } } fragment Full on Cat { name pedigreeCertificate }',
      );
      expect(named.body.errors[0].message).toBe(
        'This operation costs 60, more than the allowed 50.',
      );
      const inline = await gql(
        `${started.base}/graphql`,
        '{ cats(first: 10) { ... on Cat { name pedigreeCertificate } } }',
      );
      expect(inline.body.errors[0].message).toBe(
        'This operation costs 60, more than the allowed 50.',
      );
    },
  );

  claim.abuse(
    `${page}#querymutation-level-complexity`,
    'the limit is per operation: one POST with 10 operations of cost 50 runs all of them (500 in total)',
    async () => {
      service.calls.length = 0;
      const response = await fetch(`${started.base}/graphql`, {
        method: 'POST',
        headers: {'content-type': 'application/json'},
        body: JSON.stringify(
          Array.from({length: 10}, () => ({query: '{ cats(first: 50) { name } }'})),
        ),
      });
      const results = await response.json();
      expect(results.map((r: any) => r.data.cats.length)).toEqual(Array(10).fill(50));
      expect(service.calls).toEqual(Array(10).fill(50));
    },
  );
});

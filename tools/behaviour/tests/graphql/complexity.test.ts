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
});

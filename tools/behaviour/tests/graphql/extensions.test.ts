import {afterAll, beforeAll, describe, expect} from 'vitest';
import {claim, samples, nest} from '../../lib';
import {start, gql, type Started} from './_support';

const {GraphQLSchemaHost} = nest('@nestjs/graphql');
const {printSchema} = nest('graphql');
const page = 'docs/graphql/extensions.md';

const files = {
  'common/enums/role.enum': "export enum Role {\n  USER = 'user',\n  ADMIN = 'admin',\n}\n",
  'cats/cats.module': `
import { Module } from '@nestjs/common';
import { Query, Resolver } from '@nestjs/graphql';
import { Cat } from './models/cat.model';

@Resolver(() => Cat)
export class CatsResolver {
  @Query(() => [Cat])
  cats(): Cat[] {
    return [{ name: 'Tom', microchipNumber: '250269802' }];
  }
}

@Module({ providers: [CatsResolver] })
export class CatsModule {}
`,
};

describe('the role extension enforced by the page’s middleware', () => {
  let started: Started;
  beforeAll(async () => {
    // The user normally comes from an authentication guard; here a context function sets it from a header.
    const context =
      "context: ({ req }) => {\n        req.user = { roles: String(req.headers['x-roles'] ?? '').split(',') };\n        return { req };\n      },";
    const set = samples(page, {
      files,
      edit: {
        'app.module': [
          ["autoSchemaFile: 'schema.gql',", `autoSchemaFile: true,\n      ${context}`],
        ],
      },
    });
    started = await start(set.require('app.module').AppModule);
  });
  afterAll(() => started?.close());

  claim(
    `${page}#using-custom-metadata`,
    'a regular user gets a field error and null for microchipNumber, the other fields resolve',
    async () => {
      const {body} = await gql(
        `${started.base}/graphql`,
        '{ cats { name microchipNumber } }',
        undefined,
        {'x-roles': 'user'},
      );
      expect(body.data).toEqual({cats: [{name: 'Tom', microchipNumber: null}]});
      expect(body.errors[0].message).toBe(
        'You are not allowed to read the "microchipNumber" field.',
      );
      expect(body.errors[0].extensions.code).toBe('FORBIDDEN');
    },
  );

  claim(`${page}#using-custom-metadata`, 'an admin reads the field', async () => {
    const {body} = await gql(
      `${started.base}/graphql`,
      '{ cats { name microchipNumber } }',
      undefined,
      {'x-roles': 'admin'},
    );
    expect(body).toEqual({data: {cats: [{name: 'Tom', microchipNumber: '250269802'}]}});
  });

  claim(
    `${page}#extensions`,
    'extensions do not appear in the SDL; the field definition carries them',
    () => {
      const schema = started.app.get(GraphQLSchemaHost).schema;
      expect(printSchema(schema)).not.toContain('admin');
      expect(schema.getType('Cat').getFields().microchipNumber.extensions).toEqual({role: 'admin'});
    },
  );
});

import {afterAll, beforeAll, describe, expect} from 'vitest';
import {claim, samples, nest, compileModule} from '../../lib';
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

import { Extensions, Field, ObjectType } from '@nestjs/graphql';
import { Role } from '../common/enums/role.enum';

@Resolver(() => Cat)
export class CatsResolver {
  @Query(() => [Cat])
  cats(): Cat[] {
    return [{ name: 'Tom', microchipNumber: '250269802' }];
  }

  // A role on a root field: stored in the schema, never read by a field middleware.
  @Query(() => String)
  @Extensions({ role: Role.ADMIN })
  microchipRegistry(): string {
    return 'every microchip of the shelter';
  }
}

/** A type whose role is set on the class, not on its fields. */
@ObjectType()
@Extensions({ role: Role.ADMIN })
export class AuditEntry {
  @Field()
  action: string;
}

@Resolver(() => AuditEntry)
export class AuditResolver {
  @Query(() => [AuditEntry])
  auditLog(): AuditEntry[] {
    return [{ action: 'microchip 250269802 reassigned' }];
  }
}

@Module({ providers: [CatsResolver, AuditResolver] })
export class CatsModule {}
`,
};

describe('the role extension enforced by the page’s middleware', () => {
  let started: Started;
  let AppModule: any;
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
    AppModule = set.require('app.module').AppModule;
    started = await start(AppModule);
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

  claim.abuse(
    `${page}#using-custom-metadata`,
    'a role set with @Extensions() on a @Query() is not enforced by the middleware: a regular user runs the admin query; a guard reading the same extension refuses',
    async () => {
      const {body} = await gql(`${started.base}/graphql`, '{ microchipRegistry }', undefined, {
        'x-roles': 'user',
      });
      expect(body).toEqual({data: {microchipRegistry: 'every microchip of the shelter'}});
      // The guard the warning points to: the same extension, read from GqlExecutionContext's info.
      const {RoleGuard} = compileModule(`
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
@Injectable()
export class RoleGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const ctx = GqlExecutionContext.create(context);
    const info = ctx.getInfo();
    const role = info.parentType.getFields()[info.fieldName].extensions?.role;
    return !role || (ctx.getContext().req?.user?.roles ?? []).includes(role);
  }
}`);
      const {APP_GUARD} = nest('@nestjs/core');
      const {Module} = nest('@nestjs/common');
      @Module({imports: [AppModule], providers: [{provide: APP_GUARD, useClass: RoleGuard}]})
      class Guarded {}
      const guarded = await start(Guarded);
      try {
        const user = await gql(`${guarded.base}/graphql`, '{ microchipRegistry }', undefined, {
          'x-roles': 'user',
        });
        expect(user.body.errors[0].extensions.code).toBe('FORBIDDEN');
        const admin = await gql(`${guarded.base}/graphql`, '{ microchipRegistry }', undefined, {
          'x-roles': 'admin',
        });
        expect(admin.body).toEqual({data: {microchipRegistry: 'every microchip of the shelter'}});
      } finally {
        await guarded.close();
      }
    },
  );

  claim.abuse(
    `${page}#using-custom-metadata`,
    'a role set with @Extensions() on the class covers every field of the type: a regular user gets FORBIDDEN and null, an admin reads it',
    async () => {
      const user = await gql(`${started.base}/graphql`, '{ auditLog { action } }', undefined, {
        'x-roles': 'user',
      });
      expect(user.body.data).toBeNull();
      expect(user.body.errors[0].message).toBe('You are not allowed to read the "action" field.');
      expect(user.body.errors[0].extensions.code).toBe('FORBIDDEN');
      const admin = await gql(`${started.base}/graphql`, '{ auditLog { action } }', undefined, {
        'x-roles': 'admin',
      });
      expect(admin.body).toEqual({data: {auditLog: [{action: 'microchip 250269802 reassigned'}]}});
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

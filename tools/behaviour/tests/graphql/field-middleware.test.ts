import {expect} from 'vitest';
import {claim, samples, nest, compileModule} from '../../lib';
import {start, gql} from './_support';

const {Module} = nest('@nestjs/common');
const {GraphQLModule} = nest('@nestjs/graphql');
const page = 'docs/graphql/field-middleware.md';

const set = samples(page, {under: 'changing-the-value'});
const dir = set.dir;

function capture(): {lines: string[]; restore: () => void} {
  const lines: string[] = [];
  const original = console.log;
  console.log = (...args: unknown[]) => void lines.push(args.map(String).join(' '));
  return {lines, restore: () => void (console.log = original)};
}

/** Cats app: the page's model and resolver, plus a query; more fields and options from the test. */
function catsApp(extra = '', options: Record<string, unknown> = {}, context?: unknown) {
  set.require('cats/models/cat.model');
  const {R} = compileModule(`
import { Field, ObjectType, Query, Resolver, ResolveField, Parent, Int } from '@nestjs/graphql';
const { Cat } = require(${JSON.stringify(dir + '/cat.model.js')});
const { maskMiddleware } = require(${JSON.stringify(dir + '/mask.middleware.js')});
${extra}
@Resolver()
export class R {
  @Query(() => [Cat]) cats() { return [{ name: 'Tom', age: 3, breed: 'Tabby' }]; }
  ${extra ? '@Query(() => [Extra]) extras() { return [{ secret: "4111111111111111", plain: "p" }]; }' : ''}
}`);
  const {CatsResolver} = set.require('cats/cats.resolver');
  @Module({
    imports: [
      GraphQLModule.forRoot({autoSchemaFile: true, ...(context ? {context} : {}), ...options}),
    ],
    providers: [R, CatsResolver],
  })
  class AppModule {}
  return start(AppModule);
}

claim(
  `${page}#getting-started`,
  'the logger middleware on Cat.name logs "Cat.name = Tom"; age and breed are untouched',
  async () => {
    const out = capture();
    const started = await catsApp();
    try {
      const {body} = await gql(`${started.base}/graphql`, '{ cats { name age breed } }');
      expect(body).toEqual({data: {cats: [{name: 'Tom', age: 3, breed: 'Tabby'}]}});
    } finally {
      out.restore();
      await started.close();
    }
    expect(out.lines).toEqual(['Cat.name = Tom']);
  },
);

claim(
  `${page}#changing-the-value`,
  '@ResolveField() middleware wraps the resolver method',
  async () => {
    const out = capture();
    const started = await catsApp();
    try {
      const {body} = await gql(`${started.base}/graphql`, '{ cats { description } }');
      expect(body).toEqual({data: {cats: [{description: 'Tom is a 3 year old Tabby.'}]}});
    } finally {
      out.restore();
      await started.close();
    }
    expect(out.lines).toEqual(['Cat.description = Tom is a 3 year old Tabby.']);
  },
);

const extraType = `
@ObjectType()
class Extra {
  @Field({ middleware: [maskMiddleware] }) secret: string;
  @Field({ nullable: true, middleware: [async () => 'short-circuit'] }) skipped: string;
  @Field({ nullable: true, middleware: [async () => { throw new Error('no access'); }] }) denied: string;
  @Field({ nullable: true, middleware: [async (ctx, next) => { await next(); return next(); }] }) twice: string;
  @Field({ nullable: true, middleware: [async (ctx, next) => { await next(); return undefined; }] }) plain: string;
  @Field({ nullable: true, middleware: [async (ctx, next) => { await next(); return null; }] }) nulled: string;
}`;

claim(
  `${page}#changing-the-value`,
  'the mask middleware hides all but the last four characters unless req.user has the admin role',
  async () => {
    const started = await catsApp(extraType, {}, ({req}: any) => {
      req.user = req.headers['x-role'] ? {roles: [req.headers['x-role']]} : undefined;
      return {req};
    });
    try {
      const anonymous = await gql(`${started.base}/graphql`, '{ extras { secret } }');
      expect(anonymous.body).toEqual({data: {extras: [{secret: '************1111'}]}});
      const admin = await gql(`${started.base}/graphql`, '{ extras { secret } }', undefined, {
        'x-role': 'admin',
      });
      expect(admin.body).toEqual({data: {extras: [{secret: '4111111111111111'}]}});
    } finally {
      await started.close();
    }
  },
);

claim.abuse(
  `${page}#changing-the-value`,
  "a user whose roles is a string ('nonadmin') sees the masked value: the check takes only an array of roles",
  async () => {
    const started = await catsApp(extraType, {}, ({req}: any) => {
      req.user = req.headers['x-role-string'] ? {roles: req.headers['x-role-string']} : undefined;
      return {req};
    });
    try {
      const forged = await gql(`${started.base}/graphql`, '{ extras { secret } }', undefined, {
        'x-role-string': 'nonadmin',
      });
      expect(forged.body).toEqual({data: {extras: [{secret: '************1111'}]}});
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#changing-the-value`,
  'without next() the own value is used; a throw is a field error with null; a second next() fails with "next() called multiple times"',
  async () => {
    const started = await catsApp(extraType);
    try {
      const {body} = await gql(`${started.base}/graphql`, '{ extras { skipped denied twice } }');
      expect(body.data).toEqual({extras: [{skipped: 'short-circuit', denied: null, twice: null}]});
      expect(body.errors.map((e: any) => [e.path.join('.'), e.message])).toEqual([
        ['extras.0.denied', 'no access'],
        ['extras.0.twice', 'next() called multiple times'],
      ]);
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#changing-the-value`,
  'returning undefined after next() falls back to the value of next(); returning null gives null',
  async () => {
    const started = await catsApp(extraType);
    try {
      const {body} = await gql(`${started.base}/graphql`, '{ extras { plain nulled } }');
      expect(body).toEqual({data: {extras: [{plain: 'p', nulled: null}]}});
    } finally {
      await started.close();
    }
  },
);

claim(
  `${page}#global-field-middleware`,
  'global middleware runs around the field-level middleware (it sees their value) and not for the root Query fields',
  async () => {
    const calls: string[] = [];
    const global = async (ctx: any, next: () => Promise<unknown>) => {
      const value = await next();
      calls.push(`global ${ctx.info.parentType.name}.${ctx.info.fieldName} = ${value}`);
      return value;
    };
    const started = await catsApp(extraType, {buildSchemaOptions: {fieldMiddleware: [global]}});
    try {
      await gql(`${started.base}/graphql`, '{ extras { secret } }');
    } finally {
      await started.close();
    }
    expect(calls).toEqual(['global Extra.secret = ************1111']);
  },
);

claim.abuse(
  `${page}#changing-the-value`,
  'a value the database returns as a number is masked too (the String scalar would otherwise send every digit)',
  async () => {
    const {R} = compileModule(`
import { Field, ObjectType, Query, Resolver } from '@nestjs/graphql';
const { maskMiddleware } = require(${JSON.stringify(dir + '/mask.middleware.js')});
@ObjectType()
class Card {
  @Field({ middleware: [maskMiddleware] }) number: string;
}
@Resolver()
export class R {
  @Query(() => [Card]) cards() { return [{ number: 4111111111111111 }]; }
}`);
    @Module({imports: [GraphQLModule.forRoot({autoSchemaFile: true})], providers: [R]})
    class AppModule {}
    const started = await start(AppModule);
    try {
      const {body} = await gql(`${started.base}/graphql`, '{ cards { number } }');
      expect(body).toEqual({data: {cards: [{number: '************1111'}]}});
    } finally {
      await started.close();
    }
  },
);

claim.abuse(
  `${page}#global-field-middleware`,
  'registered globally, loggerMiddleware writes every value of the response to the log, a member’s email included',
  async () => {
    const {loggerMiddleware} = set.require('common/middleware/logger.middleware');
    const {R} = compileModule(`
import { Field, ObjectType, Query, Resolver } from '@nestjs/graphql';
@ObjectType()
class Member {
  @Field() name: string;
  @Field() email: string;
}
@Resolver()
export class R {
  @Query(() => [Member]) members() { return [{ name: 'Ada', email: 'ada@example.com' }]; }
}`);
    @Module({
      imports: [
        GraphQLModule.forRoot({
          autoSchemaFile: true,
          buildSchemaOptions: {fieldMiddleware: [loggerMiddleware]},
        }),
      ],
      providers: [R],
    })
    class AppModule {}
    const out = capture();
    const started = await start(AppModule);
    try {
      await gql(`${started.base}/graphql`, '{ members { name email } }');
    } finally {
      out.restore();
      await started.close();
    }
    expect(out.lines).toEqual(['Member.name = Ada', 'Member.email = ada@example.com']);
  },
);

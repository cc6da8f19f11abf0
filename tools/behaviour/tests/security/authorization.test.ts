import {afterEach, describe, expect} from 'vitest';
import {
  claim,
  samples,
  nest,
  listen,
  fragment,
  expectOutput,
  compileModule,
  applyEdits,
} from '../../lib';

const {NestFactory} = nest('@nestjs/core');
const page = 'docs/security/authorization.md';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

const roleEnum = fragment(page, 'basic-rbac-implementation', 'export enum Role').value;
const catsService = `
import { Injectable } from '@nestjs/common';
@Injectable()
export class CatsService {
  create(cat) { return { created: cat }; }
}
`;
/** Stands in for the authentication chapter: puts the user named by the x-user header on the request. */
const fakeAuth = `
import { Injectable } from '@nestjs/common';
const users = {
  ann: { username: 'ann', roles: ['admin'] },
  bob: { username: 'bob', roles: ['user'] },
  // A roles claim that arrives as a string, and a user object without roles
  dave: { username: 'dave', roles: 'superadmin' },
  erin: { username: 'erin' },
};
@Injectable()
export class FakeAuthGuard {
  canActivate(context) {
    const request = context.switchToHttp().getRequest();
    request.user = users[request.headers['x-user']];
    return true;
  }
}
`;

async function rbacApp(
  lang: 'ts' | 'js',
  wiring: 'route' | 'global-roles-route-auth' | 'both-global',
  extraEdits: [string | RegExp, string][] = [],
) {
  const controllerEdits: [string, string][] =
    wiring === 'global-roles-route-auth'
      ? [["@Controller('cats')", "@UseGuards(FakeAuthGuard)\n@Controller('cats')"]]
      : wiring === 'route'
        ? [["@Controller('cats')", "@UseGuards(FakeAuthGuard, RolesGuard)\n@Controller('cats')"]]
        : [];
  const set = samples(page, {
    lang,
    under: 'basic-rbac-implementation',
    edit: {
      'cats.controller': [
        ...controllerEdits,
        [
          /^import \{ (Bind, )?Body, Controller/m,
          "import { UseGuards, Get } from '@nestjs/common';\nimport { FakeAuthGuard } from './fake-auth.guard';\nimport { RolesGuard } from './roles.guard';\nimport { $1Body, Controller",
        ],
        [/\n\}\s*$/, '\n  @Get()\n  findAll() { return []; }\n}\n'],
        ...extraEdits,
      ],
    },
    files: {
      'role.enum':
        lang === 'ts'
          ? roleEnum
          : roleEnum.replace(
              /export enum Role \{[\s\S]*?\}/,
              "export const Role = { User: 'user', Admin: 'admin' };",
            ),
      'cats.service': catsService,
      'dto/create-cat.dto': 'export class CreateCatDto {}',
      'fake-auth.guard': fakeAuth,
      'app.module': `
import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { CatsController } from './cats.controller';
import { CatsService } from './cats.service';
import { FakeAuthGuard } from './fake-auth.guard';
import { RolesGuard } from './roles.guard';
const globals = ${JSON.stringify(wiring)} === 'route' ? [] : ${JSON.stringify(wiring)} === 'both-global'
  ? [{ provide: APP_GUARD, useClass: FakeAuthGuard }, { provide: APP_GUARD, useClass: RolesGuard }]
  : [{ provide: APP_GUARD, useClass: RolesGuard }];
@Module({ controllers: [CatsController], providers: [CatsService, ...globals] })
export class AppModule {}
`,
    },
  });
  const app = await NestFactory.create(set.require('app.module').AppModule, {logger: false});
  close = () => app.close();
  const base = await listen(app);
  return (user: string | null, method = 'POST') =>
    fetch(`${base}/cats`, {
      method,
      headers: {'content-type': 'application/json', ...(user ? {'x-user': user} : {})},
      body: method === 'POST' ? JSON.stringify({name: 'Tom'}) : undefined,
    });
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#basic-rbac-implementation`,
    `@Roles(Role.Admin) with RolesGuard after the auth guard: an admin creates a cat, a plain user gets 403 (${lang})`,
    async () => {
      const call = await rbacApp(lang, 'route');
      const created = await call('ann');
      expect(created.status).toBe(201);
      expect(await created.json()).toEqual({created: {name: 'Tom'}});
      const refused = await call('bob');
      expect(refused.status).toBe(403);
      expectOutput(page, 'roles-forbidden', await refused.json());
    },
  );
}

claim(
  `${page}#basic-rbac-implementation`,
  'a route without @Roles() is open to any caller that reached the guard',
  async () => {
    const call = await rbacApp('ts', 'route');
    expect((await call(null, 'GET')).status).toBe(200);
  },
);

claim(
  `${page}#basic-rbac-implementation`,
  'both guards global, authentication first: roles are checked against the user',
  async () => {
    const call = await rbacApp('ts', 'both-global');
    expect((await call('ann')).status).toBe(201);
    expect((await call('bob')).status).toBe(403);
  },
);

claim(
  `${page}#basic-rbac-implementation`,
  'a global RolesGuard with the auth guard on the controller runs first: even the admin gets 403',
  async () => {
    const call = await rbacApp('ts', 'global-roles-route-auth');
    expect((await call('ann')).status).toBe(403);
  },
);

claim.abuse(
  `${page}#basic-rbac-implementation`,
  "a roles claim that is a string ('superadmin') does not pass a check for 'admin' by substring (TS and JS halves): 403",
  async () => {
    for (const lang of ['ts', 'js'] as const) {
      const call = await rbacApp(lang, 'route');
      expect((await call('dave')).status, lang).toBe(403);
      await close?.();
      close = undefined;
    }
  },
);

claim.abuse(
  `${page}#basic-rbac-implementation`,
  'a user object without roles, and a request with no user at all, get 403 on an @Roles() route, not 500',
  async () => {
    const call = await rbacApp('ts', 'route');
    expect((await call('erin')).status).toBe(403);
    const anonymous = await call(null);
    expect(anonymous.status).toBe(403);
    expect(await anonymous.json()).toEqual({
      statusCode: 403,
      message: 'Forbidden resource',
      error: 'Forbidden',
    });
  },
);

claim.abuse(
  `${page}#basic-rbac-implementation`,
  '@Roles() without arguments is an empty list: the route refuses everyone, the administrator too',
  async () => {
    const call = await rbacApp('ts', 'route', [['@Roles(Role.Admin)', '@Roles()']]);
    expect((await call('ann')).status).toBe(403);
    expect((await call('bob')).status).toBe(403);
  },
);

claim.abuse(
  `${page}#basic-rbac-implementation`,
  "roles on the controller and on the handler at once: the handler's @Roles(Role.User) opens that route to plain users inside an admin-only controller",
  async () => {
    const call = await rbacApp('ts', 'route', [
      ["@Controller('cats')", "@Roles(Role.Admin)\n@Controller('cats')"],
      ['@Roles(Role.Admin)\n  create', '@Roles(Role.User)\n  create'],
    ]);
    expect((await call('bob')).status).toBe(201);
    // The route without its own @Roles() keeps the controller's requirement.
    expect((await call('bob', 'GET')).status).toBe(403);
    expect((await call('ann', 'GET')).status).toBe(200);
  },
);

claim.abuse(
  `${page}#basic-rbac-implementation`,
  '@Roles(Role.Admin) without RolesGuard bound anywhere protects nothing: a plain user creates the cat',
  async () => {
    const call = await rbacApp('ts', 'route', [
      ['@UseGuards(FakeAuthGuard, RolesGuard)', '@UseGuards(FakeAuthGuard)'],
    ]);
    expect((await call('bob')).status).toBe(201);
  },
);

claim.abuse(
  `${page}#basic-rbac-implementation`,
  "behind the authentication chapter's JwtAuthGuard, whose user has no roles, a @Roles() route answers 403 even to a valid token",
  async () => {
    const authPage = 'docs/security/authentication.md';
    process.env.JWT_SECRET = 'authorization-tests-0123456789abcdef0123456789';
    const roles = samples(page, {files: {'role.enum': roleEnum}});
    const set = samples(authPage, {
      under: 'protecting-routes',
      edit: {
        'auth/auth.module': [
          [
            'providers: [AuthService, LocalStrategy]',
            'providers: [AuthService, LocalStrategy, JwtStrategy]',
          ],
          [
            "import { LocalStrategy } from './local.strategy';",
            "import { LocalStrategy } from './local.strategy';\nimport { JwtStrategy } from './jwt.strategy';",
          ],
        ],
      },
      files: {
        'auth/constants': fragment(authPage, 'jwt-functionality', 'export const jwtConstants')
          .value,
        'role.enum': roleEnum,
        'roles.decorator': roles.sources.get('roles.decorator')!,
        'roles.guard': roles.sources.get('roles.guard')!,
        'app.module': `
import { Controller, Get, Module, UseGuards } from '@nestjs/common';
import { AuthModule } from './auth/auth.module';
import { AppController } from './app.controller';
import { JwtAuthGuard } from './auth/jwt-auth.guard';
import { Role } from './role.enum';
import { Roles } from './roles.decorator';
import { RolesGuard } from './roles.guard';
@Controller('admin')
@UseGuards(JwtAuthGuard, RolesGuard)
class AdminController {
  @Get() @Roles(Role.Admin) dashboard() { return 'dashboard'; }
}
@Module({ imports: [AuthModule], controllers: [AppController, AdminController] })
export class AppModule {}
`,
      },
    });
    const app = await NestFactory.create(set.require('app.module').AppModule, {logger: false});
    close = () => app.close();
    const base = await listen(app);
    const {access_token} = await (
      await fetch(`${base}/auth/login`, {
        method: 'POST',
        headers: {'content-type': 'application/json'},
        body: JSON.stringify({username: 'alice', password: 'wonderland'}),
      })
    ).json();
    const profile = await fetch(`${base}/profile`, {
      headers: {authorization: `Bearer ${access_token}`},
    });
    expect(await profile.json()).toEqual({userId: 1, username: 'alice'});
    const response = await fetch(`${base}/admin`, {
      headers: {authorization: `Bearer ${access_token}`},
    });
    expect(response.status).toBe(403);
  },
);

claim(
  `${page}#basic-rbac-implementation`,
  'getAllAndOverride(): a @Roles() on the method replaces the one on the controller',
  async () => {
    const {Reflector} = nest('@nestjs/core');
    const {Roles} = samples(page, {files: {'role.enum': roleEnum}}).require('roles.decorator');
    class Controller {
      handler() {
        return undefined;
      }
    }
    Roles('user')(Controller);
    Roles('admin')(
      Controller.prototype,
      'handler',
      Object.getOwnPropertyDescriptor(Controller.prototype, 'handler'),
    );
    const reflector = new Reflector();
    expect(
      reflector.getAllAndOverride('roles', [Controller.prototype.handler, Controller]),
    ).toEqual(['admin']);
    expect(reflector.getAllAndMerge('roles', [Controller.prototype.handler, Controller])).toEqual([
      'admin',
      'user',
    ]);
  },
);

describe('CASL', () => {
  const entities = {
    'users/entities/user.entity': 'export class User { id: number; isAdmin: boolean; }',
    'cats/entities/cat.entity':
      'export class Cat { id: number; name: string; ownerId: number; isAdopted: boolean; }',
    'casl/action.enum': fragment(page, 'integrating-casl', 'export enum Action').value,
  };
  const load = (
    lang: 'ts' | 'js' = 'ts',
    edit: Record<string, [string | RegExp, string][]> = {},
  ) => {
    const set = samples(page, {
      lang,
      edit,
      files:
        lang === 'ts'
          ? entities
          : {
              'users/entities/user.entity': 'export class User {}',
              'cats/entities/cat.entity': 'export class Cat {}',
              'casl/action.enum':
                "export const Action = { Manage: 'manage', Create: 'create', Read: 'read', Update: 'update', Delete: 'delete' };",
            },
    });
    return {
      factory: new (set.require('casl/casl-ability.factory').CaslAbilityFactory)(),
      Cat: set.require('cats/entities/cat.entity').Cat,
      User: set.require('users/entities/user.entity').User,
      set,
    };
  };
  const cat = (Cat: any, props: Record<string, unknown>) => Object.assign(new Cat(), props);

  for (const lang of ['ts', 'js'] as const) {
    claim(
      `${page}#integrating-casl`,
      `a regular user may read cats, not delete or create them; an admin may manage everything (${lang})`,
      () => {
        const {factory, Cat, User} = load(lang);
        const user = Object.assign(new User(), {id: 1, isAdmin: false});
        const ability = factory.createForUser(user);
        expect([
          ability.can('read', Cat),
          ability.can('delete', Cat),
          ability.can('create', Cat),
        ]).toEqual([true, false, false]);
        expect(ability.cannot('delete', Cat)).toBe(true);
        const admin = factory.createForUser(Object.assign(new User(), {id: 2, isAdmin: true}));
        expect([
          admin.can('create', Cat),
          admin.can('delete', cat(Cat, {ownerId: 9, isAdopted: false})),
        ]).toEqual([true, true]);
        // cannot() comes after can(): nobody deletes an adopted cat, admins included.
        expect(admin.can('delete', cat(Cat, {ownerId: 9, isAdopted: true}))).toBe(false);
      },
    );

    claim(
      `${page}#integrating-casl`,
      `conditions on instances: the owner may update the cat, someone else may not; a class-level check answers true (${lang})`,
      () => {
        const {factory, Cat, User} = load(lang);
        const ability = factory.createForUser(Object.assign(new User(), {id: 1, isAdmin: false}));
        expect(ability.can('update', cat(Cat, {ownerId: 1}))).toBe(true);
        expect(ability.can('update', cat(Cat, {ownerId: 2}))).toBe(false);
        expect(ability.can('update', Cat)).toBe(true);
      },
    );
  }

  claim(
    `${page}#integrating-casl`,
    "without detectSubjectType, CASL 5 names an instance by its constructor's name ('Cat') and the class rules do not match it",
    () => {
      const {factory, Cat, User} = load('ts', {
        'casl/casl-ability.factory': [[/return build\(\{[\s\S]*?\}\);/, 'return build();']],
      });
      const ability = factory.createForUser(Object.assign(new User(), {id: 1, isAdmin: false}));
      expect(ability.can('update', cat(Cat, {ownerId: 1}))).toBe(false);
      expect(nest('@casl/ability').detectSubjectType(cat(Cat, {}))).toBe('Cat');
    },
  );

  claim(
    `${page}#integrating-casl`,
    "CatsService.rename() throws 'You cannot rename this cat' unless the ability allows the update",
    () => {
      const {factory, set} = load();
      const {CatsService} = set.require('cats/cats.service');
      const {Cat} = set.require('cats/entities/cat.entity');
      const service = new CatsService(factory);
      (service as any).cats.push(cat(Cat, {id: 1, name: 'Tom', ownerId: 1, isAdopted: false}));
      expect(service.rename({id: 1, isAdmin: false}, 1, 'Tommy').name).toBe('Tommy');
      expect(() => service.rename({id: 2, isAdmin: false}, 1, 'Nope')).toThrow(
        'You cannot rename this cat',
      );
      expect(() => service.rename({id: 1, isAdmin: false}, 99, 'Ghost')).toThrow(
        'You cannot rename this cat',
      );
    },
  );

  claim.abuse(
    `${page}#integrating-casl`,
    "a user object without id (the authentication chapter's { userId, username }) gets no update rule: it may not update an ownerless cat (TS and JS halves)",
    () => {
      for (const lang of ['ts', 'js'] as const) {
        const {factory, Cat} = load(lang);
        const ability = factory.createForUser({userId: 1, username: 'alice'});
        expect(ability.can('update', cat(Cat, {name: 'Stray'})), lang).toBe(false);
        expect(ability.can('update', cat(Cat, {ownerId: 1})), lang).toBe(false);
        expect(ability.can('read', cat(Cat, {ownerId: 1})), lang).toBe(true);
      }
    },
  );

  claim.abuse(
    `${page}#integrating-casl`,
    "isAdmin as the string 'false' (a claim or a query value) does not make an administrator: no delete, no create",
    () => {
      const {factory, Cat} = load();
      const ability = factory.createForUser({id: 2, isAdmin: 'false'});
      expect(ability.can('delete', cat(Cat, {ownerId: 9, isAdopted: false}))).toBe(false);
      expect(ability.can('create', Cat)).toBe(false);
    },
  );

  claim.abuse(
    `${page}#integrating-casl`,
    'a cat given as a plain object (a raw query row, a request body) is no Cat for CASL: even its owner may not update it',
    () => {
      const {factory, Cat} = load();
      const ability = factory.createForUser({id: 1, isAdmin: false});
      expect(ability.can('update', {id: 1, ownerId: 1, isAdopted: false})).toBe(false);
      expect(ability.can('update', cat(Cat, {id: 1, ownerId: 1, isAdopted: false}))).toBe(true);
    },
  );

  claim.abuse(
    `${page}#integrating-casl`,
    "a second user: bob (id 2) may not rename alice's cat, and a cat id given as the string '1' finds no cat (both 'You cannot rename this cat')",
    () => {
      const {factory, set} = load();
      const {CatsService} = set.require('cats/cats.service');
      const {Cat} = set.require('cats/entities/cat.entity');
      const service = new CatsService(factory);
      (service as any).cats.push(cat(Cat, {id: 1, name: 'Tom', ownerId: 1, isAdopted: false}));
      expect(() => service.rename({id: 2, isAdmin: false}, 1, 'Mine now')).toThrow(
        'You cannot rename this cat',
      );
      expect(() => service.rename({id: 1, isAdmin: false}, '1', 'Tommy')).toThrow(
        'You cannot rename this cat',
      );
      expect((service as any).cats[0].name).toBe('Tom');
    },
  );

  /** The page's guard, decorator, policy handler and factory in one app; `user` is what authentication left. */
  async function policyApp(options: {
    lang?: 'ts' | 'js';
    user?: (req: any) => unknown;
    controllerPolicy?: boolean;
    global?: boolean;
    /** The controller's policies answer through promises: an async function and an async handle(). */
    asyncPolicies?: boolean;
  }) {
    const lang = options.lang ?? 'ts';
    const fragments = {
      'casl/policy-handler': fragment(
        page,
        'advanced-implementing-a-policiesguard',
        'export interface IPolicyHandler',
      ).value,
      'casl/check-policies.decorator': fragment(
        page,
        'advanced-implementing-a-policiesguard',
        'export const CheckPolicies',
      ).value,
    };
    const set = samples(page, {
      lang,
      files: {
        ...(lang === 'ts'
          ? {...entities, ...fragments}
          : {
              // The JS halves, with the page's TypeScript-only files as a Babel user writes them.
              'users/entities/user.entity': 'export class User {}',
              'cats/entities/cat.entity': 'export class Cat {}',
              'casl/action.enum':
                "export const Action = { Manage: 'manage', Create: 'create', Read: 'read', Update: 'update', Delete: 'delete' };",
              'casl/policy-handler': 'export {};',
              'casl/check-policies.decorator': applyEdits(
                'casl/check-policies.decorator',
                fragments['casl/check-policies.decorator'],
                [
                  [/^import \{ PolicyHandler \}.*\n/m, ''],
                  ['(...handlers: PolicyHandler[])', '(...handlers)'],
                ],
              ),
            }),
        'app.module': `
import { Controller, Get, Module, Post, UseGuards } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { CaslAbilityFactory } from './casl/casl-ability.factory';
import { PoliciesGuard } from './casl/policies.guard';
import { CheckPolicies } from './casl/check-policies.decorator';
import { Action } from './casl/action.enum';
import { Cat } from './cats/entities/cat.entity';
const onController = ${JSON.stringify(!!options.controllerPolicy)};
const global = ${JSON.stringify(!!options.global)};
const asyncPolicies = ${JSON.stringify(!!options.asyncPolicies)};
const createPolicy = (ability) => ability.can(Action.Create, Cat);
// Policies that wait for something (a service, a lookup) before they answer
const later = () => new Promise((resolve) => setTimeout(resolve, 1));
const asyncCreatePolicy = async (ability) => { await later(); return ability.can(Action.Create, Cat); };
class AsyncCreatePolicyHandler { async handle(ability) { await later(); return ability.can(Action.Create, Cat); } }
@Controller('cats')
class CatsController {
  @Get() findAll() { return []; }
  @Post() create() { return 'created'; }
}
if (onController) CheckPolicies(createPolicy)(CatsController);
if (asyncPolicies) CheckPolicies(asyncCreatePolicy, new AsyncCreatePolicyHandler())(CatsController);
if (!global) UseGuards(PoliciesGuard)(CatsController);
@Module({
  controllers: [CatsController],
  providers: [CaslAbilityFactory, ...(global ? [{ provide: APP_GUARD, useClass: PoliciesGuard }] : [])],
})
export class AppModule {}
`,
      },
    });
    const app = await NestFactory.create(set.require('app.module').AppModule, {logger: false});
    close = () => app.close();
    if (options.user) {
      app.use((req: any, _res: unknown, next: () => void) => {
        req.user = options.user!(req);
        next();
      });
    }
    return listen(app);
  }

  claim.abuse(
    `${page}#advanced-implementing-a-policiesguard`,
    '@CheckPolicies() on the controller applies to its routes: a regular user may not POST (403), an admin may',
    async () => {
      const base = await policyApp({
        controllerPolicy: true,
        user: (req) => ({id: 1, isAdmin: req.headers['x-admin'] === 'yes'}),
      });
      expect((await fetch(`${base}/cats`, {method: 'POST'})).status).toBe(403);
      expect((await fetch(`${base}/cats`)).status).toBe(403);
      expect(
        (await fetch(`${base}/cats`, {method: 'POST', headers: {'x-admin': 'yes'}})).status,
      ).toBe(201);
    },
  );

  claim.abuse(
    `${page}#advanced-implementing-a-policiesguard`,
    'policies that answer through a promise (an async function, an async handle()) are awaited: a regular user gets 403, an admin passes (TS and JS halves)',
    async () => {
      for (const lang of ['ts', 'js'] as const) {
        const base = await policyApp({
          lang,
          asyncPolicies: true,
          user: (req) => ({id: 1, isAdmin: req.headers['x-admin'] === 'yes'}),
        });
        expect((await fetch(`${base}/cats`, {method: 'POST'})).status, lang).toBe(403);
        expect(
          (await fetch(`${base}/cats`, {method: 'POST', headers: {'x-admin': 'yes'}})).status,
          lang,
        ).toBe(201);
        await close?.();
        close = undefined;
      }
    },
  );

  claim.abuse(
    `${page}#advanced-implementing-a-policiesguard`,
    'no user on the request (no authentication before the guard): 401 with the body the page shows, not a 500 (TS and JS halves)',
    async () => {
      for (const lang of ['ts', 'js'] as const) {
        const base = await policyApp({lang, controllerPolicy: true});
        const response = await fetch(`${base}/cats`);
        expect(response.status, lang).toBe(401);
        expectOutput(page, 'policies-no-user', await response.json());
        await close?.();
        close = undefined;
      }
    },
  );

  claim.abuse(
    `${page}#advanced-implementing-a-policiesguard`,
    'a global PoliciesGuard runs before an authentication guard bound with @UseGuards(): even a valid user gets 401',
    async () => {
      const base = await policyApp({global: true});
      expect((await fetch(`${base}/cats`)).status).toBe(401);
    },
  );

  claim(
    `${page}#advanced-implementing-a-policiesguard`,
    'PoliciesGuard: an inline policy and a handler class decide per user; a route without @CheckPolicies() is allowed',
    async () => {
      const set = samples(page, {
        files: {
          ...entities,
          'casl/policy-handler': fragment(
            page,
            'advanced-implementing-a-policiesguard',
            'export interface IPolicyHandler',
          ).value,
          'casl/check-policies.decorator': fragment(
            page,
            'advanced-implementing-a-policiesguard',
            'export const CheckPolicies',
          ).value,
          'casl/policies/read-cat.policy': fragment(
            page,
            'advanced-implementing-a-policiesguard',
            'class ReadCatPolicyHandler',
          ).value,
          'app.module': `
import { Controller, Delete, Get, Module, Post, UseGuards } from '@nestjs/common';
import { CaslAbilityFactory, AppAbility } from './casl/casl-ability.factory';
import { PoliciesGuard } from './casl/policies.guard';
import { CheckPolicies } from './casl/check-policies.decorator';
import { ReadCatPolicyHandler } from './casl/policies/read-cat.policy';
import { Action } from './casl/action.enum';
import { Cat } from './cats/entities/cat.entity';
@Controller('cats')
@UseGuards(PoliciesGuard)
class CatsController {
  @Get() @CheckPolicies(new ReadCatPolicyHandler()) findAll() { return []; }
  @Post() @CheckPolicies((ability: AppAbility) => ability.can(Action.Create, Cat)) create() { return 'created'; }
  @Delete() remove() { return 'removed'; }
}
@Module({ controllers: [CatsController], providers: [CaslAbilityFactory] })
export class AppModule {}
`,
        },
      });
      const app = await NestFactory.create(set.require('app.module').AppModule, {logger: false});
      close = () => app.close();
      app.use((req: any, _res: unknown, next: () => void) => {
        req.user = {id: 1, isAdmin: req.headers['x-admin'] === 'yes'};
        next();
      });
      const base = await listen(app);
      expect((await fetch(`${base}/cats`)).status).toBe(200);
      expect((await fetch(`${base}/cats`, {method: 'POST'})).status).toBe(403);
      expect(
        (await fetch(`${base}/cats`, {method: 'POST', headers: {'x-admin': 'yes'}})).status,
      ).toBe(201);
      expect((await fetch(`${base}/cats`, {method: 'DELETE'})).status).toBe(200);
    },
  );
});

/** The page's permission check inside a guard class, and a context for a handler and a user. */
function permissionsGuard() {
  const check = fragment(page, 'claims-based-authorization', 'requiredPermissions.every').value;
  const {PermissionsGuard} = compileModule(
    `
import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
${fragment(page, 'claims-based-authorization', 'export enum Permission').value}
export const PERMISSIONS_KEY = 'permissions';
@Injectable()
export class PermissionsGuard implements CanActivate {
  constructor(private reflector: Reflector) {}
  canActivate(context: ExecutionContext): boolean {
${check}
  }
}
`,
    'permissions.guard',
  );
  const {Reflector} = nest('@nestjs/core');
  const guard = new PermissionsGuard(new Reflector());
  const {SetMetadata} = nest('@nestjs/common');
  const handler = (permissions: string[]) => {
    const target = {route() {}};
    SetMetadata('permissions', permissions)(
      target,
      'route',
      Object.getOwnPropertyDescriptor(target, 'route'),
    );
    return target.route;
  };
  const allowed = (route: unknown, user: unknown, type = 'http') =>
    guard.canActivate({
      getHandler: () => route,
      getClass: () => Object,
      getType: () => type,
      // For a message, the "request" is the payload: here one that claims the user itself.
      switchToHttp: () => ({getRequest: () => ({user})}),
    });
  return {handler, allowed};
}

claim.abuse(
  `${page}#claims-based-authorization`,
  "permissions that arrive as one string ('create_cat_draft') do not contain 'create_cat' for the guard: refused",
  () => {
    const {handler, allowed} = permissionsGuard();
    const route = handler(['create_cat']);
    expect(allowed(route, {permissions: 'create_cat_draft read_cat'})).toBe(false);
    expect(allowed(route, {permissions: ['create_cat_draft']})).toBe(false);
    expect(allowed(route, {permissions: ['create_cat']})).toBe(true);
  },
);

claim.abuse(
  `${page}#claims-based-authorization`,
  '@RequirePermissions() without arguments requires nothing: any user with a permissions list passes, even an empty one',
  () => {
    const {handler, allowed} = permissionsGuard();
    const route = handler([]);
    expect(allowed(route, {permissions: []})).toBe(true);
    expect(allowed(route, {username: 'no list'})).toBe(false);
  },
);

claim.abuse(
  `${page}#claims-based-authorization`,
  'a call that is not HTTP (a message whose payload claims the permissions) is refused by the permissions check',
  () => {
    const {handler, allowed} = permissionsGuard();
    const route = handler(['create_cat']);
    expect(allowed(route, {permissions: ['create_cat']}, 'rpc')).toBe(false);
    expect(allowed(route, {permissions: ['create_cat']}, 'http')).toBe(true);
  },
);

claim(
  `${page}#claims-based-authorization`,
  'the permissions guard requires every listed permission (every())',
  async () => {
    const check = fragment(page, 'claims-based-authorization', 'requiredPermissions.every').value;
    const {PermissionsGuard} = compileModule(
      `
import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
${fragment(page, 'claims-based-authorization', 'export enum Permission').value}
export const PERMISSIONS_KEY = 'permissions';
export const RequirePermissions = (...permissions: Permission[]) => SetMetadata(PERMISSIONS_KEY, permissions);
@Injectable()
export class PermissionsGuard implements CanActivate {
  constructor(private reflector: Reflector) {}
  canActivate(context: ExecutionContext): boolean {
${check}
  }
}
`,
      'permissions.guard',
    );
    const {Reflector} = nest('@nestjs/core');
    const guard = new PermissionsGuard(new Reflector());
    class Handlers {
      both() {
        return undefined;
      }
      none() {
        return undefined;
      }
    }
    const {SetMetadata} = nest('@nestjs/common');
    SetMetadata('permissions', ['create_cat', 'read_cat'])(
      Handlers.prototype,
      'both',
      Object.getOwnPropertyDescriptor(Handlers.prototype, 'both'),
    );
    const context = (handler: unknown, permissions?: string[]) => ({
      getHandler: () => handler,
      getClass: () => Handlers,
      getType: () => 'http',
      switchToHttp: () => ({getRequest: () => ({user: permissions ? {permissions} : undefined})}),
    });
    expect(
      guard.canActivate(context(Handlers.prototype.both, ['create_cat', 'read_cat', 'delete_cat'])),
    ).toBe(true);
    expect(guard.canActivate(context(Handlers.prototype.both, ['create_cat']))).toBe(false);
    expect(guard.canActivate(context(Handlers.prototype.both))).toBe(false);
    expect(guard.canActivate(context(Handlers.prototype.none))).toBe(true);
  },
);

// A forged message in a hybrid application: for a microservice message, switchToHttp().getRequest()
// returns the payload, which the sender writes. The page's guards refuse calls that are not HTTP.
async function hybridApp(controller: unknown, providers: unknown[], setup?: (app: any) => void) {
  const {Module} = nest('@nestjs/common');
  const ms = nest('@nestjs/microservices');
  const {freePort} = await import('../../lib');
  @Module({controllers: [controller as any], providers: providers as any[]})
  class AppModule {}
  const app = await NestFactory.create(AppModule, {logger: false});
  setup?.(app);
  const port = await freePort();
  app.connectMicroservice(
    {transport: ms.Transport.TCP, options: {host: '127.0.0.1', port}},
    {inheritAppConfig: true},
  );
  await app.startAllMicroservices();
  const base = await listen(app);
  const client = ms.ClientProxyFactory.create({
    transport: ms.Transport.TCP,
    options: {host: '127.0.0.1', port},
  });
  close = async () => {
    client.close();
    await app.close();
  };
  const {lastValueFrom} = nest('rxjs');
  const send = (pattern: string, data: unknown) =>
    lastValueFrom(client.send(pattern, data)).then(
      (value: unknown) => ({value}),
      (error: unknown) => ({error}),
    );
  return {base, send};
}

for (const lang of ['ts', 'js'] as const) {
  claim.abuse(
    `${page}#basic-rbac-implementation`,
    `a hybrid app (inheritAppConfig: true) with the global RolesGuard refuses a message to an @Roles(Role.Admin) handler whose payload claims { user: { roles: ['admin'] } }; an admin still creates over HTTP (${lang})`,
    async () => {
      const common = nest('@nestjs/common');
      const ms = nest('@nestjs/microservices');
      const {APP_GUARD} = nest('@nestjs/core');
      const set = samples(page, {
        lang,
        pick: {'roles.guard': 1, 'roles.decorator': 1},
        files: {
          'role.enum':
            lang === 'ts' ? roleEnum : "export const Role = { User: 'user', Admin: 'admin' };",
        },
      });
      const {RolesGuard} = set.require('roles.guard');
      const {Roles} = set.require('roles.decorator');
      const ran: unknown[] = [];
      @common.Controller('cats')
      class CatsController {
        @ms.MessagePattern('cats.delete-all')
        @Roles('admin')
        deleteAll(@ms.Payload() data: unknown) {
          ran.push(data);
          return 'deleted';
        }

        @common.Post()
        @Roles('admin')
        create() {
          return {created: true};
        }
      }
      const users: Record<string, unknown> = {ann: {username: 'ann', roles: ['admin']}};
      @common.Injectable()
      class HeaderAuth {
        canActivate(context: any) {
          if (context.getType() === 'http') {
            const request = context.switchToHttp().getRequest();
            request.user = users[request.headers['x-user']];
          }
          return true;
        }
      }
      const {base, send} = await hybridApp(CatsController, [
        {provide: APP_GUARD, useClass: HeaderAuth},
        {provide: APP_GUARD, useClass: RolesGuard},
      ]);
      expect(await send('cats.delete-all', {user: {roles: ['admin']}})).toEqual({
        error: {status: 'error', message: 'Forbidden resource'},
      });
      expect(ran).toEqual([]);
      const admin = await fetch(`${base}/cats`, {method: 'POST', headers: {'x-user': 'ann'}});
      expect([admin.status, await admin.json()]).toEqual([201, {created: true}]);
      expect((await fetch(`${base}/cats`, {method: 'POST'})).status).toBe(403);
    },
  );
}

claim.abuse(
  `${page}#advanced-implementing-a-policiesguard`,
  'on a controller that also holds message handlers (hybrid app), PoliciesGuard refuses a message whose payload claims { user: { isAdmin: true } }; over HTTP an admin passes and a user is refused',
  async () => {
    const common = nest('@nestjs/common');
    const ms = nest('@nestjs/microservices');
    const set = samples(page, {
      files: {
        'users/entities/user.entity': 'export class User { id: number; isAdmin: boolean; }',
        'cats/entities/cat.entity':
          'export class Cat { id: number; name: string; ownerId: number; isAdopted: boolean; }',
        'casl/action.enum': fragment(page, 'integrating-casl', 'export enum Action').value,
        'casl/policy-handler': fragment(
          page,
          'advanced-implementing-a-policiesguard',
          'export interface IPolicyHandler',
        ).value,
        'casl/check-policies.decorator': fragment(
          page,
          'advanced-implementing-a-policiesguard',
          'export const CheckPolicies',
        ).value,
      },
    });
    const {PoliciesGuard} = set.require('casl/policies.guard');
    const {CaslAbilityFactory} = set.require('casl/casl-ability.factory');
    const {CheckPolicies} = set.require('casl/check-policies.decorator');
    const {Cat} = set.require('cats/entities/cat.entity');
    const canDelete = (ability: any) => ability.can('delete', Cat);
    const ran: unknown[] = [];
    @common.Controller('cats')
    @common.UseGuards(PoliciesGuard)
    class CatsController {
      @ms.MessagePattern('cats.delete-all')
      @CheckPolicies(canDelete)
      deleteAll(@ms.Payload() data: unknown) {
        ran.push(data);
        return 'deleted';
      }

      @common.Delete()
      @CheckPolicies(canDelete)
      removeAll() {
        return {deleted: true};
      }
    }
    // Over HTTP the user comes from authentication (a middleware stands in for it: x-user names one).
    const users: Record<string, unknown> = {
      ann: {id: 1, isAdmin: true},
      bob: {id: 2, isAdmin: false},
    };
    const {base, send} = await hybridApp(CatsController, [CaslAbilityFactory], (app) =>
      app.use((req: any, _res: unknown, next: () => void) => {
        req.user = users[req.headers['x-user']];
        next();
      }),
    );
    expect(await send('cats.delete-all', {user: {id: 1, isAdmin: true}})).toEqual({
      error: {status: 'error', message: 'Forbidden resource'},
    });
    expect(ran).toEqual([]);
    const admin = await fetch(`${base}/cats`, {method: 'DELETE', headers: {'x-user': 'ann'}});
    expect([admin.status, await admin.json()]).toEqual([200, {deleted: true}]);
    const user = await fetch(`${base}/cats`, {method: 'DELETE', headers: {'x-user': 'bob'}});
    expect(user.status).toBe(403);
  },
);

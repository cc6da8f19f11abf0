/**
 * The authentication chapter's JWT login and JwtAuthGuard, the guards chapter's RolesGuard and @Roles(),
 * and the custom decorators chapter's @Auth() (applyDecorators), in one application, as a reader who
 * follows the three chapters assembles it. The authorization chapter tells the reader to put the roles
 * into the token payload and into what JwtStrategy.validate() returns: that is the only change to the
 * authentication samples.
 */
import {afterAll, beforeAll, describe, expect} from 'vitest';
import {claim, nest, listen, fragment} from '../../lib';
import {
  authPart,
  authPage,
  combine,
  combinedSecret,
  getAs,
  login,
  otherSecret,
  postJson,
  sign,
  users,
  type Part,
} from './_support';

process.env.JWT_SECRET = combinedSecret;
const {NestFactory} = nest('@nestjs/core');

const guardsPage = 'docs/guards.md';
const decoratorsPage = 'docs/custom-decorators.md';
const authorizationPage = 'docs/security/authorization.md';
const composition = `${decoratorsPage}#decorator-composition`;

/** "Add the roles to the token payload and to what validate() returns" (authorization, Basic RBAC). */
const rolesInToken: Record<string, [string, string][]> = {
  'users/users.service': [
    [
      "{ userId: 1, username: 'alice', password: 'wonderland' }",
      "{ userId: 1, username: 'alice', password: 'wonderland', roles: ['admin'] }",
    ],
    [
      "{ userId: 2, username: 'bob', password: 'builder' }",
      "{ userId: 2, username: 'bob', password: 'builder', roles: ['user'] }",
    ],
  ],
  'auth/auth.service': [
    [
      'const payload = { username: user.username, sub: user.userId };',
      'const payload = { username: user.username, sub: user.userId, roles: user.roles };',
    ],
  ],
  'auth/jwt.strategy': [
    [
      'return { userId: payload.sub, username: payload.username };',
      'return { userId: payload.sub, username: payload.username, roles: payload.roles };',
    ],
  ],
};

/** @Auth() binds "AuthGuard" of the guards chapter: the reader's authentication guard is JwtAuthGuard. */
const authDecorator: Part = {
  page: decoratorsPage,
  options: {
    edit: {
      'auth.decorator': [
        [
          "import { AuthGuard } from './auth.guard';",
          "import { JwtAuthGuard as AuthGuard } from './auth/jwt-auth.guard';",
        ],
      ],
    },
  },
  take: ['auth.decorator', 'users.controller', 'admin.controller'],
};

const rolesGuard: Part = {
  page: guardsPage,
  take: {'roles.guard': 'roles.guard', 'roles.decorator': 'roles.decorator'},
};

function alg(none: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({alg: 'none', typ: 'JWT'})}.${part(none)}.`;
}

describe('@Auth() on handlers and on a controller, guards bound per route', () => {
  let app: any;
  let base: string;
  let set: any;
  let tokens: {alice: string; bob: string};
  beforeAll(async () => {
    set = combine([authPart('protecting-routes', rolesInToken), rolesGuard, authDecorator], {
      'app.module': `
import { Controller, Get, Module } from '@nestjs/common';
import { AuthModule } from './auth/auth.module';
import { AppController } from './app.controller';
import { UsersController } from './users.controller';
import { AdminController } from './admin.controller';
import { Auth } from './auth.decorator';

// "@Auth('user') on a handler of this controller" (Decorator composition), written out
@Controller('mixed')
@Auth('admin')
export class MixedController {
  @Get('reports')
  reports() {
    return ['reports'];
  }

  @Get('inbox')
  @Auth('user')
  inbox() {
    return ['inbox'];
  }
}

// @Auth() without a role, for "any signed-in user"
@Controller('signed-in')
export class SignedInController {
  @Get()
  @Auth()
  hello() {
    return { hello: true };
  }
}

@Module({
  imports: [AuthModule],
  controllers: [AppController, UsersController, AdminController, MixedController, SignedInController],
})
export class AppModule {}
`,
    });
    app = await NestFactory.create(set.require('app.module').AppModule, {logger: false});
    base = await listen(app);
    tokens = {alice: await login(base, ...users.alice), bob: await login(base, ...users.bob)};
  });
  afterAll(async () => app?.close());

  claim(
    composition,
    "alice (role admin, her token from POST /auth/login) reaches @Auth('admin') on a handler and on a controller: 200 []",
    async () => {
      expect(await getAs(`${base}/users`, tokens.alice)).toEqual({status: 200, body: []});
      expect(await getAs(`${base}/admin/users`, tokens.alice)).toEqual({status: 200, body: []});
    },
  );

  claim.abuse(
    composition,
    'anonymous: JwtAuthGuard runs first and answers 401, on the handler-level and the controller-level @Auth()',
    async () => {
      for (const path of ['/users', '/admin/users', '/mixed/inbox', '/signed-in']) {
        expect(await getAs(`${base}${path}`), path).toEqual({
          status: 401,
          body: {statusCode: 401, message: 'Unauthorized'},
        });
      }
    },
  );

  claim.abuse(
    composition,
    "bob, with a valid token and the role user, gets 403 Forbidden resource from @Auth('admin') at both levels",
    async () => {
      for (const path of ['/users', '/admin/users']) {
        expect(await getAs(`${base}${path}`, tokens.bob), path).toEqual({
          status: 403,
          body: {statusCode: 403, message: 'Forbidden resource', error: 'Forbidden'},
        });
      }
    },
  );

  claim.abuse(
    composition,
    "a forged admin token is refused with 401: another secret, alg none, bob's token with its payload changed to admin, an empty or malformed bearer",
    async () => {
      const admin = {sub: 2, username: 'bob', roles: ['admin']};
      const [header, , signature] = tokens.bob.split('.');
      const tampered = `${header}.${Buffer.from(JSON.stringify({...admin, iat: Math.floor(Date.now() / 1000)})).toString('base64url')}.${signature}`;
      for (const token of [
        sign(admin, {secret: otherSecret, expiresIn: '60s'}),
        alg(admin),
        tampered,
        '',
        'not-a-token',
        'a.b.c',
      ]) {
        expect((await getAs(`${base}/users`, token)).status, token).toBe(401);
        expect((await getAs(`${base}/admin/users`, token)).status, token).toBe(401);
      }
    },
  );

  claim.abuse(
    composition,
    "a token signed with the application's secret but expired is refused with 401, admin role or not",
    async () => {
      const expired = sign({
        sub: 1,
        username: 'alice',
        roles: ['admin'],
        exp: Math.floor(Date.now() / 1000) - 5,
      });
      expect((await getAs(`${base}/users`, expired)).status).toBe(401);
      expect((await getAs(`${base}/admin/users`, expired)).status).toBe(401);
    },
  );

  claim.abuse(
    composition,
    "@Auth('admin') on the controller and @Auth('user') on a handler: the handler's roles replace the controller's (bob reaches /mixed/inbox, not /mixed/reports), and both guards run twice",
    async () => {
      const {RolesGuard} = set.require('roles.guard');
      const original = RolesGuard.prototype.canActivate;
      let calls = 0;
      RolesGuard.prototype.canActivate = function (...args: unknown[]) {
        calls += 1;
        return original.apply(this, args);
      };
      try {
        expect(await getAs(`${base}/mixed/inbox`, tokens.bob)).toEqual({
          status: 200,
          body: ['inbox'],
        });
        expect(calls).toBe(2);
        expect((await getAs(`${base}/mixed/reports`, tokens.bob)).status).toBe(403);
        expect((await getAs(`${base}/mixed/reports`, tokens.alice)).status).toBe(200);
      } finally {
        RolesGuard.prototype.canActivate = original;
      }
    },
  );

  claim.abuse(
    composition,
    '@Auth() without a role stores an empty list, which the RolesGuard refuses: every signed-in user gets 403, administrators included',
    async () => {
      expect((await getAs(`${base}/signed-in`, tokens.alice)).status).toBe(403);
      expect((await getAs(`${base}/signed-in`, tokens.bob)).status).toBe(403);
    },
  );

  claim.abuse(
    `${authorizationPage}#basic-rbac-implementation`,
    'roles carried in the token outlive a change of the user store: alice, no longer an admin there, still opens the admin routes with the token she has',
    async () => {
      const {UsersService} = set.require('users/users.service');
      const store = app.get(UsersService);
      const alice = await store.findOne('alice');
      const before = alice.roles;
      alice.roles = [];
      try {
        expect((await getAs(`${base}/users`, tokens.alice)).status).toBe(200);
        // A new login carries the new roles
        const fresh = await login(base, ...users.alice);
        expect((await getAs(`${base}/users`, fresh)).status).toBe(403);
      } finally {
        alice.roles = before;
      }
    },
  );
});

/** Enable authentication globally: JwtAuthGuard with @Public(), and the RolesGuard as global guards. */
function globalApp(providers: string, authModuleGuard = false) {
  const publicDecorator = fragment(
    authPage,
    'enable-authentication-globally',
    'export const Public',
  ).value;
  const part = authPart('enable-authentication-globally', {
    ...rolesInToken,
    // "decorate the login route with @Public() (it keeps its LocalAuthGuard)"
    'app.controller': [
      [
        "  @UseGuards(LocalAuthGuard)\n  @Post('auth/login')",
        "  @Public()\n  @UseGuards(LocalAuthGuard)\n  @Post('auth/login')",
      ],
      [
        "import { LocalAuthGuard } from './auth/local-auth.guard';",
        "import { LocalAuthGuard } from './auth/local-auth.guard';\nimport { Public } from './auth/public.decorator';",
      ],
    ],
    ...(authModuleGuard
      ? {
          // The guard registered in the module that defines it (guards chapter, Binding guards)
          'auth/auth.module': [
            ...(rolesInToken['auth/auth.module'] ?? []),
            [
              "import { Module } from '@nestjs/common';",
              "import { Module } from '@nestjs/common';\nimport { APP_GUARD } from '@nestjs/core';\nimport { JwtAuthGuard } from './jwt-auth.guard';",
            ],
            [
              'providers: [AuthService, LocalStrategy, JwtStrategy]',
              'providers: [AuthService, LocalStrategy, JwtStrategy, { provide: APP_GUARD, useClass: JwtAuthGuard }]',
            ],
          ] as [string, string][],
        }
      : {}),
  });
  part.options!.files = {...part.options!.files, 'auth/public.decorator': publicDecorator};
  (part.take as string[]).push('auth/public.decorator');
  return combine(
    [
      part,
      {
        page: guardsPage,
        take: {
          'roles.guard': 'roles.guard',
          'roles.decorator': 'roles.decorator',
          'admin.controller': 'roles-admin.controller',
        },
      },
      authDecorator,
    ],
    {
      'app.module': `
import { Controller, Get, Module, UseGuards } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuthModule } from './auth/auth.module';
import { JwtAuthGuard } from './auth/jwt-auth.guard';
import { Public } from './auth/public.decorator';
import { AppController } from './app.controller';
import { AdminController } from './roles-admin.controller';
import { UsersController } from './users.controller';
import { RolesGuard } from './roles.guard';
import { Roles } from './roles.decorator';

// A health check in the admin area, marked @Public() as the authentication chapter suggests
@Controller('admin-health')
@Roles('admin')
export class AdminHealthController {
  @Get()
  @Public()
  health() {
    return { ok: true };
  }
}

// A route that binds only the authentication guard itself (authorization: "do not mix the levels")
@Controller('reports')
export class ReportsController {
  @Get()
  @UseGuards(JwtAuthGuard)
  @Roles('admin')
  list() {
    return ['report'];
  }
}

@Module({
  imports: [AuthModule],
  controllers: [AppController, AdminController, UsersController, AdminHealthController, ReportsController],
  providers: [${providers}],
})
export class AppModule {}
`,
    },
  ).require('app.module').AppModule;
}

async function startGlobal(providers: string, authModuleGuard = false) {
  const app = await NestFactory.create(globalApp(providers, authModuleGuard), {logger: false});
  const base = await listen(app);
  return {app, base};
}

const jwtFirst =
  '{ provide: APP_GUARD, useClass: JwtAuthGuard }, { provide: APP_GUARD, useClass: RolesGuard }';

describe('the global variant: JwtAuthGuard and RolesGuard as APP_GUARD', () => {
  let app: any;
  let base: string;
  let tokens: {alice: string; bob: string};
  beforeAll(async () => {
    ({app, base} = await startGlobal(jwtFirst));
    tokens = {alice: await login(base, ...users.alice), bob: await login(base, ...users.bob)};
  });
  afterAll(async () => app?.close());

  claim(
    `${authPage}#enable-authentication-globally`,
    'both global, JwtAuthGuard first in the root module: the @Public() login works anonymously; GET /admin answers 401 anonymous, 403 to bob, 200 to alice; the superadmin-only billing 403 to alice',
    async () => {
      expect((await postJson(`${base}/auth/login`, {username: 'bob', password: 'x'})).status).toBe(
        401,
      );
      expect((await getAs(`${base}/admin`)).status).toBe(401);
      expect((await getAs(`${base}/admin`, tokens.bob)).status).toBe(403);
      expect(await getAs(`${base}/admin`, tokens.alice)).toEqual({
        status: 200,
        body: {dashboard: true},
      });
      expect((await getAs(`${base}/admin/billing`, tokens.alice)).status).toBe(403);
      // @Auth('admin') on top of the global guards runs them again and still holds
      expect((await getAs(`${base}/users`, tokens.alice)).status).toBe(200);
      expect((await getAs(`${base}/users`, tokens.bob)).status).toBe(403);
    },
  );

  claim.abuse(
    `${authPage}#enable-authentication-globally`,
    "@Public() on a handler of a controller tagged @Roles('admin') opens nothing: Public skips Passport, so no user is on the request and the roles refuse everyone, alice's valid token included (403)",
    async () => {
      expect((await getAs(`${base}/admin-health`)).status).toBe(403);
      expect((await getAs(`${base}/admin-health`, tokens.alice)).status).toBe(403);
    },
  );
});

claim.abuse(
  `${guardsPage}#binding-guards`,
  "each APP_GUARD in the module that defines its guard (JwtAuthGuard in AuthModule, RolesGuard in AppModule): the root module's RolesGuard runs first and finds no user, so alice gets 403 on GET /admin",
  async () => {
    const {app, base} = await startGlobal('{ provide: APP_GUARD, useClass: RolesGuard }', true);
    try {
      const alice = await login(base, ...users.alice);
      expect((await getAs(`${base}/admin`, alice)).status).toBe(403);
      // Routes without @Roles() are still authenticated by the AuthModule's global guard
      expect((await getAs(`${base}/profile`)).status).toBe(401);
      expect((await getAs(`${base}/profile`, alice)).status).toBe(200);
    } finally {
      await app.close();
    }
  },
);

claim.abuse(
  `${authorizationPage}#basic-rbac-implementation`,
  'both global in one module but RolesGuard listed first: alice, an admin with a valid token, gets 403 on GET /admin',
  async () => {
    const {app, base} = await startGlobal(
      '{ provide: APP_GUARD, useClass: RolesGuard }, { provide: APP_GUARD, useClass: JwtAuthGuard }',
    );
    try {
      const alice = await login(base, ...users.alice);
      expect((await getAs(`${base}/admin`, alice)).status).toBe(403);
    } finally {
      await app.close();
    }
  },
);

claim.abuse(
  `${authorizationPage}#basic-rbac-implementation`,
  'a global RolesGuard with the JwtAuthGuard bound by @UseGuards() on the route: the global guard runs before any user is set, and alice gets 403',
  async () => {
    const {app, base} = await startGlobal('{ provide: APP_GUARD, useClass: RolesGuard }');
    try {
      const alice = await login(base, ...users.alice);
      expect((await getAs(`${base}/reports`, alice)).status).toBe(403);
    } finally {
      await app.close();
    }
  },
);

claim(
  composition,
  "the JavaScript halves of the three chapters, combined the same way: alice 200, bob 403, anonymous 401 on @Auth('admin') at both levels",
  async () => {
    // users.module, auth.module and the first jwt-auth.guard have no JavaScript half: their
    // TypeScript halves carry no types, and a JavaScript project uses them as they are.
    const ts = combine([authPart('protecting-routes', rolesInToken)]);
    const plain = ['users/users.module', 'auth/auth.module', 'auth/jwt-auth.guard'];
    const jsEdits = Object.fromEntries(
      Object.entries(rolesInToken).filter(([name]) => !plain.includes(name)),
    );
    const set = combine(
      [
        {
          page: authPage,
          options: {
            under: 'protecting-routes',
            lang: 'js',
            edit: jsEdits,
            files: {
              'auth/constants': ts.sources.get('auth/constants')!,
              ...Object.fromEntries(plain.map((name) => [name, ts.sources.get(name)!])),
            },
          },
          take: [
            'users/users.service',
            'auth/auth.service',
            'auth/local.strategy',
            'auth/jwt.strategy',
            'auth/local-auth.guard',
            'app.controller',
          ],
        },
        {...rolesGuard, options: {lang: 'js'}},
        {...authDecorator, options: {...authDecorator.options, lang: 'js'}},
      ],
      {
        'app.module': `
import { Module } from '@nestjs/common';
import { AuthModule } from './auth/auth.module';
import { AppController } from './app.controller';
import { UsersController } from './users.controller';
import { AdminController } from './admin.controller';

@Module({ imports: [AuthModule], controllers: [AppController, UsersController, AdminController] })
export class AppModule {}
`,
      },
    );
    expect(set.sources.get('roles.guard')).toContain('@Dependencies(Reflector)');
    const app = await NestFactory.create(set.require('app.module').AppModule, {logger: false});
    try {
      const base = await listen(app);
      const alice = await login(base, ...users.alice);
      const bob = await login(base, ...users.bob);
      for (const path of ['/users', '/admin/users']) {
        expect((await getAs(`${base}${path}`, alice)).status, path).toBe(200);
        expect((await getAs(`${base}${path}`, bob)).status, path).toBe(403);
        expect((await getAs(`${base}${path}`)).status, path).toBe(401);
      }
    } finally {
      await app.close();
    }
  },
);

import {afterAll, beforeAll, describe, expect} from 'vitest';
import {claim, samples, nest, listen, fragment, memoryLogger} from '../../lib';

const {NestFactory} = nest('@nestjs/core');
const page = 'docs/security/authentication.md';

const constants = fragment(page, 'jwt-functionality', 'export const jwtConstants').value;
const appModule = `
import { Module } from '@nestjs/common';
import { AuthModule } from './auth/auth.module';
import { AppController } from './app.controller';
@Module({ imports: [AuthModule], controllers: [AppController] })
export class AppModule {}
`;
/** The page's app with JwtStrategy added to AuthModule, as "Implementing Passport JWT" says. */
const withJwtStrategy = {
  'auth/auth.module': [
    [
      'providers: [AuthService, LocalStrategy]',
      'providers: [AuthService, LocalStrategy, JwtStrategy]',
    ],
    [
      "import { LocalStrategy } from './local.strategy';",
      "import { LocalStrategy } from './local.strategy';\nimport { JwtStrategy } from './jwt.strategy';",
    ],
  ] as [string, string][],
};

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: {'content-type': 'application/json', ...headers},
    body: JSON.stringify(body),
  });
}

describe('the login route of "Login route" (local strategy only)', () => {
  let app: any;
  let base: string;
  beforeAll(async () => {
    const set = samples(page, {under: 'login-route', files: {'app.module': appModule}});
    app = await NestFactory.create(set.require('app.module').AppModule, {logger: false});
    base = await listen(app);
  });
  afterAll(async () => app?.close());

  claim(
    `${page}#login-route`,
    'POST /auth/login with alice/wonderland answers the user without its password',
    async () => {
      const response = await post(`${base}/auth/login`, {
        username: 'alice',
        password: 'wonderland',
      });
      expect(response.status).toBe(201);
      expect(await response.json()).toEqual({userId: 1, username: 'alice'});
    },
  );

  claim(
    `${page}#local-strategy`,
    'a wrong password makes validate() throw UnauthorizedException: 401',
    async () => {
      const response = await post(`${base}/auth/login`, {username: 'alice', password: 'nope'});
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({statusCode: 401, message: 'Unauthorized'});
    },
  );

  claim(
    `${page}#local-strategy`,
    'without username and password in the body the local strategy fails: 401 before validate() runs',
    async () => {
      const response = await post(`${base}/auth/login`, {});
      expect(response.status).toBe(401);
    },
  );
});

claim(
  `${page}#local-strategy`,
  'validate() returning a falsy value gives 401; an exception it throws is what the client receives',
  async () => {
    for (const [replacement, status, body] of [
      ['return null;', 401, {statusCode: 401, message: 'Unauthorized'}],
      [
        "throw new ForbiddenException('Account locked');",
        403,
        {statusCode: 403, message: 'Account locked', error: 'Forbidden'},
      ],
    ] as const) {
      const set = samples(page, {
        under: 'login-route',
        edit: {
          'auth/local.strategy': [
            ['throw new UnauthorizedException();', replacement],
            [
              "import { Injectable, UnauthorizedException } from '@nestjs/common';",
              "import { ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';",
            ],
          ],
        },
        files: {'app.module': appModule},
      });
      const app = await NestFactory.create(set.require('app.module').AppModule, {logger: false});
      try {
        const base = await listen(app);
        const response = await post(`${base}/auth/login`, {username: 'alice', password: 'nope'});
        expect(response.status).toBe(status);
        expect(await response.json()).toEqual(body);
      } finally {
        await app.close();
      }
    }
  },
);

describe('the JWT flow of "Protecting routes"', () => {
  let app: any;
  let base: string;
  let set: any;
  beforeAll(async () => {
    set = samples(page, {
      under: 'protecting-routes',
      edit: withJwtStrategy,
      files: {'app.module': appModule, 'auth/constants': constants},
    });
    app = await NestFactory.create(set.require('app.module').AppModule, {logger: false});
    base = await listen(app);
  });
  afterAll(async () => app?.close());

  claim(
    `${page}#protecting-routes`,
    'GET /profile without a token answers 401 {"statusCode":401,"message":"Unauthorized"}',
    async () => {
      const response = await fetch(`${base}/profile`);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({statusCode: 401, message: 'Unauthorized'});
    },
  );

  claim(
    `${page}#protecting-routes`,
    'login returns an access_token; with it as a bearer token, /profile returns {userId, username}',
    async () => {
      const login = await post(`${base}/auth/login`, {username: 'alice', password: 'wonderland'});
      const {access_token} = await login.json();
      expect(
        Object.keys(
          await (await post(`${base}/auth/login`, {username: 'bob', password: 'builder'})).json(),
        ),
      ).toEqual(['access_token']);
      const response = await fetch(`${base}/profile`, {
        headers: {authorization: `Bearer ${access_token}`},
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({userId: 1, username: 'alice'});
    },
  );

  claim(
    `${page}#jwt-functionality`,
    'the token carries username and sub (the user id) and expires 60 s after it was issued',
    async () => {
      const {access_token} = await (
        await post(`${base}/auth/login`, {username: 'bob', password: 'builder'})
      ).json();
      const payload = JSON.parse(Buffer.from(access_token.split('.')[1], 'base64url').toString());
      expect(payload).toMatchObject({username: 'bob', sub: 2});
      expect(payload.exp - payload.iat).toBe(60);
    },
  );

  claim(
    `${page}#implementing-passport-jwt`,
    'an expired token (ignoreExpiration: false) or a wrong signature is rejected with 401',
    async () => {
      const jwt = nest('jsonwebtoken');
      const expired = jwt.sign(
        {username: 'alice', sub: 1, exp: Math.floor(Date.now() / 1000) - 10},
        'replace-me-with-a-long-random-secret',
      );
      const forged = jwt.sign({username: 'alice', sub: 1}, 'another-secret');
      for (const token of [expired, forged]) {
        const response = await fetch(`${base}/profile`, {
          headers: {authorization: `Bearer ${token}`},
        });
        expect(response.status).toBe(401);
      }
    },
  );
});

claim(
  `${page}#installation`,
  '@nestjs/passport 8 declares passport 0.4, 0.5 or 0.6 as its peer',
  () => {
    expect(nest('@nestjs/passport/package.json').peerDependencies.passport).toBe(
      '^0.4.0 || ^0.5.0 || ^0.6.0',
    );
  },
);

claim(
  `${page}#protecting-routes`,
  'the JavaScript halves: login with a password, then /profile with the token (and the modules the page shows in TypeScript only)',
  async () => {
    const ts = samples(page, {under: 'protecting-routes'});
    const set = samples(page, {
      lang: 'js',
      under: 'protecting-routes',
      files: {
        'auth/constants': constants,
        'users/users.module': ts.sources.get('users/users.module')!,
        'auth/local-auth.guard': ts.sources.get('auth/local-auth.guard')!,
        'auth/jwt-auth.guard': ts.sources.get('auth/jwt-auth.guard')!,
        'auth/auth.module': ts.sources
          .get('auth/auth.module')!
          .replace(
            'providers: [AuthService, LocalStrategy]',
            'providers: [AuthService, LocalStrategy, JwtStrategy]',
          )
          .replace(
            "import { LocalStrategy } from './local.strategy';",
            "import { LocalStrategy } from './local.strategy';\nimport { JwtStrategy } from './jwt.strategy';",
          ),
        'app.module': appModule,
      },
    });
    const app = await NestFactory.create(set.require('app.module').AppModule, {logger: false});
    try {
      const base = await listen(app);
      expect((await post(`${base}/auth/login`, {username: 'alice', password: 'nope'})).status).toBe(
        401,
      );
      const {access_token} = await (
        await post(`${base}/auth/login`, {username: 'alice', password: 'wonderland'})
      ).json();
      const profile = await fetch(`${base}/profile`, {
        headers: {authorization: `Bearer ${access_token}`},
      });
      expect(await profile.json()).toEqual({userId: 1, username: 'alice'});
    } finally {
      await app.close();
    }
  },
);

claim(
  `${page}#enable-authentication-globally`,
  'with JwtAuthGuard as APP_GUARD, @Public() routes answer without a token and the others need one',
  async () => {
    const set = samples(page, {
      under: 'enable-authentication-globally',
      edit: withJwtStrategy,
      files: {
        'auth/constants': constants,
        'auth/public.decorator': fragment(
          page,
          'enable-authentication-globally',
          'export const Public',
        ).value,
        'app.module': `
import { Controller, Get, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuthModule } from './auth/auth.module';
import { JwtAuthGuard } from './auth/jwt-auth.guard';
import { Public } from './auth/public.decorator';
@Controller()
class HealthController {
  @Public() @Get('health') health() { return 'ok'; }
  @Get('secret') secret() { return 'secret'; }
}
@Public()
@Controller('open')
class OpenController { @Get() open() { return 'open'; } }
@Module({ imports: [AuthModule], controllers: [HealthController, OpenController], providers: [{ provide: APP_GUARD, useClass: JwtAuthGuard }] })
export class AppModule {}
`,
      },
    });
    const app = await NestFactory.create(set.require('app.module').AppModule, {logger: false});
    try {
      const base = await listen(app);
      expect((await fetch(`${base}/health`)).status).toBe(200);
      expect((await fetch(`${base}/open`)).status).toBe(200);
      expect((await fetch(`${base}/secret`)).status).toBe(401);
    } finally {
      await app.close();
    }
  },
);

describe('guards built from the page strategies', () => {
  let app: any;
  let base: string;
  let memory: ReturnType<typeof memoryLogger>;
  beforeAll(async () => {
    const set = samples(page, {
      under: 'protecting-routes',
      edit: withJwtStrategy,
      files: {
        'auth/constants': constants,
        'guards.controller': `
import { Controller, ExecutionContext, Get, Injectable, Post, Request, UnauthorizedException, UseGuards } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
${fragment(page, 'extending-guards', 'handleRequest(err: any')
  .value.replace(/^import .*$/gm, '')
  .replace('export class JwtAuthGuard', 'export class CustomJwtGuard')}
@Controller()
export class GuardsController {
  @UseGuards(AuthGuard(['jwt', 'local'])) @Post('either') either(@Request() req) { return req.user; }
  @UseGuards(AuthGuard(['local', 'jwt'])) @Post('local-first') localFirst(@Request() req) { return req.user; }
  @UseGuards(CustomJwtGuard) @Get('custom') custom(@Request() req) { return req.user; }
  @UseGuards(AuthGuard()) @Get('default') byDefault(@Request() req) { return req.user; }
}
`,
        'app.module': `
import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { AuthModule } from './auth/auth.module';
import { AppController } from './app.controller';
import { GuardsController } from './guards.controller';
@Module({ imports: [AuthModule, PassportModule.register({ defaultStrategy: 'jwt' })], controllers: [AppController, GuardsController] })
export class AppModule {}
`,
      },
    });
    memory = memoryLogger();
    app = await NestFactory.create(set.require('app.module').AppModule, {logger: memory.logger});
    base = await listen(app);
  });
  afterAll(async () => app?.close());

  const token = async () =>
    (await (await post(`${base}/auth/login`, {username: 'alice', password: 'wonderland'})).json())
      .access_token;

  claim(
    `${page}#default-strategy`,
    "PassportModule.register({ defaultStrategy: 'jwt' }) makes AuthGuard() run the JWT strategy",
    async () => {
      expect((await fetch(`${base}/default`)).status).toBe(401);
      const response = await fetch(`${base}/default`, {
        headers: {authorization: `Bearer ${await token()}`},
      });
      expect(await response.json()).toEqual({userId: 1, username: 'alice'});
    },
  );

  claim(
    `${page}#default-strategy`,
    'a strategy that fails (no token) hands over to the next one: AuthGuard([jwt, local]) lets a password login through',
    async () => {
      const response = await post(`${base}/either`, {username: 'bob', password: 'builder'});
      expect(response.status).toBe(201);
      expect(await response.json()).toEqual({userId: 2, username: 'bob'});
    },
  );

  claim(
    `${page}#default-strategy`,
    'a validate() that throws ends the chain: AuthGuard([local, jwt]) answers 401 although the JWT is valid',
    async () => {
      const response = await post(
        `${base}/local-first`,
        {username: 'alice', password: 'wrong'},
        {authorization: `Bearer ${await token()}`},
      );
      expect(response.status).toBe(401);
      // Without body credentials, local fails (does not throw) and jwt is tried.
      const next = await post(
        `${base}/local-first`,
        {},
        {authorization: `Bearer ${await token()}`},
      );
      expect(next.status).toBe(201);
    },
  );

  claim(
    `${page}#extending-guards`,
    'an overridden handleRequest() decides the error: its message reaches the client',
    async () => {
      const response = await fetch(`${base}/custom`);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({
        statusCode: 401,
        message: 'A valid access token is required',
        error: 'Unauthorized',
      });
    },
  );
});

claim(
  `${page}#default-strategy`,
  'AuthGuard() without PassportModule.register() logs the defaultStrategy error when it is created',
  async () => {
    const {Controller, Get, Module, UseGuards} = nest('@nestjs/common');
    const {AuthGuard} = nest('@nestjs/passport');
    @Controller()
    class NoDefaultController {
      @UseGuards(AuthGuard())
      @Get()
      get() {
        return 'x';
      }
    }
    @Module({controllers: [NoDefaultController]})
    class NoDefaultModule {}
    const memory = memoryLogger();
    const app = await NestFactory.create(NoDefaultModule, {logger: memory.logger});
    try {
      await app.init();
      expect(memory.lines).toContainEqual({
        level: 'error',
        context: 'AuthGuard',
        message:
          'In order to use "defaultStrategy", please, ensure to import PassportModule in each place where AuthGuard() is being used. Otherwise, passport won\'t work correctly.',
      });
    } finally {
      await app.close();
    }
  },
);

describe('GraphQL: the request in the GraphQL context', () => {
  const gqlApp = (context: string) =>
    samples(page, {
      under: 'protecting-routes',
      edit: withJwtStrategy,
      files: {
        'auth/constants': constants,
        'gql-auth.guard': fragment(page, 'graphql', 'class GqlAuthGuard').value,
        'current-user.decorator': fragment(page, 'graphql', 'export const CurrentUser').value,
        'app.module': `
import { Module, UseGuards } from '@nestjs/common';
import { GraphQLModule, Query, Resolver } from '@nestjs/graphql';
import { AuthModule } from './auth/auth.module';
import { AppController } from './app.controller';
import { GqlAuthGuard } from './gql-auth.guard';
import { CurrentUser } from './current-user.decorator';
@Resolver()
class WhoAmIResolver {
  @Query(() => String)
  @UseGuards(GqlAuthGuard)
  whoAmI(@CurrentUser() user: any): string {
    return user.username;
  }
}
@Module({
  imports: [AuthModule, GraphQLModule.forRoot({ autoSchemaFile: true, context: ${context} })],
  controllers: [AppController],
  providers: [WhoAmIResolver],
})
export class AppModule {}
`,
      },
    }).require('app.module').AppModule;

  async function whoAmI(context: string): Promise<unknown[]> {
    const app = await NestFactory.create(gqlApp(context), {logger: false});
    try {
      const base = await listen(app);
      const answers: unknown[] = [];
      for (const [username, password] of [
        ['alice', 'wonderland'],
        ['bob', 'builder'],
      ]) {
        const {access_token} = await (
          await post(`${base}/auth/login`, {username, password})
        ).json();
        const response = await post(
          `${base}/graphql`,
          {query: '{ whoAmI }'},
          {authorization: `Bearer ${access_token}`},
        );
        answers.push((await response.json()).data?.whoAmI);
      }
      const anonymous = await post(`${base}/graphql`, {query: '{ whoAmI }'});
      const body = await anonymous.json();
      answers.push(body.data?.whoAmI ?? body.errors?.[0]?.message);
      return answers;
    } finally {
      await app.close();
    }
  }

  claim(
    `${page}#graphql`,
    'without a context option, GqlAuthGuard and @CurrentUser() see each caller: alice, then bob',
    async () => {
      expect(await whoAmI('undefined')).toEqual(['alice', 'bob', 'Unauthorized']);
    },
  );

  claim(
    `${page}#graphql`,
    'a context function runs per request, and Nest adds req to what it returns: alice, then bob',
    async () => {
      expect(await whoAmI("() => ({ tenant: 'acme' })")).toEqual(['alice', 'bob', 'Unauthorized']);
      expect(await whoAmI("({ req }) => ({ req, tenant: 'acme' })")).toEqual([
        'alice',
        'bob',
        'Unauthorized',
      ]);
    },
  );

  claim(
    `${page}#graphql`,
    'a context object is shared: the first request is written into it, and every later caller, even without a token, is authenticated as alice',
    async () => {
      expect(await whoAmI("{ tenant: 'acme' }")).toEqual(['alice', 'alice', 'alice']);
    },
  );
});

describe('request-scoped strategies', () => {
  const scopedAuthService = `
import { Inject, Injectable, Scope } from '@nestjs/common';
import { REQUEST } from '@nestjs/core';
import { UsersService } from '../users/users.service';
let created = 0;
@Injectable({ scope: Scope.REQUEST })
export class AuthService {
  readonly instance = ++created;
  constructor(private usersService: UsersService, @Inject(REQUEST) private request: any) {}
  async validateUser(username: string, password: string): Promise<any> {
    const user = await this.usersService.findOne(username);
    if (user && user.password === password) {
      return { username: user.username, instance: this.instance, hasRequest: this.request != null };
    }
    return null;
  }
  async login(user: any) { return user; }
}
`;
  const controllers = `
import { Controller, Post, Request, UseGuards } from '@nestjs/common';
import { AuthService } from './auth/auth.service';
import { LocalAuthGuard } from './auth/local-auth.guard';
@Controller()
export class PlainController {
  @UseGuards(LocalAuthGuard) @Post('plain') plain(@Request() req) { return req.user; }
}
@Controller()
export class ScopedController {
  constructor(private authService: AuthService) {}
  @UseGuards(LocalAuthGuard) @Post('scoped') scoped(@Request() req) { return { user: req.user, controllerInstance: (this.authService as any).instance }; }
}
`;
  const module = `
import { Module } from '@nestjs/common';
import { AuthModule } from './auth/auth.module';
import { PlainController, ScopedController } from './controllers';
@Module({ imports: [AuthModule], controllers: [PlainController, ScopedController] })
export class AppModule {}
`;
  async function start(register: boolean) {
    const set = samples(page, {
      under: 'request-scoped-strategies',
      edit: register
        ? {
            'auth/local.strategy': [
              [
                'const contextId = ContextIdFactory.getByRequest(request);',
                'const contextId = ContextIdFactory.getByRequest(request);\n    this.moduleRef.registerRequestByContextId(request, contextId);',
              ],
            ],
          }
        : {},
      files: {
        'auth/constants': constants,
        'auth/auth.service': scopedAuthService,
        controllers,
        'app.module': module,
      },
    });
    const app = await NestFactory.create(set.require('app.module').AppModule, {logger: false});
    return {app, base: await listen(app)};
  }
  const login = {username: 'alice', password: 'wonderland'};

  claim(
    `${page}#request-scoped-strategies`,
    'on a request-scoped controller, resolve() in validate() returns the instance the controller gets, with REQUEST',
    async () => {
      const {app, base} = await start(false);
      try {
        const body = await (await post(`${base}/scoped`, login)).json();
        expect(body.user.instance).toBe(body.controllerInstance);
        expect(body.user.hasRequest).toBe(true);
      } finally {
        await app.close();
      }
    },
  );

  claim(
    `${page}#request-scoped-strategies`,
    'elsewhere getByRequest() makes a new id: a separate instance whose REQUEST is undefined, unless registerRequestByContextId() is called',
    async () => {
      const plain = await start(false);
      try {
        const first = await (await post(`${plain.base}/plain`, login)).json();
        const second = await (await post(`${plain.base}/plain`, login)).json();
        expect(first.hasRequest).toBe(false);
        expect(second.instance).not.toBe(first.instance);
      } finally {
        await plain.app.close();
      }
      const registered = await start(true);
      try {
        expect((await (await post(`${registered.base}/plain`, login)).json()).hasRequest).toBe(
          true,
        );
      } finally {
        await registered.app.close();
      }
    },
  );
});

describe('Customize Passport: options and sessions', () => {
  const loginController = (guard: string, from: string) => `
import { Controller, Get, Post, Request, UseGuards } from '@nestjs/common';
import { ${guard} } from '${from}';
@Controller()
export class AppController {
  @UseGuards(${guard}) @Post('auth/login') login(@Request() req) { return { user: req.user ?? null, account: req.account ?? null }; }
}
`;

  claim(
    `${page}#customize-passport`,
    "property: 'account' puts the user on request.account; session: true alone stores nothing (no session, no cookie, no error)",
    async () => {
      const set = samples(page, {
        under: 'login-route',
        files: {
          'app.controller': loginController('AuthGuard', '@nestjs/passport').replace(
            'UseGuards(AuthGuard)',
            "UseGuards(AuthGuard('local'))",
          ),
          // The guard reads the options of the module its controller belongs to.
          'app.module': appModule
            .replace(
              "import { Module } from '@nestjs/common';",
              "import { Module } from '@nestjs/common';\nimport { PassportModule } from '@nestjs/passport';",
            )
            .replace(
              'imports: [AuthModule]',
              `imports: [AuthModule, ${fragment(page, 'customize-passport', "PassportModule.register({ property: 'account' })").value.trim().replace('{ property', '{ session: true, property')}]`,
            ),
        },
      });
      const app = await NestFactory.create(set.require('app.module').AppModule, {logger: false});
      try {
        const base = await listen(app);
        const response = await post(`${base}/auth/login`, {
          username: 'alice',
          password: 'wonderland',
        });
        expect(response.status).toBe(201);
        expect(await response.json()).toEqual({
          user: null,
          account: {userId: 1, username: 'alice'},
        });
        expect(response.headers.get('set-cookie')).toBeNull();
      } finally {
        await app.close();
      }
    },
  );

  claim(
    `${page}#customize-passport`,
    'with the session middleware, SessionSerializer and LocalSessionGuard, the cookie carries the login; without it, 403',
    async () => {
      const set = samples(page, {
        under: 'customize-passport',
        edit: {
          'auth/auth.module': [
            [
              'providers: [AuthService, LocalStrategy]',
              'providers: [AuthService, LocalStrategy, SessionSerializer]',
            ],
            [
              "import { LocalStrategy } from './local.strategy';",
              "import { LocalStrategy } from './local.strategy';\nimport { SessionSerializer } from './session.serializer';",
            ],
          ],
        },
        pick: {'auth/local.strategy': 1},
        files: {
          'auth/constants': constants,
          'app.controller': `
import { Controller, Get, Post, Request, UseGuards } from '@nestjs/common';
import { LocalSessionGuard, SessionAuthGuard } from './auth/session.guards';
@Controller()
export class AppController {
  @UseGuards(LocalSessionGuard) @Post('auth/login') login(@Request() req) { return req.user; }
  @UseGuards(SessionAuthGuard) @Get('profile') profile(@Request() req) { return req.user; }
}
`,
          'app.module': appModule,
        },
      });
      const app = await NestFactory.create(set.require('app.module').AppModule, {logger: false});
      const bootstrap = fragment(page, 'customize-passport', 'app.use(passport.session());').value;
      const session = nest('express-session');
      const passport = nest('passport');
      new Function('app', 'session', 'passport', bootstrap.replace(/^import .*$/gm, ''))(
        app,
        session,
        passport,
      );
      try {
        const base = await listen(app);
        const login = await post(`${base}/auth/login`, {username: 'bob', password: 'builder'});
        expect(login.status).toBe(201);
        const cookie = login.headers.get('set-cookie')?.split(';')[0];
        expect(cookie).toMatch(/^connect\.sid=/);
        const profile = await fetch(`${base}/profile`, {headers: {cookie: cookie!}});
        expect(await profile.json()).toEqual({userId: 2, username: 'bob'});
        const anonymous = await fetch(`${base}/profile`);
        expect(anonymous.status).toBe(403);
      } finally {
        await app.close();
      }
    },
  );
});

claim(
  `${page}#customize-passport`,
  'PassportModule.registerAsync({ useClass }) with createAuthOptions() configures the guards (defaultStrategy here)',
  async () => {
    const set = samples(page, {
      under: 'protecting-routes',
      edit: withJwtStrategy,
      files: {
        'auth/constants': constants,
        'app.module': `
import { Controller, Get, Injectable, Module, Request, UseGuards } from '@nestjs/common';
import { AuthGuard, AuthModuleOptions, IAuthModuleOptions, PassportModule } from '@nestjs/passport';
import { AuthModule } from './auth/auth.module';
import { AppController } from './app.controller';
@Injectable()
class PassportOptions { createAuthOptions(): IAuthModuleOptions { return { defaultStrategy: 'jwt' }; } }
@Controller()
class MemberController { @UseGuards(AuthGuard()) @Get('member') member(@Request() req) { return req.user; } }
@Module({ imports: [AuthModule, PassportModule.registerAsync({ useClass: PassportOptions })], controllers: [AppController, MemberController] })
export class AppModule {}
void AuthModuleOptions;
`,
      },
    });
    const app = await NestFactory.create(set.require('app.module').AppModule, {logger: false});
    try {
      const base = await listen(app);
      const {access_token} = await (
        await post(`${base}/auth/login`, {username: 'bob', password: 'builder'})
      ).json();
      const response = await fetch(`${base}/member`, {
        headers: {authorization: `Bearer ${access_token}`},
      });
      expect(await response.json()).toEqual({userId: 2, username: 'bob'});
      expect((await fetch(`${base}/member`)).status).toBe(401);
    } finally {
      await app.close();
    }
  },
);

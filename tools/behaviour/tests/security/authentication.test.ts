import {afterAll, beforeAll, describe, expect} from 'vitest';
import {mkdtempSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {claim, samples, nest, listen, fragment, memoryLogger, expectOutput} from '../../lib';
import {testSecret, cookieOf, runChild} from './_security';

const {NestFactory} = nest('@nestjs/core');
const page = 'docs/security/authentication.md';
// auth/constants.ts and the session bootstrap read their secrets from the environment.
process.env.JWT_SECRET = testSecret;
process.env.SESSION_SECRET = testSecret;

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

  claim.abuse(
    `${page}#local-strategy`,
    'credentials that are not strings (an array, a {"$ne": null} object, a number) match nobody: 401, never a login',
    async () => {
      for (const body of [
        {username: ['alice'], password: 'wonderland'},
        {username: {$ne: null}, password: {$ne: null}},
        {username: 'alice', password: ['wonderland']},
        {username: 'bob', password: {$gt: ''}},
        {username: 1, password: 1},
      ]) {
        const response = await post(`${base}/auth/login`, body);
        expect(response.status, JSON.stringify(body)).toBe(401);
      }
    },
  );

  claim.abuse(
    `${page}#users-and-the-authentication-service`,
    "usernames are compared exactly: 'Alice', ' alice' and 'alice ' do not log in as alice",
    async () => {
      for (const username of ['Alice', ' alice', 'alice ', 'ALICE']) {
        const response = await post(`${base}/auth/login`, {username, password: 'wonderland'});
        expect(response.status, username).toBe(401);
      }
    },
  );

  claim.abuse(
    `${page}#local-strategy`,
    "one user's password does not open another account: bob's password with alice's name gets 401",
    async () => {
      expect(
        (await post(`${base}/auth/login`, {username: 'alice', password: 'builder'})).status,
      ).toBe(401);
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
    'an expired token (ignoreExpiration: false) is rejected with 401',
    async () => {
      const jwt = nest('jsonwebtoken');
      const expired = jwt.sign(
        {username: 'alice', sub: 1, exp: Math.floor(Date.now() / 1000) - 10},
        testSecret,
      );
      const response = await fetch(`${base}/profile`, {
        headers: {authorization: `Bearer ${expired}`},
      });
      expect(response.status).toBe(401);
    },
  );

  const profileWith = (authorization: string) =>
    fetch(`${base}/profile`, {headers: {authorization}});
  const unauthorized = {statusCode: 401, message: 'Unauthorized'};

  claim.abuse(
    `${page}#implementing-passport-jwt`,
    'a token that names alice but is signed with another secret: 401, the same body as no token at all',
    async () => {
      const forged = nest('jsonwebtoken').sign({username: 'alice', sub: 1}, `${testSecret}x`);
      const response = await profileWith(`Bearer ${forged}`);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual(unauthorized);
    },
  );

  claim.abuse(
    `${page}#implementing-passport-jwt`,
    "an unsigned token (alg: 'none') that names alice is rejected: 401",
    async () => {
      const none = nest('jsonwebtoken').sign({username: 'alice', sub: 1}, null, {
        algorithm: 'none',
      });
      expect(none.endsWith('.')).toBe(true);
      expect((await profileWith(`Bearer ${none}`)).status).toBe(401);
    },
  );

  claim.abuse(
    `${page}#implementing-passport-jwt`,
    "an empty bearer token ('Bearer ') or a malformed one ('Bearer abc', three garbage parts) gets 401, not 500",
    async () => {
      for (const header of ['Bearer ', 'Bearer abc', 'Bearer a.b.c', 'Bearer ...']) {
        const response = await profileWith(header);
        expect(response.status, header).toBe(401);
        expect(await response.json()).toEqual(unauthorized);
      }
    },
  );

  claim.abuse(
    `${page}#implementing-passport-jwt`,
    'a valid token anywhere but the Authorization bearer header (query string, cookie, Basic scheme, no scheme) is ignored: 401',
    async () => {
      const {access_token} = await (
        await post(`${base}/auth/login`, {username: 'alice', password: 'wonderland'})
      ).json();
      expect((await profileWith(`Bearer ${access_token}`)).status).toBe(200);
      const attempts = [
        fetch(`${base}/profile?access_token=${access_token}`),
        fetch(`${base}/profile`, {headers: {cookie: `access_token=${access_token}`}}),
        profileWith(`Basic ${access_token}`),
        profileWith(access_token),
      ];
      for (const response of await Promise.all(attempts)) expect(response.status).toBe(401);
    },
  );

  claim.abuse(
    `${page}#built-in-passport-guards`,
    'credentials in the query string: LocalAuthGuard answers 400 before the strategy runs',
    async () => {
      const url = `${base}/auth/login?username=alice&password=wonderland`;
      const refused = await fetch(url, {method: 'POST'});
      expect(refused.status).toBe(400);
      expect((await refused.json()).message).toBe('Send the credentials in the request body');
      expect(
        (await post(`${base}/auth/login?password=x`, {username: 'alice', password: 'wonderland'}))
          .status,
      ).toBe(400);
      // The bare guard is tried in the last claim of the file: Passport keeps one strategy per name
      // for the whole process, and another app's LocalStrategy would replace this app's.
    },
  );

  claim.abuse(
    `${page}#jwt-functionality`,
    'extra fields in the login body (userId, sub, isAdmin) do not reach the token: it carries the stored user only',
    async () => {
      const {access_token} = await (
        await post(`${base}/auth/login`, {
          username: 'bob',
          password: 'builder',
          userId: 1,
          sub: 1,
          isAdmin: true,
        })
      ).json();
      const payload = JSON.parse(Buffer.from(access_token.split('.')[1], 'base64url').toString());
      expect(payload).toMatchObject({username: 'bob', sub: 2});
      expect(payload.isAdmin).toBeUndefined();
    },
  );

  claim.abuse(
    `${page}#protecting-routes`,
    "a second user: bob's token gives bob's profile, never alice's, even when both call at once",
    async () => {
      const tokens = await Promise.all(
        [
          ['alice', 'wonderland'],
          ['bob', 'builder'],
        ].map(async ([username, password]) => {
          const login = await post(`${base}/auth/login`, {username, password});
          return (await login.json()).access_token;
        }),
      );
      const profiles = await Promise.all(
        [...tokens, ...tokens].map(async (token) => (await profileWith(`Bearer ${token}`)).json()),
      );
      expect(profiles.map((profile: any) => profile.username)).toEqual([
        'alice',
        'bob',
        'alice',
        'bob',
      ]);
    },
  );

  claim.abuse(
    `${page}#implementing-passport-jwt`,
    "a deleted user's token keeps working until it expires: validate() trusts the payload and never asks UsersService",
    async () => {
      const {access_token} = await (
        await post(`${base}/auth/login`, {username: 'bob', password: 'builder'})
      ).json();
      const {UsersService} = set.require('users/users.service');
      const users = (app.get(UsersService) as any).users as {username: string}[];
      const index = users.findIndex((user) => user.username === 'bob');
      const [bob] = users.splice(index, 1);
      try {
        expect(
          (await post(`${base}/auth/login`, {username: 'bob', password: 'builder'})).status,
        ).toBe(401);
        const response = await profileWith(`Bearer ${access_token}`);
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({userId: 2, username: 'bob'});
      } finally {
        users.splice(index, 0, bob);
      }
    },
  );
});

describe('tokens the login route never issued, and the refresh strategy of "Customize Passport"', () => {
  const refreshSource = fragment(
    page,
    'customize-passport',
    "PassportStrategy(Strategy, 'jwt-refresh')",
  ).value;
  const refreshSecret = `${testSecret}-refresh`;
  async function start(refresh: string | undefined) {
    const saved = process.env.REFRESH_TOKEN_SECRET;
    if (refresh === undefined) delete process.env.REFRESH_TOKEN_SECRET;
    else process.env.REFRESH_TOKEN_SECRET = refresh;
    try {
      const set = samples(page, {
        under: 'protecting-routes',
        edit: withJwtStrategy,
        files: {
          'auth/constants': constants,
          'refresh-jwt.strategy': refreshSource,
          'app.module': `
import { Controller, Module, Post, Request, UseGuards } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { AuthModule } from './auth/auth.module';
import { AppController } from './app.controller';
import { RefreshJwtStrategy } from './refresh-jwt.strategy';
@Controller()
class RefreshController {
  @UseGuards(AuthGuard('jwt-refresh')) @Post('auth/refresh') refresh(@Request() req) { return req.user; }
}
@Module({ imports: [AuthModule], controllers: [AppController, RefreshController], providers: [RefreshJwtStrategy] })
export class AppModule {}
`,
        },
      });
      const app = await NestFactory.create(set.require('app.module').AppModule, {
        logger: false,
        abortOnError: false,
      });
      return {app, base: await listen(app)};
    } finally {
      if (saved === undefined) delete process.env.REFRESH_TOKEN_SECRET;
      else process.env.REFRESH_TOKEN_SECRET = saved;
    }
  }
  const sign = (payload: object, secret: string, options?: object) =>
    nest('jsonwebtoken').sign(payload, secret, options);

  claim.abuse(
    `${page}#jwt-functionality`,
    'a token without exp (signed without expiresIn) is accepted by the JWT strategy, whenever it is sent',
    async () => {
      const {app, base} = await start(refreshSecret);
      try {
        const forever = sign({username: 'alice', sub: 1, iat: 946684800}, testSecret);
        const response = await fetch(`${base}/profile`, {
          headers: {authorization: `Bearer ${forever}`},
        });
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({userId: 1, username: 'alice'});
      } finally {
        await app.close();
      }
    },
  );

  claim.abuse(
    `${page}#customize-passport`,
    'one secret for both kinds: a refresh token signed with JWT_SECRET opens /profile; the access token is refused by the jwt-refresh strategy, which has its own secret',
    async () => {
      const {app, base} = await start(refreshSecret);
      try {
        const refreshLike = sign({sub: 1}, testSecret, {expiresIn: '7d'});
        const profile = await fetch(`${base}/profile`, {
          headers: {authorization: `Bearer ${refreshLike}`},
        });
        expect(profile.status).toBe(200);
        expect(await profile.json()).toEqual({userId: 1});
        const {access_token} = await (
          await post(`${base}/auth/login`, {username: 'alice', password: 'wonderland'})
        ).json();
        expect((await post(`${base}/auth/refresh`, {refreshToken: access_token})).status).toBe(401);
        const refresh = sign({sub: 1}, refreshSecret, {expiresIn: '7d'});
        const refreshed = await post(`${base}/auth/refresh`, {refreshToken: refresh});
        expect(refreshed.status).toBe(201);
        expect(await refreshed.json()).toEqual({userId: 1});
      } finally {
        await app.close();
      }
    },
  );

  claim.failure(
    `${page}#customize-passport`,
    'REFRESH_TOKEN_SECRET missing, short, or a copy of JWT_SECRET: the application does not start, with the message of the strategy file',
    async () => {
      for (const value of [undefined, 'refresh-me', testSecret]) {
        await expect(start(value), String(value)).rejects.toThrow(
          'Set REFRESH_TOKEN_SECRET to a random value of at least 32 characters, not JWT_SECRET',
        );
      }
    },
  );
});

describe('the login route when things go wrong', () => {
  claim.failure(
    `${page}#local-strategy`,
    "the user store fails (findOne() rejects, as a database that is down does): login answers 500 Internal server error, without the error's text",
    async () => {
      const set = samples(page, {
        under: 'login-route',
        edit: {
          'users/users.service': [
            [
              'return this.users.find((user) => user.username === username);',
              "throw new Error('connect ECONNREFUSED 10.0.0.5:5432 (users database)');",
            ],
          ],
        },
        files: {'app.module': appModule},
      });
      const app = await NestFactory.create(set.require('app.module').AppModule, {logger: false});
      try {
        const response = await post(`${await listen(app)}/auth/login`, {
          username: 'alice',
          password: 'wonderland',
        });
        expect(response.status).toBe(500);
        expect(await response.json()).toEqual({statusCode: 500, message: 'Internal server error'});
      } finally {
        await app.close();
      }
    },
  );

  claim.abuse(
    `${page}#login-route`,
    'a login body above 100 kB (a huge password) is refused with 413 before the strategy runs',
    async () => {
      const set = samples(page, {under: 'login-route', files: {'app.module': appModule}});
      const app = await NestFactory.create(set.require('app.module').AppModule, {logger: false});
      try {
        const response = await post(`${await listen(app)}/auth/login`, {
          username: 'alice',
          password: 'x'.repeat(200_000),
        });
        expect(response.status).toBe(413);
      } finally {
        await app.close();
      }
    },
  );
});

describe('the secret of "JWT functionality" (auth/constants.ts)', () => {
  const load = () =>
    samples(page, {
      under: 'protecting-routes',
      edit: withJwtStrategy,
      files: {'app.module': appModule, 'auth/constants': constants},
    });
  async function withSecret<T>(value: string | undefined, fn: () => T): Promise<T> {
    const saved = process.env.JWT_SECRET;
    if (value === undefined) delete process.env.JWT_SECRET;
    else process.env.JWT_SECRET = value;
    try {
      return await fn();
    } finally {
      process.env.JWT_SECRET = saved;
    }
  }
  const refused = 'Set JWT_SECRET to a random value of at least 32 characters';

  claim.failure(
    `${page}#jwt-functionality`,
    'JWT_SECRET missing or empty: loading the application fails with the message of auth/constants.ts',
    async () => {
      for (const value of [undefined, '']) {
        const set = load();
        await withSecret(value, () => expect(() => set.require('app.module')).toThrow(refused));
      }
    },
  );

  claim.failure(
    `${page}#jwt-functionality`,
    'a short JWT_SECRET (a guessable word) is refused the same way; 32 characters are accepted',
    async () => {
      await withSecret('replace-me', () =>
        expect(() => load().require('app.module')).toThrow(refused),
      );
      await withSecret('x'.repeat(32), () =>
        expect(load().require('app.module').AppModule).toBeDefined(),
      );
    },
  );

  claim.failure(
    `${page}#jwt-functionality`,
    'JWT_SECRET only in a .env file that ConfigModule.forRoot() reads: the application does not start, because constants.ts is loaded first',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'behaviour-env-'));
      writeFileSync(join(dir, '.env'), `JWT_SECRET=${testSecret}\n`);
      const set = samples(page, {
        under: 'protecting-routes',
        edit: withJwtStrategy,
        files: {
          'auth/constants': constants,
          'app.module': `
import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { AuthModule } from './auth/auth.module';
import { AppController } from './app.controller';
@Module({ imports: [ConfigModule.forRoot({ envFilePath: ${JSON.stringify(join(dir, '.env'))} }), AuthModule], controllers: [AppController] })
export class AppModule {}
`,
        },
      });
      await withSecret(undefined, () => expect(() => set.require('app.module')).toThrow(refused));
      // The same file does set the variable, once ConfigModule.forRoot() has run.
      await withSecret(undefined, () => {
        nest('@nestjs/config').ConfigModule.forRoot({envFilePath: join(dir, '.env')});
        const read = process.env.JWT_SECRET;
        delete process.env.JWT_SECRET;
        expect(read).toBe(testSecret);
      });
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

claim.abuse(
  `${page}#enable-authentication-globally`,
  "a global guard of AppModule that reads request.user runs before a JwtAuthGuard made global in AuthModule: it finds no user, even with alice's token; registered after the JWT guard in AppModule, it finds alice",
  async () => {
    const token = new (nest('@nestjs/jwt').JwtService)({secret: testSecret}).sign({
      username: 'alice',
      sub: 1,
    });
    const seen: Record<string, unknown> = {};
    for (const where of ['AuthModule', 'AppModule'] as const) {
      const inAuthModule = where === 'AuthModule';
      const set = samples(page, {
        under: 'enable-authentication-globally',
        edit: {
          'auth/auth.module': [
            [
              'providers: [AuthService, LocalStrategy]',
              `providers: [AuthService, LocalStrategy, JwtStrategy${inAuthModule ? ', { provide: APP_GUARD, useClass: JwtAuthGuard }' : ''}]`,
            ],
            [
              "import { LocalStrategy } from './local.strategy';",
              "import { LocalStrategy } from './local.strategy';\nimport { JwtStrategy } from './jwt.strategy';\nimport { APP_GUARD } from '@nestjs/core';\nimport { JwtAuthGuard } from './jwt-auth.guard';",
            ],
          ],
        },
        files: {
          'auth/constants': constants,
          'auth/public.decorator': fragment(
            page,
            'enable-authentication-globally',
            'export const Public',
          ).value,
          'app.module': `
import { CanActivate, Controller, ExecutionContext, Get, Injectable, Module, Request } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuthModule } from './auth/auth.module';
import { JwtAuthGuard } from './auth/jwt-auth.guard';
// Stands for any global guard that reads request.user (RolesGuard, a per-user throttler)
@Injectable()
class UserReader implements CanActivate {
  canActivate(context: ExecutionContext) {
    const request = context.switchToHttp().getRequest();
    request.seen = request.user?.username ?? null;
    return true;
  }
}
@Controller()
class ReportsController { @Get('reports') reports(@Request() req) { return { seen: req.seen }; } }
@Module({
  imports: [AuthModule],
  controllers: [ReportsController],
  providers: ${inAuthModule ? '[{ provide: APP_GUARD, useClass: UserReader }]' : '[{ provide: APP_GUARD, useClass: JwtAuthGuard }, { provide: APP_GUARD, useClass: UserReader }]'},
})
export class AppModule {}
`,
        },
      });
      const app = await NestFactory.create(set.require('app.module').AppModule, {logger: false});
      try {
        const base = await listen(app);
        const response = await fetch(`${base}/reports`, {
          headers: {authorization: `Bearer ${token}`},
        });
        expect(response.status).toBe(200);
        seen[where] = (await response.json()).seen;
        expect((await fetch(`${base}/reports`)).status, where).toBe(401);
      } finally {
        await app.close();
      }
    }
    expect(seen).toEqual({AuthModule: null, AppModule: 'alice'});
  },
);

describe('the global JwtAuthGuard with @Public() (a reader following "Enable authentication globally")', () => {
  let app: any;
  let base: string;
  beforeAll(async () => {
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
import { Controller, Get, Module, Post, Request, UseGuards } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuthModule } from './auth/auth.module';
import { AuthService } from './auth/auth.service';
import { JwtAuthGuard } from './auth/jwt-auth.guard';
import { LocalAuthGuard } from './auth/local-auth.guard';
import { Public } from './auth/public.decorator';
@Controller()
class AppController {
  constructor(private authService: AuthService) {}
  @Public() @UseGuards(LocalAuthGuard) @Post('auth/login') login(@Request() req) { return this.authService.login(req.user); }
  @Public() @Get('welcome') welcome(@Request() req) { return { user: req.user ?? null }; }
  @Get('profile') profile(@Request() req) { return req.user; }
}
@Module({ imports: [AuthModule], controllers: [AppController], providers: [{ provide: APP_GUARD, useClass: JwtAuthGuard }] })
export class AppModule {}
`,
      },
    });
    app = await NestFactory.create(set.require('app.module').AppModule, {logger: false});
    base = await listen(app);
  });
  afterAll(async () => app?.close());

  claim.abuse(
    `${page}#enable-authentication-globally`,
    '@Public() on the login route skips the JWT check only: its LocalAuthGuard still refuses a wrong password (401) and an empty body',
    async () => {
      expect((await post(`${base}/auth/login`, {username: 'alice', password: 'x'})).status).toBe(
        401,
      );
      expect((await post(`${base}/auth/login`, {})).status).toBe(401);
      const ok = await post(`${base}/auth/login`, {username: 'alice', password: 'wonderland'});
      expect(Object.keys(await ok.json())).toEqual(['access_token']);
    },
  );

  claim.abuse(
    `${page}#enable-authentication-globally`,
    'a @Public() route skips Passport entirely: request.user stays empty there even with a valid token, and a forged token is not refused',
    async () => {
      const {access_token} = await (
        await post(`${base}/auth/login`, {username: 'alice', password: 'wonderland'})
      ).json();
      const withToken = await fetch(`${base}/welcome`, {
        headers: {authorization: `Bearer ${access_token}`},
      });
      expect(await withToken.json()).toEqual({user: null});
      const forged = await fetch(`${base}/welcome`, {headers: {authorization: 'Bearer a.b.c'}});
      expect(forged.status).toBe(200);
      expect(
        (await fetch(`${base}/profile`, {headers: {authorization: `Bearer ${access_token}`}}))
          .status,
      ).toBe(200);
    },
  );
});

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

  claim.abuse(
    `${page}#graphql`,
    "the page's whoAmI() over a TypeORM 0.2 findById(): alice gets her row and bob his, never the first row of the table",
    async () => {
      const resolverMethod = fragment(page, 'graphql', 'whoAmI(').value;
      const set = samples(page, {
        under: 'protecting-routes',
        edit: withJwtStrategy,
        files: {
          'auth/constants': constants,
          'gql-auth.guard': fragment(page, 'graphql', 'class GqlAuthGuard').value,
          'current-user.decorator': fragment(page, 'graphql', 'export const CurrentUser').value,
          'app.module': `
import { Injectable, Module, UseGuards } from '@nestjs/common';
import { Field, GraphQLModule, Int, ObjectType, Query, Resolver } from '@nestjs/graphql';
import { InjectRepository, TypeOrmModule } from '@nestjs/typeorm';
import { Column, Entity, PrimaryGeneratedColumn, Repository } from 'typeorm';
import { AuthModule } from './auth/auth.module';
import { AppController } from './app.controller';
import { GqlAuthGuard } from './gql-auth.guard';
import { CurrentUser } from './current-user.decorator';
@Entity('whoami_user')
@ObjectType()
export class User {
  @Field(() => Int) @PrimaryGeneratedColumn() id: number;
  @Field() @Column() username: string;
}
/** findById() as the database chapter writes its lookups: repository.findOne(id). */
@Injectable()
export class UserRecords {
  constructor(@InjectRepository(User) private usersRepository: Repository<User>) {}
  findById(id: number): Promise<User> { return this.usersRepository.findOne(id); }
}
@Resolver(() => User)
export class UsersResolver {
  constructor(private usersService: UserRecords) {}
${resolverMethod}
}
@Module({
  imports: [
    AuthModule,
    TypeOrmModule.forRoot({ type: 'sqljs', entities: [User], synchronize: true, name: 'default' }),
    TypeOrmModule.forFeature([User]),
    GraphQLModule.forRoot({ autoSchemaFile: true }),
  ],
  controllers: [AppController],
  providers: [UserRecords, UsersResolver],
})
export class AppModule {}
`,
        },
      });
      const {AppModule, User} = set.require('app.module');
      const app = await NestFactory.create(AppModule, {logger: false});
      try {
        const base = await listen(app);
        const repository = app.get(nest('@nestjs/typeorm').getRepositoryToken(User));
        // The rows in the ids the page's UsersService gives its users: alice 1, bob 2.
        await repository.save([{username: 'alice'}, {username: 'bob'}]);
        const answers: unknown[] = [];
        for (const [username, password] of [
          ['bob', 'builder'],
          ['alice', 'wonderland'],
        ]) {
          const {access_token} = await (
            await post(`${base}/auth/login`, {username, password})
          ).json();
          const response = await post(
            `${base}/graphql`,
            {query: '{ whoAmI { id username } }'},
            {authorization: `Bearer ${access_token}`},
          );
          answers.push((await response.json()).data?.whoAmI);
        }
        expect(answers).toEqual([
          {id: 2, username: 'bob'},
          {id: 1, username: 'alice'},
        ]);
        // What the warning says: findOne(undefined) has no condition and answers the first row.
        expect(await repository.findOne(undefined)).toMatchObject({id: 1, username: 'alice'});
      } finally {
        await app.close();
      }
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
});

describe('Customize Passport: login sessions', () => {
  const bootstrap = fragment(page, 'customize-passport', 'app.use(passport.session());').value;
  const logout = fragment(page, 'customize-passport', "@Post('auth/logout')").value;
  const sessionSet = () =>
    samples(page, {
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
${logout}
}
`,
        'app.module': appModule,
      },
    });
  /**
   * The page's bootstrap lines (or `code`), run against the app with NODE_ENV = `nodeEnv` (they
   * throw when SESSION_SECRET is unfit). The tests talk plain HTTP, which the page's cookie allows in
   * development only.
   */
  const runBootstrap = (
    app: unknown,
    nodeEnv: string | undefined = 'development',
    code = bootstrap,
  ) => {
    const saved = process.env.NODE_ENV;
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
    try {
      new Function('app', 'session', 'passport', code.replace(/^import .*$/gm, ''))(
        app,
        nest('express-session'),
        nest('passport'),
      );
    } finally {
      if (saved === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = saved;
    }
  };
  async function start(set = sessionSet(), setup: (app: any) => void = (app) => runBootstrap(app)) {
    const app = await NestFactory.create(set.require('app.module').AppModule, {logger: false});
    setup(app);
    return {app, base: await listen(app), set};
  }
  /** Reads a copy of the body, so that the connection is free (app.close() waits for busy ones). */
  const drained = async (response: Promise<Response>) => {
    const done = await response;
    await done.clone().arrayBuffer();
    return done;
  };
  const login = (base: string, headers: Record<string, string> = {}) =>
    drained(post(`${base}/auth/login`, {username: 'bob', password: 'builder'}, headers));
  const profile = (base: string, cookie?: string) =>
    drained(fetch(`${base}/profile`, {headers: cookie ? {cookie} : {}}));

  let app: any;
  let base: string;
  beforeAll(async () => {
    ({app, base} = await start());
  });
  afterAll(async () => app?.close());

  claim(
    `${page}#customize-passport`,
    'with the session middleware, SessionSerializer and LocalSessionGuard, the cookie carries the login; without it, 403',
    async () => {
      const response = await login(base);
      expect(response.status).toBe(201);
      const cookie = cookieOf(response);
      expect(cookie).toMatch(/^connect\.sid=/);
      expect(await (await profile(base, cookie)).json()).toEqual({userId: 2, username: 'bob'});
      expect((await profile(base)).status).toBe(403);
    },
  );

  claim.abuse(
    `${page}#customize-passport`,
    'the session cookie is HttpOnly and SameSite=Lax, so browsers keep it from scripts and from background requests of other sites',
    async () => {
      const line = ((await login(base)).headers as any)
        .getSetCookie()
        .find((text: string) => text.startsWith('connect.sid='));
      expect(line).toMatch(/; HttpOnly/);
      expect(line).toMatch(/; SameSite=Lax/);
    },
  );

  claim.abuse(
    `${page}#customize-passport`,
    'LocalSessionGuard refuses credentials in the query string with 400, as LocalAuthGuard does, and sets no session cookie',
    async () => {
      const response = await fetch(`${base}/auth/login?username=bob&password=builder`, {
        method: 'POST',
      });
      expect(response.status).toBe(400);
      expect((await response.json()).message).toBe('Send the credentials in the request body');
      expect((response.headers as any).getSetCookie()).toEqual([]);
    },
  );

  claim.abuse(
    `${page}#customize-passport`,
    'outside development the cookie is Secure and expires after 8 hours; over plain HTTP express-session then sets no cookie at all (201, later 403), behind trust proxy 1 with X-Forwarded-Proto: https it does',
    async () => {
      for (const trustProxy of [false, true]) {
        const started = await start(sessionSet(), (instance) => {
          if (trustProxy) instance.set('trust proxy', 1);
          runBootstrap(instance, 'test');
        });
        try {
          const response = await login(started.base, {'x-forwarded-proto': 'https'});
          expect(response.status).toBe(201);
          const lines: string[] = (response.headers as any).getSetCookie();
          if (!trustProxy) {
            expect(lines).toEqual([]);
            expect((await profile(started.base, cookieOf(response))).status).toBe(403);
            continue;
          }
          expect(lines).toHaveLength(1);
          expect(lines[0]).toMatch(/; Secure/);
          const expires = Date.parse(/; Expires=([^;]+)/.exec(lines[0])![1]);
          expect(Math.abs(expires - (Date.now() + 8 * 3600_000))).toBeLessThan(5000);
        } finally {
          await started.app.close();
        }
      }
    },
  );

  claim.failure(
    `${page}#customize-passport`,
    'maxAge: a session that nobody used for that long is gone (403); one used in between stays (maxAge shortened to 1 s)',
    async () => {
      const short = bootstrap.replace('maxAge: 8 * 60 * 60 * 1000', 'maxAge: 1000');
      expect(short).not.toBe(bootstrap);
      const started = await start(sessionSet(), (instance) =>
        runBootstrap(instance, 'development', short),
      );
      try {
        const cookie = cookieOf(await login(started.base));
        await new Promise((resolve) => setTimeout(resolve, 600));
        expect((await profile(started.base, cookie)).status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 1200));
        expect((await profile(started.base, cookie)).status).toBe(403);
      } finally {
        await started.app.close();
      }
    },
  );

  claim.abuse(
    `${page}#customize-passport`,
    'session fixation: a login that arrives with an existing session cookie gets a new session id, and the old id opens nothing',
    async () => {
      const planted = cookieOf(await login(base));
      const fresh = await login(base, {cookie: planted});
      const renewed = cookieOf(fresh);
      expect(renewed).toMatch(/^connect\.sid=/);
      expect(renewed).not.toBe(planted);
      expect((await profile(base, planted)).status).toBe(403);
      expect((await profile(base, renewed)).status).toBe(200);
    },
  );

  claim.abuse(
    `${page}#customize-passport`,
    'after POST /auth/logout, a copy of the old session cookie is refused (403): logout() regenerated the session',
    async () => {
      const cookie = cookieOf(await login(base));
      expect((await profile(base, cookie)).status).toBe(200);
      const out = await fetch(`${base}/auth/logout`, {method: 'POST', headers: {cookie}});
      expect(out.status).toBe(201);
      expect((await profile(base, cookie)).status).toBe(403);
      expect((await fetch(`${base}/auth/logout`, {method: 'POST', headers: {cookie}})).status).toBe(
        403,
      );
    },
  );

  claim.abuse(
    `${page}#customize-passport`,
    'a session cookie whose signature was made with another secret, or whose id was altered, is refused: 403',
    async () => {
      const cookie = cookieOf(await login(base));
      const value = decodeURIComponent(cookie.slice('connect.sid='.length));
      const id = value.slice(2, value.lastIndexOf('.'));
      const signature = nest('cookie-signature');
      for (const forged of [
        `s:${signature.sign(id, `${testSecret}-other`)}`,
        `s:${id}x.${value.slice(value.lastIndexOf('.') + 1)}`,
        id,
      ]) {
        const response = await profile(base, `connect.sid=${encodeURIComponent(forged)}`);
        expect(response.status).toBe(403);
      }
    },
  );

  claim.failure(
    `${page}#customize-passport`,
    'the MemoryStore lives in the process: after a restart, the cookie of a login made before it gets 403',
    async () => {
      const set = sessionSet();
      const first = await start(set);
      const cookie = cookieOf(await login(first.base));
      expect((await profile(first.base, cookie)).status).toBe(200);
      await first.app.close();
      const second = await start(set);
      try {
        expect((await profile(second.base, cookie)).status).toBe(403);
      } finally {
        await second.app.close();
      }
    },
  );

  claim.failure(
    `${page}#customize-passport`,
    'SESSION_SECRET missing, empty or short: the bootstrap lines throw before any session middleware is installed',
    async () => {
      const saved = process.env.SESSION_SECRET;
      const app = await NestFactory.create(sessionSet().require('app.module').AppModule, {
        logger: false,
      });
      try {
        for (const value of [undefined, '', 'replace-me']) {
          if (value === undefined) delete process.env.SESSION_SECRET;
          else process.env.SESSION_SECRET = value;
          expect(() => runBootstrap(app)).toThrow(
            'Set SESSION_SECRET to a random value of at least 32 characters',
          );
        }
      } finally {
        process.env.SESSION_SECRET = saved;
        await app.close();
      }
    },
  );

  claim.failure(
    `${page}#customize-passport`,
    'with NODE_ENV=production, express-session prints its MemoryStore warning when the middleware is created',
    async () => {
      const code = bootstrap.replace(/^import .*$/gm, '');
      const child = await runChild(
        `
const session = require('express-session');
const passport = require('passport');
const app = { use() {} };
${code}
`,
        {NODE_ENV: 'production', SESSION_SECRET: testSecret},
      );
      expect(child.code).toBe(0);
      expectOutput(page, 'memory-store-warning', child.stderr.trim());
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

claim.abuse(
  `${page}#built-in-passport-guards`,
  "what LocalAuthGuard's check prevents: the bare AuthGuard('local') of \"Login route\" logs alice in from credentials in the URL",
  async () => {
    const bare = samples(page, {under: 'login-route', files: {'app.module': appModule}});
    const app = await NestFactory.create(bare.require('app.module').AppModule, {logger: false});
    try {
      const response = await fetch(
        `${await listen(app)}/auth/login?username=alice&password=wonderland`,
        {method: 'POST'},
      );
      expect(response.status).toBe(201);
      expect(await response.json()).toEqual({userId: 1, username: 'alice'});
    } finally {
      await app.close();
    }
  },
);

claim.failure(
  `${page}#request-scoped-strategies`,
  "two applications in one process: the one created last replaces the other's LocalStrategy, so the first checks passwords against the second one's users",
  async () => {
    const first = samples(page, {under: 'login-route', files: {'app.module': appModule}});
    const second = samples(page, {
      under: 'login-route',
      edit: {'users/users.service': [["password: 'builder'", "password: 'second-app'"]]},
      files: {'app.module': appModule},
    });
    const one = await NestFactory.create(first.require('app.module').AppModule, {logger: false});
    const two = await NestFactory.create(second.require('app.module').AppModule, {logger: false});
    try {
      const base = await listen(one);
      await listen(two);
      const login = (password: string) => post(`${base}/auth/login`, {username: 'bob', password});
      expect((await login('builder')).status).toBe(401);
      expect((await login('second-app')).status).toBe(201);
      await two.close();
      expect((await login('second-app')).status).toBe(201);
    } finally {
      await one.close();
      await two.close();
    }
  },
);

claim.failure(
  `${page}#default-strategy`,
  'AuthGuard() without PassportModule.register(): the route fails closed, every request (with a token or without) answers 500, never 200',
  async () => {
    const {Controller, Get, Module, UseGuards} = nest('@nestjs/common');
    const {AuthGuard} = nest('@nestjs/passport');
    @Controller()
    class NoDefaultController {
      @UseGuards(AuthGuard())
      @Get('secret')
      get() {
        return 'secret';
      }
    }
    @Module({controllers: [NoDefaultController]})
    class NoDefaultModule {}
    const app = await NestFactory.create(NoDefaultModule, {logger: false});
    try {
      const base = await listen(app);
      for (const headers of [{}, {authorization: 'Bearer a.b.c'}] as Record<string, string>[]) {
        const response = await fetch(`${base}/secret`, {headers});
        expect(response.status).toBe(500);
        expect(await response.json()).toEqual({statusCode: 500, message: 'Internal server error'});
      }
    } finally {
      await app.close();
    }
  },
);

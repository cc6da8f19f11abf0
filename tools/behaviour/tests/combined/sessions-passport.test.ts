/**
 * The session chapter's express-session bootstrap (its `main`) with the Passport session login of the
 * authentication chapter ("Customize Passport": Passport's two middlewares, SessionSerializer,
 * LocalSessionGuard, SessionAuthGuard, the logout route), as a reader who follows both assembles it.
 */
import {afterAll, beforeAll, describe, expect} from 'vitest';
import {claim, fragment, listen, nest} from '../../lib';
import {bootMain} from '../techniques/_boot';
import {authPage, combine, combinedSecret, postJson, type Part} from './_support';

// The AuthModule of the chapter also signs tokens: its constants.ts reads JWT_SECRET when loaded.
process.env.JWT_SECRET = combinedSecret;
const {Logger} = nest('@nestjs/common');
const sessionPage = 'docs/techniques/session.md';
const customize = `${authPage}#customize-passport`;

/** The cookies of a response, merged into a jar, as a Cookie header. */
function remember(response: Response, jar: Record<string, string>): string {
  for (const line of (response.headers as any).getSetCookie?.() ?? []) {
    const [pair] = line.split(';');
    const at = pair.indexOf('=');
    jar[pair.slice(0, at).trim()] = pair.slice(at + 1);
  }
  return cookie(jar);
}
const cookie = (jar: Record<string, string>) =>
  Object.entries(jar)
    .map(([name, value]) => `${name}=${value}`)
    .join('; ');

/** The authentication chapter's session pieces; SessionSerializer added to AuthModule's providers. */
const sessionAuth: Part = {
  page: authPage,
  options: {
    under: 'customize-passport',
    // The local strategy of "Local strategy" (the later one is the request-scoped variant)
    pick: {'auth/local.strategy': 1},
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
    files: {
      'auth/constants': fragment(authPage, 'jwt-functionality', 'export const jwtConstants').value,
    },
  },
  take: [
    'users/users.service',
    'users/users.module',
    'auth/auth.service',
    'auth/local.strategy',
    'auth/local-auth.guard',
    'auth/auth.module',
    'auth/session.serializer',
    'auth/session.guards',
    'auth/constants',
  ],
};

/** "Use @UseGuards(LocalSessionGuard) on the login route and @UseGuards(SessionAuthGuard) on the routes that need a logged-in user", with the page's logout route. */
function sessionController(): string {
  const logout = fragment(authPage, 'customize-passport', "@Post('auth/logout')").value;
  return `
import { Controller, Get, Post, Request, UseGuards } from '@nestjs/common';
import { LocalSessionGuard, SessionAuthGuard } from './auth/session.guards';

@Controller()
export class SessionController {
  @UseGuards(LocalSessionGuard)
  @Post('auth/login')
  login(@Request() req) {
    return req.user;
  }

  @UseGuards(SessionAuthGuard)
  @Get('profile')
  getProfile(@Request() req) {
    return req.user;
  }

${logout
  .split('\n')
  .map((line) => `  ${line}`)
  .join('\n')}
}
`;
}

/** The session chapter's second CatsController (@Session(), a visit counter). */
const catsPart: Part = {
  page: sessionPage,
  options: {pick: {'cats.controller': 2}},
  take: ['cats.controller'],
};

function appSet(extra: Record<string, string> = {}) {
  return combine([sessionAuth, catsPart], {
    'session.controller': sessionController(),
    'app.module': `
import { Module } from '@nestjs/common';
import { AuthModule } from './auth/auth.module';
import { CatsController } from './cats.controller';
import { SessionController } from './session.controller';

@Module({ imports: [AuthModule], controllers: [SessionController, CatsController] })
export class AppModule {}
`,
    ...extra,
  });
}

/** The session chapter's main, with Passport's two middlewares after express-session. */
const withPassport: [string, string][] = [
  ['return app;', 'app.use(passport.initialize());\n  app.use(passport.session());\n  return app;'],
  [
    'const { AppModule } = (globalThis as any).__behaviourAppModule;',
    "const { AppModule } = (globalThis as any).__behaviourAppModule;\nimport passport = require('passport');",
  ],
];

async function boot(AppModule: unknown, edit: [string, string][] = withPassport) {
  const app = await bootMain(sessionPage, AppModule, {under: 'use-with-express-default', edit});
  Logger.overrideLogger(false);
  return {app, base: await listen(app)};
}

describe("the session chapter's main with Passport's session login", () => {
  let app: any;
  let base: string;
  beforeAll(async () => {
    process.env.SESSION_SECRET = combinedSecret;
    ({app, base} = await boot(appSet().require('app.module').AppModule));
  });
  afterAll(async () => app?.close());

  async function logIn(username: string, password: string, jar: Record<string, string> = {}) {
    const response = await postJson(
      `${base}/auth/login`,
      {username, password},
      Object.keys(jar).length ? {cookie: cookie(jar)} : {},
    );
    remember(response, jar);
    return {status: response.status, body: await response.json(), jar};
  }
  const get = async (path: string, jar: Record<string, string> = {}) => {
    const response = await fetch(`${base}${path}`, {headers: {cookie: cookie(jar)}});
    remember(response, jar);
    return {status: response.status, body: await response.json()};
  };

  claim(
    customize,
    'alice logs in (201 and a session cookie), and the cookie opens GET /profile; without it SessionAuthGuard answers 403',
    async () => {
      const {status, body, jar} = await logIn('alice', 'wonderland');
      expect({status, body}).toEqual({status: 201, body: {userId: 1, username: 'alice'}});
      expect(Object.keys(jar)).toEqual(['connect.sid']);
      expect(await get('/profile', jar)).toEqual({
        status: 200,
        body: {userId: 1, username: 'alice'},
      });
      expect((await get('/profile')).status).toBe(403);
    },
  );

  claim.abuse(
    customize,
    'a wrong password or credentials in the query string set no session: 401 and 400, and no cookie',
    async () => {
      const wrong = await logIn('alice', 'builder');
      expect(wrong.status).toBe(401);
      expect(wrong.jar).toEqual({});
      const inUrl = await fetch(`${base}/auth/login?username=alice&password=wonderland`, {
        method: 'POST',
      });
      expect(inUrl.status).toBe(400);
      expect(inUrl.headers.get('set-cookie')).toBeNull();
    },
  );

  claim.abuse(
    customize,
    "session fixation: a session the attacker started (GET /cats) and planted in the victim's browser is replaced at login; the attacker's cookie opens nothing, and its data is not carried over",
    async () => {
      const attacker: Record<string, string> = {};
      expect((await get('/cats', attacker)).body).toEqual({visits: 1});
      const planted = {...attacker};
      const victim = await logIn('alice', 'wonderland', {...planted});
      expect(victim.status).toBe(201);
      expect(victim.jar['connect.sid']).not.toBe(planted['connect.sid']);
      expect((await get('/profile', {...planted})).status).toBe(403);
      expect((await get('/profile', victim.jar)).body).toEqual({userId: 1, username: 'alice'});
      // The logged-in session starts fresh: the planted session's counter is not in it
      expect((await get('/cats', victim.jar)).body).toEqual({visits: 1});
    },
  );

  claim.abuse(
    customize,
    "logout destroys the session: the old cookie afterwards opens neither /profile (403) nor the session's other data (the visit counter starts again at 1)",
    async () => {
      const {jar} = await logIn('alice', 'wonderland');
      expect((await get('/cats', {...jar})).body).toEqual({visits: 1});
      expect((await get('/cats', {...jar})).body).toEqual({visits: 2});
      const copy = {...jar};
      const out = await fetch(`${base}/auth/logout`, {
        method: 'POST',
        headers: {cookie: cookie(jar)},
      });
      expect(out.status).toBe(201);
      expect((await get('/profile', {...copy})).status).toBe(403);
      expect((await get('/cats', {...copy})).body).toEqual({visits: 1});
      // Logging out again with the old cookie is refused too
      const again = await fetch(`${base}/auth/logout`, {
        method: 'POST',
        headers: {cookie: cookie(copy)},
      });
      expect(again.status).toBe(403);
    },
  );

  claim.abuse(
    customize,
    "a second user: alice and bob logged in side by side each see their own profile, and bob's login in alice's browser replaces her session (her earlier cookie opens nothing)",
    async () => {
      const alice = await logIn('alice', 'wonderland');
      const bob = await logIn('bob', 'builder');
      expect((await get('/profile', {...alice.jar})).body).toEqual({userId: 1, username: 'alice'});
      expect((await get('/profile', {...bob.jar})).body).toEqual({userId: 2, username: 'bob'});
      const shared = {...alice.jar};
      const aliceCopy = {...alice.jar};
      const bobThere = await logIn('bob', 'builder', shared);
      expect(bobThere.status).toBe(201);
      expect((await get('/profile', shared)).body).toEqual({userId: 2, username: 'bob'});
      expect((await get('/profile', aliceCopy)).status).toBe(403);
    },
  );

  claim.abuse(
    customize,
    'a session cookie with a forged signature, or an unsigned session id, opens nothing: 403',
    async () => {
      const {jar} = await logIn('alice', 'wonderland');
      const value = decodeURIComponent(jar['connect.sid']);
      const id = value.slice(2, value.lastIndexOf('.'));
      for (const forged of [
        `s:${id}.AAAA${value.slice(value.lastIndexOf('.') + 5)}`,
        id,
        `s:${id}`,
      ]) {
        expect(
          (await get('/profile', {'connect.sid': encodeURIComponent(forged)})).status,
          forged,
        ).toBe(403);
      }
    },
  );
});

claim.failure(
  `${sessionPage}#use-with-express-default`,
  "SESSION_SECRET missing, empty or shorter than 32 characters: the session chapter's main refuses to start, as the authentication chapter's session bootstrap does",
  async () => {
    const {AppModule} = appSet().require('app.module');
    for (const value of [undefined, '', 'x', 'x'.repeat(31)]) {
      if (value === undefined) delete process.env.SESSION_SECRET;
      else process.env.SESSION_SECRET = value;
      await expect(boot(AppModule), String(value)).rejects.toThrow(
        'Set SESSION_SECRET to a random value of at least 32 characters',
      );
    }
    process.env.SESSION_SECRET = combinedSecret;
  },
);

claim.failure(
  `${sessionPage}#use-with-express-default`,
  "the session chapter's main as it is, without Passport's two middlewares: the Passport login answers 201 with a session cookie, and every request that SessionAuthGuard checks fails with 500 (request.isAuthenticated is not a function)",
  async () => {
    process.env.SESSION_SECRET = combinedSecret;
    const {memoryLogger} = await import('../../lib');
    const memory = memoryLogger();
    const {app, base} = await boot(appSet().require('app.module').AppModule, []);
    app.useLogger(memory.logger);
    try {
      const login = await postJson(`${base}/auth/login`, {
        username: 'alice',
        password: 'wonderland',
      });
      expect(login.status).toBe(201);
      await login.text();
      const jar: Record<string, string> = {};
      remember(login, jar);
      expect(Object.keys(jar)).toEqual(['connect.sid']);
      const profile = await fetch(`${base}/profile`, {headers: {cookie: cookie(jar)}});
      expect(profile.status).toBe(500);
      await profile.text();
      expect(memory.text()).toContain('isAuthenticated is not a function');
    } finally {
      await app.close();
    }
  },
);

claim(
  `${sessionPage}#usage`,
  "the session chapter's login handler (regenerate, then store the user's id) with the authentication chapter's AuthService: alice's session holds her id, 1, and bob's his, 2; storing user.id instead (a property that user has not) answers 201 with a cookie for a session that holds no user",
  async () => {
    process.env.SESSION_SECRET = combinedSecret;
    const handler = fragment(sessionPage, 'usage', 'request.session.regenerate').value;
    // The property the page warns about: the same handler storing user.id.
    const withId = handler.replace(/user\.userId/g, 'user.id');
    const loginController = (name: string, path: string, source: string) => `
@Controller('${path}')
export class ${name} {
  constructor(private authService: AuthService) {}

${source
  .split('\n')
  .map((line) => `  ${line}`)
  .join('\n')}

  @Get('me')
  me(@Req() request: Request) {
    return { userId: (request.session as any).userId ?? null };
  }
}
`;
    const set = appSet({
      'session-login.controller': `
import { Body, Controller, Get, Post, Req, UnauthorizedException } from '@nestjs/common';
import { Request } from 'express';
import { AuthService } from './auth/auth.service';

class LoginDto {
  username: string;
  password: string;
}
${loginController('SessionLoginController', 'plain', handler)}
${loginController('WrongPropertyController', 'wrong', withId)}
`,
      'app.module': `
import { Module } from '@nestjs/common';
import { AuthModule } from './auth/auth.module';
import { SessionLoginController, WrongPropertyController } from './session-login.controller';

@Module({ imports: [AuthModule], controllers: [SessionLoginController, WrongPropertyController] })
export class AppModule {}
`,
    });
    const {app, base} = await boot(set.require('app.module').AppModule, []);
    try {
      for (const [username, password, id] of [
        ['alice', 'wonderland', 1],
        ['bob', 'builder', 2],
      ] as const) {
        const login = await postJson(`${base}/plain/login`, {username, password});
        expect(login.status, username).toBe(201);
        await login.text();
        const jar: Record<string, string> = {};
        remember(login, jar);
        const me = await fetch(`${base}/plain/me`, {headers: {cookie: cookie(jar)}});
        expect(await me.json(), username).toEqual({userId: id});
      }
      expect(withId).not.toBe(handler);
      const wrong = await postJson(`${base}/wrong/login`, {
        username: 'alice',
        password: 'wonderland',
      });
      expect(wrong.status).toBe(201);
      expect(await wrong.json()).toEqual({});
      const wjar: Record<string, string> = {};
      remember(wrong, wjar);
      const wme = await fetch(`${base}/wrong/me`, {headers: {cookie: cookie(wjar)}});
      expect(Object.keys(wjar)).toEqual(['connect.sid']);
      expect(await wme.json()).toEqual({userId: null});
    } finally {
      await app.close();
    }
  },
);

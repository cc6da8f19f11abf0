import {randomBytes} from 'node:crypto';
import {afterAll, afterEach, beforeEach, expect} from 'vitest';
import {claim, compileModule, fragment, listen, nest, readPage, samples} from '../../lib';
import {spawnSync} from 'node:child_process';
import {resolve} from 'node:path';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import * as ts from 'typescript';
import {applyEdits, expectOutput} from '../../lib';
import {bootMain, mainSource} from './_boot';
import {startChild} from './_child-app';

const {Module, Controller, Get, Post, Req, Session} = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const {FastifyAdapter} = nest('@nestjs/platform-fastify');
const session = nest('express-session');
const secureSession = nest('fastify-secure-session');
const page = 'docs/techniques/session.md';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** The page's main files read their secrets from the environment; the bench sets them unless a claim removes one. */
beforeEach(() => {
  process.env.SESSION_SECRET = 'replace-with-a-long-random-secret';
  process.env.SESSION_SALT = 'mq9hDxBVDbspDR6n';
});
afterAll(() => {
  delete process.env.SESSION_SECRET;
  delete process.env.SESSION_SALT;
});

function appModule(controller: unknown): unknown {
  @Module({controllers: [controller as any]})
  class AppModule {}
  return AppModule;
}

/**
 * The nth cats.controller of the page. The TypeScript halves are compiled one by one: samples()
 * compiles every file of the page, and the page's `session.d` declaration file does not transpile.
 */
function catsController(nth: number, lang: 'ts' | 'js' = 'ts'): any {
  if (lang === 'js')
    return samples(page, {pick: {'cats.controller': nth}, lang}).require('cats.controller')
      .CatsController;
  const fence = readPage(page).fences.filter((f) => f.filename === 'cats.controller')[nth - 1];
  return compileModule<any>(fence.ts!, 'cats.controller').CatsController;
}

/** The first `name=value` of each Set-Cookie header, ready for a Cookie header. */
function cookiesOf(response: Response): string {
  const all =
    (response.headers as any).getSetCookie?.() ??
    [response.headers.get('set-cookie')].filter(Boolean);
  return all.map((line: string) => line.split(';')[0]).join('; ');
}

async function visits(base: string, path = '/cats', rounds = 3): Promise<number[]> {
  let cookie = '';
  const seen: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const response = await fetch(`${base}${path}`, {headers: cookie ? {cookie} : {}});
    const set = cookiesOf(response);
    if (set) cookie = set;
    seen.push((await response.json()).visits);
  }
  return seen;
}

async function expressApp(
  controller: unknown,
  options: Record<string, unknown>,
  configure?: (app: any) => void,
): Promise<string> {
  @Module({controllers: [controller as any]})
  class AppModule {}
  const app = await NestFactory.create(AppModule, {logger: false});
  configure?.(app);
  app.use(session(options));
  close = () => app.close();
  return listen(app);
}

const expressOptions = {
  secret: 'replace-with-a-long-random-secret',
  resave: false,
  saveUninitialized: false,
};

claim(
  `${page}#use-with-express-default`,
  "the page's main registers express-session: the session survives between requests",
  async () => {
    const app = await bootMain(page, appModule(catsController(1)), {
      under: 'use-with-express-default',
    });
    close = () => app.close();
    const base = await listen(app);
    expect(await visits(base)).toEqual([1, 2, 3]);
  },
);

for (const lang of ['ts', 'js'] as const) {
  for (const nth of [1, 2] as const) {
    claim(
      `${page}#usage`,
      `request.session / @Session() properties persist between requests (${nth === 1 ? '@Req()' : '@Session()'}, ${lang})`,
      async () => {
        const CatsController = catsController(nth, lang);
        const base = await expressApp(CatsController, expressOptions);
        expect(await visits(base)).toEqual([1, 2, 3]);
      },
    );
  }
}

@Controller('probe')
class ProbeController {
  @Get('untouched')
  untouched() {
    return {ok: true};
  }
  @Get('set')
  set(@Session() s: any) {
    s.user = 'tom';
    return {id: s.id};
  }
  @Get('id')
  id(@Session() s: any) {
    return {id: s.id, user: s.user ?? null};
  }
  @Post('login')
  async login(@Req() req: any) {
    const before = req.session.id;
    await new Promise<void>((resolve, reject) =>
      req.session.regenerate((error: unknown) => (error ? reject(error) : resolve())),
    );
    req.session.user = 'tom';
    return {before, after: req.session.id};
  }
  @Post('logout')
  async logout(@Req() req: any) {
    await new Promise<void>((resolve, reject) =>
      req.session.destroy((error: unknown) => (error ? reject(error) : resolve())),
    );
    return {ok: true};
  }
}

claim(
  `${page}#use-with-express-default`,
  'saveUninitialized: false sends no session cookie until something is stored in the session',
  async () => {
    const base = await expressApp(ProbeController, expressOptions);
    expect((await fetch(`${base}/probe/untouched`)).headers.get('set-cookie')).toBeNull();
    expect((await fetch(`${base}/probe/set`)).headers.get('set-cookie')).toMatch(
      /^connect\.sid=s%3A/,
    );
  },
);

claim(
  `${page}#use-with-express-default`,
  'with an array of secrets, the first signs new cookies and all of them verify',
  async () => {
    // One MemoryStore for both apps, as a shared store would be.
    const store = new session.MemoryStore();
    const a = await expressApp(ProbeController, {...expressOptions, secret: 'old-secret', store});
    const created = await fetch(`${a}/probe/set`);
    const oldCookie = cookiesOf(created);
    const createdId = (await created.json()).id;
    await close?.();
    const b = await expressApp(ProbeController, {
      ...expressOptions,
      secret: ['new-secret', 'old-secret'],
      store,
    });
    expect(await (await fetch(`${b}/probe/id`, {headers: {cookie: oldCookie}})).json()).toEqual({
      id: createdId,
      user: 'tom',
    });
    const fresh = await fetch(`${b}/probe/set`);
    const signature = nest('cookie-signature');
    const value = decodeURIComponent(cookiesOf(fresh).split('=')[1]).slice(2);
    expect(signature.unsign(value, 'new-secret')).toBe((await fresh.json()).id);
  },
);

claim(
  `${page}#use-with-express-default`,
  'cookie: { secure: true } over plain HTTP sets no cookie; behind a proxy it needs trust proxy',
  async () => {
    const options = {...expressOptions, cookie: {secure: true}};
    const base = await expressApp(ProbeController, options);
    const proxied = {headers: {'x-forwarded-proto': 'https'}};
    expect((await fetch(`${base}/probe/set`, proxied)).headers.get('set-cookie')).toBeNull();
    await close?.();
    const trusted = await expressApp(ProbeController, options, (app) => app.set('trust proxy', 1));
    expect((await fetch(`${trusted}/probe/set`, proxied)).headers.get('set-cookie')).toMatch(
      /Secure/,
    );
  },
);

claim(
  `${page}#usage`,
  'regenerate() gives the session a new ID; destroy() removes it',
  async () => {
    const base = await expressApp(ProbeController, expressOptions);
    const first = await fetch(`${base}/probe/set`);
    let cookie = cookiesOf(first);
    const login = await fetch(`${base}/probe/login`, {method: 'POST', headers: {cookie}});
    const {before, after} = await login.json();
    expect(after).not.toBe(before);
    cookie = cookiesOf(login);
    expect((await (await fetch(`${base}/probe/id`, {headers: {cookie}})).json()).user).toBe('tom');
    await fetch(`${base}/probe/logout`, {method: 'POST', headers: {cookie}});
    expect((await (await fetch(`${base}/probe/id`, {headers: {cookie}})).json()).user).toBeNull();
  },
);

const fastifyOptions = {
  secret: 'a-passphrase-of-at-least-thirty-two-characters',
  salt: 'mq9hDxBVDbspDR6n',
};

async function fastifyApp(
  controller: unknown,
  options: Record<string, unknown> = fastifyOptions,
): Promise<string> {
  @Module({controllers: [controller as any]})
  class AppModule {}
  const app = await NestFactory.create(AppModule, new FastifyAdapter(), {logger: false});
  await app.register(secureSession, options);
  close = () => app.close();
  return listen(app);
}

claim(
  `${page}#use-with-fastify`,
  "the page's Fastify main registers fastify-secure-session; the cookie has Path=/ and HttpOnly",
  async () => {
    const app = await bootMain(page, appModule(catsController(3)), {under: 'use-with-fastify'});
    close = () => app.close();
    const base = await listen(app);
    const response = await fetch(`${base}/cats`);
    expect(response.headers.get('set-cookie')).toMatch(
      /^session=[^;]+; Path=\/; HttpOnly; SameSite=Lax$/,
    );
    expect(await visits(base)).toEqual([1, 2, 3]);
  },
);

for (const lang of ['ts', 'js'] as const) {
  for (const nth of [3, 4] as const) {
    claim(
      `${page}#usage-1`,
      `the encrypted cookie session keeps values set with set() (${nth === 3 ? '@Req()' : '@Session()'}, ${lang})`,
      async () => {
        const CatsController = catsController(nth, lang);
        const base = await fastifyApp(CatsController);
        expect(await visits(base)).toEqual([1, 2, 3]);
      },
    );
  }
}

claim(
  `${page}#use-with-fastify`,
  'without a cookie option the session cookie has no Path (nor HttpOnly): it is scoped to the folder that set it',
  async () => {
    const CatsController = catsController(3);
    const base = await fastifyApp(CatsController);
    const header = (await fetch(`${base}/cats`)).headers.get('set-cookie')!;
    expect(header).toMatch(/^session=[^;]+$/);
  },
);

claim(
  `${page}#use-with-fastify`,
  'a secret shorter than 32 bytes or a salt that is not 16 bytes fails the registration',
  async () => {
    @Module({})
    class AppModule {}
    for (const [options, message] of [
      [{secret: 'short'}, 'secret must be at least 32 bytes'],
      [{...fastifyOptions, salt: 'too-short'}, 'salt must be length 16'],
    ] as const) {
      const app = await NestFactory.create(AppModule, new FastifyAdapter(), {logger: false});
      await expect(app.register(secureSession, options)).rejects.toThrow(message);
      await app.close();
    }
  },
);

claim(
  `${page}#use-with-fastify`,
  'key accepts an array: the first encrypts, every one decrypts (rotation)',
  async () => {
    const CatsController = catsController(3);
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const before = await fastifyApp(CatsController, {key: oldKey, cookie: {path: '/'}});
    const cookie = cookiesOf(await fetch(`${before}/cats`));
    await close?.();
    const after = await fastifyApp(CatsController, {key: [newKey, oldKey], cookie: {path: '/'}});
    const response = await fetch(`${after}/cats`, {headers: {cookie}});
    expect((await response.json()).visits).toBe(2);
    await close?.();
    const onlyNew = await fastifyApp(CatsController, {key: newKey, cookie: {path: '/'}});
    expect(
      (await (await fetch(`${onlyNew}/cats`, {headers: {cookie: cookiesOf(response)}})).json())
        .visits,
    ).toBe(3);
  },
);

claim(
  `${page}#use-with-fastify`,
  'cookieName renames the cookie, and request.cookies works without registering fastify-cookie',
  async () => {
    @Controller('cats')
    class CookieController {
      @Get()
      findAll(@Req() request: any) {
        request.session.set('seen', true);
        return {cookies: request.cookies};
      }
    }
    const base = await fastifyApp(CookieController, {
      ...fastifyOptions,
      cookieName: 'sid',
      cookie: {path: '/'},
    });
    const response = await fetch(`${base}/cats`, {headers: {cookie: 'theme=dark'}});
    expect(response.headers.get('set-cookie')).toMatch(/^sid=/);
    expect((await response.json()).cookies).toEqual({theme: 'dark'});
  },
);

claim(`${page}#usage-1`, 'session.delete() clears the cookie in the response', async () => {
  @Controller('auth')
  class AuthController {
    @Get('logout')
    logout(@Session() s: any) {
      s.delete();
      return {ok: true};
    }
  }
  const base = await fastifyApp(AuthController, {...fastifyOptions, cookie: {path: '/'}});
  const header = (await fetch(`${base}/auth/logout`)).headers.get('set-cookie')!;
  expect(header).toMatch(/^session=; Max-Age=0; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT$/);
});

// Abuse cases and failure modes.

claim.failure(
  `${page}#use-with-express-default`,
  "SESSION_SECRET missing: the page's main refuses to start; express-session alone would fail every request with 500, routes that never read the session included",
  async () => {
    delete process.env.SESSION_SECRET;
    await expect(
      bootMain(page, appModule(catsController(1)), {under: 'use-with-express-default'}),
    ).rejects.toThrow('Set SESSION_SECRET to a random value of at least 32 characters');
    // What the check prevents.
    const {PlainController} = compileModule<any>(`
import { Controller, Get } from '@nestjs/common';
@Controller('plain')
export class PlainController {
  @Get() get() { return { ok: true }; }
}
`);
    const base = await expressApp(catsController(1), {...expressOptions, secret: undefined});
    expect((await fetch(`${base}/cats`)).status).toBe(500);
    await close?.();
    const plain = await expressApp(PlainController, {...expressOptions, secret: undefined});
    expect((await fetch(`${plain}/plain`)).status).toBe(500);
  },
);

claim.abuse(
  `${page}#use-with-express-default`,
  "the page's session cookie is HttpOnly and SameSite=Lax",
  async () => {
    const app = await bootMain(page, appModule(catsController(1)), {
      under: 'use-with-express-default',
    });
    close = () => app.close();
    const base = await listen(app);
    expect((await fetch(`${base}/cats`)).headers.get('set-cookie')).toMatch(
      /^connect\.sid=s%3A[^;]+; Path=\/; HttpOnly; SameSite=Lax$/,
    );
  },
);

claim.abuse(
  `${page}#use-with-express-default`,
  'a session cookie with a forged signature is ignored: the request gets a new, empty session',
  async () => {
    const base = await expressApp(ProbeController, expressOptions);
    const real = cookiesOf(await fetch(`${base}/probe/set`));
    const id = decodeURIComponent(real.split('=')[1]).slice(2).split('.')[0];
    const signature = nest('cookie-signature');
    const forged = `connect.sid=${encodeURIComponent(`s:${signature.sign(id, 'guessed-secret')}`)}`;
    const seen = await (await fetch(`${base}/probe/id`, {headers: {cookie: forged}})).json();
    expect(seen.user).toBeNull();
    expect(seen.id).not.toBe(id);
  },
);

/** A controller around the page's login fragment, with a stand-in credential check. */
function loginController(): any {
  const method = fragment(page, 'usage', 'regenerate((err)').value;
  return compileModule<any>(`
import { Body, Controller, Get, Post, Req, UnauthorizedException } from '@nestjs/common';
type Request = any;
type LoginDto = { username: string; password: string };
@Controller('auth')
export class AuthController {
  authService = {
    // as the authentication chapter's AuthService: name and password, the user without the password
    validateUser: async (username: string, password: string) =>
      username === 'alice' && password === 'secret' ? { userId: 7, username } : null,
  };
${method}
  @Get('me')
  me(@Req() request: Request) {
    // touching the session makes express-session send a cookie even before a login
    request.session.seen = true;
    return { userId: request.session.userId ?? null };
  }
}
`).AuthController;
}

claim.abuse(
  `${page}#usage`,
  "session fixation: an ID planted before the login carries nothing after the page's login (regenerate); without regenerate it would be logged in",
  async () => {
    const logIn = (base: string, cookie: string) =>
      fetch(`${base}/auth/login`, {
        method: 'POST',
        headers: {cookie, 'content-type': 'application/json'},
        body: JSON.stringify({username: 'alice', password: 'secret'}),
      });
    const base = await expressApp(loginController(), expressOptions);
    // The attacker gets an ID of their own and plants it in the victim's browser.
    const planted = cookiesOf(await fetch(`${base}/auth/me`));
    const login = await logIn(base, planted);
    expect(login.status).toBe(201);
    expect(cookiesOf(login)).not.toBe(planted);
    const attacker = await (await fetch(`${base}/auth/me`, {headers: {cookie: planted}})).json();
    expect(attacker.userId).toBeNull();
    const victim = await (
      await fetch(`${base}/auth/me`, {headers: {cookie: cookiesOf(login)}})
    ).json();
    expect(victim.userId).toBe(7);
    // What regenerate() prevents: the same login without it.
    await close?.();
    const {Body, UnauthorizedException} = nest('@nestjs/common');
    @Controller('auth')
    class FixableController {
      @Get('me')
      me(@Req() request: any) {
        request.session.seen = true;
        return {userId: request.session.userId ?? null};
      }
      @Post('login')
      logIn(@Req() request: any, @Body() credentials: any) {
        if (credentials.password !== 'secret') throw new UnauthorizedException();
        request.session.userId = 7;
        return {id: 7};
      }
    }
    const open = await expressApp(FixableController, expressOptions);
    const plantedAgain = cookiesOf(await fetch(`${open}/auth/me`));
    await logIn(open, plantedAgain);
    expect(
      (await (await fetch(`${open}/auth/me`, {headers: {cookie: plantedAgain}})).json()).userId,
    ).toBe(7);
  },
);

claim.failure(
  `${page}#use-with-express-default`,
  'MemoryStore: a restart loses every session, and with NODE_ENV=production express-session warns when it is created',
  async () => {
    const base = await expressApp(catsController(1), expressOptions);
    const first = await fetch(`${base}/cats`);
    const cookie = cookiesOf(first);
    expect((await (await fetch(`${base}/cats`, {headers: {cookie}})).json()).visits).toBe(2);
    await close?.();
    const restarted = await expressApp(catsController(1), expressOptions);
    expect((await (await fetch(`${restarted}/cats`, {headers: {cookie}})).json()).visits).toBe(1);
    // express-session reads NODE_ENV when it is loaded: a fresh process.
    const result = spawnSync(
      process.execPath,
      [
        '-e',
        "require('express-session')({ secret: 's', resave: false, saveUninitialized: false })",
      ],
      {
        cwd: resolve(__dirname, '..', '..'),
        env: {...process.env, NODE_ENV: 'production'},
        encoding: 'utf8',
      },
    );
    expect(result.stderr).toContain(
      'Warning: connect.session() MemoryStore is not\ndesigned for a production environment, as it will leak\nmemory, and will not scale past a single process.',
    );
  },
);

claim.failure(
  `${page}#use-with-fastify`,
  "SESSION_SALT missing: the page's main refuses to start, where the plugin alone would fall back silently to its fixed salt",
  async () => {
    delete process.env.SESSION_SALT;
    await expect(
      bootMain(page, appModule(catsController(3)), {under: 'use-with-fastify'}),
    ).rejects.toThrow('SESSION_SECRET and SESSION_SALT must be set');
    // What the check prevents: registration without a salt succeeds.
    const base = await fastifyApp(catsController(3), {secret: fastifyOptions.secret});
    expect(await visits(base, '/cats', 2)).toEqual([1, 2]);
  },
);

claim.abuse(
  `${page}#use-with-fastify`,
  'a cookie encrypted by another server with the same secret and salt is accepted with its content; an altered one gives an empty session',
  async () => {
    // Another server (the attacker's) with the page's secret and salt mints a session with 41 visits.
    const minter = await fastifyApp(catsController(3), {...fastifyOptions, cookie: {path: '/'}});
    let minted = '';
    for (let i = 0; i < 41; i += 1) {
      const response = await fetch(`${minter}/cats`, {headers: minted ? {cookie: minted} : {}});
      minted = cookiesOf(response) || minted;
    }
    await close?.();
    const base = await fastifyApp(catsController(3), {...fastifyOptions, cookie: {path: '/'}});
    expect((await (await fetch(`${base}/cats`, {headers: {cookie: minted}})).json()).visits).toBe(
      42,
    );
    const [name, value] = minted.split('=');
    const altered = `${name}=${value.slice(0, 10)}${value[10] === 'A' ? 'B' : 'A'}${value.slice(11)}`;
    const response = await fetch(`${base}/cats`, {headers: {cookie: altered}});
    expect(response.status).toBe(200);
    expect((await response.json()).visits).toBe(1);
  },
);

claim.abuse(
  `${page}#usage-1`,
  'a copy of the cookie taken before session.delete() still carries the session after the logout',
  async () => {
    @Controller('auth')
    class AuthController {
      @Get('login')
      logIn(@Session() s: any) {
        s.set('userId', 7);
        return {ok: true};
      }
      @Get('me')
      me(@Session() s: any) {
        return {userId: s.get('userId') ?? null};
      }
      @Get('logout')
      logout(@Session() s: any) {
        s.delete();
        return {ok: true};
      }
    }
    // A random key instead of secret and salt: the same encryption, without the slow key derivation.
    const base = await fastifyApp(AuthController, {key: randomBytes(32), cookie: {path: '/'}});
    const copy = cookiesOf(await fetch(`${base}/auth/login`));
    const logout = await fetch(`${base}/auth/logout`, {headers: {cookie: copy}});
    expect(logout.headers.get('set-cookie')).toMatch(/^session=; Max-Age=0/);
    expect(await (await fetch(`${base}/auth/me`, {headers: {cookie: copy}})).json()).toEqual({
      userId: 7,
    });
  },
);

claim.failure(
  `${page}#cookies-next-to-the-session`,
  "fastify-cookie registered as the cookies chapter does, before or after the page's Fastify main registers the session plugin, stops the start: the parseCookie decorator is already there",
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'behaviour-session-cookie-'));
    try {
      writeFileSync(
        join(dir, 'app.module.js'),
        "const { Module } = require('@nestjs/common');\nclass AppModule {}\nModule({})(AppModule);\nexports.AppModule = AppModule;\n",
      );
      const register =
        '  await app.register(fastifyCookie, { secret: process.env.COOKIE_SECRET });\n';
      for (const order of ['before', 'after'] as const) {
        const source = applyEdits(`${page} main`, mainSource(page, {under: 'use-with-fastify'}), [
          [
            "import secureSession from 'fastify-secure-session';",
            "import secureSession from 'fastify-secure-session';\nimport fastifyCookie from 'fastify-cookie';",
          ],
          order === 'before'
            ? [
                '  await app.register(secureSession, {',
                register + '  await app.register(secureSession, {',
              ]
            : [/( {2}await app\.register\(secureSession, \{[\s\S]*?\}\);\n)/, '$1' + register],
          [
            'await app.listen(3000);',
            "await app.listen(0, '127.0.0.1');\n  console.log('LISTENING ON');",
          ],
        ]);
        const js = ts.transpileModule(source, {
          compilerOptions: {module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2017},
        }).outputText;
        const child = startChild(dir, `main-${order}.js`, js, {
          SESSION_SECRET: 'a-passphrase-of-at-least-thirty-two-characters',
          SESSION_SALT: 'mq9hDxBVDbspDR6n',
          COOKIE_SECRET: 'another-long-random-secret',
        });
        try {
          expect(await child.exited(15_000), order).toEqual({code: 1, signal: null});
          expect(child.output()).not.toContain('LISTENING ON');
          const line = child.output().match(/^FastifyError \[Error\]: .*$/m)?.[0] ?? child.output();
          expectOutput(page, 'session-cookie-twice', line);
        } finally {
          await child.stop();
        }
      }
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  },
);

claim.abuse(
  `${page}#cookies-next-to-the-session`,
  "with the page's Fastify main alone, a signed cookie is signed with an empty key: a value the client signs itself passes unsignCookie() as valid",
  async () => {
    const {sign} = nest('cookie-signature');
    const {PrefsController} = compileModule<any>(`
import { Controller, Get, Req, Res } from '@nestjs/common';
@Controller('prefs')
export class PrefsController {
  @Get('set')
  set(@Res({ passthrough: true }) reply: any) {
    reply.setCookie('userId', '42', { path: '/', signed: true });
    return { saved: true };
  }
  @Get('who')
  who(@Req() request: any) {
    return request.unsignCookie(request.cookies.userId);
  }
}
`);
    const app = await bootMain(page, appModule(PrefsController), {under: 'use-with-fastify'});
    close = () => app.close();
    const base = await listen(app);
    const set = cookiesOf(await fetch(`${base}/prefs/set`));
    expect(decodeURIComponent(set)).toBe(`userId=${sign('42', '')}`);
    const forged = `userId=${encodeURIComponent(sign('1', ''))}`;
    expect(await (await fetch(`${base}/prefs/who`, {headers: {cookie: forged}})).json()).toEqual({
      valid: true,
      renew: false,
      value: '1',
    });
  },
);

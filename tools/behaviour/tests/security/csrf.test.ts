import {afterEach, describe, expect} from 'vitest';
import {claim, nest, listen, fragment, memoryLogger, expectOutput, compileModule} from '../../lib';
import {testSecret} from './_security';

const {Module, Controller, Get, Post, Put, Delete, Req} = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const {FastifyAdapter} = nest('@nestjs/platform-fastify');
const page = 'docs/security/csrf.md';
// The signed-cookie samples read the cookie secret from the environment.
process.env.COOKIE_SECRET = testSecret;

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** Runs a fragment of the page with `app` and the packages it imports. */
function run(code: string, app: any, packages: Record<string, unknown>) {
  const body = code.replace(/^import .*$/gm, '');
  return new Function('app', ...Object.keys(packages), `return (async () => {\n${body}\n})();`)(
    app,
    ...Object.values(packages),
  );
}

/** A cookie jar of one: the cookies of the last Set-Cookie headers. */
function cookiesOf(response: Response, jar: Record<string, string> = {}): Record<string, string> {
  for (const line of setCookies(response)) {
    const [pair] = line.split(';');
    const [name, ...value] = pair.split('=');
    if (name) jar[name.trim()] = value.join('=');
  }
  return jar;
}
const setCookies = (response: Response): string[] =>
  (response.headers as any).getSetCookie?.() ?? [response.headers.get('set-cookie') ?? ''];
const cookieHeader = (jar: Record<string, string>) =>
  Object.entries(jar)
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');

/** A token made by a client from a secret of its own choosing (csurf's and fastify-csrf's libraries). */
const csurfTokens = new (nest('csrf'))();
const fastifyTokens = new (nest('@fastify/csrf'))();

describe('Express: csurf', () => {
  let deletions = 0;
  @Controller()
  class FormController {
    @Get('form')
    form(@Req() req: any) {
      return {token: req.csrfToken()};
    }
    @Post('transfer')
    transfer() {
      return 'done';
    }
    /** A route that changes data on GET, which the page says never to write. */
    @Get('delete-account')
    deleteAccount() {
      deletions += 1;
      return 'deleted';
    }
  }
  @Module({controllers: [FormController]})
  class AppModule {}

  async function start(setup: (app: any) => unknown, logger: any = false) {
    const app = await NestFactory.create(AppModule, {logger});
    close = () => app.close();
    await setup(app);
    return listen(app);
  }
  /** The page's signed-cookie lines: cookieParser(COOKIE_SECRET), then csurf with signed options. */
  const signedSetup = (app: any) =>
    run(fragment(page, 'use-with-express-default', 'app.use(cookieParser(').value, app, {
      cookieParser: nest('cookie-parser'),
      csurf: nest('csurf'),
    });
  /** A visitor: GET /form, and the cookie and token it received. */
  async function visitor(base: string) {
    const form = await fetch(`${base}/form`);
    return {cookie: cookieHeader(cookiesOf(form)), token: (await form.json()).token as string};
  }
  const transfer = (base: string, headers: Record<string, string>) =>
    fetch(`${base}/transfer`, {method: 'POST', headers});

  claim(
    `${page}#use-with-express-default`,
    'csurf() without a session or cookie-parser: every request fails with "misconfigured csrf" (500)',
    async () => {
      const memory = memoryLogger();
      const base = await start(
        (app) =>
          run(fragment(page, 'use-with-express-default', 'app.use(csurf());').value, app, {
            csurf: nest('csurf'),
          }),
        memory.logger,
      );
      expect((await fetch(`${base}/form`)).status).toBe(500);
      expect(memory.lines.some((line) => line.message === 'misconfigured csrf')).toBe(true);
    },
  );

  claim(
    `${page}#use-with-express-default`,
    'GET is not checked and hands out req.csrfToken(); the token is accepted in the query (_csrf) and the CSRF-Token / X-CSRF-Token headers',
    async () => {
      const base = await start(signedSetup);
      const {cookie, token} = await visitor(base);
      const attempts = [
        fetch(`${base}/transfer?_csrf=${encodeURIComponent(token)}`, {
          method: 'POST',
          headers: {cookie},
        }),
        transfer(base, {cookie, 'csrf-token': token}),
        transfer(base, {cookie, 'x-csrf-token': token}),
      ];
      for (const response of await Promise.all(attempts)) expect(response.status).toBe(201);
    },
  );

  claim(
    `${page}#use-with-express-default`,
    'a missing or wrong token: 403 with the JSON body the page shows',
    async () => {
      const base = await start(signedSetup);
      const {cookie} = await visitor(base);
      for (const headers of [{cookie}, {cookie, 'x-csrf-token': 'forged'}] as Record<
        string,
        string
      >[]) {
        const response = await transfer(base, headers);
        expect(response.status).toBe(403);
        expectOutput(page, 'csrf-error', await response.json());
      }
    },
  );

  claim(
    `${page}#use-with-express-default`,
    "the page's secret cookie: named __Host-csrf with Secure, Path=/ and no Domain (what browsers require of the prefix), signed (s:...), HttpOnly, SameSite=Lax",
    async () => {
      const base = await start(signedSetup);
      const lines = setCookies(await fetch(`${base}/form`));
      expect(lines).toHaveLength(1);
      const line = lines[0];
      expect(decodeURIComponent(line.split(';')[0])).toMatch(/^__Host-csrf=s:/);
      expect(line).toMatch(/; Path=\/(;|$)/);
      expect(line).toMatch(/; Secure/);
      expect(line).not.toMatch(/; Domain=/i);
      expect(line).toMatch(/; HttpOnly/);
      expect(line).toMatch(/; SameSite=Lax/);
    },
  );

  claim.abuse(
    `${page}#use-with-express-default`,
    "signing refuses only secrets the server never issued: the attacker's own signed cookie from your server, planted ahead of the victim's, passes with his token (201); the secret in the session refuses his token (403)",
    async () => {
      const base = await start(signedSetup);
      const attacker = await visitor(base);
      const victim = await visitor(base);
      // The Cookie header of a browser that holds both: the planted one (longer path) comes first.
      const both = `${attacker.cookie}; ${victim.cookie}`;
      const forged = await transfer(base, {cookie: both, 'x-csrf-token': attacker.token});
      // Read the body: an unread response keeps its connection, and app.close() waits for it.
      expect([forged.status, await forged.text()]).toEqual([201, 'done']);
      await close?.();
      const inSession = await start((app) => {
        app.use(
          nest('express-session')({secret: testSecret, resave: false, saveUninitialized: true}),
        );
        return run(fragment(page, 'use-with-express-default', 'app.use(csurf());').value, app, {
          csurf: nest('csurf'),
        });
      });
      const mallory = await visitor(inSession);
      const alice = await visitor(inSession);
      const refused = await transfer(inSession, {
        cookie: alice.cookie,
        'x-csrf-token': mallory.token,
      });
      expect([refused.status, (await refused.json()).message]).toEqual([403, 'invalid csrf token']);
    },
  );

  claim.abuse(
    `${page}#use-with-express-default`,
    'a request that arrives without the secret cookie (as under SameSite=Strict after a link from another site) gets a new secret, and the token of a form opened before then fails with 403',
    async () => {
      const base = await start(signedSetup);
      const before = await visitor(base);
      const arrival = await fetch(`${base}/form`);
      const replaced = cookieHeader(cookiesOf(arrival));
      expect(replaced).toMatch(/^__Host-csrf=/);
      expect(replaced).not.toBe(before.cookie);
      expect((await transfer(base, {cookie: replaced, 'x-csrf-token': before.token})).status).toBe(
        403,
      );
    },
  );

  claim.abuse(
    `${page}#use-with-express-default`,
    "a token taken from another visitor's page, sent with one's own cookie: 403",
    async () => {
      const base = await start(signedSetup);
      const alice = await visitor(base);
      const mallory = await visitor(base);
      expect(
        (await transfer(base, {cookie: alice.cookie, 'x-csrf-token': mallory.token})).status,
      ).toBe(403);
      expect(
        (await transfer(base, {cookie: alice.cookie, 'x-csrf-token': alice.token})).status,
      ).toBe(201);
    },
  );

  claim.abuse(
    `${page}#use-with-express-default`,
    'a token is not used up: the same token passes three times in a row, as long as the secret cookie is the same',
    async () => {
      const base = await start(signedSetup);
      const {cookie, token} = await visitor(base);
      for (let i = 0; i < 3; i += 1)
        expect((await transfer(base, {cookie, 'x-csrf-token': token})).status).toBe(201);
    },
  );

  claim.abuse(
    `${page}#csrf-protection`,
    "with the CORS chapter's origin: true and credentials: true, a foreign page may read the token response, and its forged POST with that token passes",
    async () => {
      const base = await start((app) => {
        app.enableCors({origin: true, credentials: true});
        return signedSetup(app);
      });
      const victim = await visitor(base);
      const read = await fetch(`${base}/form`, {
        headers: {origin: 'https://evil.example.com', cookie: victim.cookie},
      });
      expect(read.headers.get('access-control-allow-origin')).toBe('https://evil.example.com');
      expect(read.headers.get('access-control-allow-credentials')).toBe('true');
      const {token} = await read.json();
      const forged = await transfer(base, {
        origin: 'https://evil.example.com',
        cookie: victim.cookie,
        'x-csrf-token': token,
      });
      expect(forged.status).toBe(201);
    },
  );

  claim.abuse(
    `${page}#use-with-express-default`,
    'a planted secret cookie (a secret the server never issued) with a token made from it passes csurf({ cookie: true }), and is refused (403) with the signed cookie of the page',
    async () => {
      const secret = csurfTokens.secretSync();
      const token = csurfTokens.create(secret);
      const plain = await start((app) => {
        app.use(nest('cookie-parser')());
        app.use(nest('csurf')({cookie: true}));
      });
      expect(
        (await transfer(plain, {cookie: `_csrf=${secret}`, 'x-csrf-token': token})).status,
      ).toBe(201);
      await close?.();
      const signed = await start(signedSetup);
      expect(
        (await transfer(signed, {cookie: `__Host-csrf=${secret}`, 'x-csrf-token': token})).status,
      ).toBe(403);
    },
  );

  claim.abuse(
    `${page}#use-with-express-default`,
    'a route that changes data on GET runs for a cross-site request without any token or cookie',
    async () => {
      const base = await start(signedSetup);
      deletions = 0;
      const response = await fetch(`${base}/delete-account`, {
        headers: {origin: 'https://evil.example.com'},
      });
      expect(response.status).toBe(200);
      expect(deletions).toBe(1);
    },
  );

  claim.failure(
    `${page}#use-with-express-default`,
    'COOKIE_SECRET missing or short: the page\'s lines throw before registering anything; without the check, csurf would answer every request, GET included, with 500 "misconfigured csrf"',
    async () => {
      const refused = 'Set COOKIE_SECRET to a random value of at least 32 characters';
      for (const value of [undefined, '', 'secret']) {
        if (value === undefined) delete process.env.COOKIE_SECRET;
        else process.env.COOKIE_SECRET = value;
        try {
          await expect(start(signedSetup)).rejects.toThrow(refused);
        } finally {
          process.env.COOKIE_SECRET = testSecret;
        }
        await close?.();
        close = undefined;
      }
      const memory = memoryLogger();
      const base = await start((app) => {
        app.use(nest('cookie-parser')(undefined));
        app.use(nest('csurf')({cookie: {signed: true, httpOnly: true, sameSite: 'strict'}}));
      }, memory.logger);
      expect((await fetch(`${base}/form`)).status).toBe(500);
      expect((await transfer(base, {})).status).toBe(500);
      expect(memory.lines.some((line) => line.message === 'misconfigured csrf')).toBe(true);
    },
  );

  describe('the secret in the session (csurf() after session middleware)', () => {
    const sessionSetup = (app: any) => {
      app.use(
        nest('express-session')({secret: testSecret, resave: false, saveUninitialized: true}),
      );
      return run(fragment(page, 'use-with-express-default', 'app.use(csurf());').value, app, {
        csurf: nest('csurf'),
      });
    };

    claim.abuse(
      `${page}#use-with-express-default`,
      "session storage: a token works only with the session it was issued to; another session's token or no session cookie gets 403",
      async () => {
        const base = await start(sessionSetup);
        const alice = await visitor(base);
        const bob = await visitor(base);
        expect(
          (await transfer(base, {cookie: alice.cookie, 'x-csrf-token': alice.token})).status,
        ).toBe(201);
        expect(
          (await transfer(base, {cookie: alice.cookie, 'x-csrf-token': bob.token})).status,
        ).toBe(403);
        expect((await transfer(base, {'x-csrf-token': alice.token})).status).toBe(403);
      },
    );
  });

  claim(
    `${page}#use-with-express-default`,
    "a _csrf body field is not seen when Nest's own body parser runs after csurf; parsing the body first (the page's lines) makes it work",
    async () => {
      const post = (base: string, cookie: string, token: string) =>
        fetch(`${base}/transfer`, {
          method: 'POST',
          headers: {cookie, 'content-type': 'application/x-www-form-urlencoded'},
          body: `_csrf=${encodeURIComponent(token)}`,
        });
      const late = await start(signedSetup);
      let who = await visitor(late);
      expect((await post(late, who.cookie, who.token)).status).toBe(403);
      await close?.();
      const early = await start(async (app) => {
        app.use(nest('cookie-parser')(process.env.COOKIE_SECRET));
        await run(fragment(page, 'use-with-express-default', 'app.use(urlencoded').value, app, {
          json: nest('express').json,
          urlencoded: nest('express').urlencoded,
          csurf: nest('csurf'),
        });
      });
      who = await visitor(early);
      expect((await post(early, who.cookie, who.token)).status).toBe(201);
    },
  );

  claim.abuse(
    `${page}#use-with-express-default`,
    'a multipart/form-data form: its _csrf field is not parsed and the post gets 403; the same token in a header passes',
    async () => {
      const base = await start(async (app) => {
        app.use(nest('cookie-parser')(process.env.COOKIE_SECRET));
        await run(fragment(page, 'use-with-express-default', 'app.use(urlencoded').value, app, {
          json: nest('express').json,
          urlencoded: nest('express').urlencoded,
          csurf: nest('csurf'),
        });
      });
      const {cookie, token} = await visitor(base);
      const form = new FormData();
      form.append('_csrf', token);
      form.append('amount', '100');
      const multipart = await fetch(`${base}/transfer`, {
        method: 'POST',
        headers: {cookie},
        body: form,
      });
      expect(multipart.status).toBe(403);
      expect((await transfer(base, {cookie, 'csrf-token': token})).status).toBe(201);
    },
  );
});

describe('Tokens and logins', () => {
  const {Passport} = nest('passport');
  /** Passport 0.6's req.logIn(), which regenerates the session, on an authenticator of its own. */
  const passport = new Passport();
  passport.serializeUser((user: unknown, done: (e: null, u: unknown) => void) => done(null, user));
  passport.deserializeUser((user: unknown, done: (e: null, u: unknown) => void) =>
    done(null, user),
  );
  @Controller()
  class LoginController {
    @Get('form')
    form(@Req() req: any) {
      return {token: req.csrfToken()};
    }
    @Post('login')
    login(@Req() req: any) {
      return new Promise((resolve, reject) =>
        req.logIn({id: 1}, (error: unknown) => (error ? reject(error) : resolve({in: true}))),
      );
    }
    @Post('transfer')
    transfer() {
      return 'done';
    }
  }
  @Module({controllers: [LoginController]})
  class LoginModule {}
  async function start(setup: (app: any) => unknown) {
    const app = await NestFactory.create(LoginModule, {logger: false});
    close = () => app.close();
    await setup(app);
    return listen(app);
  }
  /** Before the login: a form and its token; then the login (with that token), then a transfer. */
  async function tokenAcrossLogin(base: string) {
    const jar: Record<string, string> = {};
    const form = await fetch(`${base}/form`);
    cookiesOf(form, jar);
    const {token} = await form.json();
    const login = await fetch(`${base}/login`, {
      method: 'POST',
      headers: {cookie: cookieHeader(jar), 'x-csrf-token': token},
    });
    expect(login.status).toBe(201);
    await login.text();
    cookiesOf(login, jar);
    const after = await fetch(`${base}/transfer`, {
      method: 'POST',
      headers: {cookie: cookieHeader(jar), 'x-csrf-token': token},
    });
    const fresh = await fetch(`${base}/form`, {headers: {cookie: cookieHeader(jar)}});
    cookiesOf(fresh, jar);
    const renewed = await fetch(`${base}/transfer`, {
      method: 'POST',
      headers: {cookie: cookieHeader(jar), 'x-csrf-token': (await fresh.json()).token},
    });
    await Promise.all([after.text(), renewed.text()]);
    return {before: after.status, renewed: renewed.status};
  }

  claim(
    `${page}#tokens-and-logins`,
    'secret in the session: a login that regenerates the session (Passport 0.6 logIn) makes the earlier token fail (403), a token fetched after it passes',
    async () => {
      const base = await start((app) => {
        app.use(
          nest('express-session')({secret: testSecret, resave: false, saveUninitialized: false}),
        );
        app.use(passport.initialize());
        app.use(passport.session());
        return run(fragment(page, 'use-with-express-default', 'app.use(csurf());').value, app, {
          csurf: nest('csurf'),
        });
      });
      expect(await tokenAcrossLogin(base)).toEqual({before: 403, renewed: 201});
    },
  );

  claim(
    `${page}#tokens-and-logins`,
    "secret in the page's signed cookie: the token from before the login still passes after it",
    async () => {
      const base = await start(async (app) => {
        app.use(
          nest('express-session')({secret: testSecret, resave: false, saveUninitialized: false}),
        );
        app.use(passport.initialize());
        app.use(passport.session());
        await run(fragment(page, 'use-with-express-default', 'app.use(cookieParser(').value, app, {
          cookieParser: nest('cookie-parser'),
          csurf: nest('csurf'),
        });
      });
      expect(await tokenAcrossLogin(base)).toEqual({before: 201, renewed: 201});
    },
  );
});

describe('Fastify: fastify-csrf', () => {
  // The page's token route, in a controller of the test.
  const tokenRoute = fragment(page, 'use-with-fastify', 'reply.generateCsrf()').value;
  const {AppModule} = compileModule(
    `
import { Controller, Delete, Get, Module, Post, Put, Res } from '@nestjs/common';
import { FastifyReply } from 'fastify';
@Controller()
class FormController {
${tokenRoute}
  @Post('transfer')
  transfer() {
    return 'done';
  }
  @Put('transfer')
  replace() {
    return 'replaced';
  }
  @Delete('transfer')
  remove() {
    return 'removed';
  }
}
@Module({ controllers: [FormController] })
export class AppModule {}
`,
    'csrf-fastify',
  );
  void Put;
  void Delete;

  /** The page's plugin registration, then (with `hook`) its hook, as onRequest or as preHandler. */
  async function start(hook: false | 'onRequest' | 'preHandler', plugins?: (app: any) => unknown) {
    const app = await NestFactory.create(AppModule, new FastifyAdapter(), {logger: false});
    close = () => app.close();
    if (plugins) await plugins(app);
    else
      await run(fragment(page, 'use-with-fastify', 'await app.register(fastifyCsrf').value, app, {
        fastifyCookie: nest('fastify-cookie'),
        fastifyCsrf: nest('fastify-csrf'),
      });
    if (hook)
      await run(
        fragment(page, 'use-with-fastify', "addHook('onRequest'").value.replace('onRequest', hook),
        app,
        {},
      );
    return listen(app);
  }
  async function client(base: string) {
    const issued = await fetch(`${base}/csrf-token`);
    return {cookie: cookieHeader(cookiesOf(issued)), token: (await issued.json()).token as string};
  }
  const post = (base: string, headers: Record<string, string>, path = '/transfer') =>
    fetch(`${base}${path}`, {method: 'POST', headers});

  claim(
    `${page}#use-with-fastify`,
    'registering the plugins alone checks nothing: a POST without a token goes through',
    async () => {
      const base = await start(false);
      expect((await fetch(`${base}/transfer`, {method: 'POST'})).status).toBe(201);
    },
  );

  claim(
    `${page}#use-with-fastify`,
    'with the onRequest hook: POST without the secret cookie or without the token is refused with 403, with both it passes; GET is not checked',
    async () => {
      const base = await start('onRequest');
      const {cookie, token} = await client(base);
      const noSecret = await post(base, {'csrf-token': token});
      expect(noSecret.status).toBe(403);
      expect(await noSecret.json()).toMatchObject({
        statusCode: 403,
        message: 'Missing csrf secret',
      });
      const noToken = await post(base, {cookie});
      expect(noToken.status).toBe(403);
      expect(await noToken.json()).toMatchObject({statusCode: 403, message: 'Invalid csrf token'});
      expect((await post(base, {cookie, 'x-csrf-token': token})).status).toBe(201);
    },
  );

  claim(
    `${page}#use-with-fastify`,
    "the page's cookieKey and cookieOpts: the secret cookie is __Host-csrf, signed, Secure, on path / without a Domain, HttpOnly, SameSite=Lax",
    async () => {
      const base = await start('onRequest');
      const lines = setCookies(await fetch(`${base}/csrf-token`));
      expect(lines).toHaveLength(1);
      const line = lines[0];
      expect(line.split(';')[0]).toMatch(/^__Host-csrf=[^;]+\.[A-Za-z0-9%+/=_-]+$/);
      expect(line).toMatch(/; Path=\/(;|$)/);
      expect(line).toMatch(/; Secure/);
      expect(line).not.toMatch(/; Domain=/i);
      expect(line).toMatch(/; HttpOnly/);
      expect(line).toMatch(/; SameSite=Lax/);
    },
  );

  claim.abuse(
    `${page}#use-with-fastify`,
    "a planted _csrf cookie with a token made from it passes the plugin's default (unsigned) cookie, and gets 403 with the page's signed cookie",
    async () => {
      const secret = fastifyTokens.secretSync();
      const token = fastifyTokens.create(secret);
      const defaults = await start('onRequest', async (app) => {
        await app.register(nest('fastify-cookie'));
        await app.register(nest('fastify-csrf'));
      });
      expect(
        (await post(defaults, {cookie: `_csrf=${secret}`, 'x-csrf-token': token})).status,
      ).toBe(201);
      await close?.();
      const signed = await start('onRequest');
      expect(
        (await post(signed, {cookie: `__Host-csrf=${secret}`, 'x-csrf-token': token})).status,
      ).toBe(403);
    },
  );

  claim.abuse(
    `${page}#use-with-fastify`,
    "a signed cookie that the server issued to the attacker, planted ahead of the victim's, passes with his token (201): only the __Host- name (in the browser) or a session stops it",
    async () => {
      const base = await start('onRequest');
      const attacker = await client(base);
      const victim = await client(base);
      expect(
        (
          await post(base, {
            cookie: `${attacker.cookie}; ${victim.cookie}`,
            'x-csrf-token': attacker.token,
          })
        ).status,
      ).toBe(201);
    },
  );

  claim.abuse(
    `${page}#use-with-fastify`,
    "another client's token with one's own secret cookie: 403",
    async () => {
      const base = await start('onRequest');
      const alice = await client(base);
      const mallory = await client(base);
      expect((await post(base, {cookie: alice.cookie, 'x-csrf-token': mallory.token})).status).toBe(
        403,
      );
    },
  );

  claim.abuse(
    `${page}#use-with-fastify`,
    'fastify-csrf never reads the query string: a valid token in ?_csrf= gets 403',
    async () => {
      const base = await start('onRequest');
      const {cookie, token} = await client(base);
      expect(
        (await post(base, {cookie}, `/transfer?_csrf=${encodeURIComponent(token)}`)).status,
      ).toBe(403);
    },
  );

  claim.abuse(
    `${page}#use-with-fastify`,
    'a _csrf form field: refused by the onRequest hook (the body is not parsed yet), accepted by the same hook as preHandler',
    async () => {
      const send = (base: string, cookie: string, token: string) =>
        fetch(`${base}/transfer`, {
          method: 'POST',
          headers: {cookie, 'content-type': 'application/json'},
          body: JSON.stringify({_csrf: token}),
        });
      const onRequest = await start('onRequest');
      let who = await client(onRequest);
      expect((await send(onRequest, who.cookie, who.token)).status).toBe(403);
      await close?.();
      const preHandler = await start('preHandler');
      who = await client(preHandler);
      expect((await send(preHandler, who.cookie, who.token)).status).toBe(201);
    },
  );

  claim.abuse(
    `${page}#use-with-fastify`,
    'PUT and DELETE are checked like POST, and a POST to a route that does not exist gets 403, not 404',
    async () => {
      const base = await start('onRequest');
      for (const method of ['PUT', 'DELETE'])
        expect((await fetch(`${base}/transfer`, {method})).status, method).toBe(403);
      expect((await post(base, {}, '/no-such-route')).status).toBe(403);
    },
  );

  claim.failure(
    `${page}#use-with-fastify`,
    "COOKIE_SECRET missing or short: the page's bootstrap throws before registering the plugins; without that check, fastify-cookie signs with an empty key and a cookie planted with it passes",
    async () => {
      const refused = 'Set COOKIE_SECRET to a random value of at least 32 characters';
      for (const value of [undefined, '', 'secret']) {
        if (value === undefined) delete process.env.COOKIE_SECRET;
        else process.env.COOKIE_SECRET = value;
        try {
          await expect(start('onRequest')).rejects.toThrow(refused);
        } finally {
          process.env.COOKIE_SECRET = testSecret;
        }
        await close?.();
        close = undefined;
      }
      // The same registration without the check, as the plugin behaves without a secret.
      const base = await start('onRequest', async (app) => {
        await app.register(nest('fastify-cookie'), {secret: undefined});
        await app.register(nest('fastify-csrf'), {
          cookieOpts: {path: '/', sameSite: true, httpOnly: true, signed: true},
        });
      });
      const secret = fastifyTokens.secretSync();
      const signedWithNothing = nest('cookie-signature').sign(secret, '');
      const planted = await post(base, {
        cookie: `_csrf=${encodeURIComponent(signedWithNothing)}`,
        'x-csrf-token': fastifyTokens.create(secret),
      });
      expect(planted.status).toBe(201);
    },
  );
});

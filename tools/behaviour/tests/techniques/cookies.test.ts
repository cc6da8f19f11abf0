import {afterAll, afterEach, beforeEach, expect} from 'vitest';
import {claim, compileModule, fragment, listen, nest, samples} from '../../lib';
import {bootMain} from './_boot';

const {Module, Controller, Get} = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const {FastifyAdapter} = nest('@nestjs/platform-fastify');
const cookieParser = nest('cookie-parser');
const fastifyCookie = nest('fastify-cookie');
const signature = nest('cookie-signature');
const page = 'docs/techniques/cookies.md';
const secret = 'a-long-random-secret';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** The page's main files read COOKIE_SECRET; the bench sets it to the test's secret unless a claim removes it. */
beforeEach(() => {
  process.env.COOKIE_SECRET = secret;
});
afterAll(() => {
  delete process.env.COOKIE_SECRET;
});

function appModule(controller: unknown): unknown {
  @Module({controllers: [controller as any]})
  class AppModule {}
  return AppModule;
}

/** The Express main of the page (cookieParser with the page's secret) around a controller of the page. */
async function expressApp(under: string): Promise<string> {
  const {CatsController} = samples(page, {pick: {'cats.controller': 2}}).require('cats.controller');
  const app = await bootMain(page, appModule(CatsController), {under});
  close = () => app.close();
  return listen(app);
}

async function withParser(controller: unknown, parser: unknown): Promise<string> {
  @Module({controllers: [controller as any]})
  class AppModule {}
  const app = await NestFactory.create(AppModule, {logger: false});
  app.use(parser);
  close = () => app.close();
  return listen(app);
}

async function fastifyWith(controller: unknown): Promise<string> {
  @Module({controllers: [controller as any]})
  class AppModule {}
  const app = await NestFactory.create(AppModule, new FastifyAdapter(), {logger: false});
  await app.register(fastifyCookie, {secret});
  close = () => app.close();
  return listen(app);
}

const signed = (value: string, key = secret) => `s:${signature.sign(value, key)}`;
const cookieHeader = (cookies: Record<string, string>) =>
  Object.entries(cookies)
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
    .join('; ');

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#use-with-express-default`,
    `request.cookies holds plain cookies and request.signedCookies the valid signed ones (${lang})`,
    async () => {
      const {CatsController} = samples(page, {pick: {'cats.controller': 1}, lang}).require(
        'cats.controller',
      );
      const base = await withParser(CatsController, cookieParser(secret));
      const response = await fetch(`${base}/cats`, {
        headers: {cookie: cookieHeader({theme: 'dark', userId: signed('42')})},
      });
      expect(await response.json()).toEqual({theme: 'dark', userId: '42'});
    },
  );
}

claim(
  `${page}#use-with-express-default`,
  "the page's main registers cookie-parser with its secret",
  async () => {
    const base = await expressApp('use-with-express-default');
    const response = await fetch(`${base}/cats/preferences`);
    const cookies = response.headers.get('set-cookie') ?? '';
    expect(cookies).toContain(`userId=${encodeURIComponent(signed('42'))}`);
  },
);

claim(
  `${page}#use-with-express-default`,
  'a signed cookie with a wrong signature appears in signedCookies as false',
  async () => {
    const {CatsController} = samples(page, {pick: {'cats.controller': 1}}).require(
      'cats.controller',
    );
    const base = await withParser(CatsController, cookieParser(secret));
    const response = await fetch(`${base}/cats`, {
      headers: {cookie: cookieHeader({userId: signed('42', 'another-secret')})},
    });
    expect(await response.json()).toEqual({userId: false});
  },
);

claim(
  `${page}#use-with-express-default`,
  'with an array of secrets, a cookie signed with any of them is accepted',
  async () => {
    const {CatsController} = samples(page, {pick: {'cats.controller': 1}}).require(
      'cats.controller',
    );
    const base = await withParser(CatsController, cookieParser(['new-secret', secret]));
    const response = await fetch(`${base}/cats`, {
      headers: {cookie: cookieHeader({userId: signed('42', secret)})},
    });
    expect(await response.json()).toEqual({userId: '42'});
  },
);

claim(
  `${page}#use-with-express-default`,
  'without a secret, a signed cookie stays in the plain cookies, unchecked',
  async () => {
    const {CatsController} = samples(page, {pick: {'cats.controller': 1}}).require(
      'cats.controller',
    );
    const base = await withParser(CatsController, cookieParser());
    const response = await fetch(`${base}/cats`, {
      headers: {cookie: cookieHeader({theme: signed('dark'), userId: signed('42')})},
    });
    expect(await response.json()).toEqual({theme: signed('dark')});
  },
);

claim(
  `${page}#use-with-express-default`,
  'a value starting with j: is parsed as JSON, in both objects',
  async () => {
    const {CatsController} = samples(page, {pick: {'cats.controller': 1}}).require(
      'cats.controller',
    );
    const base = await withParser(CatsController, cookieParser(secret));
    const response = await fetch(`${base}/cats`, {
      headers: {cookie: cookieHeader({theme: 'j:{"name":"dark"}', userId: signed('j:{"id":42}')})},
    });
    expect(await response.json()).toEqual({theme: {name: 'dark'}, userId: {id: 42}});
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#use-with-express-default`,
    `response.cookie() under @Res({ passthrough: true }) sets the cookies and the handler's value is still sent (${lang})`,
    async () => {
      const {CatsController} = samples(page, {pick: {'cats.controller': 2}, lang}).require(
        'cats.controller',
      );
      const base = await withParser(CatsController, cookieParser(secret));
      const response = await fetch(`${base}/cats/preferences`);
      expect(await response.json()).toEqual({saved: true});
      const cookies = response.headers.get('set-cookie') ?? '';
      expect(cookies).toMatch(/theme=dark; Max-Age=604800; Path=\/; Expires=/);
      // signed with the (first) secret
      expect(cookies).toContain(`userId=${encodeURIComponent(signed('42'))};`);
    },
  );
}

claim(
  `${page}#use-with-express-default`,
  'signed: true without a secret given to cookieParser() fails the request',
  async () => {
    const {CatsController} = samples(page, {pick: {'cats.controller': 2}}).require(
      'cats.controller',
    );
    const base = await withParser(CatsController, cookieParser());
    const response = await fetch(`${base}/cats/preferences`);
    expect(response.status).toBe(500);
  },
);

claim(
  `${page}#use-with-express-default`,
  'with a plain @Res() the return value is ignored: nothing is sent until the handler ends the response',
  async () => {
    const {CatsController} = compileModule<any>(`
import { Controller, Get, Res } from '@nestjs/common';
@Controller('cats')
export class CatsController {
  @Get('preferences')
  savePreferences(@Res() response: any) {
    response.cookie('theme', 'dark');
    return { saved: true };
  }
}
`);
    const base = await withParser(CatsController, cookieParser(secret));
    const outcome = await fetch(`${base}/cats/preferences`, {
      signal: AbortSignal.timeout(700),
    }).then(
      () => 'answered',
      (error: Error) => error.name,
    );
    expect(outcome).toBe('TimeoutError');
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#use-with-fastify`,
    `fastify-cookie: request.cookies is read and reply.setCookie() sets the cookie (${lang})`,
    async () => {
      const {CatsController} = samples(page, {pick: {'cats.controller': 3}, lang}).require(
        'cats.controller',
      );
      const base = await fastifyWith(CatsController);
      const read = await fetch(`${base}/cats`, {headers: {cookie: 'theme=dark'}});
      expect(await read.json()).toEqual({theme: 'dark'});
      const write = await fetch(`${base}/cats/preferences`);
      expect(await write.json()).toEqual({saved: true});
      expect(write.headers.get('set-cookie')).toBe('theme=dark; Path=/; HttpOnly');
    },
  );
}

claim(
  `${page}#use-with-fastify`,
  "the page's Fastify main registers fastify-cookie with its secret",
  async () => {
    const {CatsController} = samples(page, {pick: {'cats.controller': 3}}).require(
      'cats.controller',
    );
    const app = await bootMain(page, appModule(CatsController), {under: 'use-with-fastify'});
    close = () => app.close();
    const base = await listen(app);
    const read = await fetch(`${base}/cats`, {headers: {cookie: 'theme=dark'}});
    expect(await read.json()).toEqual({theme: 'dark'});
  },
);

function unsignController(): any {
  const body = fragment(page, 'use-with-fastify', 'unsignCookie').value;
  return compileModule<any>(`
import { Controller, Get, Req, Res, UnauthorizedException } from '@nestjs/common';
@Controller('me')
export class MeController {
  @Get()
  me(@Req() request: any) {
${body}
  }
  @Get('login')
  login(@Res({ passthrough: true }) reply: any) {
    reply.setCookie('userId', '42', { path: '/', signed: true });
    return { ok: true };
  }
}
`).MeController;
}

claim(
  `${page}#use-with-fastify`,
  'a cookie set with { signed: true } carries its signature; unsignCookie() gives { valid: true, value }',
  async () => {
    const base = await fastifyWith(unsignController());
    const login = await fetch(`${base}/me/login`);
    const setCookie = login.headers.get('set-cookie')!;
    const raw = /userId=([^;]+)/.exec(setCookie)![1];
    expect(decodeURIComponent(raw)).toBe(signature.sign('42', secret));
    const me = await fetch(`${base}/me`, {headers: {cookie: `userId=${raw}`}});
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual({userId: '42'});
  },
);

claim(
  `${page}#use-with-fastify`,
  'a tampered cookie gives valid: false, and the UnauthorizedException a 401',
  async () => {
    const base = await fastifyWith(unsignController());
    const me = await fetch(`${base}/me`, {
      headers: {cookie: `userId=${encodeURIComponent(signature.sign('1', 'guess'))}`},
    });
    expect(me.status).toBe(401);
    expect((await me.json()).message).toBe('The userId cookie was tampered with');
  },
);

claim(
  `${page}#use-with-fastify`,
  'without the cookie, the guarded fragment answers 401 instead of unsignCookie(undefined) throwing (500)',
  async () => {
    const base = await fastifyWith(unsignController());
    const me = await fetch(`${base}/me`);
    expect(me.status).toBe(401);
    // What the guard prevents: fastify-cookie 5 throws on an undefined value.
    const {MeController} = compileModule<any>(`
import { Controller, Get, Req } from '@nestjs/common';
@Controller('me')
export class MeController {
  @Get()
  me(@Req() request: any) {
    return request.unsignCookie(request.cookies['userId']);
  }
  @Get('error')
  error(@Req() request: any) {
    try {
      request.unsignCookie(undefined);
      return {};
    } catch (error) {
      return { name: error.name, message: error.message };
    }
  }
}
`);
    await close?.();
    const unguarded = await fastifyWith(MeController);
    expect((await fetch(`${unguarded}/me`)).status).toBe(500);
    expect(await (await fetch(`${unguarded}/me/error`)).json()).toEqual({
      name: 'TypeError',
      message: 'Signed cookie string must be provided.',
    });
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#creating-a-custom-decorator-cross-platform`,
    `@Cookies('theme') reads the cookie on Express and on Fastify, undefined when absent (${lang})`,
    async () => {
      const set = samples(page, {under: 'creating-a-custom-decorator-cross-platform', lang});
      const {CatsController} = set.require('cats.controller');
      for (const base of [
        () => withParser(CatsController, cookieParser(secret)),
        () => fastifyWith(CatsController),
      ]) {
        const url = await base();
        expect(
          await (await fetch(`${url}/cats`, {headers: {cookie: 'theme=dark'}})).json(),
        ).toEqual({theme: 'dark'});
        expect(await (await fetch(`${url}/cats`)).json()).toEqual({theme: 'light'});
        await close?.();
        close = undefined;
      }
    },
  );
}

claim(
  `${page}#creating-a-custom-decorator-cross-platform`,
  '@Cookies() without a name gives all cookies, and never sees Express signedCookies',
  async () => {
    const {Cookies} = samples(page, {under: 'creating-a-custom-decorator-cross-platform'}).require(
      'cookies.decorator',
    );
    const {Controller, Get} = nest('@nestjs/common');
    @Controller('all')
    class AllController {
      @Get()
      all(@Cookies() cookies: Record<string, unknown>) {
        return cookies;
      }
    }
    const base = await withParser(AllController, cookieParser(secret));
    const response = await fetch(`${base}/all`, {
      headers: {cookie: cookieHeader({theme: 'dark', userId: signed('42')})},
    });
    expect(await response.json()).toEqual({theme: 'dark'});
  },
);

claim(
  `${page}#use-with-express-default`,
  "cookieParser's options.decode replaces the function that decodes cookie values",
  async () => {
    const {CatsController} = samples(page, {pick: {'cats.controller': 1}}).require(
      'cats.controller',
    );
    const base = await withParser(
      CatsController,
      cookieParser(secret, {decode: (value: string) => decodeURIComponent(value).toUpperCase()}),
    );
    const response = await fetch(`${base}/cats`, {headers: {cookie: 'theme=dark%20blue'}});
    expect(await response.json()).toEqual({theme: 'DARK BLUE'});
  },
);

// Abuse cases and failure modes.

for (const under of ['use-with-express-default', 'use-with-fastify']) {
  claim.failure(
    `${page}#${under}`,
    `without COOKIE_SECRET the page's main refuses to start (${under === 'use-with-fastify' ? 'Fastify' : 'Express'})`,
    async () => {
      delete process.env.COOKIE_SECRET;
      const {CatsController} = samples(page, {pick: {'cats.controller': 1}}).require(
        'cats.controller',
      );
      await expect(bootMain(page, appModule(CatsController), {under})).rejects.toThrow(
        'COOKIE_SECRET is not set',
      );
    },
  );
}

claim.failure(
  `${page}#use-with-fastify`,
  'what the check prevents: fastify-cookie without a secret signs with an empty key, so a cookie the client signed itself is valid',
  async () => {
    @Module({controllers: [unsignController()]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, new FastifyAdapter(), {logger: false});
    await app.register(fastifyCookie, {});
    close = () => app.close();
    const base = await listen(app);
    const forged = `userId=${encodeURIComponent(signature.sign('admin', ''))}`;
    const me = await fetch(`${base}/me`, {headers: {cookie: forged}});
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual({userId: 'admin'});
    // The same forged cookie against the page's main, which has a secret: refused.
    await close();
    const withSecret = await bootMain(page, appModule(unsignController()), {
      under: 'use-with-fastify',
    });
    close = () => withSecret.close();
    const guarded = await listen(withSecret);
    expect((await fetch(`${guarded}/me`, {headers: {cookie: forged}})).status).toBe(401);
  },
);

claim.abuse(
  `${page}#use-with-express-default`,
  "a signature does not hide the value: the page's userId cookie carries 42 in plain text",
  async () => {
    const base = await expressApp('use-with-express-default');
    const setCookie = (await fetch(`${base}/cats/preferences`)).headers.get('set-cookie') ?? '';
    const raw = decodeURIComponent(/userId=([^;]+)/.exec(setCookie)![1]);
    expect(raw.startsWith('s:42.')).toBe(true);
  },
);

claim.abuse(
  `${page}#use-with-express-default`,
  'a signed cookie copied to another client is accepted there as the same user (no expiry, nothing to revoke)',
  async () => {
    const {CatsController: Reader} = samples(page, {pick: {'cats.controller': 1}}).require(
      'cats.controller',
    );
    // Alice gets her cookie from the page's main and writer controller...
    const base = await expressApp('use-with-express-default');
    const alice = (await fetch(`${base}/cats/preferences`)).headers.get('set-cookie') ?? '';
    const stolen = /userId=[^;]+/.exec(alice)![0];
    const reader = await withParserAgain(Reader);
    for (let i = 0; i < 3; i += 1) {
      const response = await fetch(`${reader}/cats`, {headers: {cookie: stolen}});
      expect(await response.json()).toEqual({userId: '42'});
    }
  },
);

/** A second app with the page's reader controller and cookieParser(secret), closed with the first. */
async function withParserAgain(controller: unknown): Promise<string> {
  @Module({controllers: [controller as any]})
  class ReaderModule {}
  const app = await NestFactory.create(ReaderModule, {logger: false});
  app.use(cookieParser(secret));
  const previous = close;
  close = async () => {
    await app.close();
    await previous?.();
  };
  return listen(app);
}

claim.abuse(
  `${page}#use-with-express-default`,
  "an unsigned userId made up by the client stays out of signedCookies: the page's handler sees no userId",
  async () => {
    const {CatsController} = samples(page, {pick: {'cats.controller': 1}}).require(
      'cats.controller',
    );
    const base = await withParser(CatsController, cookieParser(secret));
    const response = await fetch(`${base}/cats`, {headers: {cookie: 'userId=1; theme=dark'}});
    expect(await response.json()).toEqual({theme: 'dark'});
  },
);

claim.abuse(
  `${page}#use-with-express-default`,
  "the page's userId cookie is HttpOnly and SameSite=Lax (no Secure unless set); the theme cookie stays readable by scripts",
  async () => {
    const base = await expressApp('use-with-express-default');
    const response = await fetch(`${base}/cats/preferences`);
    const [theme, userId] = (response.headers.get('set-cookie') ?? '').split(/, (?=\w+=)/);
    expect(userId).toMatch(/^userId=[^;]+; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(theme).not.toMatch(/HttpOnly|Secure/);
  },
);

claim.abuse(
  `${page}#creating-a-custom-decorator-cross-platform`,
  "a client's j: cookie reaches @Cookies('theme') as an object on Express and as a string on Fastify",
  async () => {
    const {CatsController} = samples(page, {
      under: 'creating-a-custom-decorator-cross-platform',
    }).require('cats.controller');
    const cookie = `theme=${encodeURIComponent('j:{"$gt":""}')}`;
    const express = await withParser(CatsController, cookieParser(secret));
    expect(await (await fetch(`${express}/cats`, {headers: {cookie}})).json()).toEqual({
      theme: {$gt: ''},
    });
    await close?.();
    const fastify = await fastifyWith(CatsController);
    expect(await (await fetch(`${fastify}/cats`, {headers: {cookie}})).json()).toEqual({
      theme: 'j:{"$gt":""}',
    });
  },
);

claim.abuse(
  `${page}#creating-a-custom-decorator-cross-platform`,
  'markup in the theme cookie comes back inside JSON, not as text/html (a string built from it would be HTML on Express)',
  async () => {
    const {CatsController} = samples(page, {
      under: 'creating-a-custom-decorator-cross-platform',
    }).require('cats.controller');
    const base = await withParser(CatsController, cookieParser(secret));
    const cookie = `theme=${encodeURIComponent('<script>alert(1)</script>')}`;
    const response = await fetch(`${base}/cats`, {headers: {cookie}});
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({theme: '<script>alert(1)</script>'});
    // What the object avoids: the same value in a returned string is sent as HTML.
    const {Cookies} = samples(page, {under: 'creating-a-custom-decorator-cross-platform'}).require(
      'cookies.decorator',
    );
    @Controller('greeting')
    class GreetingController {
      @Get()
      greet(@Cookies('theme') theme: string) {
        return `Your theme is ${theme}`;
      }
    }
    await close?.();
    const html = await withParser(GreetingController, cookieParser(secret));
    const greeting = await fetch(`${html}/greeting`, {headers: {cookie}});
    expect(greeting.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await greeting.text()).toBe('Your theme is <script>alert(1)</script>');
  },
);

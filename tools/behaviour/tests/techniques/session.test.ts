import {randomBytes} from 'node:crypto';
import {afterEach, expect} from 'vitest';
import {claim, compileModule, listen, nest, readPage, samples} from '../../lib';
import {bootMain} from './_boot';

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
    expect(response.headers.get('set-cookie')).toMatch(/^session=[^;]+; Path=\/; HttpOnly$/);
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

import {afterEach, describe, expect} from 'vitest';
import {claim, nest, listen, fragment, memoryLogger, expectOutput, compileModule} from '../../lib';

const {Module, Controller, Get, Post, Req} = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const {FastifyAdapter} = nest('@nestjs/platform-fastify');
const page = 'docs/security/csrf.md';

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
  for (const line of (response.headers as any).getSetCookie?.() ?? [
    response.headers.get('set-cookie') ?? '',
  ]) {
    const [pair] = line.split(';');
    const [name, ...value] = pair.split('=');
    if (name) jar[name.trim()] = value.join('=');
  }
  return jar;
}
const cookieHeader = (jar: Record<string, string>) =>
  Object.entries(jar)
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');

describe('Express: csurf', () => {
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
  }
  @Module({controllers: [FormController]})
  class AppModule {}

  async function start(setup: (app: any) => unknown, logger: any = false) {
    const app = await NestFactory.create(AppModule, {logger});
    await setup(app);
    close = () => app.close();
    return listen(app);
  }

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

  describe('with cookie-parser and csurf({ cookie: true })', () => {
    const setup = (app: any) => {
      app.use(nest('cookie-parser')());
      app.use(nest('csurf')({cookie: true}));
    };

    claim(
      `${page}#use-with-express-default`,
      'GET is not checked and hands out req.csrfToken(); the token is accepted in the query (_csrf) and the CSRF-Token / X-CSRF-Token headers',
      async () => {
        const base = await start(setup);
        const form = await fetch(`${base}/form`);
        expect(form.status).toBe(200);
        const {token} = await form.json();
        const cookie = cookieHeader(cookiesOf(form));
        const attempts = [
          fetch(`${base}/transfer?_csrf=${encodeURIComponent(token)}`, {
            method: 'POST',
            headers: {cookie},
          }),
          fetch(`${base}/transfer`, {method: 'POST', headers: {cookie, 'csrf-token': token}}),
          fetch(`${base}/transfer`, {method: 'POST', headers: {cookie, 'x-csrf-token': token}}),
        ];
        for (const response of await Promise.all(attempts)) expect(response.status).toBe(201);
      },
    );

    claim(
      `${page}#use-with-express-default`,
      'a missing or wrong token: 403 with the JSON body the page shows',
      async () => {
        const base = await start(setup);
        const form = await fetch(`${base}/form`);
        const cookie = cookieHeader(cookiesOf(form));
        for (const headers of [{cookie}, {cookie, 'x-csrf-token': 'forged'}] as Record<
          string,
          string
        >[]) {
          const response = await fetch(`${base}/transfer`, {method: 'POST', headers});
          expect(response.status).toBe(403);
          expectOutput(page, 'csrf-error', await response.json());
        }
      },
    );

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
        const late = await start(setup);
        let form = await fetch(`${late}/form`);
        expect(
          (await post(late, cookieHeader(cookiesOf(form)), (await form.json()).token)).status,
        ).toBe(403);
        await close?.();
        const early = await start(async (app) => {
          app.use(nest('cookie-parser')());
          await run(fragment(page, 'use-with-express-default', 'app.use(urlencoded').value, app, {
            json: nest('express').json,
            urlencoded: nest('express').urlencoded,
            csurf: nest('csurf'),
          });
        });
        form = await fetch(`${early}/form`);
        const response = await post(
          early,
          cookieHeader(cookiesOf(form)),
          (await form.json()).token,
        );
        expect(response.status).toBe(201);
      },
    );
  });
});

describe('Fastify: fastify-csrf', () => {
  // The page's token route, in a controller of the test.
  const tokenRoute = fragment(page, 'use-with-fastify', 'reply.generateCsrf()').value;
  const {AppModule} = compileModule(
    `
import { Controller, Get, Module, Post, Res } from '@nestjs/common';
import { FastifyReply } from 'fastify';
@Controller()
class FormController {
${tokenRoute}
  @Post('transfer')
  transfer() {
    return 'done';
  }
}
@Module({ controllers: [FormController] })
export class AppModule {}
`,
    'csrf-fastify',
  );

  async function start(protect: boolean) {
    const app = await NestFactory.create(AppModule, new FastifyAdapter(), {logger: false});
    close = () => app.close();
    await run(fragment(page, 'use-with-fastify', 'await app.register(fastifyCsrf);').value, app, {
      fastifyCookie: nest('fastify-cookie'),
      fastifyCsrf: nest('fastify-csrf'),
    });
    if (protect)
      await run(fragment(page, 'use-with-fastify', "addHook('onRequest'").value, app, {});
    return listen(app);
  }

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
      const base = await start(true);
      const issued = await fetch(`${base}/csrf-token`);
      expect(issued.status).toBe(200);
      const {token} = await issued.json();
      const cookie = cookieHeader(cookiesOf(issued));
      const noSecret = await fetch(`${base}/transfer`, {
        method: 'POST',
        headers: {'csrf-token': token},
      });
      expect(noSecret.status).toBe(403);
      expect(await noSecret.json()).toMatchObject({
        statusCode: 403,
        message: 'Missing csrf secret',
      });
      const noToken = await fetch(`${base}/transfer`, {method: 'POST', headers: {cookie}});
      expect(noToken.status).toBe(403);
      expect(await noToken.json()).toMatchObject({statusCode: 403, message: 'Invalid csrf token'});
      const ok = await fetch(`${base}/transfer`, {
        method: 'POST',
        headers: {cookie, 'x-csrf-token': token},
      });
      expect(ok.status).toBe(201);
    },
  );
});

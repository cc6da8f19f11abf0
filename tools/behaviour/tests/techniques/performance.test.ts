import {IncomingMessage, ServerResponse} from 'node:http';
import {gunzipSync} from 'node:zlib';
import {afterEach, expect} from 'vitest';
import {applyEdits, claim, compileModule, fragment, listen, nest, samples} from '../../lib';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {expectOutput} from '../../lib';
import {bootMain} from './_boot';
import {startChild} from './_child-app';

const {Module, Controller, Get, Post, Body, Ip, Redirect} = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const {FastifyAdapter} = nest('@nestjs/platform-fastify');
const fastify = nest('fastify');
const page = 'docs/techniques/performance.md';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

@Controller('cats')
class CatsController {
  @Get()
  findAll() {
    return ['Tom'];
  }
  @Post()
  create(@Body() body: unknown) {
    return body;
  }
  @Get('ip')
  ip(@Ip() ip: string) {
    return {ip};
  }
  @Get('old')
  @Redirect('/login', 302)
  old() {}
}

async function start(
  adapter: unknown,
  controllers: unknown[] = [CatsController],
  configure?: (app: any) => unknown,
): Promise<{base: string; app: any}> {
  @Module({controllers: controllers as any[]})
  class AppModule {}
  const app = await NestFactory.create(AppModule, adapter, {logger: false});
  await configure?.(app);
  close = () => app.close();
  return {base: await listen(app), app};
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#adapter`,
    `the page's main runs the application on Fastify (${lang})`,
    async () => {
      @Module({controllers: [CatsController]})
      class AppModule {}
      const app = await bootMain(page, AppModule, {under: 'adapter', lang});
      close = () => app.close();
      expect(app.getHttpAdapter().getType()).toBe('fastify');
      const base = await listen(app);
      expect(await (await fetch(`${base}/cats`)).json()).toEqual(['Tom']);
    },
  );
}

claim(`${page}#adapter`, 'app.listen(port) without a host listens on localhost only', async () => {
  @Module({controllers: [CatsController]})
  class AppModule {}
  const app = await NestFactory.create(AppModule, new FastifyAdapter(), {logger: false});
  close = () => app.close();
  await app.listen(0);
  const address = app.getHttpServer().address();
  expect(['127.0.0.1', '::1']).toContain(address.address);
});

claim(`${page}#adapter`, "app.listen(port, '0.0.0.0') listens on all interfaces", async () => {
  @Module({controllers: [CatsController]})
  class AppModule {}
  const app = await NestFactory.create(AppModule, new FastifyAdapter(), {logger: false});
  close = () => app.close();
  await app.listen(0, '0.0.0.0');
  expect(app.getHttpServer().address().address).toBe('0.0.0.0');
});

claim(
  `${page}#platform-specific-packages`,
  'reply.header() on a @Res({ passthrough: true }) reply sets the header and the returned value is sent',
  async () => {
    const method = fragment(
      page,
      'platform-specific-packages',
      "reply.header('Cache-Control'",
    ).value;
    const {CatsController: Fragment} = compileModule<any>(`
import { Controller, Get, Res } from '@nestjs/common';
import { FastifyReply } from 'fastify';
@Controller('cats')
export class CatsController {
  catsService = { findAll: () => ['Tom'] };
${method}
}
`);
    const {base} = await start(new FastifyAdapter(), [Fragment]);
    const response = await fetch(`${base}/cats`);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual(['Tom']);
  },
);

claim(
  `${page}#platform-specific-packages`,
  'Nest middleware on Fastify receives the raw IncomingMessage and ServerResponse (no Express helpers)',
  async () => {
    const seen: Record<string, unknown> = {};
    const {base} = await start(new FastifyAdapter(), [CatsController], (app) =>
      app.use((req: any, res: any, next: () => void) => {
        seen.rawRequest = req instanceof IncomingMessage;
        seen.rawResponse = res instanceof ServerResponse;
        seen.expressSet = typeof res.set;
        next();
      }),
    );
    await fetch(`${base}/cats`);
    expect(seen).toEqual({rawRequest: true, rawResponse: true, expressSet: 'undefined'});
  },
);

claim.failure(
  `${page}#platform-specific-packages`,
  'Express middleware kept after the switch: helmet still sets its headers, but cookie-parser and express-session attach to the raw request, so handlers find no cookies or session (500 on request.session.userId)',
  async () => {
    const {Req, Session} = nest('@nestjs/common');
    @Controller('me')
    class MeController {
      @Get('cookies')
      cookies(@Req() request: any) {
        return {cookies: request.cookies ?? null, raw: request.raw.cookies};
      }
      @Get('session')
      session(@Session() session: any) {
        return {session: session ?? null};
      }
      @Get()
      me(@Req() request: any) {
        return {userId: request.session.userId};
      }
    }
    const {base} = await start(new FastifyAdapter(), [MeController], (app) => {
      app.use(nest('helmet')());
      app.use(nest('cookie-parser')('secret'));
      app.use(nest('express-session')({secret: 'secret', resave: false, saveUninitialized: false}));
    });
    const cookies = await fetch(`${base}/me/cookies`, {headers: {cookie: 'theme=dark'}});
    expect(cookies.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(await cookies.json()).toEqual({cookies: null, raw: {theme: 'dark'}});
    expect(await (await fetch(`${base}/me/session`)).json()).toEqual({session: null});
    expect((await fetch(`${base}/me`)).status).toBe(500);
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#redirect-response`,
    `the page's redirect on an injected Fastify reply answers 302 to /login (${lang})`,
    async () => {
      const {AuthController} = samples(page, {under: 'redirect-response', lang}).require(
        'auth.controller',
      );
      const {base} = await start(new FastifyAdapter(), [AuthController]);
      const response = await fetch(`${base}/account`, {redirect: 'manual'});
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe('/login');
    },
  );
}

claim(
  `${page}#redirect-response`,
  'on Fastify, redirect(url) keeps the status Nest already set (200); redirect(code, url) and status() first give the code',
  async () => {
    const {AuthController} = compileModule<any>(`
import { Controller, Get, Res } from '@nestjs/common';
@Controller()
export class AuthController {
  @Get('plain') plain(@Res() res: any) { res.redirect('/login'); }
  @Get('coded') coded(@Res() res: any) { res.redirect(301, '/login'); }
  @Get('status') status(@Res() res: any) { res.status(307).redirect('/login'); }
}
`);
    const {base} = await start(new FastifyAdapter(), [AuthController]);
    const status = async (path: string) =>
      (await fetch(`${base}/${path}`, {redirect: 'manual'})).status;
    expect([await status('plain'), await status('coded'), await status('status')]).toEqual([
      200, 301, 307,
    ]);
  },
);

claim(
  `${page}#redirect-response`,
  'on Express, res.redirect(url) under @Res() answers 302',
  async () => {
    const {AuthController} = compileModule<any>(`
import { Controller, Get, Res } from '@nestjs/common';
@Controller()
export class AuthController {
  @Get('plain') plain(@Res() res: any) { res.redirect('/login'); }
}
`);
    @Module({controllers: [AuthController]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, {logger: false});
    close = () => app.close();
    const base = await listen(app);
    expect((await fetch(`${base}/plain`, {redirect: 'manual'})).status).toBe(302);
  },
);

claim(
  `${page}#redirect-response`,
  "@Redirect('/login', 302) works the same on Express and Fastify",
  async () => {
    for (const adapter of [undefined, new FastifyAdapter()]) {
      const {base} = adapter
        ? await start(adapter)
        : await (async () => {
            @Module({controllers: [CatsController]})
            class AppModule {}
            const app = await NestFactory.create(AppModule, {logger: false});
            close = () => app.close();
            return {base: await listen(app)};
          })();
      const response = await fetch(`${base}/cats/old`, {redirect: 'manual'});
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe('/login');
      await close?.();
      close = undefined;
    }
  },
);

/** The page's adapter options (the logger turned off for the bench). */
function pageAdapter(): any {
  const code = applyEdits(
    'fastify-options',
    fragment(page, 'fastify-options', 'new FastifyAdapter(').value,
    [['logger: true', 'logger: false']],
  );
  return compileModule<any>(
    `import { FastifyAdapter } from '@nestjs/platform-fastify';\nexport const adapter = () => ${code.replace(/;\s*$/, '')};`,
  ).adapter();
}

claim(
  `${page}#fastify-options`,
  "the page's trustProxy: 1 takes the client IP from the entry the proxy appended to X-Forwarded-For",
  async () => {
    const {base} = await start(pageAdapter());
    const response = await fetch(`${base}/cats/ip`, {headers: {'x-forwarded-for': '203.0.113.7'}});
    expect(await response.json()).toEqual({ip: '203.0.113.7'});
  },
);

claim.abuse(
  `${page}#fastify-options`,
  "a forged leftmost X-Forwarded-For entry: ignored with the page's trustProxy: 1, taken as the client IP with trustProxy: true",
  async () => {
    // The client sent "X-Forwarded-For: 203.0.113.7"; the proxy (here 127.0.0.1) appended the real client, 198.51.100.4.
    const headers = {'x-forwarded-for': '203.0.113.7, 198.51.100.4'};
    const {base} = await start(pageAdapter());
    expect(await (await fetch(`${base}/cats/ip`, {headers})).json()).toEqual({ip: '198.51.100.4'});
    await close?.();
    const open = await start(new FastifyAdapter({trustProxy: true}));
    expect(await (await fetch(`${open.base}/cats/ip`, {headers})).json()).toEqual({
      ip: '203.0.113.7',
    });
  },
);

claim.abuse(
  `${page}#fastify-options`,
  'without bodyLimit, a JSON body over 1 MiB is refused with 413 and one just below passes (Express stops at 100 KB)',
  async () => {
    const post = (base: string, size: number) =>
      fetch(`${base}/cats`, {
        method: 'POST',
        headers: {'content-type': 'application/json'},
        body: JSON.stringify({name: 'x'.repeat(size)}),
      });
    const {base} = await start(new FastifyAdapter());
    expect((await post(base, 1024 * 1024)).status).toBe(413);
    expect((await post(base, 1000 * 1000)).status).toBe(201);
    await close?.();
    const express = await start(undefined);
    expect((await post(express.base, 100 * 1024)).status).toBe(413);
    expect((await post(express.base, 90 * 1024)).status).toBe(201);
  },
);

claim(
  `${page}#fastify-options`,
  'bodyLimit caps the request body in bytes (413 above it)',
  async () => {
    const {base} = await start(new FastifyAdapter({bodyLimit: 64}));
    const post = (size: number) =>
      fetch(`${base}/cats`, {
        method: 'POST',
        headers: {'content-type': 'application/json'},
        body: JSON.stringify({name: 'x'.repeat(size)}),
      });
    expect((await post(10)).status).toBe(201);
    expect((await post(100)).status).toBe(413);
  },
);

claim(
  `${page}#fastify-options`,
  'ignoreTrailingSlash treats /cats and /cats/ as the same route',
  async () => {
    const {base} = await start(new FastifyAdapter({ignoreTrailingSlash: true}));
    expect((await fetch(`${base}/cats/`)).status).toBe(200);
    await close?.();
    const strict = await start(new FastifyAdapter());
    expect((await fetch(`${strict.base}/cats/`)).status).toBe(404);
  },
);

claim(
  `${page}#fastify-options`,
  'the constructor also accepts a Fastify instance, used as is',
  async () => {
    const instance = fastify();
    instance.decorate('marker', 'mine');
    const {app} = await start(new FastifyAdapter(instance));
    expect(app.getHttpAdapter().getInstance()).toBe(instance);
  },
);

claim(
  `${page}#registering-plugins`,
  'app.register(fastify-compress, { encodings }) compresses responses',
  async () => {
    const compression = nest('fastify-compress');
    @Controller('big')
    class BigController {
      @Get()
      big() {
        return {text: 'meow '.repeat(1000)};
      }
    }
    const {base} = await start(new FastifyAdapter(), [BigController], (app) =>
      app.register(compression, {encodings: ['gzip', 'deflate'], requestEncodings: ['identity']}),
    );
    const response = await new Promise<{encoding: string | undefined; body: Buffer}>(
      (resolve, reject) => {
        const request = require('node:http').get(
          `${base}/big`,
          {headers: {'accept-encoding': 'gzip'}},
          (res: IncomingMessage) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk) => chunks.push(chunk));
            res.on('end', () =>
              resolve({encoding: res.headers['content-encoding'], body: Buffer.concat(chunks)}),
            );
          },
        );
        request.on('error', reject);
      },
    );
    expect(response.encoding).toBe('gzip');
    expect(JSON.parse(gunzipSync(response.body).toString()).text).toHaveLength(5000);
  },
);

claim(
  `${page}#registering-plugins`,
  'a hook added on getHttpAdapter().getInstance() runs for every request',
  async () => {
    const hook = fragment(page, 'registering-plugins', 'addHook').value;
    const {base} = await start(new FastifyAdapter(), [CatsController], (app) =>
      new Function('app', hook)(app),
    );
    const response = await fetch(`${base}/cats`);
    expect(response.headers.get('x-served-by')).toBe('nest-fastify');
  },
);

/** A folder for a child script (removed afterwards). */
async function inChildFolder(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'behaviour-performance-'));
  try {
    await body(dir);
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
}

claim(
  `${page}#adapter`,
  'every Fastify application of Nest 8.4.7 prints the fastify-formbody deprecation warning shown at startup',
  async () => {
    await inChildFolder(async (dir) => {
      const child = startChild(
        dir,
        'fastify-start.js',
        `
const { Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { FastifyAdapter } = require('@nestjs/platform-fastify');
class AppModule {}
Module({})(AppModule);
NestFactory.create(AppModule, new FastifyAdapter(), { logger: false }).then(async (app) => {
  await app.listen(0, '127.0.0.1');
  console.log('LISTENING');
  await app.close();
});`,
      );
      try {
        await child.waitFor(/LISTENING/);
        const line = child.output().match(/\[FST_MODULE_DEP_FASTIFY-FORMBODY\][^\n]*/)?.[0] ?? '';
        expectOutput(page, 'formbody-warning', line);
      } finally {
        await child.stop();
      }
    });
  },
);

claim.failure(
  `${page}#adapter`,
  'without @nestjs/platform-express, createNestApplication() with no adapter (the generated e2e test) ends the test process; with the Fastify adapter, init() and ready() it answers requests',
  async () => {
    const script = (withAdapter: boolean) => `
const Module = require('module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  // The package removed from the dependencies.
  if (request === '@nestjs/platform-express') {
    const error = new Error("Cannot find module '@nestjs/platform-express'");
    error.code = 'MODULE_NOT_FOUND';
    throw error;
  }
  return resolve.call(this, request, ...rest);
};
const { Controller, Get, Module: NestModule } = require('@nestjs/common');
const { Test } = require('@nestjs/testing');
const { FastifyAdapter } = require('@nestjs/platform-fastify');
class CatsController { findAll() { return ['Tom']; } }
Controller('cats')(CatsController);
Get()(CatsController.prototype, 'findAll', Object.getOwnPropertyDescriptor(CatsController.prototype, 'findAll'));
class AppModule {}
NestModule({ controllers: [CatsController] })(AppModule);
(async () => {
  const moduleFixture = await Test.createTestingModule({ imports: [AppModule] }).compile();
  const app = ${withAdapter ? 'moduleFixture.createNestApplication(new FastifyAdapter())' : 'moduleFixture.createNestApplication()'};
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  await app.listen(0, '127.0.0.1');
  const response = await fetch('http://127.0.0.1:' + app.getHttpServer().address().port + '/cats');
  console.log('ANSWER ' + response.status + ' ' + (await response.text()));
  await app.close();
})();`;
    await inChildFolder(async (dir) => {
      const bare = startChild(dir, 'e2e-bare.js', script(false));
      try {
        expect(await bare.exited()).toEqual({code: 1, signal: null});
        expect(bare.output()).toContain('The "@nestjs/platform-express" package is missing');
        expect(bare.output()).not.toContain('ANSWER');
      } finally {
        await bare.stop();
      }
      const fastifyApp = startChild(dir, 'e2e-fastify.js', script(true));
      try {
        await fastifyApp.waitFor(/ANSWER 200 \["Tom"\]/);
      } finally {
        await fastifyApp.stop();
      }
    });
  },
);

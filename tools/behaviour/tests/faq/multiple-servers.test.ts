import {execFileSync} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {request as httpsRequest} from 'node:https';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, expect} from 'vitest';
import {claim, fragment, compileModule, nest, applyEdits, freePort} from '../../lib';

const {FastifyAdapter} = nest('@nestjs/platform-fastify');
const {NestFactory} = nest('@nestjs/core');
const page = 'docs/faq/multiple-servers.md';

let dir: string;
beforeAll(() => {
  // A self-signed key pair where the samples read theirs.
  dir = mkdtempSync(join(tmpdir(), 'behaviour-tls-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      '/CN=localhost',
      '-days',
      '1',
      '-keyout',
      join(dir, 'private-key.pem'),
      '-out',
      join(dir, 'public-certificate.pem'),
    ],
    {stdio: 'ignore'},
  );
});
afterAll(() => {
  rmSync(dir, {recursive: true, force: true});
});

const appModule = `import { Controller, Get, Module } from '@nestjs/common';
@Controller('cats')
class CatsController {
  @Get()
  findAll() { return 'cats'; }
}
@Module({ controllers: [CatsController] })
class AppModule {}`;

function getHttps(port: number, path = '/cats'): Promise<{status: number; body: string}> {
  return new Promise((done, fail) => {
    const req = httpsRequest({host: '127.0.0.1', port, path, rejectUnauthorized: false}, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => done({status: res.statusCode ?? 0, body}));
    });
    req.on('error', fail);
    req.end();
  });
}

const secrets = (source: string) =>
  source
    .replace("'./secrets/private-key.pem'", JSON.stringify(join(dir, 'private-key.pem')))
    .replace(
      "'./secrets/public-certificate.pem'",
      JSON.stringify(join(dir, 'public-certificate.pem')),
    );

claim(
  `${page}#https`,
  'httpsOptions in NestFactory.create() serves the application over HTTPS',
  async () => {
    const source = applyEdits(
      `${page}#https`,
      secrets(fragment(page, 'https', 'httpsOptions').value),
      [
        ["import { AppModule } from './app.module';", appModule],
        [
          'const app = await NestFactory.create(AppModule, { httpsOptions });',
          'const app = await NestFactory.create(AppModule, { httpsOptions, logger: false });',
        ],
        ['await app.listen(443);', "await app.listen(0, '127.0.0.1');\n  return app;"],
        ['bootstrap();', 'export const started = bootstrap();'],
      ],
    );
    const app = await compileModule(source, 'https-main').started;
    const {port} = app.getHttpServer().address();
    expect(await getHttps(port)).toEqual({status: 200, body: 'cats'});
    await app.close();
  },
);

claim(
  `${page}#https`,
  'on Fastify, new FastifyAdapter({ https }) serves HTTPS, while httpsOptions in the application options is ignored',
  async () => {
    const {AppModule} = compileModule(
      `${appModule}\nexport { AppModule };`,
      'https-fastify-module',
    );
    const httpsOptions = {
      key: readFileSync(join(dir, 'private-key.pem')),
      cert: readFileSync(join(dir, 'public-certificate.pem')),
    };
    const secure = await NestFactory.create(AppModule, new FastifyAdapter({https: httpsOptions}), {
      logger: false,
    });
    await secure.listen(0, '127.0.0.1');
    expect(await getHttps(secure.getHttpServer().address().port)).toEqual({
      status: 200,
      body: 'cats',
    });
    await secure.close();
    const ignored = await NestFactory.create(AppModule, new FastifyAdapter(), {
      httpsOptions,
      logger: false,
    });
    await ignored.listen(0, '127.0.0.1');
    const plain = await fetch(`http://127.0.0.1:${ignored.getHttpServer().address().port}/cats`);
    expect(await plain.text()).toBe('cats');
    await ignored.close();
  },
);

async function multipleServers(gateway = false) {
  const [httpPort, httpsPort] = [await freePort(), await freePort()];
  const module = gateway
    ? `import { WebSocketGateway, SubscribeMessage } from '@nestjs/websockets';
@WebSocketGateway()
class EventsGateway {
  @SubscribeMessage('ping')
  ping() { return 'pong'; }
}
${appModule.replace('@Module({ controllers: [CatsController] })', '@Module({ controllers: [CatsController], providers: [EventsGateway] })')}`
    : appModule;
  const source = applyEdits(
    `${page}#multiple-simultaneous-servers`,
    secrets(fragment(page, 'multiple-simultaneous-servers', 'new ExpressAdapter(server)').value),
    [
      ["import { AppModule } from './app.module';", module],
      // The Nest 8 starter compiles without esModuleInterop, where the namespace import is callable; the suite compiles with it.
      ["import * as express from 'express';", "import express = require('express');"],
      ['new ExpressAdapter(server));', 'new ExpressAdapter(server), { logger: false });'],
      [
        'http.createServer(server).listen(3000);',
        `const servers = [http.createServer(server).listen(${httpPort}, '127.0.0.1'),`,
      ],
      [
        'https.createServer(httpsOptions, server).listen(443);',
        `https.createServer(httpsOptions, server).listen(${httpsPort}, '127.0.0.1')];\n  return { app, servers };`,
      ],
      ['bootstrap();', 'export const started = bootstrap();'],
    ],
  );
  const started = await compileModule(source, `multiple-servers${gateway ? '-ws' : ''}`).started;
  await new Promise((r) => setTimeout(r, 50));
  return {...started, httpPort, httpsPort};
}

claim(
  `${page}#multiple-simultaneous-servers`,
  'after app.init(), one Express instance answers on a plain HTTP server and an HTTPS server',
  async () => {
    const {app, servers, httpPort, httpsPort} = await multipleServers();
    expect(await (await fetch(`http://127.0.0.1:${httpPort}/cats`)).text()).toBe('cats');
    expect(await getHttps(httpsPort)).toEqual({status: 200, body: 'cats'});
    await app.close();
    for (const server of servers) server.close();
  },
);

claim(
  `${page}#multiple-simultaneous-servers`,
  'app.close() does not close the servers Nest did not create',
  async () => {
    const {app, servers, httpPort} = await multipleServers();
    await app.close();
    expect(servers.every((server: any) => server.listening)).toBe(true);
    expect((await fetch(`http://127.0.0.1:${httpPort}/cats`)).status).toBe(200);
    await Promise.all(servers.map((server: any) => new Promise((r) => server.close(r))));
  },
);

claim(
  `${page}#multiple-simultaneous-servers`,
  'a gateway without a port of its own is attached to app.getHttpServer(), which never listens: your servers do not answer its requests',
  async () => {
    const {app, servers, httpPort} = await multipleServers(true);
    expect(app.getHttpServer().listening).toBe(false);
    const handshake = await fetch(
      `http://127.0.0.1:${httpPort}/socket.io/?EIO=4&transport=polling`,
    );
    expect(handshake.status).toBe(404);
    // The same application started with app.listen() answers the handshake.
    const {AppModule} = compileModule(
      `${appModule.replace('@Module({ controllers: [CatsController] })', '@Module({ controllers: [CatsController], providers: [EventsGateway] })').replace("import { Controller, Get, Module } from '@nestjs/common';", "import { Controller, Get, Module } from '@nestjs/common';\nimport { WebSocketGateway, SubscribeMessage } from '@nestjs/websockets';\n@WebSocketGateway()\nclass EventsGateway {\n  @SubscribeMessage('ping')\n  ping() { return 'pong'; }\n}")}\nexport { AppModule };`,
      'gateway-listen',
    );
    const single = await NestFactory.create(AppModule, {logger: false});
    await single.listen(0, '127.0.0.1');
    const ok = await fetch(
      `http://127.0.0.1:${single.getHttpServer().address().port}/socket.io/?EIO=4&transport=polling`,
    );
    expect(ok.status).toBe(200);
    await single.close();
    await app.close();
    await Promise.all(servers.map((server: any) => new Promise((r) => server.close(r))));
  },
);

/**
 * The page's bootstrap with the SIGTERM variant of its last two lines, on free ports, in a child process:
 * AppModule has a route that takes 400 ms and a "pool" that onApplicationShutdown() closes.
 */
function shutdownScript(httpPort: number, httpsPort: number, shutdownHooks = false) {
  const main = fragment(page, 'multiple-simultaneous-servers', 'new ExpressAdapter(server)').value;
  const ending = fragment(page, 'multiple-simultaneous-servers', "process.on('SIGTERM'").value;
  return applyEdits(`${page}#sigterm`, secrets(main), [
    [
      "import { AppModule } from './app.module';",
      `import { Controller, Get, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
@Injectable()
class Pool implements OnApplicationShutdown {
  open = true;
  query() { if (!this.open) throw new Error('pool closed'); return 'Tom,Felix'; }
  onModuleDestroy() { console.log('onModuleDestroy'); }
  onApplicationShutdown(signal?: string) { this.open = false; console.log('pool closed ' + signal); }
}
@Controller('cats')
class CatsController {
  constructor(private readonly pool: Pool) {}
  @Get()
  async findAll() {
    console.log('request started');
    await new Promise((r) => setTimeout(r, 400));
    return this.pool.query();
  }
}
@Module({ controllers: [CatsController], providers: [Pool] })
class AppModule {}`,
    ],
    ['new ExpressAdapter(server));', "new ExpressAdapter(server), { logger: ['error'] });"],
    // What the lifecycle events page adds to main.ts, for the claim that shows why the two do not mix.
    [
      'await app.init();',
      shutdownHooks ? 'app.enableShutdownHooks();\n  await app.init();' : 'await app.init();',
    ],
    [
      'http.createServer(server).listen(3000);\n  https.createServer(httpsOptions, server).listen(443);',
      ending
        .replace('.listen(3000)', `.listen(${httpPort}, '127.0.0.1')`)
        .replace('.listen(443)', `.listen(${httpsPort}, '127.0.0.1')`) +
        // listen() only starts binding: report once both servers accept connections.
        "\n  await Promise.all(servers.map((s) => s.listening || new Promise((r) => s.once('listening', r))));" +
        "\n  console.log('listening');",
    ],
  ]);
}

claim.failure(
  `${page}#multiple-simultaneous-servers`,
  "SIGTERM while a request is in flight: the page's handler waits for the servers, so the request gets 200 before onApplicationShutdown() closes the pool, and the process ends",
  async () => {
    const {compileInto, runScript} = await import('../fundamentals/_support');
    const [httpPort, httpsPort] = [await freePort(), await freePort()];
    const work = mkdtempSync(join(tmpdir(), 'behaviour-sigterm-'));
    try {
      compileInto(work, 'main', shutdownScript(httpPort, httpsPort));
      let answer: Promise<string> = Promise.resolve('no request');
      const result = await runScript(work, 'run.js', "require('./main');", (line, child) => {
        if (line === 'listening')
          // A fresh connection (no pooled socket from an earlier claim on the same port number).
          answer = new Promise((done) => {
            nest('http')
              .get({host: '127.0.0.1', port: httpPort, path: '/cats', agent: false}, (res: any) => {
                let body = '';
                res.on('data', (chunk: Buffer) => (body += chunk));
                res.on('end', () => done(`${res.statusCode} ${body}`));
              })
              .on('error', (e: Error) => done(`error: ${e.message}`));
          });
        if (line === 'request started') child.kill('SIGTERM');
      });
      expect(await answer).toBe('200 Tom,Felix');
      expect(result.stdout.trim().split('\n')).toEqual([
        'listening',
        'request started',
        'onModuleDestroy',
        'pool closed undefined',
      ]);
      expect(result.code).toBe(0);
    } finally {
      rmSync(work, {recursive: true, force: true});
    }
  },
);

claim.failure(
  `${page}#multiple-simultaneous-servers`,
  'the plain HTTP port already taken: the process ends with "Error: listen EADDRINUSE" and exit code 1, the HTTPS server with it, and no shutdown hook runs',
  async () => {
    const {compileInto, runScript} = await import('../fundamentals/_support');
    const {createServer} = await import('node:net');
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const httpPort = (taken.address() as {port: number}).port;
    const httpsPort = await freePort();
    const work = mkdtempSync(join(tmpdir(), 'behaviour-taken-'));
    try {
      compileInto(work, 'main', shutdownScript(httpPort, httpsPort));
      const result = await runScript(work, 'run.js', "require('./main');");
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        `Error: listen EADDRINUSE: address already in use 127.0.0.1:${httpPort}`,
      );
      expect(result.stdout).not.toContain('pool closed');
    } finally {
      await new Promise((r) => taken.close(r));
      rmSync(work, {recursive: true, force: true});
    }
  },
);

claim.failure(
  `${page}#multiple-simultaneous-servers`,
  "the page's SIGTERM handler together with app.enableShutdownHooks(): SIGTERM while a request is in flight gets it a 500, and the shutdown hooks run three times (output sigterm-with-shutdown-hooks)",
  async () => {
    const {expectOutput} = await import('../../lib');
    const {compileInto, runScript} = await import('../fundamentals/_support');
    const [httpPort, httpsPort] = [await freePort(), await freePort()];
    const work = mkdtempSync(join(tmpdir(), 'behaviour-sigterm-hooks-'));
    try {
      compileInto(work, 'main', shutdownScript(httpPort, httpsPort, true));
      let answer: Promise<string> = Promise.resolve('no request');
      const result = await runScript(work, 'run.js', "require('./main');", (line, child) => {
        if (line === 'listening')
          answer = new Promise((done) => {
            nest('http')
              .get({host: '127.0.0.1', port: httpPort, path: '/cats', agent: false}, (res: any) => {
                res.resume();
                res.on('end', () => done(`client ${res.statusCode}`));
              })
              .on('error', (e: Error) => done(`error: ${e.message}`));
          });
        if (line === 'request started') child.kill('SIGTERM');
      });
      const lines = result.stdout.trim().split('\n').slice(1);
      expectOutput(page, 'sigterm-with-shutdown-hooks', [...lines, await answer].join('\n') + '\n');
    } finally {
      rmSync(work, {recursive: true, force: true});
    }
  },
);

import {spawnSync} from 'node:child_process';
import {readFileSync} from 'node:fs';
import {createServer, type AddressInfo} from 'node:net';
import {join, resolve} from 'node:path';
import {expect, vi} from 'vitest';
import {claim, samples, nest, fragment, expectOutput} from '../../lib';
import {start, call} from './_support';

const {Controller, Get, Ip, Module} = nest('@nestjs/common');
const page = 'docs/first-steps.md';
const behaviourDir = resolve(__dirname, '..', '..');

/** Runs a script in a fresh Node.js process with the suite's packages; a module whose provider cannot be resolved. */
function bootstrapFailing(createOptions: string) {
  const script = `
    require('reflect-metadata');
    const { Module, Injectable, Inject } = require('@nestjs/common');
    const { NestFactory } = require('@nestjs/core');
    class NeedsConfig {}
    Inject('CONFIG')(NeedsConfig, undefined, 0);
    Injectable()(NeedsConfig);
    class AppModule {}
    Module({ providers: [NeedsConfig] })(AppModule);
    NestFactory.create(AppModule, ${createOptions}).then(
      () => console.log('RESOLVED'),
      (error) => console.log('REJECTED: ' + error.message.split('\\n')[0]),
    );
  `;
  return spawnSync(process.execPath, ['-e', script], {
    cwd: behaviourDir,
    encoding: 'utf8',
    env: {...process.env, NO_COLOR: '1'},
  });
}

claim(
  `${page}#the-generated-files`,
  `by default a failure while creating the application is printed and the process exits with code 1`,
  () => {
    const run = bootstrapFailing('{}');
    expect(run.status).toBe(1);
    expect(run.stdout + run.stderr).toContain(
      "Nest can't resolve dependencies of the NeedsConfig (?)",
    );
    expect(run.stdout).not.toContain('REJECTED');
  },
);

claim(
  `${page}#the-generated-files`,
  `with abortOnError: false, Nest still logs the error, then create() rejects with it`,
  () => {
    const run = bootstrapFailing('{ abortOnError: false }');
    expect(run.status).toBe(0);
    expect(run.stderr + run.stdout).toMatch(
      /ERROR \[ExceptionHandler\] Nest can't resolve dependencies of the NeedsConfig \(\?\)/,
    );
    expect(run.stdout).toContain(
      "REJECTED: Nest can't resolve dependencies of the NeedsConfig (?)",
    );
  },
);

claim(
  `${page}#the-generated-files`,
  `the page's main.ts creates the application from AppModule and listens on port 3000`,
  async () => {
    const source = samples(page).sources.get('main')!;
    expect(source).toContain('await NestFactory.create(AppModule)');
    expect(source).toContain('await app.listen(3000)');
    const set = samples(page, {
      edit: {
        main: [
          [
            'await app.listen(3000);',
            'await app.listen(0, "127.0.0.1"); (globalThis as any).__firstSteps = app;',
          ],
        ],
      },
      files: {
        'app.module': `import { Controller, Get, Module } from '@nestjs/common';\n@Controller()\nclass AppController { @Get() getHello() { return 'Hello World!'; } }\n@Module({ controllers: [AppController] })\nexport class AppModule {}\n`,
      },
    });
    const {Logger} = nest('@nestjs/common');
    Logger.overrideLogger(false);
    set.require('main');
    await vi.waitFor(() => expect((globalThis as any).__firstSteps).toBeDefined(), {timeout: 5000});
    const app = (globalThis as any).__firstSteps;
    try {
      const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
      expect(await (await fetch(url)).text()).toBe('Hello World!');
    } finally {
      await app.close();
    }
  },
);

claim(
  `${page}#platform`,
  `Express is the default platform; with NestExpressApplication, app.set('trust proxy', 1) reaches Express (req.ip follows X-Forwarded-For)`,
  async () => {
    const snippet = fragment(page, 'platform', 'NestExpressApplication').value;
    expect(snippet).toContain("app.set('trust proxy', 1);");
    @Controller()
    class IpController {
      @Get('ip')
      ip(@Ip() ip: string) {
        return ip;
      }
    }
    @Module({controllers: [IpController]})
    class AppModule {}
    const plain = await start(AppModule);
    expect(plain.app.getHttpAdapter().getType()).toBe('express');
    expect(
      (await call(plain.base, 'GET', '/ip', {headers: {'x-forwarded-for': '203.0.113.7'}})).text,
    ).toBe('127.0.0.1');
    const proxied = await start(AppModule, {setup: (app) => app.set('trust proxy', 1)});
    expect(
      (await call(proxied.base, 'GET', '/ip', {headers: {'x-forwarded-for': '203.0.113.7'}})).text,
    ).toBe('203.0.113.7');
  },
);

claim(
  `${page}#prerequisites`,
  `the project CLI 8 generates (@nestjs/schematics 8.0.11) asks for ESLint ^8.0.1, @typescript-eslint/parser ^5.0.0 and Jest 28.0.3`,
  () => {
    const template = JSON.parse(
      readFileSync(
        resolve(
          behaviourDir,
          'node_modules/@nestjs/schematics/dist/lib/application/files/ts/package.json',
        ),
        'utf8',
      ),
    );
    const dev = template.devDependencies;
    expectOutput(page, 'generated-dev-tools', {
      '@typescript-eslint/parser': dev['@typescript-eslint/parser'],
      eslint: dev.eslint,
      jest: dev.jest,
    });
    // The CLI's own type checker wants Node.js 12.13 or later as well.
    const checker = JSON.parse(
      readFileSync(
        resolve(behaviourDir, 'node_modules/fork-ts-checker-webpack-plugin/package.json'),
        'utf8',
      ),
    );
    expect(checker.engines.node).toBe('>=12.13.0');
  },
);

claim.failure(
  `${page}#running-the-application`,
  `when the port is taken, listen() rejects with EADDRINUSE, bootstrap() does not catch it, and the process exits with code 1`,
  async () => {
    const blocker = createServer();
    await new Promise<void>((done) => blocker.listen(0, done));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const set = samples(page, {
        edit: {main: [['await app.listen(3000);', `await app.listen(${port});`]]},
        files: {
          'app.module': `import { Module } from '@nestjs/common';\n@Module({})\nexport class AppModule {}\n`,
        },
      });
      const run = spawnSync(process.execPath, [join(set.dir, 'main.js')], {
        cwd: behaviourDir,
        encoding: 'utf8',
        env: {...process.env, NO_COLOR: '1'},
        timeout: 20_000,
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(`Error: listen EADDRINUSE: address already in use :::${port}`);
    } finally {
      blocker.close();
    }
  },
);

@Controller()
class IpController {
  @Get('ip')
  ip(@Ip() ip: string) {
    return ip;
  }
}

claim.abuse(
  `${page}#platform`,
  `with trust proxy 1 and no proxy in front, a client chooses its own req.ip with a forged X-Forwarded-For`,
  async () => {
    @Module({controllers: [IpController]})
    class AppModule {}
    const {base} = await start(AppModule, {setup: (app) => app.set('trust proxy', 1)});
    expect(
      (await call(base, 'GET', '/ip', {headers: {'x-forwarded-for': '198.51.100.23'}})).text,
    ).toBe('198.51.100.23');
  },
);

claim.abuse(
  `${page}#platform`,
  `behind one proxy that appends the client address, trust proxy 1 ignores what the client put in front of it`,
  async () => {
    @Module({controllers: [IpController]})
    class AppModule {}
    const {base} = await start(AppModule, {setup: (app) => app.set('trust proxy', 1)});
    // The client sent "X-Forwarded-For: 203.0.113.66"; the proxy appended the address it saw.
    expect(
      (await call(base, 'GET', '/ip', {headers: {'x-forwarded-for': '203.0.113.66, 198.51.100.7'}}))
        .text,
    ).toBe('198.51.100.7');
  },
);

/** An application from NestFactory.create() asked for a provider that does not exist, inside a try/catch. */
function getMissing(createOptions: string) {
  const script = `
    require('reflect-metadata');
    const { Module } = require('@nestjs/common');
    const { NestFactory } = require('@nestjs/core');
    class AppModule {}
    Module({})(AppModule);
    (async () => {
      const app = await NestFactory.create(AppModule, ${createOptions});
      try {
        app.get('REPORTS_SERVICE');
        console.log('FOUND');
      } catch (error) {
        console.log('CAUGHT ' + error.constructor.name);
      }
      await app.close();
    })();
  `;
  return spawnSync(process.execPath, ['-e', script], {
    cwd: behaviourDir,
    encoding: 'utf8',
    env: {...process.env, NO_COLOR: '1'},
    timeout: 20_000,
  });
}

claim.failure(
  `${page}#the-generated-files`,
  `with the default abortOnError, app.get() of a missing provider logs the error and exits with code 1: the surrounding catch never runs`,
  () => {
    const run = getMissing(`{ logger: ['error'] }`);
    expect(run.status).toBe(1);
    expect(run.stdout).not.toContain('CAUGHT');
    expect(run.stdout + run.stderr).toContain('Nest could not find REPORTS_SERVICE element');
  },
);

claim(
  `${page}#the-generated-files`,
  `with abortOnError: false, app.get() of a missing provider logs the error and throws it to the caller`,
  () => {
    const run = getMissing(`{ logger: ['error'], abortOnError: false }`);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('CAUGHT UnknownElementException');
    expect(run.stdout + run.stderr).toContain('Nest could not find REPORTS_SERVICE element');
  },
);

// Review 5: the same start failure on Node.js 12 and 14, whose unhandled rejections are only warnings.

claim.failure(
  `${page}#running-the-application`,
  `under Node.js 12/14's rejection mode (--unhandled-rejections=warn), a taken port prints the warning and exits with code 0; with the page's bootstrap().catch() it exits with code 1`,
  async () => {
    const blocker = createServer();
    await new Promise<void>((done) => blocker.listen(0, done));
    const port = (blocker.address() as AddressInfo).port;
    const appModule = `import { Module } from '@nestjs/common';\n@Module({})\nexport class AppModule {}\n`;
    const run = (dir: string) =>
      spawnSync(process.execPath, ['--unhandled-rejections=warn', join(dir, 'main.js')], {
        cwd: behaviourDir,
        encoding: 'utf8',
        env: {...process.env, NO_COLOR: '1'},
        timeout: 20_000,
      });
    try {
      const plain = samples(page, {
        edit: {main: [['await app.listen(3000);', `await app.listen(${port});`]]},
        files: {'app.module': appModule},
      });
      const warned = run(plain.dir);
      expect(warned.status).toBe(0);
      const line = warned.stderr.split('\n').find((l) => l.includes('UnhandledPromiseRejection'));
      expectOutput(page, 'eaddrinuse-node14', line ?? '', [
        [/\(node:\d+\)/, '(node:PID)'],
        [/:::\d+/, ':::PORT'],
      ]);
      const handler = fragment(page, 'running-the-application', 'bootstrap().catch').value;
      const caught = samples(page, {
        edit: {
          main: [
            ['await app.listen(3000);', `await app.listen(${port});`],
            [/\nbootstrap\(\);\s*$/, `\n${handler}\n`],
          ],
        },
        files: {'app.module': appModule},
      });
      const failed = run(caught.dir);
      expect(failed.status).toBe(1);
      expect(failed.stderr).toContain(
        `Error: listen EADDRINUSE: address already in use :::${port}`,
      );
      expect(failed.stderr).not.toContain('UnhandledPromiseRejection');
    } finally {
      blocker.close();
    }
  },
);

/**
 * docs/introduction.md: what `nest new` creates (the real CLI, @nestjs/cli 8.2.8 with @nestjs/schematics
 * 8.0.11, in a temporary folder) and which packages a project built from scratch needs. Cloning the
 * starter repository (the Alternatives section) needs GitHub and is not run here.
 */
import {afterAll, beforeAll, expect} from 'vitest';
import {existsSync} from 'node:fs';
import {spawnSync} from 'node:child_process';
import {join, resolve} from 'node:path';
import {claim, fragment} from '../../lib';
import {listFiles, nestOk, readJson, tempDir} from '../cli/_support';

const page = 'docs/introduction.md';
let tmp: ReturnType<typeof tempDir>;
let project: string;

beforeAll(() => {
  tmp = tempDir('introduction');
  nestOk(tmp.dir, ['new', 'project-name', '--strict', '--skip-install', '--skip-git', '-p', 'npm']);
  project = join(tmp.dir, 'project-name');
}, 90_000);
afterAll(() => tmp?.cleanup());

claim(
  `${page}#installation`,
  'nest new creates the project folder with a module, a controller and a service, and the compiler, linter and test runner configuration',
  () => {
    const files = listFiles(project);
    for (const file of ['src/app.module.ts', 'src/app.controller.ts', 'src/app.service.ts'])
      expect(files).toContain(file);
    expect(files).toEqual(expect.arrayContaining(['tsconfig.json', '.eslintrc.js']));
    const pkg = readJson(join(project, 'package.json'));
    expect(pkg.scripts.test).toBe('jest');
    expect(pkg.jest).toBeDefined();
    expect(existsSync(join(project, 'node_modules'))).toBe(false);
  },
);

claim(
  `${page}#installation`,
  '--strict turns on the stricter compiler settings in tsconfig.json',
  () => {
    const options = readJson(join(project, 'tsconfig.json')).compilerOptions;
    expect(options.strictNullChecks).toBe(true);
    expect(options.noImplicitAny).toBe(true);
  },
);

claim(
  `${page}#alternatives`,
  'the four core packages alone do not start an application: NestFactory.create() exits asking for @nestjs/platform-express',
  () => {
    // The suite's packages, with @nestjs/platform-express made unresolvable as in a project that lacks it.
    const script = `
const Module = require('module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === '@nestjs/platform-express') {
    const error = new Error("Cannot find module '" + request + "'");
    error.code = 'MODULE_NOT_FOUND';
    throw error;
  }
  return resolve.call(this, request, ...rest);
};
require('reflect-metadata');
const { Module: NestModule } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
class AppModule {}
NestModule({})(AppModule);
NestFactory.create(AppModule).then(() => console.log('created'));
`;
    const run = spawnSync(process.execPath, ['-e', script], {
      cwd: resolve(__dirname, '..', '..'),
      encoding: 'utf8',
      env: {...process.env, NO_COLOR: '1', FORCE_COLOR: '0'},
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stdout).not.toContain('created');
    expect(run.stdout + run.stderr).toContain(
      'No driver (HTTP) has been selected. In order to take advantage of the default driver, please, ensure to install the "@nestjs/platform-express" package ($ npm install @nestjs/platform-express).',
    );
  },
);

claim(
  `${page}#alternatives`,
  'the from-scratch install names ranges that admit the installed Nest 8 set and exclude the next major of each package',
  () => {
    const semver = require(resolve(__dirname, '..', '..', 'node_modules', 'semver'));
    const line = fragment(page, 'alternatives', 'npm i @nestjs/core')
      .value.split('\n')
      .find((l) => l.startsWith('npm i '))!;
    const specs = line
      .split(/\s+/)
      .slice(2)
      .map((token) => {
        const at = token.lastIndexOf('@');
        return {name: token.slice(0, at), range: token.slice(at + 1)};
      });
    expect(specs.map((s) => s.name)).toEqual([
      '@nestjs/core',
      '@nestjs/common',
      '@nestjs/platform-express',
      'reflect-metadata',
      'rxjs',
    ]);
    const next: Record<string, string> = {
      '@nestjs/core': '9.0.0',
      '@nestjs/common': '9.0.0',
      '@nestjs/platform-express': '9.0.0',
      'reflect-metadata': '0.2.0',
      rxjs: '8.0.0',
    };
    for (const {name, range} of specs) {
      const installed = readJson(
        resolve(__dirname, '..', '..', 'node_modules', name, 'package.json'),
      ).version;
      expect(semver.satisfies(installed, range), `${name}@${range} admits ${installed}`).toBe(true);
      expect(semver.satisfies(next[name], range), `${name}@${range} excludes ${next[name]}`).toBe(
        false,
      );
    }
    // Nest 8's own peer ranges: reflect-metadata ^0.1.12 (0.2 is outside), rxjs ^7.1.0.
    const peers = readJson(
      resolve(__dirname, '..', '..', 'node_modules', '@nestjs/core', 'package.json'),
    ).peerDependencies;
    expect(semver.subset('^0.1.13', peers['reflect-metadata'])).toBe(true);
    expect(semver.satisfies('0.2.2', peers['reflect-metadata'])).toBe(false);
  },
);

// Review 5: the compiler options a project built from scratch needs.

claim(
  `${page}#alternatives`,
  'compiled with the tsconfig.json options the page lists, constructor injection works; without emitDecoratorMetadata the app still starts, and the handler that uses the injected service answers 500',
  async () => {
    const {mkdirSync, mkdtempSync, rmSync, writeFileSync} = await import('node:fs');
    const ts = require(resolve(__dirname, '..', '..', 'node_modules', 'typescript'));
    const shown = JSON.parse(fragment(page, 'alternatives', 'emitDecoratorMetadata').value);
    expect(shown.compilerOptions).toMatchObject({
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
    });
    const source = `
import 'reflect-metadata';
import { Controller, Get, Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
@Injectable() export class AppService { getHello() { return 'Hello World!'; } }
@Controller() export class AppController {
  constructor(private readonly appService: AppService) {}
  @Get() getHello() { return this.appService.getHello(); }
}
@Module({ controllers: [AppController], providers: [AppService] }) export class AppModule {}
export async function main() {
  const app = await NestFactory.create(AppModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  return app;
}
`;
    const runDir = resolve(__dirname, '..', '..', '.run');
    mkdirSync(runDir, {recursive: true});
    const dir = mkdtempSync(join(runDir, 'introduction-scratch-'));
    try {
      const answer = async (options: Record<string, unknown>, name: string) => {
        const {options: compilerOptions} = ts.convertCompilerOptionsFromJson(options, dir);
        const out = ts.transpileModule(source, {compilerOptions, fileName: `${name}.ts`});
        writeFileSync(join(dir, `${name}.js`), out.outputText);
        const app = await require(join(dir, `${name}.js`)).main();
        try {
          const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
          const reply = await fetch(url);
          return [reply.status, await reply.text()];
        } finally {
          await app.close();
        }
      };
      expect(await answer(shown.compilerOptions, 'with-metadata')).toEqual([200, 'Hello World!']);
      expect(
        await answer({...shown.compilerOptions, emitDecoratorMetadata: false}, 'without-metadata'),
      ).toEqual([500, '{"statusCode":500,"message":"Internal server error"}']);
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  },
);

#!/usr/bin/env node
// @ts-check
/**
 * Cold starts of a small NestJS 8.4.7 application, for the "Benchmarks" section of
 * docs/faq/serverless.md. Each run is a fresh Node.js process (nothing in memory, the files in
 * the OS cache as on a warm serverless host): the clock starts when the process is spawned and
 * stops when the first HTTP response (GET /cats, a JSON body) has arrived. Setups, run
 * interleaved (one of each, then again) so that the machine's load affects all alike:
 *
 * - `express`: the same route in plain Express 4, without Nest (the floor);
 * - `nest-express`, `nest-fastify`: a Nest app (one module, a controller, a provider), its
 *   packages loaded from node_modules as `tsc` output would load them;
 * - `nest-express-bundled`, `nest-fastify-bundled`: the same app bundled into one file by
 *   webpack 5 (production mode, Nest's optional packages left out as the CLI's webpack
 *   configuration does), so Node reads one file instead of hundreds.
 *
 *   node tools/behaviour/bench/cold-start.mjs [--runs 15]
 *
 * Prints a Markdown table: median and the 10th-90th percentile range, in milliseconds.
 */
import {spawn} from 'node:child_process';
import {mkdirSync, writeFileSync, rmSync} from 'node:fs';
import {createRequire} from 'node:module';
import {cpus} from 'node:os';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';
import http from 'node:http';

const here = dirname(fileURLToPath(import.meta.url));
const behaviour = join(here, '..');
const root = join(behaviour, '..', '..');
const work = join(behaviour, '.run', 'cold-start');
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 15;

const app = (adapter) => `
require('reflect-metadata');
const {Controller, Get, Injectable, Module} = require('@nestjs/common');
const {NestFactory} = require('@nestjs/core');
${adapter === 'fastify' ? "const {FastifyAdapter} = require('@nestjs/platform-fastify');" : "require('@nestjs/platform-express');"}
const {__decorate, __metadata} = require('tslib');

let CatsService = class CatsService { findAll() { return [{name: 'Tom', age: 3}]; } };
CatsService = __decorate([Injectable()], CatsService);
let CatsController = class CatsController {
  constructor(cats) { this.cats = cats; }
  findAll() { return this.cats.findAll(); }
};
__decorate([Get(), __metadata('design:type', Function), __metadata('design:paramtypes', [])], CatsController.prototype, 'findAll', null);
CatsController = __decorate([Controller('cats'), __metadata('design:paramtypes', [CatsService])], CatsController);
let AppModule = class AppModule {};
AppModule = __decorate([Module({controllers: [CatsController], providers: [CatsService]})], AppModule);

(async () => {
  const app = await NestFactory.create(AppModule, ${adapter === 'fastify' ? 'new FastifyAdapter(), ' : ''}{logger: false});
  await app.listen(0, '127.0.0.1');
  process.stdout.write('port ' + app.getHttpServer().address().port + '\\n');
})();
`;

const plainExpress = `
const express = require('express');
const app = express();
app.get('/cats', (req, res) => res.json([{name: 'Tom', age: 3}]));
const server = app.listen(0, '127.0.0.1', () => process.stdout.write('port ' + server.address().port + '\\n'));
`;

/** Bundles `entry` into `out` with webpack 5 (production), as a Node.js target. */
async function bundle(entry, out) {
  const requireRoot = createRequire(join(root, 'package.json'));
  const webpack = requireRoot('webpack');
  // The packages Nest loads only if installed (the CLI's webpack configuration ignores them too).
  const optional = [
    '@nestjs/microservices',
    '@nestjs/microservices/microservices-module',
    '@nestjs/websockets/socket-module',
    'class-validator',
    'class-transformer',
    'class-transformer/storage',
    '@fastify/static',
    '@fastify/view',
    'point-of-view',
    'fastify-static',
    '@nestjs/platform-express',
  ];
  const compiler = webpack({
    mode: 'production',
    target: 'node',
    entry,
    context: behaviour,
    resolve: {modules: [join(behaviour, 'node_modules')]},
    output: {path: dirname(out), filename: 'bundle.js', library: {type: 'commonjs2'}},
    optimization: {minimize: false},
    plugins: [
      new webpack.IgnorePlugin({
        checkResource(resource) {
          const adapterIsExpress = entry.includes('express');
          if (resource === '@nestjs/platform-express' && adapterIsExpress) return false;
          return optional.includes(resource);
        },
      }),
    ],
    stats: 'errors-only',
  });
  await new Promise((resolve, reject) =>
    compiler.run((error, stats) => {
      if (error || stats?.hasErrors()) reject(error ?? new Error(stats?.toString('errors-only')));
      else compiler.close(() => resolve(undefined));
    }),
  );
}

/** One cold start: spawn → first response of GET /cats, in ms. */
function coldStart(file) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [file], {
      cwd: behaviour,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const port = /port (\d+)/.exec(output)?.[1];
      if (!port) return;
      child.stdout.removeAllListeners('data');
      http
        .get({host: '127.0.0.1', port: Number(port), path: '/cats'}, (response) => {
          let body = '';
          response.on('data', (c) => (body += c));
          response.on('end', () => {
            const ms = Number(process.hrtime.bigint() - started) / 1e6;
            child.kill();
            if (response.statusCode !== 200 || !body.includes('Tom'))
              reject(new Error(`${file}: ${response.statusCode} ${body}`));
            else resolve(ms);
          });
        })
        .on('error', reject);
    });
    child.on('error', reject);
  });
}

function percentile(sorted, p) {
  return sorted[
    Math.min(sorted.length - 1, Math.max(0, Math.round((p / 100) * (sorted.length - 1))))
  ];
}

// The files live in tools/behaviour/.run/, so they load the packages of tools/behaviour.
rmSync(work, {recursive: true, force: true});
mkdirSync(work, {recursive: true});
/** @type {Record<string, string>} */
const setups = {};
writeFileSync(join(work, 'express.js'), plainExpress);
setups.express = join(work, 'express.js');
for (const adapter of ['express', 'fastify']) {
  const file = join(work, `nest-${adapter}.js`);
  writeFileSync(file, app(adapter));
  setups[`nest-${adapter}`] = file;
  const out = join(work, `nest-${adapter}-bundled`, 'bundle.js');
  await bundle(file, out);
  setups[`nest-${adapter}-bundled`] = out;
}
/** @type {Record<string, number[]>} */
const times = Object.fromEntries(Object.keys(setups).map((name) => [name, []]));
// One warm-up each (the OS file cache), not counted.
for (const file of Object.values(setups)) await coldStart(file);
for (let i = 0; i < runs; i += 1) {
  for (const [name, file] of Object.entries(setups)) times[name].push(await coldStart(file));
}
console.log(
  `Cold start to the first response, ${runs} runs each, interleaved; Node.js ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'} (${cpus().length} cores)\n`,
);
console.log('| Setup | Median | 10th-90th percentile |');
console.log('| --- | --- | --- |');
for (const [name, list] of Object.entries(times)) {
  const sorted = [...list].sort((a, b) => a - b);
  console.log(
    `| ${name} | ${percentile(sorted, 50).toFixed(0)} ms | ${percentile(sorted, 10).toFixed(0)}-${percentile(sorted, 90).toFixed(0)} ms |`,
  );
}

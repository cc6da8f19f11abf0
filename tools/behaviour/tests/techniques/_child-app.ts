/**
 * A Node.js process of its own for the claims about what ends a process (an
 * unhandled rejection, an unhandled 'error' event) and what survives it: the
 * test worker must never be the process that dies. `startChild()` writes a
 * CommonJS script into a folder (usually a `samples()` set, so that the script
 * can `require('./app.module.js')`), runs it with the suite's packages, and
 * lets the test wait for a line (`READY http://...`), talk to the app with real
 * clients, and see whether and how the process ended.
 */
import {spawn, type ChildProcess} from 'node:child_process';
import {writeFileSync} from 'node:fs';
import {join, resolve} from 'node:path';
import {findBinary, freePort} from '../../lib';

const behaviourModules = resolve(__dirname, '..', '..', 'node_modules');

export interface ChildApp {
  process: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Resolves with the first match of `pattern` in the output (waiting for it), or rejects after `ms`. */
  waitFor(pattern: RegExp, ms?: number): Promise<RegExpMatchArray>;
  /** Resolves when the process has ended (or after `ms`, with `null` if it is still running). */
  exited(ms?: number): Promise<{code: number | null; signal: NodeJS.Signals | null} | null>;
  alive(): boolean;
  /** Ends the process (SIGKILL after 5 s) and waits for it. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export function startChild(
  dir: string,
  name: string,
  source: string,
  env: Record<string, string> = {},
): ChildApp {
  const file = join(dir, name);
  writeFileSync(file, resolveByName(dir) + source);
  const child = spawn(process.execPath, [file], {
    cwd: dir,
    env: {...process.env, NODE_PATH: behaviourModules, NODE_OPTIONS: '', ...env},
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const watchers = new Set<() => void>();
  const append = (chunk: Buffer) => {
    output += chunk.toString();
    for (const watcher of [...watchers]) watcher();
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  let ended: {code: number | null; signal: NodeJS.Signals | null} | null = null;
  const end = new Promise<{code: number | null; signal: NodeJS.Signals | null}>((done) =>
    child.on('exit', (code, signal) => {
      ended = {code, signal};
      for (const watcher of [...watchers]) watcher();
      done(ended);
    }),
  );
  return {
    process: child,
    output: () => output,
    waitFor(pattern, ms = 15_000) {
      return new Promise((done, fail) => {
        const check = () => {
          const match = output.match(pattern);
          if (match) {
            finish();
            done(match);
          } else if (ended) {
            finish();
            fail(
              new Error(`${name} ended (${JSON.stringify(ended)}) before ${pattern}:\n${output}`),
            );
          }
        };
        const timer = setTimeout(() => {
          finish();
          fail(new Error(`${name}: no ${pattern} within ${ms} ms:\n${output}`));
        }, ms);
        const finish = () => {
          clearTimeout(timer);
          watchers.delete(check);
        };
        watchers.add(check);
        check();
      });
    },
    exited(ms = 10_000) {
      return Promise.race([end, new Promise<null>((done) => setTimeout(() => done(null), ms))]);
    },
    alive: () => ended === null,
    async stop(signal = 'SIGTERM') {
      if (ended) return;
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      child.kill(signal);
      await end;
      clearTimeout(timer);
    },
  };
}

/**
 * The samples of a page import each other by paths the page does not show (`./users/user.entity`);
 * `samples()` writes them flat and resolves such imports by file name in the test worker. The same
 * rule for the child process.
 */
function resolveByName(dir: string): string {
  return `{
  const Module = require('module');
  const { basename, join } = require('path');
  const { existsSync } = require('fs');
  const original = Module._resolveFilename;
  Module._resolveFilename = function (request, parent, ...rest) {
    try {
      return original.call(this, request, parent, ...rest);
    } catch (error) {
      const candidate = join(${JSON.stringify(dir)}, basename(request) + '.js');
      if (request.startsWith('.') && existsSync(candidate)) return candidate;
      throw error;
    }
  };
}
`;
}

/** The script that starts an app module of the folder and prints `READY <url>` once it listens. */
export function listeningScript(
  moduleFile: string,
  exportName = 'AppModule',
  logger = "['error', 'warn']",
): string {
  return `
const { NestFactory } = require('@nestjs/core');
const { ${exportName} } = require('./${moduleFile}');
process.on('exit', (code) => console.log('EXIT ' + code));
NestFactory.create(${exportName}, { logger: ${logger}, abortOnError: false })
  .then(async (app) => {
    await app.listen(0, '127.0.0.1');
    console.log('READY ' + (await app.getUrl()).replace('[::1]', '127.0.0.1').replace('localhost', '127.0.0.1'));
  })
  .catch((error) => {
    console.log('START FAILED ' + error.message);
    process.exit(2);
  });
`;
}

/**
 * A redis-server that a test can stop and start again on the same port (the
 * lib's `service('redis')` gives a fresh port each time): for "Redis restarts
 * while the app runs".
 */
export interface RestartableRedis {
  port: number;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export async function restartableRedis(): Promise<RestartableRedis> {
  const binary = findBinary('redis');
  const port = await freePort();
  let child: ChildProcess | undefined;
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((done) => running.once('exit', done));
    running.kill('SIGTERM');
    const timer = setTimeout(() => running.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  const start = async () => {
    await stop();
    const started = spawn(
      binary,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {stdio: 'ignore'},
    );
    child = started;
    const {connect} = await import('node:net');
    const deadline = Date.now() + 10_000;
    for (;;) {
      const open = await new Promise<boolean>((done) => {
        const socket = connect(port, '127.0.0.1');
        socket.once('connect', () => {
          socket.destroy();
          done(true);
        });
        socket.once('error', () => done(false));
      });
      if (open) return;
      if (started.exitCode !== null) throw new Error(`redis-server on ${port} exited`);
      if (Date.now() > deadline) throw new Error(`redis-server on ${port} did not listen`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return {port, start, stop};
}

/**
 * A PostgreSQL server (initdb into a temporary folder, trust authentication)
 * that a test can stop and start again on the same port and data: for "the
 * database restarts while the app runs". Runs as Debian's postgres user when
 * the suite runs as root, as the lib's `service('postgres')` does.
 */
export interface RestartablePostgres {
  port: number;
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Stops the server and removes its data. */
  destroy(): Promise<void>;
}

export async function restartablePostgres(): Promise<RestartablePostgres> {
  const {mkdtempSync, chmodSync, rmSync} = await import('node:fs');
  const {tmpdir} = await import('node:os');
  const {spawnSync} = await import('node:child_process');
  const bin = findBinary('postgres').replace(/\/postgres$/, '');
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'behaviour-pg-restart-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  const user =
    typeof process.getuid === 'function' && process.getuid() === 0
      ? {
          uid: Number(spawnSync('id', ['-u', 'postgres'], {encoding: 'utf8'}).stdout.trim()),
          gid: Number(spawnSync('id', ['-g', 'postgres'], {encoding: 'utf8'}).stdout.trim()),
        }
      : {};
  const init = spawnSync(
    join(bin, 'initdb'),
    ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C'],
    {encoding: 'utf8', ...user},
  );
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
  let child: ChildProcess | undefined;
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((done) => running.once('exit', done));
    running.kill('SIGINT'); // fast shutdown: open connections are closed
    const timer = setTimeout(() => running.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  const start = async () => {
    await stop();
    const args = ['-D', data, '-p', String(port), '-h', '127.0.0.1', '-k', dir];
    const started = spawn(join(bin, 'postgres'), [...args, '-c', 'fsync=off'], {
      stdio: 'ignore',
      ...user,
    });
    child = started;
    const {Client} = require(join(behaviourModules, 'pg'));
    const deadline = Date.now() + 30_000;
    for (;;) {
      const client = new Client({host: '127.0.0.1', port, user: 'postgres', database: 'postgres'});
      const ready = await client.connect().then(
        () => client.end().then(() => true),
        () => false,
      );
      if (ready) return;
      if (started.exitCode !== null) throw new Error(`postgres on ${port} exited`);
      if (Date.now() > deadline) throw new Error(`postgres on ${port} did not accept connections`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    async destroy() {
      await stop();
      rmSync(dir, {recursive: true, force: true});
    },
  };
}

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
  writeFileSync(file, source);
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

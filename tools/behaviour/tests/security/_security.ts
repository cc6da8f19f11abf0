/**
 * Helpers for the security pages' abuse cases: raw parallel HTTP requests, a
 * cookie jar of one response, child processes that start an app and report
 * how it ended, and Redis servers this file starts and restarts itself on a
 * port of its choosing.
 */
import {spawn, type ChildProcess} from 'node:child_process';
import {request as httpRequest, Agent} from 'node:http';
import {connect} from 'node:net';
import {mkdtempSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {findBinary, freePort, repoRoot} from '../../lib';

/** The JWT and session secrets the tests put in the environment (the pages read them from there). */
export const testSecret = 'behaviour-tests-4f9c2e7a1b3d5f6e8a0c2e4b6d8f0a1c';

/**
 * `n` GET requests sent at once, each on its own connection (no keep-alive, no
 * queueing in the client): what a client that floods a route in parallel does.
 */
export function burst(
  base: string,
  n: number,
  path = '/cats',
  headers: Record<string, string> = {},
): Promise<number[]> {
  const url = new URL(base);
  const agent = new Agent({keepAlive: false, maxSockets: Infinity});
  return Promise.all(
    Array.from(
      {length: n},
      () =>
        new Promise<number>((resolve, reject) => {
          const req = httpRequest(
            {host: url.hostname, port: url.port, path, agent, headers},
            (res) => {
              res.resume();
              res.on('end', () => resolve(res.statusCode ?? 0));
            },
          );
          req.on('error', reject);
          req.end();
        }),
    ),
  ).finally(() => agent.destroy());
}

/** The cookies a response sets, as `name=value` pairs joined for a Cookie header. */
export function cookieOf(response: Response, jar: Record<string, string> = {}): string {
  for (const line of (response.headers as any).getSetCookie?.() ?? [
    response.headers.get('set-cookie') ?? '',
  ]) {
    const [pair] = line.split(';');
    const [name, ...value] = pair.split('=');
    if (name) jar[name.trim()] = value.join('=');
  }
  return Object.entries(jar)
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');
}

export function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: {'content-type': 'application/json', ...headers},
    body: JSON.stringify(body),
  });
}

/**
 * Runs `script` (CommonJS, with tools/behaviour's packages) in a child Node.js
 * process with `env`, and resolves with its exit code, signal and output once
 * it ends (or kills it after `ms`).
 */
export function runChild(
  script: string,
  env: Record<string, string | undefined> = {},
  ms = 20_000,
): Promise<{code: number | null; signal: string | null; stdout: string; stderr: string}> {
  const dir = mkdtempSync(join(tmpdir(), 'behaviour-security-'));
  const file = join(dir, 'child.js');
  writeFileSync(file, script);
  const childEnv: Record<string, string> = {};
  for (const [key, value] of Object.entries({...process.env, NO_COLOR: '1', ...env}))
    if (value !== undefined) childEnv[key] = value;
  const child = spawn(process.execPath, [file], {
    env: {...childEnv, NODE_PATH: join(repoRoot, 'tools/behaviour/node_modules')},
    stdio: ['ignore', 'pipe', 'pipe'],
    // A process that aborts may leave a core file in its working directory.
    cwd: dir,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({code, signal, stdout, stderr});
    });
  });
}

/** A Redis server on a port this file chose, which a test can stop and start again on that port. */
export interface RestartableRedis {
  port: number;
  url: string;
  start(): Promise<void>;
  /** SIGKILL: no save, no goodbye to the clients. */
  kill(): Promise<void>;
  /** SIGSTOP: the server keeps its connections open and answers nothing (a hung server, a partition). */
  pause(): void;
  /** SIGCONT after pause(). */
  resume(): void;
}

export async function restartableRedis(): Promise<RestartableRedis> {
  const binary = findBinary('redis');
  const port = await freePort();
  let child: ChildProcess | undefined;
  const reachable = () =>
    new Promise<boolean>((done) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        done(true);
      });
      socket.once('error', () => done(false));
    });
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async start() {
      child = spawn(
        binary,
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        {stdio: 'ignore'},
      );
      const started = Date.now();
      while (!(await reachable())) {
        if (Date.now() - started > 10_000)
          throw new Error(`redis-server did not listen on ${port}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async kill() {
      if (!child || child.exitCode !== null) return;
      const exited = new Promise((r) => child!.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
    pause() {
      child?.kill('SIGSTOP');
    },
    resume() {
      if (child && child.exitCode === null) child.kill('SIGCONT');
    },
  };
}

/**
 * The first lines of a child script that loads a compiled sample set: imports
 * between the page's files name folders (`./auth/auth.module`) that the set
 * writes flat, so they resolve by file name within `dir`, as in the test process.
 */
export function childResolution(dir: string): string {
  return `
const Module = require('module');
const path = require('path');
const fs = require('fs');
const original = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  try {
    return original.call(this, request, parent, ...rest);
  } catch (error) {
    const candidate = path.join(${JSON.stringify(dir)}, path.basename(request) + '.js');
    if (request.startsWith('.') && fs.existsSync(candidate)) return candidate;
    throw error;
  }
};
`;
}

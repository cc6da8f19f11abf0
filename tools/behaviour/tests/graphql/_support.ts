/** Helpers for the GraphQL pages' tests: real apps, real HTTP. */
import {mkdtempSync, writeFileSync, mkdirSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, dirname} from 'node:path';
import {nest, listen} from '../../lib';

const {NestFactory} = nest('@nestjs/core');

export interface Started {
  app: any;
  base: string;
  close: () => Promise<void>;
}

/** Starts `module` (Express unless an adapter is given), listening on a free loopback port. */
export async function start(
  module: unknown,
  options: {adapter?: unknown; logger?: any; before?: (app: any) => void | Promise<void>} = {},
): Promise<Started> {
  const appOptions = {logger: options.logger ?? false};
  const app = options.adapter
    ? await NestFactory.create(module, options.adapter, appOptions)
    : await NestFactory.create(module, appOptions);
  await options.before?.(app);
  const base = await listen(app);
  return {app, base, close: () => app.close()};
}

export interface GqlResponse {
  status: number;
  headers: Headers;
  body: any;
}

/** POSTs a GraphQL operation as JSON. */
export async function gql(
  url: string,
  query: string,
  variables?: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<GqlResponse> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {'content-type': 'application/json', ...headers},
    body: JSON.stringify({query, variables}),
  });
  const text = await response.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return {status: response.status, headers: response.headers, body};
}

/** A fresh temporary folder (outside the repository) with the given files. */
export function tempDir(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'nest-gql-'));
  for (const [name, content] of Object.entries(files)) {
    const target = join(dir, name);
    mkdirSync(dirname(target), {recursive: true});
    writeFileSync(target, content);
  }
  return dir;
}

/** An in-memory CatsService that the pages use without showing it. */
export const catsService = `
import { Injectable } from '@nestjs/common';

@Injectable()
export class CatsService {
  private readonly cats: any[] = [{ id: '1', name: 'Tom', age: 3, breed: 'Tabby' }];

  async findAll() {
    return this.cats;
  }

  async findOne(id: string) {
    return this.cats.find((cat) => cat.id === id);
  }

  async create(input: any) {
    const cat = { id: String(this.cats.length + 1), ...input };
    this.cats.push(cat);
    return cat;
  }
}
`;

/**
 * A Node process running `source` (CommonJS, this suite's packages on NODE_PATH), for what would end the test
 * worker (an unhandled rejection) or keep it alive (open sockets). Relative imports between compiled samples
 * resolve by file name, as in samples(). `out` collects stdout and stderr.
 */
export interface NodeChild {
  readonly out: string;
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  exited: Promise<number | null>;
  waitFor(text: string, ms?: number): Promise<void>;
  kill(signal?: NodeJS.Signals): Promise<number | null>;
  pid: number;
}

const resolveByName = `
const Module = require('module');
const path = require('path');
const fs = require('fs');
const original = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  try {
    return original.call(this, request, parent, ...rest);
  } catch (error) {
    if (parent && parent.filename && request.startsWith('.')) {
      const candidate = path.join(path.dirname(parent.filename), path.basename(request) + '.js');
      if (fs.existsSync(candidate)) return candidate;
    }
    throw error;
  }
};
`;

export function nodeChild(source: string, env: NodeJS.ProcessEnv = {}): NodeChild {
  const {spawn} = require('node:child_process') as typeof import('node:child_process');
  const {rmSync} = require('node:fs') as typeof import('node:fs');
  const dir = tempDir({'child.js': resolveByName + source});
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    NODE_PATH: join(__dirname, '..', '..', 'node_modules'),
    ...env,
  };
  // A variable given as undefined is left out, so the child runs without it.
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete childEnv[name];
  const child = spawn(process.execPath, [join(dir, 'child.js')], {
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (chunk: Buffer) => (out += chunk.toString());
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      rmSync(dir, {recursive: true, force: true});
      resolve(code);
    }),
  );
  return {
    pid: child.pid!,
    get out() {
      return out;
    },
    get code() {
      return child.exitCode;
    },
    get signal() {
      return child.signalCode as NodeJS.Signals | null;
    },
    exited,
    async waitFor(text, ms = 15_000) {
      const started = Date.now();
      while (!out.includes(text)) {
        if (child.exitCode !== null || child.signalCode !== null) {
          throw new Error(
            `child exited (${child.exitCode ?? child.signalCode}) before "${text}":\n${out}`,
          );
        }
        if (Date.now() - started > ms) throw new Error(`no "${text}" within ${ms} ms:\n${out}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Waits until `condition()` holds, polling every 20 ms. */
export async function until(condition: () => boolean, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * A Node.js process of its own for the WebSocket claims about what ends a process (a malformed frame,
 * an exception filter that throws, a message that exhausts memory) and what a signal does: the test
 * worker must never be the process that dies. `runChild()` writes a CommonJS script into a folder
 * (a `samples()` set, so that the script can `require('./events.gateway.js')`), runs it with the
 * suite's packages, and lets the test wait for a line (`URL http://...`), talk to the app with real
 * clients, and see whether and how the process ended.
 */
import {spawn, type ChildProcess} from 'node:child_process';
import {writeFileSync} from 'node:fs';
import {join, resolve} from 'node:path';

const behaviourModules = resolve(__dirname, '..', '..', 'node_modules');

export interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Child {
  process: ChildProcess;
  /** stdout and stderr so far, colours removed. */
  output(): string;
  /** The first match of `pattern` in the output (waiting for it); rejects when the process ends first or after `ms`. */
  waitFor(pattern: RegExp, ms?: number): Promise<RegExpMatchArray>;
  /** How the process ended, or `null` if it is still running after `ms`. */
  exited(ms?: number): Promise<Ended | null>;
  alive(): boolean;
  /** Sends `signal` (SIGKILL after 5 s) and waits for the end. */
  stop(signal?: NodeJS.Signals): Promise<Ended>;
}

// eslint-disable-next-line no-control-regex
const stripAnsi = (text: string) => text.replace(/\x1b\[[0-9;]*[a-zA-Z]/g, '');

export function runChild(
  dir: string,
  name: string,
  source: string,
  options: {execArgv?: string[]; env?: Record<string, string | undefined>} = {},
): Child {
  const file = join(dir, name);
  writeFileSync(file, source);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_PATH: behaviourModules,
    NODE_OPTIONS: '',
    FORCE_COLOR: '0',
    NO_COLOR: '1',
  };
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  const child = spawn(process.execPath, [...(options.execArgv ?? []), file], {
    cwd: dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let ended: Ended | null = null;
  const watchers = new Set<() => void>();
  const notify = () => {
    for (const watcher of [...watchers]) watcher();
  };
  const append = (chunk: Buffer) => {
    output += stripAnsi(chunk.toString());
    notify();
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const end = new Promise<Ended>((done) =>
    child.on('exit', (code, signal) => {
      ended = {code, signal};
      notify();
      done(ended);
    }),
  );
  return {
    process: child,
    output: () => output,
    waitFor(pattern, ms = 15_000) {
      return new Promise((done, fail) => {
        const finish = () => {
          clearTimeout(timer);
          watchers.delete(check);
        };
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
        watchers.add(check);
        check();
      });
    },
    exited(ms = 5000) {
      return Promise.race([end, new Promise<null>((done) => setTimeout(() => done(null), ms))]);
    },
    alive: () => ended === null,
    async stop(signal = 'SIGTERM') {
      if (ended) return ended;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      const result = await end;
      clearTimeout(timer);
      return result;
    },
  };
}

/** The start of a child script: the app's module from `providers`, listening on a free loopback port; prints `URL <url>`. */
export function childApp(body: {
  requires: string;
  providers: string;
  setup?: string;
  logger?: string;
}): string {
  return `
const { Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
${body.requires}
class AppModule {}
Module({ providers: [${body.providers}] })(AppModule);
(async () => {
  const app = await NestFactory.create(AppModule, { logger: ${body.logger ?? "['error', 'warn']"} });
  ${body.setup ?? ''}
  await app.listen(0, '127.0.0.1');
  console.log('URL ' + (await app.getUrl()).replace('[::1]', '127.0.0.1'));
})();
`;
}

/** Small helpers for the microservices pages' tests: a TCP microservice and its client on a free port. */
import {nest, freePort, memoryLogger, repoRoot, findBinary} from '../../lib';

const {NestFactory} = nest('@nestjs/core');
const {Transport, ClientProxyFactory} = nest('@nestjs/microservices');

export async function until(check: () => boolean, ms = 5000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Starts `module` as a TCP microservice on a free loopback port; `setup` runs before listen(). */
export async function tcpMicroservice(
  module: unknown,
  setup: (app: any) => void = () => {},
  log = memoryLogger(),
) {
  const port = await freePort();
  const app = await NestFactory.createMicroservice(module, {
    transport: Transport.TCP,
    logger: log.logger,
    options: {host: '127.0.0.1', port},
  });
  setup(app);
  await app.listen();
  const client = ClientProxyFactory.create({
    transport: Transport.TCP,
    options: {host: '127.0.0.1', port},
  });
  return {
    app,
    client,
    port,
    log,
    close: async () => {
      client.close();
      await app.close();
    },
  };
}

/** Keeps what console.log prints while the returned `restore()` has not been called. */
export function captureConsole(): {lines: string[]; restore: () => void} {
  const {format} = require('node:util') as typeof import('node:util');
  const lines: string[] = [];
  const original = console.log;
  console.log = (...args: unknown[]) => {
    lines.push(format(...args));
  };
  return {lines, restore: () => (console.log = original)};
}

/**
 * A Node process running `source` (CommonJS, the suite's packages on NODE_PATH), for what would end the
 * test worker: unhandled rejections, uncaught exceptions, process.exit. `out` collects stdout and stderr.
 */
export interface NodeChild {
  child: import('node:child_process').ChildProcess;
  /** stdout and stderr, interleaved as they arrived. */
  readonly out: string;
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  exited: Promise<number | null>;
  /** Resolves once `out` contains `text`; rejects when the process exits first or after `ms`. */
  waitFor(text: string, ms?: number): Promise<void>;
  kill(signal?: NodeJS.Signals): Promise<number | null>;
}

export function nodeChild(
  source: string,
  args: string[] = [],
  env: NodeJS.ProcessEnv = {},
): NodeChild {
  const {spawn} = require('node:child_process') as typeof import('node:child_process');
  const {mkdtempSync, writeFileSync, rmSync} = require('node:fs') as typeof import('node:fs');
  const {tmpdir} = require('node:os') as typeof import('node:os');
  const {join} = require('node:path') as typeof import('node:path');
  const dir = mkdtempSync(join(tmpdir(), 'behaviour-ms-child-'));
  const script = join(dir, 'child.js');
  writeFileSync(script, source);
  const child = spawn(process.execPath, [script, ...args], {
    env: {...process.env, NODE_PATH: join(repoRoot, 'tools', 'behaviour', 'node_modules'), ...env},
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
  const handle: NodeChild = {
    child,
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
  return handle;
}

/**
 * A broker of our own on a fixed free port, which a test can stop and start again on the same port (the
 * lib's service() picks a new port each time): Redis, NATS or Mosquitto, from the same Debian binaries.
 */
export async function ownBroker(kind: 'redis' | 'nats' | 'mqtt', port?: number) {
  const {spawn} = require('node:child_process') as typeof import('node:child_process');
  const {mkdtempSync, writeFileSync, rmSync} = require('node:fs') as typeof import('node:fs');
  const {tmpdir} = require('node:os') as typeof import('node:os');
  const {join} = require('node:path') as typeof import('node:path');
  const {connect} = require('node:net') as typeof import('node:net');
  const chosen = port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), `behaviour-ms-${kind}-`));
  const args: Record<typeof kind, string[]> = {
    redis: ['--port', String(chosen), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    nats: ['-a', '127.0.0.1', '-p', String(chosen)],
    mqtt: ['-c', join(dir, 'mosquitto.conf')],
  };
  writeFileSync(
    join(dir, 'mosquitto.conf'),
    `listener ${chosen} 127.0.0.1\nallow_anonymous true\npersistence false\n`,
  );
  let child: import('node:child_process').ChildProcess | null = null;
  const isOpen = () =>
    new Promise<boolean>((done) => {
      const socket = connect(chosen, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        done(true);
      });
      socket.once('error', () => done(false));
    });
  const broker = {
    port: chosen,
    url: `${kind === 'nats' ? 'nats' : kind === 'mqtt' ? 'mqtt' : 'redis'}://127.0.0.1:${chosen}`,
    async start() {
      child = spawn(findBinary(kind), args[kind], {stdio: 'ignore'});
      const started = Date.now();
      while (!(await isOpen())) {
        if (Date.now() - started > 10_000) throw new Error(`${kind} did not listen on ${chosen}`);
        await new Promise((r) => setTimeout(r, 30));
      }
    },
    /** SIGKILL: the broker disappears as in a crash. */
    async stop() {
      const running = child;
      child = null;
      if (running && running.exitCode === null && running.signalCode === null) {
        const exited = new Promise((r) => running.once('exit', r));
        running.kill('SIGKILL');
        await exited;
      }
    },
    async remove() {
      await broker.stop();
      rmSync(dir, {recursive: true, force: true});
    },
  };
  return broker;
}

/**
 * JSON text of an array nested `depth` levels deep: valid JSON (JSON.parse reads it), which
 * JSON.stringify() cannot write back: it overflows the stack from about 5,000 levels.
 */
export const deepJson = (depth = 10_000): string => '['.repeat(depth) + ']'.repeat(depth);

/** Writes `frames` on a raw TCP connection; resolves with what came back once it closes or after `ms`. */
export function rawTcpFrames(
  port: number,
  frames: string[],
  ms = 1000,
): Promise<{closed: boolean; received: string}> {
  const {connect} = require('node:net') as typeof import('node:net');
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let closed = false;
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('close', () => {
      closed = true;
      resolve({closed, received});
    });
    socket.on('error', () => undefined);
    socket.on('connect', () => frames.forEach((frame) => socket.write(frame)));
    setTimeout(() => {
      socket.destroy();
      resolve({closed, received});
    }, ms);
  });
}

/** A TCP frame of the default JsonSocket framing for the JSON text `json`: its length, `#`, the text. */
export const tcpFrame = (json: string): string => `${json.length}#${json}`;

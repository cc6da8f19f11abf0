/**
 * Helpers shared by the fundamentals and FAQ tests: run a Node.js script in a
 * child process with the suite's packages (for what ends a process: signals,
 * process.exit), and capture console.log while a sample runs.
 */
import {spawn} from 'node:child_process';
import {createRequire} from 'node:module';
import {writeFileSync} from 'node:fs';
import {join, resolve} from 'node:path';
import {vi} from 'vitest';

export const behaviourModules = resolve(__dirname, '..', '..', 'node_modules');

export interface ChildResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Writes `source` (CommonJS JavaScript) as `name` into `dir` and runs it with
 * node, resolving packages from tools/behaviour/node_modules. `onLine` sees
 * each stdout line as it arrives (to send a signal once the app is ready); `env` replaces the
 * environment (NODE_PATH aside).
 */
export function runScript(
  dir: string,
  name: string,
  source: string,
  onLine?: (line: string, child: ReturnType<typeof spawn>) => void,
  timeoutMs = 20_000,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ChildResult> {
  const file = join(dir, name);
  writeFileSync(file, source);
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [file], {
      cwd: dir,
      env: {...env, NODE_PATH: behaviourModules, NODE_OPTIONS: ''},
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let pending = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`${name} did not end within ${timeoutMs} ms:\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) onLine?.(line, child);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      done({code, signal, stdout, stderr});
    });
  });
}

/** Collects what console.log prints while `fn` runs (and still prints nothing). */
export async function captureLog<T>(
  fn: () => Promise<T> | T,
): Promise<{lines: string[]; result: T}> {
  const lines: string[] = [];
  const spy = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    lines.push(args.map((arg) => (typeof arg === 'string' ? arg : JSON.stringify(arg))).join(' '));
  });
  try {
    const result = await fn();
    return {lines, result};
  } finally {
    spy.mockRestore();
  }
}

/** Polls `check` until it returns true (or fails after `timeoutMs`). */
export async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Compiles TypeScript (a page's fragment, or a test's own file) into `dir/name.js`, as `tsc` compiles a
 * Nest 8 project (decorators and their metadata, CommonJS), for a child process to `require()`.
 */
export function compileInto(dir: string, name: string, source: string): string {
  const ts = createRequire(join(behaviourModules, '..', 'package.json'))(
    'typescript',
  ) as typeof import('typescript');
  const out = ts.transpileModule(source, {
    fileName: `${name}.ts`,
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2019,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
    },
  });
  const file = join(dir, `${name}.js`);
  writeFileSync(file, out.outputText);
  return file;
}

/** A TCP server that accepts connections and never answers (a database host that hangs). */
export async function silentServer(): Promise<{port: number; close: () => Promise<void>}> {
  const {createServer} = await import('node:net');
  const sockets = new Set<import('node:net').Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const {port} = server.address() as import('node:net').AddressInfo;
  return {
    port,
    close: () =>
      new Promise<void>((r) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => r());
      }),
  };
}

/** A loopback port that nothing listens on (taken and released at once). */
export async function closedPort(): Promise<number> {
  const {createServer} = await import('node:net');
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const {port} = server.address() as import('node:net').AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** Nest's console output without its ANSI colours. */
export function plain(text: string): string {
  // eslint-disable-next-line no-control-regex -- the escape sequences of Nest's coloured logger
  return text.replace(/\x1b\[[0-9;]*m/g, '');
}

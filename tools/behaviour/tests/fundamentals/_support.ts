/**
 * Helpers shared by the fundamentals and FAQ tests: run a Node.js script in a
 * child process with the suite's packages (for what ends a process: signals,
 * process.exit), and capture console.log while a sample runs.
 */
import {spawn} from 'node:child_process';
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
 * each stdout line as it arrives (to send a signal once the app is ready).
 */
export function runScript(
  dir: string,
  name: string,
  source: string,
  onLine?: (line: string, child: ReturnType<typeof spawn>) => void,
  timeoutMs = 20_000,
): Promise<ChildResult> {
  const file = join(dir, name);
  writeFileSync(file, source);
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [file], {
      cwd: dir,
      env: {...process.env, NODE_PATH: behaviourModules, NODE_OPTIONS: ''},
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

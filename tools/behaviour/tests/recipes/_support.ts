import {spawn} from 'node:child_process';
import {nest} from '../../lib';

const {ConsoleLogger} = nest('@nestjs/common');

/**
 * Nest's own ConsoleLogger, with what it writes to stdout/stderr captured (ANSI colours removed) instead
 * of printed, so a test can compare a real log line with the one a page shows.
 */
export function capturedConsole(): {logger: any; lines: string[]; restore(): void} {
  const lines: string[] = [];
  const originals = {stdout: process.stdout.write, stderr: process.stderr.write};
  const capture = (chunk: unknown) => {
    for (const line of String(chunk)
      // eslint-disable-next-line no-control-regex -- strips ANSI colour codes from Nest's logger output
      .replace(/\x1b\[[0-9;]*m/g, '')
      .split('\n'))
      if (line.startsWith('[Nest]')) lines.push(line);
    return true;
  };
  const logger = new ConsoleLogger();
  // Only the logger's own writes are captured: it writes through process[stream].write at call time.
  const wrap = (stream: 'stdout' | 'stderr') =>
    function (this: unknown, chunk: unknown, ...rest: unknown[]) {
      if (
        String(chunk)
          // eslint-disable-next-line no-control-regex -- strips ANSI colour codes from Nest's logger output
          .replace(/\x1b\[[0-9;]*m/g, '')
          .startsWith('[Nest]')
      )
        return capture(chunk);
      return (originals[stream] as any).call(process[stream], chunk, ...rest);
    };
  process.stdout.write = wrap('stdout') as any;
  process.stderr.write = wrap('stderr') as any;
  return {
    logger,
    lines,
    restore() {
      process.stdout.write = originals.stdout;
      process.stderr.write = originals.stderr;
    },
  };
}

/** The varying parts of a ConsoleLogger line: pid, date and time, and the "+12ms" suffix. */
export const consoleMask: [RegExp, string][] = [
  [/\[Nest\] \d+ {2}- \d{1,2}\/\d{1,2}\/\d{4}, \d{1,2}:\d{2}:\d{2} (AM|PM)/g, '[Nest] PID  - DATE'],
  [/ \+\d+ms$/gm, ''],
];

/**
 * A Node.js script in a child process, for claims about what stops the process: a crash there must not
 * take the test worker with it. The script prints `PORT <n>` once its app listens; `port` resolves with it.
 */
export function childApp(
  script: string,
  cwd: string,
): {
  port: Promise<number>;
  exited: Promise<number | null>;
  output(): string;
  kill(): void;
} {
  const child = spawn(process.execPath, ['-e', script], {
    cwd,
    env: {...process.env, NO_COLOR: '1'},
  });
  let output = '';
  const port = new Promise<number>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /PORT (\d+)/.exec(output);
      if (m) resolve(Number(m[1]));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', () => reject(new Error(`the child exited before listening:\n${output}`)));
  });
  port.catch(() => undefined);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    port,
    exited,
    // eslint-disable-next-line no-control-regex -- colours of Nest's logger
    output: () => output.replace(/\x1b\[[0-9;]*m/g, ''),
    kill: () => {
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/**
 * Code for a child script that resolves relative imports between a sample set's files by base name, as
 * the harness does in the test worker (samples() writes a page's files flat into one folder).
 */
export function flatImports(dir: string): string {
  return `
const Module = require('module');
const path = require('path');
const fs = require('fs');
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  try {
    return resolveFilename.call(this, request, parent, ...rest);
  } catch (error) {
    const candidate = path.join(${JSON.stringify(dir)}, path.basename(request) + '.js');
    if (request.startsWith('.') && fs.existsSync(candidate)) return candidate;
    throw error;
  }
};
`;
}

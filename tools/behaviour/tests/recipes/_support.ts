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

/**
 * Small helpers around real Nest applications: listen on a free loopback port,
 * collect what the logger prints, close everything afterwards.
 */
import {createRequire} from 'node:module';
import {join, resolve} from 'node:path';

const requireHere = createRequire(join(resolve(__dirname, '..'), 'package.json'));

/** A NestJS package from tools/behaviour/node_modules (the same instance the page's samples use). */
export function nest<T = any>(name: string): T {
  return requireHere(name) as T;
}

export interface LogLine {
  level: 'log' | 'error' | 'warn' | 'debug' | 'verbose';
  message: string;
  context?: string;
}

/** A LoggerService that keeps the lines instead of printing them (pass it as `logger` to NestFactory.create). */
export function memoryLogger(): {
  lines: LogLine[];
  logger: Record<string, (...args: unknown[]) => void>;
  text(): string;
} {
  const lines: LogLine[] = [];
  const record =
    (level: LogLine['level']) =>
    (message: unknown, ...rest: unknown[]) => {
      const context =
        typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : undefined;
      lines.push({
        level,
        message:
          typeof message === 'string'
            ? message
            : message instanceof Error
              ? message.message
              : JSON.stringify(message),
        context,
      });
    };
  return {
    lines,
    logger: {
      log: record('log'),
      error: record('error'),
      warn: record('warn'),
      debug: record('debug'),
      verbose: record('verbose'),
    },
    text: () =>
      lines.map((line) => `${line.level} [${line.context ?? ''}] ${line.message}`).join('\n'),
  };
}

/** `app.listen(0, '127.0.0.1')` and the base URL (`http://127.0.0.1:PORT`). */
export async function listen(app: {
  listen: (port: number, host: string) => Promise<unknown>;
  getUrl: () => Promise<string>;
}): Promise<string> {
  await app.listen(0, '127.0.0.1');
  const url = await app.getUrl();
  return url.replace('[::1]', '127.0.0.1').replace('localhost', '127.0.0.1');
}

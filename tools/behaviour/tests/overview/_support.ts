/**
 * Helpers for the Overview pages' tests: start an app on Express or Fastify,
 * send raw HTTP requests (any Host header, no redirect following), close
 * everything after each test.
 */
import {request as httpRequest} from 'node:http';
import {writeFileSync} from 'node:fs';
import {basename, join} from 'node:path';
import {afterEach} from 'vitest';
import {nest, listen} from '../../lib';

const {Module} = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');

export type Platform = 'express' | 'fastify';
export const platforms: Platform[] = ['express', 'fastify'];

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!().catch(() => undefined);
});

/** Registers something to close after the current test. */
export function onClose(fn: () => Promise<unknown>): void {
  closers.push(fn);
}

export function adapterFor(platform: Platform): unknown {
  if (platform === 'express') return undefined;
  const {FastifyAdapter} = nest('@nestjs/platform-fastify');
  return new FastifyAdapter();
}

export interface StartOptions {
  platform?: Platform;
  logger?: unknown;
  /** Runs before listen() (global pipes, filters, middleware...). */
  setup?: (app: any) => unknown | Promise<unknown>;
  options?: Record<string, unknown>;
}

/** A module (or a list of controllers wrapped in one) started and listening on a free port. */
export async function start(moduleOrControllers: unknown, opts: StartOptions = {}): Promise<{app: any; base: string}> {
  let root = moduleOrControllers as any;
  if (Array.isArray(moduleOrControllers)) {
    @Module({controllers: moduleOrControllers as any[]})
    class AppModule {}
    root = AppModule;
  }
  const adapter = adapterFor(opts.platform ?? 'express');
  const options = {logger: opts.logger ?? false, ...(opts.options ?? {})};
  const app = adapter ? await NestFactory.create(root, adapter, options) : await NestFactory.create(root, options);
  onClose(() => app.close());
  await opts.setup?.(app);
  const base = await listen(app);
  return {app, base};
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json(): any;
}

/** One raw HTTP request: the Host header can be set, redirects are not followed. */
export function call(
  base: string,
  method: string,
  path: string,
  opts: {headers?: Record<string, string>; body?: unknown; timeoutMs?: number} = {},
): Promise<Reply> {
  const url = new URL(path, base);
  let payload: string | undefined;
  const headers: Record<string, string> = {...(opts.headers ?? {})};
  if (opts.body !== undefined) {
    payload = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers},
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text)});
        });
      },
    );
    req.setTimeout(opts.timeoutMs ?? 5000, () => req.destroy(new Error(`timeout: ${method} ${path}`)));
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/** Resolves 'hung' when no answer came within `ms` (a request the server never answers). */
export async function answersWithin(base: string, method: string, path: string, ms: number): Promise<Reply | 'hung'> {
  try {
    return await call(base, method, path, {timeoutMs: ms});
  } catch (error) {
    if (String(error).includes('timeout')) return 'hung';
    throw error;
  }
}

/**
 * Recompiles one file of a sample set without decorator metadata, as Babel's legacy decorators build the
 * JavaScript halves (no `design:paramtypes`): call it before the file is first required.
 */
export function withoutMetadata(set: {dir: string; sources: Map<string, string>}, filename: string): void {
  const ts = nest('typescript');
  const source = set.sources.get(filename);
  if (source === undefined) throw new Error(`no file ${filename} in the set`);
  const out = ts.transpileModule(source, {
    fileName: `${filename}.js`,
    compilerOptions: {module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2019, experimentalDecorators: true, emitDecoratorMetadata: false, allowJs: true},
  });
  writeFileSync(join(set.dir, `${basename(filename)}.js`), out.outputText);
}

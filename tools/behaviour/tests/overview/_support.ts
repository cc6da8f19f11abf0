/**
 * Helpers for the Overview pages' tests: start an app on Express or Fastify,
 * send raw HTTP requests (any Host header, no redirect following), close
 * everything after each test.
 */
import {request as httpRequest} from 'node:http';
import {writeFileSync} from 'node:fs';
import {basename, join} from 'node:path';
import {afterEach} from 'vitest';
import {nest, listen, samples} from '../../lib';

const {Module} = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');

export type Platform = 'express' | 'fastify';
export const platforms: Platform[] = ['express', 'fastify'];

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (closers.length) {
    const close = closers.pop()!;
    await Promise.resolve()
      .then(close)
      .catch(() => undefined);
  }
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
export async function start(
  moduleOrControllers: unknown,
  opts: StartOptions = {},
): Promise<{app: any; base: string}> {
  let root = moduleOrControllers as any;
  if (Array.isArray(moduleOrControllers)) {
    @Module({controllers: moduleOrControllers as any[]})
    class AppModule {}
    root = AppModule;
  }
  const adapter = adapterFor(opts.platform ?? 'express');
  const options = {logger: opts.logger ?? false, ...(opts.options ?? {})};
  const app = adapter
    ? await NestFactory.create(root, adapter, options)
    : await NestFactory.create(root, options);
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
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
      headers['content-type'] = 'application/json';
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
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text,
            json: () => JSON.parse(text),
          });
        });
      },
    );
    req.setTimeout(opts.timeoutMs ?? 5000, () =>
      req.destroy(new Error(`timeout: ${method} ${path}`)),
    );
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/** Resolves 'hung' when no answer came within `ms` (a request the server never answers). */
export async function answersWithin(
  base: string,
  method: string,
  path: string,
  ms: number,
): Promise<Reply | 'hung'> {
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
export function withoutMetadata(
  set: {dir: string; sources: Map<string, string>},
  filename: string,
): void {
  const ts = nest('typescript');
  const source = set.sources.get(filename);
  if (source === undefined) throw new Error(`no file ${filename} in the set`);
  const out = ts.transpileModule(source, {
    fileName: `${filename}.js`,
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2019,
      experimentalDecorators: true,
      emitDecoratorMetadata: false,
      allowJs: true,
    },
  });
  writeFileSync(join(set.dir, `${basename(filename)}.js`), out.outputText);
}

export type EnhancerKind = 'filter' | 'pipe' | 'guard' | 'interceptor';

/**
 * One global enhancer of each kind that records its runs (the guard says no, the filter answers), registered
 * with useGlobal*() or as an APP_* provider, and a socket.io gateway plus a TCP microservice (connected with
 * or without inheritAppConfig) on the same application. Returns what each transport saw.
 */
export async function globalEnhancersProbe(
  kind: EnhancerKind,
  how: 'useGlobal' | 'provider',
  inheritAppConfig: boolean,
) {
  const common = nest('@nestjs/common');
  const core = nest('@nestjs/core');
  const ws = nest('@nestjs/websockets');
  const ms = nest('@nestjs/microservices');
  const {io} = nest('socket.io-client');
  const ran: string[] = [];
  const enhancers: Record<EnhancerKind, unknown> = {
    filter: class {
      catch(_exception: unknown, host: any) {
        ran.push('filter');
        if (host.getType() === 'http')
          host.switchToHttp().getResponse().status(500).json({filtered: true});
        const {throwError} = nest('rxjs');
        return host.getType() === 'rpc'
          ? throwError(() => ({status: 'error', message: 'filtered'}))
          : undefined;
      }
    },
    pipe: class {
      transform(value: unknown) {
        ran.push('pipe');
        return value;
      }
    },
    guard: class {
      canActivate() {
        ran.push('guard');
        return false;
      }
    },
    interceptor: class {
      intercept(_context: unknown, next: any) {
        ran.push('interceptor');
        return next.handle();
      }
    },
  };
  const Enhancer = enhancers[kind] as any;
  if (kind === 'filter') common.Catch()(Enhancer);
  const token = {
    filter: core.APP_FILTER,
    pipe: core.APP_PIPE,
    guard: core.APP_GUARD,
    interceptor: core.APP_INTERCEPTOR,
  }[kind];

  class Gateway {
    ping(data: unknown) {
      ran.push('ws handler');
      if (data === 'fail') throw new ws.WsException('nope');
      return data;
    }
  }
  ws.SubscribeMessage('ping')(
    Gateway.prototype,
    'ping',
    Object.getOwnPropertyDescriptor(Gateway.prototype, 'ping'),
  );
  ws.MessageBody()(Gateway.prototype, 'ping', 0);
  ws.WebSocketGateway()(Gateway);

  class Messages {
    ping(data: unknown) {
      ran.push('rpc handler');
      if (data === 'fail') throw new ms.RpcException('nope');
      return data;
    }
  }
  ms.MessagePattern('ping')(
    Messages.prototype,
    'ping',
    Object.getOwnPropertyDescriptor(Messages.prototype, 'ping'),
  );
  ms.Payload()(Messages.prototype, 'ping', 0);
  common.Controller()(Messages);

  const providers: unknown[] = [Gateway];
  if (how === 'provider') providers.push({provide: token, useClass: Enhancer});
  class AppModule {}
  common.Module({providers, controllers: [Messages]})(AppModule);

  const {NestFactory} = core;
  const app = await NestFactory.create(AppModule, {logger: false});
  onClose(() => app.close());
  if (how === 'useGlobal') {
    const method = {
      filter: 'useGlobalFilters',
      pipe: 'useGlobalPipes',
      guard: 'useGlobalGuards',
      interceptor: 'useGlobalInterceptors',
    }[kind];
    app[method](new Enhancer());
  }
  const {freePort} = await import('../../lib');
  const rpcPort = await freePort();
  app.connectMicroservice(
    {transport: ms.Transport.TCP, options: {host: '127.0.0.1', port: rpcPort}},
    {inheritAppConfig},
  );
  await app.startAllMicroservices();
  const base = await listen(app);

  const socket = io(base, {transports: ['websocket'], forceNew: true});
  onClose(async () => void socket.close());
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  const wsAnswer = await new Promise((resolve) => socket.emit('ping', 'hello', resolve));
  const wsError = await new Promise((resolve) => {
    socket.once('exception', resolve);
    socket.emit('ping', 'fail');
  });
  const wsRan = ran.splice(0);

  const client = ms.ClientProxyFactory.create({
    transport: ms.Transport.TCP,
    options: {host: '127.0.0.1', port: rpcPort},
  });
  onClose(async () => client.close());
  const {lastValueFrom} = nest('rxjs');
  const rpc = (data: string) =>
    lastValueFrom(client.send('ping', data)).then(
      (value: unknown) => ({value}),
      (error: unknown) => ({error}),
    );
  const rpcAnswer = await rpc('hello');
  const rpcError = await rpc('fail');
  const rpcRan = ran.splice(0);
  return {wsAnswer, wsError, wsRan, rpcAnswer, rpcError, rpcRan};
}

/** A microservice created with NestFactory.createMicroservice() (TCP) with one recording global pipe or guard: what ran for one message. */
export async function microserviceGlobalProbe(kind: 'pipe' | 'guard') {
  const common = nest('@nestjs/common');
  const ms = nest('@nestjs/microservices');
  const ran: string[] = [];
  class Messages {
    ping(data: unknown) {
      ran.push('handler');
      return data;
    }
  }
  ms.MessagePattern('ping')(
    Messages.prototype,
    'ping',
    Object.getOwnPropertyDescriptor(Messages.prototype, 'ping'),
  );
  ms.Payload()(Messages.prototype, 'ping', 0);
  common.Controller()(Messages);
  class AppModule {}
  common.Module({controllers: [Messages]})(AppModule);
  const {freePort} = await import('../../lib');
  const port = await freePort();
  const app = await nest('@nestjs/core').NestFactory.createMicroservice(AppModule, {
    transport: ms.Transport.TCP,
    options: {host: '127.0.0.1', port},
    logger: false,
  });
  onClose(() => app.close());
  if (kind === 'pipe')
    app.useGlobalPipes({transform: (value: unknown) => (ran.push('pipe'), value)});
  else app.useGlobalGuards({canActivate: () => (ran.push('guard'), false)});
  await app.listen();
  const client = ms.ClientProxyFactory.create({
    transport: ms.Transport.TCP,
    options: {host: '127.0.0.1', port},
  });
  onClose(async () => client.close());
  const {lastValueFrom} = nest('rxjs');
  const answer = await lastValueFrom(client.send('ping', 'hello')).then(
    (value: unknown) => ({value}),
    (error: unknown) => ({error}),
  );
  return {answer, ran};
}

/** The two claims every enhancer page makes about global registration beyond HTTP, checked for one kind. */
export async function expectGlobalOnlyOverHttp(
  kind: EnhancerKind,
  expectFn: (actual: unknown) => any,
): Promise<void> {
  for (const how of ['useGlobal', 'provider'] as const) {
    const without = await globalEnhancersProbe(kind, how, false);
    expectFn({how, ws: without.wsRan, rpc: without.rpcRan}).toEqual({
      how,
      ws: ['ws handler', 'ws handler'],
      rpc: ['rpc handler', 'rpc handler'],
    });
    const inherited = await globalEnhancersProbe(kind, how, true);
    expectFn({how, ws: inherited.wsRan}).toEqual({how, ws: ['ws handler', 'ws handler']});
    expectFn(inherited.rpcRan).toContain(kind);
  }
}

/**
 * The page's samples; for the JavaScript halves, every file is rebuilt without decorator metadata, as Babel
 * builds them for a JS reader (so a JS half that leans on type metadata fails here as it would there).
 */
export function pageSamples(page: string, options: Parameters<typeof samples>[1] = {}) {
  const set = samples(page, options);
  if (options?.lang === 'js') for (const name of set.sources.keys()) withoutMetadata(set, name);
  return set;
}

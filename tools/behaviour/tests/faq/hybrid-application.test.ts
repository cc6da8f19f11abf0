import {afterAll, beforeAll, expect} from 'vitest';
import {firstValueFrom} from 'rxjs';
import {claim, samples, nest, listen, service, freePort, type Service} from '../../lib';
import {captureLog} from '../fundamentals/_support';

const {Module, Controller, Get, Injectable, UsePipes} = nest('@nestjs/common');
const {NestFactory, APP_GUARD, APP_PIPE} = nest('@nestjs/core');
const {Transport, ClientProxyFactory, MessagePattern, RpcException} = nest('@nestjs/microservices');
const page = 'docs/faq/hybrid-application.md';
const options: any = {logger: false, abortOnError: false};

let redis: Service;
beforeAll(async () => {
  redis = await service('redis');
});
afterAll(async () => {
  await redis?.stop();
});

/** The error a client receives, as text (TCP hands over a string, other transports an object). */
async function failure(observable: any): Promise<string> {
  try {
    await firstValueFrom(observable);
  } catch (error: any) {
    return typeof error === 'string' ? error : error.message;
  }
  throw new Error('no error');
}

function tcpClient(port: number) {
  return ClientProxyFactory.create({transport: Transport.TCP, options: {host: '127.0.0.1', port}});
}

claim(
  `${page}#connecting-a-microservice`,
  'one application answers HTTP and TCP messages after startAllMicroservices() and listen(), with one shared provider',
  async () => {
    @Injectable()
    class CounterService {
      count = 0;
      next() {
        this.count += 1;
        return this.count;
      }
    }
    @Controller()
    class CounterController {
      constructor(private readonly counter: CounterService) {}
      @Get('count')
      http() {
        return this.counter.next();
      }
      @MessagePattern('count')
      rpc() {
        return this.counter.next();
      }
    }
    @Module({controllers: [CounterController], providers: [CounterService]})
    class AppModule {}
    const port = await freePort();
    const app = await NestFactory.create(AppModule, options);
    const microservice = app.connectMicroservice({
      transport: Transport.TCP,
      options: {host: '127.0.0.1', port},
    });
    expect(typeof microservice.listen).toBe('function');
    await app.startAllMicroservices();
    // Resolved once listening: the port accepts a client right away.
    const client = tcpClient(port);
    expect(await firstValueFrom(client.send('count', {}))).toBe(1);
    const base = await listen(app);
    expect(await (await fetch(`${base}/count`)).text()).toBe('2');
    client.close();
    await app.close();
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#multiple-microservices`,
    `MathController: { cmd: 'sum' } answers over TCP only, 'math.sum' over Redis only, logging the channel (${lang})`,
    async () => {
      const {MathController} = samples(page, {under: 'multiple-microservices', lang}).require(
        'math.controller',
      );
      @Module({controllers: [MathController]})
      class AppModule {}
      const port = await freePort();
      const app = await NestFactory.create(AppModule, options);
      app.connectMicroservice({transport: Transport.TCP, options: {host: '127.0.0.1', port}});
      app.connectMicroservice({transport: Transport.REDIS, options: {url: redis.url}});
      await app.startAllMicroservices();
      const tcp = tcpClient(port);
      const overRedis = ClientProxyFactory.create({
        transport: Transport.REDIS,
        options: {url: redis.url},
      });
      try {
        expect(await firstValueFrom(tcp.send({cmd: 'sum'}, [1, 2, 3]))).toBe(6);
        const {lines, result} = await captureLog(() =>
          firstValueFrom(overRedis.send('math.sum', [4, 5])),
        );
        expect(result).toBe(9);
        expect(lines).toEqual(['Received on channel math.sum']);
        expect(await failure(tcp.send('math.sum', [1]))).toBe(
          'There is no matching message handler defined in the remote service.',
        );
        // Over Redis, nothing subscribes to a pattern without a handler there: such a request is never answered.
      } finally {
        tcp.close();
        overRedis.close();
        await app.close();
      }
    },
  );
}

claim(
  `${page}#multiple-microservices`,
  'without a transport argument, a handler listens on every connected transport',
  async () => {
    @Controller()
    class EchoController {
      @MessagePattern('echo')
      echo(data: unknown) {
        return data;
      }
    }
    @Module({controllers: [EchoController]})
    class AppModule {}
    const port = await freePort();
    const app = await NestFactory.create(AppModule, options);
    app.connectMicroservice({transport: Transport.TCP, options: {host: '127.0.0.1', port}});
    app.connectMicroservice({transport: Transport.REDIS, options: {url: redis.url}});
    await app.startAllMicroservices();
    const tcp = tcpClient(port);
    const overRedis = ClientProxyFactory.create({
      transport: Transport.REDIS,
      options: {url: redis.url},
    });
    expect(await firstValueFrom(tcp.send('echo', 'a'))).toBe('a');
    expect(await firstValueFrom(overRedis.send('echo', 'b'))).toBe('b');
    tcp.close();
    overRedis.close();
    await app.close();
  },
);

claim(
  `${page}#sharing-configuration`,
  'useGlobalPipes() and an APP_GUARD apply to the microservice only with { inheritAppConfig: true }',
  async () => {
    const calls: string[] = [];
    class MarkPipe {
      transform(value: any) {
        calls.push('pipe');
        return {...value, piped: true};
      }
    }
    @Injectable()
    class DenyRpcGuard {
      canActivate(context: any) {
        calls.push('guard');
        return context.getType() !== 'rpc' || context.switchToRpc().getData().allowed === true;
      }
    }
    @Controller()
    class ShowController {
      @MessagePattern('show')
      show(data: unknown) {
        return data;
      }
    }
    void UsePipes;
    void RpcException;
    @Module({
      controllers: [ShowController],
      providers: [{provide: APP_GUARD, useClass: DenyRpcGuard}],
    })
    class AppModule {}
    for (const inheritAppConfig of [false, true]) {
      calls.length = 0;
      const port = await freePort();
      const app = await NestFactory.create(AppModule, options);
      app.useGlobalPipes(new MarkPipe());
      app.connectMicroservice(
        {transport: Transport.TCP, options: {host: '127.0.0.1', port}},
        {inheritAppConfig},
      );
      await app.startAllMicroservices();
      const client = tcpClient(port);
      if (inheritAppConfig) {
        expect(await firstValueFrom(client.send('show', {allowed: true}))).toEqual({
          allowed: true,
          piped: true,
        });
        expect(await failure(client.send('show', {allowed: false}))).toBe('Forbidden resource');
        expect(calls).toEqual(['guard', 'pipe', 'guard']);
      } else {
        expect(await firstValueFrom(client.send('show', {allowed: false}))).toEqual({
          allowed: false,
        });
        expect(calls).toEqual([]);
      }
      client.close();
      await app.close();
    }
  },
);

claim(
  `${page}#connecting-a-microservice`,
  'startAllMicroservicesAsync() still works in 8.4.7 but logs a deprecation warning pointing to startAllMicroservices()',
  async () => {
    const {memoryLogger} = await import('../../lib');
    @Module({})
    class AppModule {}
    const memory = memoryLogger();
    const app = await NestFactory.create(AppModule, {logger: memory.logger, abortOnError: false});
    app.connectMicroservice({
      transport: Transport.TCP,
      options: {host: '127.0.0.1', port: await freePort()},
    });
    await app.startAllMicroservicesAsync();
    const warning = memory.lines.find((line) => line.level === 'warn');
    expect(warning?.message).toBe(
      'DEPRECATED! "startAllMicroservicesAsync" method is deprecated and will be removed in the next major release. Please, use "startAllMicroservices" instead.',
    );
    await app.close();
  },
);

claim(
  `${page}#sharing-configuration`,
  'global pipes reach the connected microservice with inheritAppConfig only when registered before connectMicroservice(); later ones, on the app or the microservice, do not; APP_* providers always do',
  async () => {
    @Injectable()
    class RejectPipe {
      transform() {
        throw new RpcException('rejected by the pipe');
      }
    }
    @Controller()
    class MathController {
      @MessagePattern('sum')
      sum(data: number[]) {
        return data.reduce((a, b) => a + b, 0);
      }
    }
    const outcome: Record<string, string> = {};
    for (const mode of ['before', 'after-app', 'after-micro', 'app-provider'] as const) {
      @Module({
        controllers: [MathController],
        providers: mode === 'app-provider' ? [{provide: APP_PIPE, useClass: RejectPipe}] : [],
      })
      class HybridModule {}
      const app = await NestFactory.create(HybridModule, options);
      if (mode === 'before') app.useGlobalPipes(new RejectPipe());
      const port = await freePort();
      const micro = app.connectMicroservice(
        {transport: Transport.TCP, options: {host: '127.0.0.1', port}},
        {inheritAppConfig: true},
      );
      if (mode === 'after-app') app.useGlobalPipes(new RejectPipe());
      if (mode === 'after-micro') micro.useGlobalPipes(new RejectPipe());
      await app.startAllMicroservices();
      await app.init();
      const client = tcpClient(port);
      outcome[mode] = await firstValueFrom(client.send('sum', [1, 2])).then(
        (value: unknown) => String(value),
        (error: unknown) => (typeof error === 'string' ? error : (error as Error).message),
      );
      client.close();
      await app.close();
    }
    expect(outcome).toEqual({
      before: 'rejected by the pipe',
      'after-app': '3',
      'after-micro': '3',
      'app-provider': 'rejected by the pipe',
    });
  },
);

/** A bootstrap like the page's, in a child process; `connect` is the connectMicroservice() argument. */
const hybridScript = (connect: string, wrap = false) => `
const { Module, Controller } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { Transport, MessagePattern } = require('@nestjs/microservices');
class MathController { sum(numbers) { return numbers.reduce((a, b) => a + b, 0); } }
MessagePattern('math.sum')(MathController.prototype, 'sum', Object.getOwnPropertyDescriptor(MathController.prototype, 'sum'));
Controller()(MathController);
class AppModule {}
Module({ controllers: [MathController] })(AppModule);
process.on('exit', (code) => console.log('exit ' + code));
async function bootstrap() {
  const app = await NestFactory.create(AppModule, { logger: ['error'] });
  app.connectMicroservice(${connect});
  ${wrap ? 'try { await app.startAllMicroservices(); } catch (error) { console.log("caught " + error.message); }' : 'await app.startAllMicroservices();'}
  console.log('microservices started');
  await app.listen(0, '127.0.0.1');
  console.log('http listening');
}
bootstrap();
`;

claim.failure(
  `${page}#when-a-transport-cannot-start`,
  'the TCP port already taken: startAllMicroservices() rejects with EADDRINUSE, HTTP never listens, and the process ends with exit code 1',
  async () => {
    const {mkdtempSync, rmSync} = await import('node:fs');
    const {tmpdir} = await import('node:os');
    const {join} = await import('node:path');
    const {createServer} = await import('node:net');
    const {runScript} = await import('../fundamentals/_support');
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const {port} = taken.address() as {port: number};
    const dir = mkdtempSync(join(tmpdir(), 'behaviour-hybrid-'));
    try {
      const result = await runScript(
        dir,
        'taken.js',
        hybridScript(`{ transport: Transport.TCP, options: { host: '127.0.0.1', port: ${port} } }`),
      );
      expect(result.code).toBe(1);
      expect(result.stdout).not.toMatch(/microservices started|http listening/);
      expect(result.stderr).toContain(
        `listen EADDRINUSE: address already in use 127.0.0.1:${port}`,
      );
    } finally {
      await new Promise((r) => taken.close(r));
      rmSync(dir, {recursive: true, force: true});
    }
  },
);

claim.failure(
  `${page}#when-a-transport-cannot-start`,
  'Redis down and no retry budget: "Error ECONNREFUSED" then "Retry time exhausted", and the process ends with exit code 1 although startAllMicroservices() sits in a try/catch',
  async () => {
    const {mkdtempSync, rmSync} = await import('node:fs');
    const {tmpdir} = await import('node:os');
    const {join} = await import('node:path');
    const {plain, runScript} = await import('../fundamentals/_support');
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'behaviour-hybrid-'));
    try {
      const result = await runScript(
        dir,
        'redis-down.js',
        hybridScript(
          `{ transport: Transport.REDIS, options: { url: 'redis://127.0.0.1:${port}' } }`,
          true,
        ),
      );
      expect(result.code).toBe(1);
      expect(result.stdout).not.toMatch(/caught|microservices started|http listening/);
      const output = plain(result.stdout + result.stderr);
      expect(output).toContain(`ERROR [Server] Error ECONNREFUSED: redis://127.0.0.1:${port}`);
      expect(output).toContain(`ERROR [Server] Retry time exhausted: redis://127.0.0.1:${port}`);
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  },
);

claim.failure(
  `${page}#when-a-transport-cannot-start`,
  "with the page's retryAttempts and retryDelay, Redis starting two seconds after the application: startAllMicroservices() resolves once it is up, and messages are answered",
  async () => {
    const {mkdtempSync, rmSync} = await import('node:fs');
    const {tmpdir} = await import('node:os');
    const {join} = await import('node:path');
    const {spawn} = await import('node:child_process');
    const {fragment, findBinary} = await import('../../lib');
    const {runScript} = await import('../fundamentals/_support');
    const port = await freePort();
    const options = fragment(page, 'when-a-transport-cannot-start', 'retryAttempts').value;
    const connect = options
      .slice(options.indexOf('{'), options.lastIndexOf('}') + 1)
      .replace("'redis://localhost:6379'", `'redis://127.0.0.1:${port}'`);
    expect(connect).toContain('retryAttempts: 10, retryDelay: 1000');
    const dir = mkdtempSync(join(tmpdir(), 'behaviour-hybrid-'));
    let late: ReturnType<typeof spawn> | undefined;
    // The broker comes up two seconds after the application started to connect.
    const timer = setTimeout(() => {
      late = spawn(
        findBinary('redis'),
        ['--port', String(port), '--bind', '127.0.0.1', '--save', ''],
        {
          stdio: 'ignore',
        },
      );
    }, 2000);
    try {
      const result = await runScript(
        dir,
        'redis-late.js',
        hybridScript(connect).replace(
          "console.log('http listening');",
          `console.log('http listening');
  const { ClientProxyFactory } = require('@nestjs/microservices');
  const { firstValueFrom } = require('rxjs');
  const client = ClientProxyFactory.create({ transport: Transport.REDIS, options: { url: 'redis://127.0.0.1:${port}' } });
  console.log('sum ' + (await firstValueFrom(client.send('math.sum', [1, 2, 3]))));
  client.close();
  await app.close();`,
        ),
      );
      expect(result.stdout).toMatch(/microservices started\nhttp listening\nsum 6\nexit 0\n$/);
      expect(result.code).toBe(0);
    } finally {
      clearTimeout(timer);
      if (late && late.exitCode === null) {
        const exited = new Promise((r) => late!.once('exit', r));
        late.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, {recursive: true, force: true});
    }
  },
);

claim.abuse(
  `${page}#sharing-configuration`,
  'a global API-key guard protects HTTP only: a TCP client without any key runs the message handler; the same guard with @UseGuards() on the controller refuses it ("Forbidden resource")',
  async () => {
    const {UseGuards} = nest('@nestjs/common');
    class ApiKeyGuard {
      canActivate(context: any) {
        const key =
          context.getType() === 'http'
            ? context.switchToHttp().getRequest().headers['x-api-key']
            : context.switchToRpc().getData()?.apiKey;
        return key === 'secret-key';
      }
    }
    const deleted: string[] = [];
    const build = (bound: 'global' | 'controller') => {
      @Controller('cats')
      class CatsController {
        @Get()
        findAll() {
          return ['Tom'];
        }
        @MessagePattern('cats.delete')
        remove(data: {id: string}) {
          deleted.push(data.id);
          return true;
        }
      }
      if (bound === 'controller') UseGuards(ApiKeyGuard)(CatsController);
      @Module({controllers: [CatsController]})
      class AppModule {}
      return AppModule;
    };
    const outcomes: Record<string, unknown> = {};
    for (const bound of ['global', 'controller'] as const) {
      const app = await NestFactory.create(build(bound), options);
      if (bound === 'global') app.useGlobalGuards(new ApiKeyGuard());
      const port = await freePort();
      app.connectMicroservice({transport: Transport.TCP, options: {host: '127.0.0.1', port}});
      await app.startAllMicroservices();
      const base = await listen(app);
      const client = tcpClient(port);
      outcomes[bound] = {
        http: (await fetch(`${base}/cats`)).status,
        rpc: await firstValueFrom(client.send('cats.delete', {id: `cat-${bound}`})).then(
          (value) => value,
          (error) => error.message,
        ),
      };
      client.close();
      await app.close();
    }
    expect(outcomes).toEqual({
      global: {http: 403, rpc: true},
      controller: {http: 403, rpc: 'Forbidden resource'},
    });
    expect(deleted).toEqual(['cat-global']);
  },
);

claim.failure(
  `${page}#sharing-configuration`,
  'a global filter that writes to the HTTP response, shared with inheritAppConfig: true: the first message handler that throws (a NotFoundException) ends the process with exit code 1 and the TypeError of output hybrid-http-filter',
  async () => {
    const {mkdtempSync, rmSync} = await import('node:fs');
    const {tmpdir} = await import('node:os');
    const {join} = await import('node:path');
    const {expectOutput} = await import('../../lib');
    const {compileInto, runScript} = await import('../fundamentals/_support');
    const dir = mkdtempSync(join(tmpdir(), 'behaviour-hybrid-filter-'));
    try {
      compileInto(
        dir,
        'main',
        `import { ArgumentsHost, Catch, Controller, ExceptionFilter, HttpException, Module, NotFoundException } from '@nestjs/common';
import { APP_FILTER, NestFactory } from '@nestjs/core';
import { ClientProxyFactory, MessagePattern, Transport } from '@nestjs/microservices';
import { lastValueFrom } from 'rxjs';

// Written for HTTP requests only.
@Catch()
class JsonErrorFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost) {
    const response = host.switchToHttp().getResponse();
    const status = exception instanceof HttpException ? exception.getStatus() : 500;
    response.status(status).json({ statusCode: status });
  }
}
@Controller()
class CatsController {
  @MessagePattern('cats.find')
  find() { throw new NotFoundException('no such cat'); }
}
@Module({ controllers: [CatsController], providers: [{ provide: APP_FILTER, useClass: JsonErrorFilter }] })
class AppModule {}

process.on('exit', (code) => console.log('exit ' + code));
async function main() {
  const port = Number(process.argv[2]);
  const app = await NestFactory.create(AppModule, { logger: ['error'] });
  app.connectMicroservice({ transport: Transport.TCP, options: { host: '127.0.0.1', port } }, { inheritAppConfig: true });
  await app.startAllMicroservices();
  await app.listen(0, '127.0.0.1');
  console.log('listening');
  const client = ClientProxyFactory.create({ transport: Transport.TCP, options: { host: '127.0.0.1', port } });
  await lastValueFrom(client.send('cats.find', {})).then(
    (value) => console.log('answered ' + JSON.stringify(value)),
    (error) => console.log('failed ' + JSON.stringify(error)),
  );
  await app.close();
}
main();
`,
      );
      const port = await freePort();
      const result = await runScript(
        dir,
        'run.js',
        `process.argv.push(${JSON.stringify(String(port))});\nrequire('./main');`,
      );
      expect(result.stdout).toBe('listening\nexit 1\n');
      expect(result.code).toBe(1);
      const thrown = result.stderr.split('\n').find((line) => line.startsWith('TypeError'));
      expectOutput(page, 'hybrid-http-filter', `${thrown}\n`);
      expect(result.stderr).toContain('at JsonErrorFilter.catch');
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  },
);

claim.abuse(
  `${page}#connecting-a-microservice`,
  'the hybrid bootstrap of the page: one TCP packet whose pattern is nested 10,000 levels deep ends the whole process, HTTP server included (exit code 1); the transporter listens on localhost when no host is given',
  async () => {
    const {nodeChild, deepJson, rawTcpFrames, tcpFrame} = await import('../microservices/_support');
    // Where the TCP transporter listens without a host option (the page's sample passes only a port).
    const tcpPort = await freePort();
    const inProcess = await NestFactory.create(
      (() => {
        @Module({})
        class EmptyModule {}
        return EmptyModule;
      })(),
      options,
    );
    inProcess.connectMicroservice({transport: Transport.TCP, options: {port: tcpPort}});
    await inProcess.startAllMicroservices();
    const address = (inProcess.getMicroservices()[0] as any).server.server.address();
    await inProcess.close();
    expect(['127.0.0.1', '::1']).toContain(address.address);

    const port = await freePort();
    const child = nodeChild(
      hybridScript(`{ transport: Transport.TCP, options: { port: ${port} } }`).replace(
        "console.log('http listening');",
        "console.log('http listening ' + (await app.getUrl()));",
      ),
    );
    try {
      await child.waitFor('http listening');
      const url = /http listening (\S+)/.exec(child.out)![1].replace('[::1]', '127.0.0.1');
      expect((await fetch(url)).status).toBe(404);
      await rawTcpFrames(port, [tcpFrame(`{"pattern":${deepJson()},"data":[1],"id":"p1"}`)], 300);
      expect(await child.exited).toBe(1);
      expect(child.out).toContain('RangeError: Maximum call stack size exceeded');
      await expect(fetch(url)).rejects.toThrow();
    } finally {
      await child.kill();
    }
  },
  20_000,
);

import {afterAll, beforeAll, expect} from 'vitest';
import {
  claim,
  samples,
  fragment,
  compileModule,
  nest,
  listen,
  memoryLogger,
  freePort,
} from '../../lib';
import {nodeChild, deepJson, rawTcpFrames, tcpFrame} from './_support';

const {NestFactory} = nest('@nestjs/core');
const {Module} = nest('@nestjs/common');
const {Transport, ClientProxyFactory, ClientsModule, ClientTCP, ServerTCP} =
  nest('@nestjs/microservices');
const {lastValueFrom, toArray} = nest('rxjs');
const page = 'docs/microservices/basics.md';

const NO_HANDLER = 'There is no matching message handler defined in the remote service.';
const catInterface = {
  ts: 'export interface Cat { name: string; age: number; breed: string }\n',
  js: 'export {};\n',
};

/**
 * One TCP microservice for the file: the page's MathController and CatsController (count-down), its
 * CatsEventsController, the RpcException fragment and a few handlers for claims the page makes in prose.
 */
let port: number;
let micro: any;
const log = memoryLogger();
const events: string[] = [];
let client: any;

beforeAll(async () => {
  port = await freePort();
  (globalThis as any).__basicsEvents = events;
  const math = samples(page, {under: 'request-response'}).require('math.controller');
  const countDown = samples(page, {pick: {'cats.controller': 2}}).require('cats.controller');
  const catsEvents = samples(page, {files: {'interfaces/cat.interface': catInterface.ts}}).require(
    'cats-events.controller',
  );
  const rpcFragment = fragment(page, 'asynchronous-responses', 'throw new RpcException').value;
  const extras = compileModule(
    `
import { Controller, Injectable, Module, ParseIntPipe, ValidationPipe } from '@nestjs/common';
import { EventPattern, MessagePattern, Payload, RpcException } from '@nestjs/microservices';
import { IsString } from 'class-validator';
interface Cat { name: string; age: number; breed: string }
const rec = (globalThis as any).__basicsEvents as string[];

@Injectable()
export class CatsService {
  async findOne(id: number): Promise<Cat | undefined> { return id === 1 ? { name: 'Tom', age: 3, breed: 'Persian' } : undefined; }
}

@Controller()
export class FindController {
  constructor(private readonly catsService: CatsService) {}
  // The page's fragment, as shown:
  ${rpcFragment.replace(/^import .*$/m, '')}

  @MessagePattern('boom') boom() { throw new Error('database password is hunter2'); }
  @MessagePattern({ id: 1 }) numeric() { return 'number one'; }
  @MessagePattern('by-id') byId(@Payload('id') id: number) { return { id }; }
  @MessagePattern('by-id-int') byIdInt(@Payload('id', ParseIntPipe) id: number) { return { id, type: typeof id }; }
  @EventPattern('cat_created') second(@Payload() cat: Cat) { rec.push('second:' + cat.name); return 'ignored'; }
  @MessagePattern('twice') first() { return 'first'; }
}

class CreateCatDto { @IsString() name!: string; }
@Controller()
export class ValidationController {
  @EventPattern('validated_event') ev(@Payload(new ValidationPipe()) dto: CreateCatDto) { rec.push('validated:' + dto.name); }
  @MessagePattern('validate_plain') plain(@Payload(new ValidationPipe()) dto: CreateCatDto) { return dto.name; }
  @MessagePattern('validate_rpc') rpc(@Payload(new ValidationPipe({ exceptionFactory: (errors) => new RpcException(errors) })) dto: CreateCatDto) { return dto.name; }
}

@Controller()
export class Twice2Controller {
  @MessagePattern('twice') second() { return 'second'; }
}
`,
    'basics-extras',
  );
  @Module({
    controllers: [
      math.MathController,
      countDown.CatsController,
      catsEvents.CatsEventsController,
      extras.FindController,
      extras.ValidationController,
      extras.Twice2Controller,
    ],
    providers: [extras.CatsService],
  })
  class AppModule {}
  micro = await NestFactory.createMicroservice(AppModule, {
    transport: Transport.TCP,
    logger: log.logger,
    options: {host: '127.0.0.1', port},
  });
  await micro.listen();
  client = ClientProxyFactory.create({
    transport: Transport.TCP,
    options: {host: '127.0.0.1', port},
  });
});

afterAll(async () => {
  client?.close();
  await micro?.close();
});

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

claim(
  `${page}#request-response`,
  "send({ cmd: 'sum' }, [4, 5, 6]) answers 15 from MathController",
  async () => {
    expect(await lastValueFrom(client.send({cmd: 'sum'}, [4, 5, 6]))).toBe(15);
  },
);

claim(`${page}#request-response`, 'the JavaScript MathController answers the same', async () => {
  const {MathController} = samples(page, {under: 'request-response', lang: 'js'}).require(
    'math.controller',
  );
  const jsPort = await freePort();
  @Module({controllers: [MathController]})
  class JsModule {}
  const app = await NestFactory.createMicroservice(JsModule, {
    transport: Transport.TCP,
    logger: log.logger,
    options: {host: '127.0.0.1', port: jsPort},
  });
  await app.listen();
  const jsClient = ClientProxyFactory.create({
    transport: Transport.TCP,
    options: {host: '127.0.0.1', port: jsPort},
  });
  try {
    expect(await lastValueFrom(jsClient.send({cmd: 'sum'}, [1, 2, 3]))).toBe(6);
  } finally {
    jsClient.close();
    await app.close();
  }
});

claim(
  `${page}#patterns`,
  'object patterns are normalized with sorted keys: key order does not matter',
  async () => {
    expect(await lastValueFrom(client.send({entity: 'cat', action: 'count-down'}, 0))).toBe(0);
    expect(await lastValueFrom(client.send({action: 'count-down', entity: 'cat'}, 0))).toBe(0);
  },
);

claim(
  `${page}#patterns`,
  "value types matter: { id: 1 } and { id: '1' } are different patterns",
  async () => {
    expect(await lastValueFrom(client.send({id: 1}, {}))).toBe('number one');
    await expect(lastValueFrom(client.send({id: '1'}, {}))).rejects.toBe(NO_HANDLER);
  },
);

claim(
  `${page}#asynchronous-responses`,
  'an Observable handler sent 3 answers 3, 2, 1 and 0, one by one',
  async () => {
    const shown = fragment(page, 'sending-messages', 'toArray()').value;
    expect(shown).toContain('// values: [3, 2, 1, 0]');
    expect(
      await lastValueFrom(client.send({entity: 'cat', action: 'count-down'}, 3).pipe(toArray())),
    ).toEqual([3, 2, 1, 0]);
  },
);

claim(
  `${page}#asynchronous-responses`,
  "an RpcException makes the caller's Observable error with { status: 'error', message: 'Cat 7 not found' }",
  async () => {
    await expect(lastValueFrom(client.send({entity: 'cat', action: 'find'}, 7))).rejects.toEqual({
      status: 'error',
      message: 'Cat 7 not found',
    });
    expect(await lastValueFrom(client.send({entity: 'cat', action: 'find'}, 1))).toEqual({
      name: 'Tom',
      age: 3,
      breed: 'Persian',
    });
  },
);

claim(
  `${page}#asynchronous-responses`,
  'any other exception reaches the caller as Internal server error, without its message',
  async () => {
    await expect(lastValueFrom(client.send('boom', {}))).rejects.toEqual({
      status: 'error',
      message: 'Internal server error',
    });
  },
);

claim(
  `${page}#event-based`,
  "two @EventPattern('cat_created') handlers in different controllers both run; the page's handler logs its welcome",
  async () => {
    await lastValueFrom(client.emit('cat_created', {name: 'Tom', age: 3, breed: 'Persian'}), {
      defaultValue: undefined,
    });
    await until(
      () => events.includes('second:Tom') && log.text().includes('Welcome, "Tom" the "Persian"!'),
    ).catch(() => {
      throw new Error(`events ${JSON.stringify(events)}; log:\n${log.text()}`);
    });
  },
);

claim(
  `${page}#event-based`,
  'a second handler for the same message pattern replaces the first one',
  async () => {
    expect(await lastValueFrom(client.send('twice', {}))).toBe('second');
  },
);

claim(
  `${page}#decorators`,
  "@Payload('id') receives the property alone, and combines with a pipe",
  async () => {
    expect(await lastValueFrom(client.send('by-id', {id: 7, name: 'Tom'}))).toEqual({id: 7});
    expect(await lastValueFrom(client.send('by-id-int', {id: '7'}))).toEqual({
      id: 7,
      type: 'number',
    });
  },
);

claim(
  `${page}#decorators`,
  "ValidationPipe's BadRequestException reaches the caller as an unknown error; with exceptionFactory the validation errors arrive",
  async () => {
    await expect(lastValueFrom(client.send('validate_plain', {name: 5}))).rejects.toEqual({
      status: 'error',
      message: 'Internal server error',
    });
    const errors = await lastValueFrom(client.send('validate_rpc', {name: 5})).catch(
      (e: unknown) => e,
    );
    expect(errors).toEqual([
      expect.objectContaining({property: 'name', constraints: {isString: 'name must be a string'}}),
    ]);
    expect(await lastValueFrom(client.send('validate_rpc', {name: 'Tom'}))).toBe('Tom');
  },
);

claim(
  `${page}#decorators`,
  'TcpContext offers getPattern() (the normalized pattern) and getSocketRef()',
  async () => {
    const {Ctx} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { Ctx as C, MessagePattern, TcpContext } from '@nestjs/microservices';
@Controller()
export class Ctx {
  @MessagePattern({ cmd: 'ctx' }) ctx(_data: unknown, @C() context: TcpContext) {
    return { name: context.constructor.name, pattern: context.getPattern(), socket: typeof context.getSocketRef().sendMessage };
  }
}
`,
      'basics-ctx',
    );
    const ctxPort = await freePort();
    @Module({controllers: [Ctx]})
    class CtxModule {}
    const app = await NestFactory.createMicroservice(CtxModule, {
      transport: Transport.TCP,
      logger: log.logger,
      options: {host: '127.0.0.1', port: ctxPort},
    });
    await app.listen();
    const ctxClient = ClientProxyFactory.create({
      transport: Transport.TCP,
      options: {host: '127.0.0.1', port: ctxPort},
    });
    try {
      expect(await lastValueFrom(ctxClient.send({cmd: 'ctx'}, {}))).toEqual({
        name: 'TcpContext',
        pattern: '{"cmd":"ctx"}',
        socket: 'function',
      });
    } finally {
      ctxClient.close();
      await app.close();
    }
  },
);

/** The page's LoggingInterceptor (TS or JS) around the page's MathController and the guards chapter's accumulate handler. */
async function loggingApp(lang: 'ts' | 'js') {
  const {LoggingInterceptor} = samples(page, {lang}).require('logging.interceptor');
  const {MathController} = samples(page, {under: 'request-response'}).require('math.controller');
  const {KeyedController} = compileModule(
    `
import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
@Controller()
export class KeyedController {
  // The guards chapter's handler: the API key travels in the payload.
  @MessagePattern({ cmd: 'accumulate' })
  accumulate(@Payload() data: { apiKey: string; numbers: number[] }): number {
    return data.numbers.reduce((a, b) => a + b, 0);
  }
}
`,
    'basics-keyed',
  );
  const lport = await freePort();
  @Module({controllers: [MathController, KeyedController]})
  class LModule {}
  // Nest's static logger is process-wide: every app of this file logs to the same memory logger.
  const app = await NestFactory.createMicroservice(LModule, {
    transport: Transport.TCP,
    logger: log.logger,
    options: {host: '127.0.0.1', port: lport},
  });
  app.useGlobalInterceptors(new LoggingInterceptor());
  await app.listen();
  const lclient = ClientProxyFactory.create({
    transport: Transport.TCP,
    options: {host: '127.0.0.1', port: lport},
  });
  const lines = () =>
    log.lines.filter((l) => l.context === 'LoggingInterceptor').map((l) => String(l.message));
  return {
    lclient,
    lines,
    close: async () => {
      lclient.close();
      await app.close();
    },
  };
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#decorators`,
    `the LoggingInterceptor logs the handler, the payload's field names and the time, once per message, for a failing handler too (${lang})`,
    async () => {
      const {lclient, lines, close} = await loggingApp(lang);
      try {
        const before = lines().length;
        expect(await lastValueFrom(lclient.send({cmd: 'sum'}, [1, 2]))).toBe(3);
        await expect(lastValueFrom(lclient.send({cmd: 'sum'}, 'not numbers'))).rejects.toEqual({
          status: 'error',
          message: 'Internal server error',
        });
        await until(() => lines().length >= before + 2);
        expect(lines().slice(before)).toEqual([
          expect.stringMatching(/^MathController\.sum \(payload \["0","1"\]\) took \d+ms$/),
          expect.stringMatching(/^MathController\.sum \(payload string\) took \d+ms$/),
        ]);
      } finally {
        await close();
      }
    },
  );

  claim.abuse(
    `${page}#decorators`,
    `with the guards chapter's apiKey in the payload, the LoggingInterceptor's line names the field but not the key, and a field name with a line break stays on one line (${lang})`,
    async () => {
      const {lclient, lines, close} = await loggingApp(lang);
      try {
        const before = lines().length;
        const forged = 'x\n[Nest] 1  - 01/01/2026, 0:00:00 AM     LOG [Auth] admin signed in';
        expect(
          await lastValueFrom(
            lclient.send(
              {cmd: 'accumulate'},
              {apiKey: 'k-SECRET-4711', numbers: [1, 2], [forged]: 1},
            ),
          ),
        ).toBe(3);
        await until(() => lines().length > before);
        const [line] = lines().slice(before);
        expect(line).toContain(
          'KeyedController.accumulate (payload ["apiKey","numbers","x\\n[Nest]',
        );
        expect(line).not.toContain('k-SECRET-4711');
        expect(line).not.toContain('\n');
      } finally {
        await close();
      }
    },
  );
}

claim.abuse(
  `${page}#event-based`,
  "a cat name with a line break is logged by the page's CatsEventsController on one line, quoted, so it cannot forge a log entry",
  async () => {
    const forged = 'Tom\n[Nest] 1  - 01/01/2026, 0:00:00 AM     LOG [Auth] admin signed in';
    await lastValueFrom(client.emit('cat_created', {name: forged, age: 3, breed: 'Persian'}), {
      defaultValue: undefined,
    });
    const welcome = () =>
      log.lines
        .filter((l) => l.context === 'CatsEventsController')
        .map((l) => String(l.message))
        .find((m) => m.includes('admin signed in'));
    await until(() => welcome() !== undefined);
    expect(welcome()).toBe(`Welcome, ${JSON.stringify(forged)} the "Persian"!`);
    expect(welcome()).not.toContain('\n');
  },
);

claim(`${page}#options`, 'TCP defaults: host localhost, port 3000', async () => {
  const server = new ServerTCP({});
  expect([server.host, server.port]).toEqual(['localhost', 3000]);
});

claim(
  `${page}#client`,
  'a client definition without transport gets a TCP client at runtime',
  async () => {
    expect(ClientProxyFactory.create({options: {port: 3001}} as any)).toBeInstanceOf(ClientTCP);
    const dynamic = ClientsModule.register([{name: 'X', options: {port: 3001}} as any]);
    expect(dynamic.providers[0].useValue).toBeInstanceOf(ClientTCP);
  },
);

claim(
  `${page}#clientproxyfactory`,
  'MathClientModule resolves ConfigService through its ConfigModule import; without the import Nest cannot resolve MATH_SERVICE',
  async () => {
    const set = samples(page, {under: 'clientproxyfactory'});
    const {MathClientModule} = set.require('math-client.module');
    const app = await NestFactory.createApplicationContext(MathClientModule, {logger: log.logger});
    expect(app.get('MATH_SERVICE')).toBeInstanceOf(ClientTCP);
    await app.close();
    const withoutImport = compileModule(
      set.sources.get('math-client.module')!.replace('imports: [ConfigModule],', ''),
      'math-client-no-import',
    );
    await expect(
      NestFactory.createApplicationContext(withoutImport.MathClientModule, {
        logger: log.logger,
        abortOnError: false,
      }),
    ).rejects.toThrow(/Nest can't resolve dependencies of the MATH_SERVICE \(\?\)/);
  },
);

claim(
  `${page}#clientproxyfactory`,
  'a ClientProxyFactory client stays connected after app.close(); a ClientsModule client is closed',
  async () => {
    const set = samples(page, {under: 'clientproxyfactory'});
    const source = set.sources
      .get('math-client.module')!
      .replace(`Number(config.get<string>('MATH_PORT', '3001'))`, `${port}`)
      .replace(`options: { port:`, `options: { host: '127.0.0.1', port:`);
    const {MathClientModule} = compileModule(source, 'math-client-port');
    const app = await NestFactory.createApplicationContext(MathClientModule, {logger: log.logger});
    const factoryClient = app.get('MATH_SERVICE');
    await factoryClient.connect();
    @Module({
      imports: [
        ClientsModule.register([
          {name: 'M', transport: Transport.TCP, options: {host: '127.0.0.1', port}},
        ]),
      ],
    })
    class Registered {}
    const app2 = await NestFactory.createApplicationContext(Registered, {logger: log.logger});
    const registered = app2.get('M');
    await registered.connect();
    await app.close();
    await app2.close();
    expect(factoryClient.isConnected).toBe(true);
    expect(registered.isConnected).toBe(false);
    factoryClient.close();
  },
);

claim(
  `${page}#sending-messages`,
  'GET /math/sum?numbers=4,5,6 on the HTTP app answers 15 (TS and JS)',
  async () => {
    for (const lang of ['ts', 'js'] as const) {
      const {AppController} = samples(page, {under: 'sending-messages', lang}).require(
        'app.controller',
      );
      @Module({
        imports: [
          ClientsModule.register([
            {name: 'MATH_SERVICE', transport: Transport.TCP, options: {host: '127.0.0.1', port}},
          ]),
        ],
        controllers: [AppController],
      })
      class HttpModule {}
      const app = await NestFactory.create(HttpModule, {logger: log.logger});
      try {
        const base = await listen(app);
        const response = await fetch(`${base}/math/sum?numbers=4,5,6`);
        expect(response.status).toBe(200);
        expect(await response.text()).toBe('15');
      } finally {
        await app.close();
      }
    }
  },
);

claim(
  `${page}#sending-messages`,
  'send() is cold: nothing is sent (and no connection opened) until somebody subscribes',
  async () => {
    const lazy = ClientProxyFactory.create({
      transport: Transport.TCP,
      options: {host: '127.0.0.1', port},
    });
    const before = events.length;
    const observable = lazy.send({cmd: 'sum'}, [1]);
    await new Promise((r) => setTimeout(r, 100));
    expect(lazy.isConnected).toBe(false);
    expect(await lastValueFrom(observable)).toBe(1);
    expect(lazy.isConnected).toBe(true);
    expect(events.length).toBe(before);
    lazy.close();
  },
);

claim(
  `${page}#sending-messages`,
  'a null or undefined pattern or payload fails with InvalidMessageException; an unmatched pattern errors with the no-handler message',
  async () => {
    const {InvalidMessageException} = nest(
      '@nestjs/microservices/errors/invalid-message.exception',
    );
    await expect(lastValueFrom(client.send({cmd: 'sum'}, undefined))).rejects.toBeInstanceOf(
      InvalidMessageException,
    );
    await expect(lastValueFrom(client.send(null, [1]))).rejects.toBeInstanceOf(
      InvalidMessageException,
    );
    await expect(lastValueFrom(client.emit('cat_created', null))).rejects.toBeInstanceOf(
      InvalidMessageException,
    );
    await expect(lastValueFrom(client.send({cmd: 'nothing'}, {}))).rejects.toBe(NO_HANDLER);
  },
);

claim(
  `${page}#publishing-events`,
  'emit() is hot: the event goes out without a subscriber, and a late lastValueFrom with defaultValue resolves to undefined',
  async () => {
    const hot = ClientProxyFactory.create({
      transport: Transport.TCP,
      options: {host: '127.0.0.1', port},
    });
    const before = events.filter((e) => e === 'second:Hot').length;
    const observable = hot.emit('cat_created', {name: 'Hot', age: 1, breed: 'Sphynx'});
    await until(() => events.filter((e) => e === 'second:Hot').length === before + 1);
    await expect(lastValueFrom(observable)).rejects.toThrow(/no elements in sequence/);
    await expect(lastValueFrom(observable, {defaultValue: undefined})).resolves.toBeUndefined();
    hot.close();
  },
);

claim(
  `${page}#connecting-and-closing`,
  'connect() in onApplicationBootstrap makes startup fail on a wrong address (ECONNREFUSED)',
  async () => {
    const {AppController} = samples(page, {under: 'connecting-and-closing'}).require(
      'app.controller',
    );
    const closed = await freePort();
    @Module({
      imports: [
        ClientsModule.register([
          {
            name: 'MATH_SERVICE',
            transport: Transport.TCP,
            options: {host: '127.0.0.1', port: closed},
          },
        ]),
      ],
      controllers: [AppController],
    })
    class BootModule {}
    const app = await NestFactory.create(BootModule, {logger: log.logger});
    await expect(app.init()).rejects.toMatchObject({code: 'ECONNREFUSED'});
    await app.close().catch(() => undefined);
  },
);

claim(
  `${page}#scopes`,
  'a request-scoped provider injects the message through CONTEXT: getPattern() and getData()',
  async () => {
    const {CatsAuditService} = samples(page).require('cats-audit.service');
    (globalThis as any).__audit = CatsAuditService;
    const {AuditController} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
const CatsAuditService = (globalThis as any).__audit;
@Controller()
export class AuditController {
  constructor(private readonly audit: typeof CatsAuditService.prototype) {}
  @MessagePattern({ cmd: 'audit' }) run() { return this.audit.describe(); }
}
Reflect.defineMetadata('design:paramtypes', [CatsAuditService], AuditController);
`,
      'basics-audit',
    );
    const aport = await freePort();
    @Module({controllers: [AuditController], providers: [CatsAuditService]})
    class AuditModule {}
    const app = await NestFactory.createMicroservice(AuditModule, {
      transport: Transport.TCP,
      logger: log.logger,
      options: {host: '127.0.0.1', port: aport},
    });
    await app.listen();
    const aclient = ClientProxyFactory.create({
      transport: Transport.TCP,
      options: {host: '127.0.0.1', port: aport},
    });
    try {
      expect(await lastValueFrom(aclient.send({cmd: 'audit'}, {id: 1}))).toBe(
        'Handling {"cmd":"audit"} with {"id":1}',
      );
      expect(await lastValueFrom(aclient.send({cmd: 'audit'}, {id: 2}))).toBe(
        'Handling {"cmd":"audit"} with {"id":2}',
      );
    } finally {
      aclient.close();
      await app.close();
    }
  },
);

claim(
  `${page}#handling-timeouts`,
  'with timeout() a silent microservice turns into RequestTimeoutException, a 408 over HTTP',
  async () => {
    const set = samples(page, {
      under: 'handling-timeouts',
      edit: {'math.service': [['timeout(5000)', 'timeout(200)']]},
    });
    const {MathService} = set.require('math.service');
    const {Silent} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { NEVER } from 'rxjs';
@Controller()
export class Silent { @MessagePattern({ cmd: 'sum' }) sum() { return NEVER; } }
`,
      'basics-silent',
    );
    const sport = await freePort();
    @Module({controllers: [Silent]})
    class SilentModule {}
    const silent = await NestFactory.createMicroservice(SilentModule, {
      transport: Transport.TCP,
      logger: log.logger,
      options: {host: '127.0.0.1', port: sport},
    });
    await silent.listen();
    (globalThis as any).__mathService = MathService;
    const {Http} = compileModule(
      `
import { Controller, Get } from '@nestjs/common';
const MathService = (globalThis as any).__mathService;
@Controller()
export class Http {
  constructor(private readonly math: any) {}
  @Get('sum') sum() { return this.math.sum([1]); }
}
Reflect.defineMetadata('design:paramtypes', [MathService], Http);
`,
      'basics-http-timeout',
    );
    @Module({
      imports: [
        ClientsModule.register([
          {
            name: 'MATH_SERVICE',
            transport: Transport.TCP,
            options: {host: '127.0.0.1', port: sport},
          },
        ]),
      ],
      controllers: [Http],
      providers: [MathService],
    })
    class HttpModule {}
    const app = await NestFactory.create(HttpModule, {logger: log.logger});
    try {
      const base = await listen(app);
      const response = await fetch(`${base}/sum`);
      expect(response.status).toBe(408);
      expect(await response.json()).toEqual({statusCode: 408, message: 'Request Timeout'});
    } finally {
      await app.close();
      await silent.close();
    }
  },
);

claim(
  `${page}#options`,
  'a microservice on a port an HTTP app already uses fails to start with EADDRINUSE',
  async () => {
    @Module({})
    class Empty {}
    const http = await NestFactory.create(Empty, {logger: log.logger});
    const base = await listen(http);
    const taken = Number(new URL(base).port);
    const app = await NestFactory.createMicroservice(Empty, {
      transport: Transport.TCP,
      logger: log.logger,
      options: {host: '127.0.0.1', port: taken},
    });
    try {
      await expect(app.listen()).rejects.toMatchObject({code: 'EADDRINUSE'});
    } finally {
      await app.close().catch(() => undefined);
      await http.close();
    }
  },
);

claim(
  `${page}#the-client-decorator`,
  "a @Client() property gets a ClientProxy from the decorator's options in an HTTP app or a microservice, but stays null in a standalone application",
  async () => {
    const shown = fragment(page, 'the-client-decorator', '@Client(').value;
    (globalThis as any).__clientPort = port;
    const {AppController} = compileModule(
      shown.replace(
        'options: { port: 3001 }',
        `options: { host: '127.0.0.1', port: (globalThis as any).__clientPort }`,
      ),
      'basics-client-decorator',
    );
    @Module({controllers: [AppController]})
    class DecoratedModule {}
    const http = await NestFactory.create(DecoratedModule, {logger: log.logger});
    await http.init();
    try {
      const decorated = http.get(AppController).client;
      expect(decorated).toBeInstanceOf(ClientTCP);
      expect(await lastValueFrom(decorated.send({cmd: 'sum'}, [2, 3]))).toBe(5);
      decorated.close();
    } finally {
      await http.close();
    }
    const standalone = await NestFactory.createApplicationContext(DecoratedModule, {
      logger: log.logger,
    });
    expect(standalone.get(AppController).client).toBeNull();
    await standalone.close();
  },
);

/** Writes `frames` on a raw TCP connection to the file's microservice (`rawTcpFrames` of ./_support). */
const rawTcp = (frames: string[], ms = 1000) => rawTcpFrames(port, frames, ms);
/** One packet in the TCP transporter's framing. */
const frame = (packet: unknown) => tcpFrame(JSON.stringify(packet));

claim.abuse(
  `${page}#options`,
  'a raw TCP client without any credentials calls the sum handler by writing the framing, and a 20 MB message is read and handled whole',
  async () => {
    const {received} = await rawTcp([frame({pattern: {cmd: 'sum'}, data: [40, 2], id: 'x1'})]);
    expect(JSON.parse(received.slice(received.indexOf('#') + 1))).toEqual({
      id: 'x1',
      response: 42,
      isDisposed: true,
    });
    const big = new Array((20 * 1024 * 1024) / 2).fill(0);
    big[0] = 7;
    expect(await lastValueFrom(client.send({cmd: 'sum'}, big))).toBe(7);
  },
);

claim.abuse(
  `${page}#options`,
  'a frame with a corrupt length or invalid JSON closes only that connection: the microservice logs it and keeps answering',
  async () => {
    expect((await rawTcp(['abc#{}'])).closed).toBe(true);
    expect((await rawTcp(['5#hello'])).closed).toBe(true);
    expect(log.text()).toContain('Corrupted length value "abc" supplied in a packet');
    expect(log.text()).toContain('Could not parse JSON');
    expect(await lastValueFrom(client.send({cmd: 'sum'}, [1, 2]))).toBe(3);
  },
);

claim.abuse(
  `${page}#request-response`,
  "a caller that sends the page's MathController a string instead of an array gets Internal server error, not the TypeError, and the microservice keeps answering",
  async () => {
    await expect(lastValueFrom(client.send({cmd: 'sum'}, 'not numbers'))).rejects.toEqual({
      status: 'error',
      message: 'Internal server error',
    });
    expect(await lastValueFrom(client.send({cmd: 'sum'}, [2, 2]))).toBe(4);
  },
);

claim.failure(
  `${page}#asynchronous-responses`,
  "a handler returning undefined or an empty Observable completes the caller's Observable empty (lastValueFrom: EmptyError); null arrives as null",
  async () => {
    const {Nothing} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { EMPTY } from 'rxjs';
@Controller()
export class Nothing {
  @MessagePattern('answers-undefined') none() { return undefined; }
  @MessagePattern('answers-empty') empty() { return EMPTY; }
  @MessagePattern('answers-null') nothing() { return null; }
}
`,
      'basics-nothing',
    );
    @Module({controllers: [Nothing]})
    class NothingModule {}
    const nport = await freePort();
    const app = await NestFactory.createMicroservice(NothingModule, {
      transport: Transport.TCP,
      logger: log.logger,
      options: {host: '127.0.0.1', port: nport},
    });
    await app.listen();
    const nclient = ClientProxyFactory.create({
      transport: Transport.TCP,
      options: {host: '127.0.0.1', port: nport},
    });
    try {
      await expect(lastValueFrom(nclient.send('answers-undefined', {}))).rejects.toThrow(
        'no elements in sequence',
      );
      await expect(lastValueFrom(nclient.send('answers-empty', {}))).rejects.toThrow(
        'no elements in sequence',
      );
      expect(await lastValueFrom(nclient.send('answers-null', {}))).toBeNull();
    } finally {
      nclient.close();
      await app.close();
    }
  },
);

claim.failure(
  `${page}#event-based`,
  'an async @EventPattern handler that rejects is logged, and the microservice goes on with the next message',
  async () => {
    const {Rejecting} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { EventPattern, MessagePattern } from '@nestjs/microservices';
@Controller()
export class Rejecting {
  @EventPattern('rejecting_event') async on() { await new Promise((r) => setTimeout(r, 10)); throw new Error('mailer unreachable'); }
  @MessagePattern('after_event') after() { return 'still here'; }
}
`,
      'basics-rejecting',
    );
    @Module({controllers: [Rejecting]})
    class RejectingModule {}
    const rport = await freePort();
    const rlog = memoryLogger();
    const app = await NestFactory.createMicroservice(RejectingModule, {
      transport: Transport.TCP,
      logger: rlog.logger,
      options: {host: '127.0.0.1', port: rport},
    });
    await app.listen();
    const rclient = ClientProxyFactory.create({
      transport: Transport.TCP,
      options: {host: '127.0.0.1', port: rport},
    });
    try {
      await lastValueFrom(rclient.emit('rejecting_event', {}), {defaultValue: undefined});
      await until(() => rlog.text().includes('mailer unreachable'));
      expect(await lastValueFrom(rclient.send('after_event', {}))).toBe('still here');
    } finally {
      rclient.close();
      await app.close();
    }
  },
);

async function gateway(lang: 'ts' | 'js') {
  const {AppController} = samples(page, {under: 'sending-messages', lang}).require(
    'app.controller',
  );
  @Module({
    imports: [
      ClientsModule.register([
        {name: 'MATH_SERVICE', transport: Transport.TCP, options: {host: '127.0.0.1', port}},
      ]),
    ],
    controllers: [AppController],
  })
  class HttpModule {}
  const app = await NestFactory.create(HttpModule, {logger: log.logger});
  return {app, base: await listen(app)};
}

for (const lang of ['ts', 'js'] as const) {
  claim.abuse(
    `${page}#sending-messages`,
    `a repeated query parameter (?numbers=1&numbers=2,3) is summed, not a 500 (${lang})`,
    async () => {
      const {app, base} = await gateway(lang);
      try {
        const response = await fetch(`${base}/math/sum?numbers=1&numbers=2,3`);
        expect(response.status).toBe(200);
        expect(await response.text()).toBe('6');
      } finally {
        await app.close();
      }
    },
  );

  claim.abuse(
    `${page}#sending-messages`,
    `a bracketed (?numbers[a]=1) or non-numeric (?numbers=a,b) query gets 400 Bad Request, not a 500 or a null sum (${lang})`,
    async () => {
      const {app, base} = await gateway(lang);
      try {
        for (const query of ['numbers[a]=1', 'numbers=a,b', 'numbers=1,Infinity']) {
          const response = await fetch(`${base}/math/sum?${query}`);
          expect(response.status, query).toBe(400);
          expect(await response.json()).toEqual({
            statusCode: 400,
            message: 'numbers must be a comma-separated list of numbers',
            error: 'Bad Request',
          });
        }
      } finally {
        await app.close();
      }
    },
  );
}

/** The page's MathController, plus a handler that answers after 3 s, as a TCP microservice in a child process. */
function mathChild(mport: number) {
  const set = samples(page, {under: 'request-response'});
  return nodeChild(
    `
require('reflect-metadata');
const { NestFactory } = require('@nestjs/core');
const { Module, Controller } = require('@nestjs/common');
const { Transport, MessagePattern } = require('@nestjs/microservices');
const { MathController } = require(process.argv[2]);
class Slow { slow() { console.log('SLOW STARTED'); return new Promise((r) => setTimeout(() => r('late'), 3000)); } }
MessagePattern({ cmd: 'slow' })(Slow.prototype, 'slow', Object.getOwnPropertyDescriptor(Slow.prototype, 'slow'));
Controller()(Slow);
class AppModule {}
Module({ controllers: [MathController, Slow] })(AppModule);
(async () => {
  const app = await NestFactory.createMicroservice(AppModule, { transport: Transport.TCP, logger: false, options: { host: '127.0.0.1', port: Number(process.argv[3]) } });
  app.enableShutdownHooks();
  await app.listen();
  console.log('LISTENING');
})();
`,
    [`${set.dir}/math.controller.js`, String(mport)],
  );
}

claim.failure(
  `${page}#handling-timeouts`,
  'with nothing listening, send() and emit() fail at once with ECONNREFUSED',
  async () => {
    const nobody = ClientProxyFactory.create({
      transport: Transport.TCP,
      options: {host: '127.0.0.1', port: await freePort()},
    });
    const started = Date.now();
    await expect(lastValueFrom(nobody.send({cmd: 'sum'}, [1]))).rejects.toMatchObject({
      code: 'ECONNREFUSED',
    });
    await expect(lastValueFrom(nobody.emit('cat_created', {}))).rejects.toMatchObject({
      code: 'ECONNREFUSED',
    });
    expect(Date.now() - started).toBeLessThan(2000);
    nobody.close();
  },
);

claim.failure(
  `${page}#handling-timeouts`,
  'a microservice stopped (SIGTERM) while a send() is pending leaves the Observable pending; timeout() ends it; after a restart the same client connects again',
  async () => {
    const {timeout} = nest('rxjs/operators');
    const mport = await freePort();
    const first = mathChild(mport);
    const caller = ClientProxyFactory.create({
      transport: Transport.TCP,
      options: {host: '127.0.0.1', port: mport},
    });
    try {
      await first.waitFor('LISTENING');
      const settled: string[] = [];
      const request = caller.send({cmd: 'slow'}, {});
      const plain = lastValueFrom(request).then(
        (value: unknown) => settled.push(`value ${value}`),
        (error: any) => settled.push(`error ${error?.message ?? error}`),
      );
      const bounded = lastValueFrom(request.pipe(timeout(2500))).catch((error: any) => error);
      await first.waitFor('SLOW STARTED');
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(null);
      expect(first.signal).toBe('SIGTERM');
      await new Promise((r) => setTimeout(r, 1000));
      expect(settled).toEqual([]);
      expect((await bounded).name).toBe('TimeoutError');
      expect(settled).toEqual([]);
      const second = mathChild(mport);
      try {
        await second.waitFor('LISTENING');
        expect(await lastValueFrom(caller.send({cmd: 'sum'}, [2, 3]))).toBe(5);
      } finally {
        await second.kill();
      }
      void plain;
    } finally {
      caller.close();
      await first.kill();
    }
  },
  30_000,
);

/**
 * The page's MathController as a TCP microservice in a child process (for what would end the test
 * worker), with the PacketShapeDeserializer compiled from the page when `deserializerFile` is given.
 */
function packetChild(mport: number, deserializerFile?: string) {
  const set = samples(page, {under: 'request-response'});
  return nodeChild(
    `
require('reflect-metadata');
const { NestFactory } = require('@nestjs/core');
const { Module } = require('@nestjs/common');
const { Transport } = require('@nestjs/microservices');
const { MathController } = require(process.argv[2]);
const deserializer = process.argv[4] ? new (require(process.argv[4]).PacketShapeDeserializer)() : undefined;
class AppModule {}
Module({ controllers: [MathController] })(AppModule);
(async () => {
  const app = await NestFactory.createMicroservice(AppModule, { transport: Transport.TCP, logger: ['error'],
    options: { host: '127.0.0.1', port: Number(process.argv[3]), deserializer } });
  await app.listen();
  console.log('LISTENING');
})();
`,
    [
      `${set.dir}/math.controller.js`,
      String(mport),
      ...(deserializerFile ? [deserializerFile] : []),
    ],
  );
}

const deepFrames = {
  pattern: tcpFrame(`{"pattern":${deepJson()},"data":[1],"id":"p1"}`),
  id: tcpFrame(`{"pattern":{"cmd":"sum"},"data":[1],"id":${deepJson()}}`),
};

claim.abuse(
  `${page}#packets-from-untrusted-peers`,
  'without a deserializer, one valid JSON frame whose pattern or id is nested 10,000 levels deep (20 KB) ends the TCP microservice (RangeError, exit code 1)',
  async () => {
    for (const [what, frame] of Object.entries(deepFrames)) {
      const mport = await freePort();
      const child = packetChild(mport);
      try {
        await child.waitFor('LISTENING');
        await rawTcpFrames(mport, [frame], 300);
        expect(await child.exited, what).toBe(1);
        expect(child.out, what).toContain('RangeError: Maximum call stack size exceeded');
      } finally {
        await child.kill();
      }
    }
  },
  20_000,
);

for (const lang of ['ts', 'js'] as const) {
  claim.abuse(
    `${page}#packets-from-untrusted-peers`,
    `with the page's PacketShapeDeserializer, frames with a deep pattern or id reach no handler, and the microservice keeps answering a Nest client (${lang})`,
    async () => {
      const set = samples(page, {lang, under: 'packets-from-untrusted-peers'});
      const options = fragment(page, 'packets-from-untrusted-peers', 'createMicroservice').value;
      expect(options).toContain('deserializer: new PacketShapeDeserializer()');
      const mport = await freePort();
      const child = packetChild(mport, `${set.dir}/packet-shape.deserializer.js`);
      const caller = ClientProxyFactory.create({
        transport: Transport.TCP,
        options: {host: '127.0.0.1', port: mport},
      });
      try {
        await child.waitFor('LISTENING');
        await rawTcpFrames(mport, [deepFrames.pattern, deepFrames.id], 300);
        await child.waitFor('There is no matching event handler defined in the remote service');
        expect(await lastValueFrom(caller.send({cmd: 'sum'}, [4, 5, 6]))).toBe(15);
        expect(
          await lastValueFrom(caller.send({cmd: 'sum'}, 'x')).catch((e: unknown) => e),
        ).toEqual({
          status: 'error',
          message: 'Internal server error',
        });
        expect(child.code).toBe(null);
      } finally {
        caller.close();
        await child.kill();
      }
    },
    20_000,
  );
}

claim.abuse(
  `${page}#client`,
  "the registerAsync() factory stops the startup on an empty or non-numeric MATH_PORT ('MATH_PORT must be a port number'); a valid one reaches the microservice",
  async () => {
    const {AppModule} = samples(page, {pick: {'app.module': 3}}).require('app.module');
    const saved = {port: process.env.MATH_PORT, host: process.env.MATH_HOST};
    try {
      for (const value of ['', 'abc', '70000']) {
        process.env.MATH_PORT = value;
        await expect(
          NestFactory.createApplicationContext(AppModule, {logger: false, abortOnError: false}),
          JSON.stringify(value),
        ).rejects.toThrow('MATH_PORT must be a port number');
      }
      process.env.MATH_PORT = String(port);
      process.env.MATH_HOST = '127.0.0.1';
      const app = await NestFactory.createApplicationContext(AppModule, {logger: false});
      try {
        const mathClient = app.get('MATH_SERVICE');
        expect(mathClient.port).toBe(port);
        expect(await lastValueFrom(mathClient.send({cmd: 'sum'}, [1, 1]))).toBe(2);
      } finally {
        await app.close();
      }
    } finally {
      for (const [key, value] of [
        ['MATH_PORT', saved.port],
        ['MATH_HOST', saved.host],
      ] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  },
);

import {afterAll, beforeAll, expect} from 'vitest';
import {mkdtempSync, mkdirSync, writeFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {
  claim,
  samples,
  fragment,
  compileModule,
  nest,
  memoryLogger,
  freePort,
  listen,
  expectOutput,
} from '../../lib';
import {nodeChild} from './_support';

const {NestFactory} = nest('@nestjs/core');
const {Module} = nest('@nestjs/common');
const {Transport, ClientsModule} = nest('@nestjs/microservices');
const {lastValueFrom, ReplaySubject, toArray, take} = nest('rxjs');
const grpc = nest('@grpc/grpc-js');
const page = 'docs/microservices/grpc.md';
const log = memoryLogger();

/** The page's contract: the example proto, with the service of the streaming section and its messages. */
let dir: string;
let protoPath: string;
beforeAll(() => {
  const base = fragment(page, 'example-contract', 'syntax = "proto3"').value;
  const streaming = fragment(page, 'grpc-streaming', 'rpc FindMany').value;
  const service = /service HeroesService \{[\s\S]*?\n\}/.exec(streaming)![0];
  const extraMessages = streaming.slice(streaming.indexOf(service) + service.length);
  const proto = base.replace(/service HeroesService \{[\s\S]*?\n\}/, service) + extraMessages;
  dir = mkdtempSync(join(tmpdir(), 'behaviour-grpc-'));
  mkdirSync(join(dir, 'hero'));
  protoPath = join(dir, 'hero', 'hero.proto');
  writeFileSync(protoPath, proto);
});
afterAll(() => {
  rmSync(dir, {recursive: true, force: true});
});

/** Interfaces are TypeScript-only files of the page; the JavaScript halves import nothing from them. */
const jsOnly = (lang: 'ts' | 'js', name: string): Record<string, string> =>
  lang === 'js' ? {[name]: 'export {};\n'} : {};
const protoEdit = (): [string, string] => [
  `join(__dirname, 'hero/hero.proto')`,
  JSON.stringify(protoPath),
];

async function server(controllers: unknown[], extra: object = {}) {
  const port = await freePort();
  @Module({controllers})
  class ServerModule {}
  const app = await NestFactory.createMicroservice(ServerModule, {
    transport: Transport.GRPC,
    logger: log.logger,
    options: {package: 'hero', protoPath, url: `127.0.0.1:${port}`, ...extra},
  });
  await app.listen();
  return {app, url: `127.0.0.1:${port}`};
}

/** The page's HeroesModule and HeroesService (client side), pointed at `url`. */
async function heroesClient(url: string, lang: 'ts' | 'js' = 'ts') {
  const set = samples(page, {
    lang,
    under: 'client',
    pick: {'heroes.module': 1},
    files: {
      ...jsOnly(lang, 'interfaces/hero.interface'),
      ...jsOnly(lang, 'interfaces/heroes-service-client.interface'),
      ...(lang === 'js'
        ? {
            'heroes.module': samples(page, {pick: {'heroes.module': 1}}).sources.get(
              'heroes.module',
            )!,
          }
        : {}),
    },
    edit: {'heroes.module': [protoEdit(), [`url: 'heroes:5000'`, `url: '${url}'`]]},
  });
  const {HeroesModule} = set.require('heroes.module');
  const {HeroesService} = set.require('heroes.service');
  const ctx = await NestFactory.createApplicationContext(HeroesModule, {logger: log.logger});
  return {
    ctx,
    heroes: ctx.get(HeroesService),
    client: ctx.get('HERO_PACKAGE'),
    raw: (ctx.get('HERO_PACKAGE') as any).getService('HeroesService'),
  };
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#client`,
    `the page's HeroesController serves FindOne and the page's HeroesService calls it through getService() (${lang})`,
    async () => {
      const {HeroesController} = samples(page, {
        lang,
        under: 'serving-a-service',
        files: jsOnly(lang, 'interfaces/hero.interface'),
      }).require('heroes.controller');
      const {app, url} = await server([HeroesController]);
      const {ctx, heroes} = await heroesClient(url, lang);
      try {
        expect(await lastValueFrom(heroes.findOne(2))).toEqual({id: 2, name: 'Grace'});
      } finally {
        await ctx.close();
        await app.close();
      }
    },
  );
}

claim(
  `${page}#client`,
  'getService() has each method as FindOne and findOne; send() throws; the call starts on subscription',
  async () => {
    const calls: number[] = [];
    (globalThis as any).__grpcCalls = calls;
    const {Counting} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
@Controller()
export class Counting { @GrpcMethod('HeroesService', 'FindOne') findOne(data: { id: number }) { (globalThis as any).__grpcCalls.push(data.id); return { id: data.id, name: 'Ada' }; } }
`,
      'grpc-counting',
    );
    const {app, url} = await server([Counting]);
    const {ctx, raw, client} = await heroesClient(url);
    try {
      expect(typeof raw.FindOne).toBe('function');
      expect(typeof raw.findOne).toBe('function');
      expect(() => client.send('anything', {})).toThrow();
      const call = raw.findOne({id: 5});
      await new Promise((r) => setTimeout(r, 150));
      expect(calls).toEqual([]);
      expect(await lastValueFrom(call)).toEqual({id: 5, name: 'Ada'});
      expect(calls).toEqual([5]);
    } finally {
      await ctx.close();
      await app.close();
    }
  },
);

claim(
  `${page}#default-names`,
  '@GrpcMethod() without arguments on HeroesService.findOne serves HeroesService/FindOne',
  async () => {
    const shown = fragment(page, 'default-names', '@GrpcMethod()').value;
    const {HeroesService} = compileModule(
      `import { Controller } from '@nestjs/common';\nimport { GrpcMethod } from '@nestjs/microservices';\ninterface HeroById { id: number }\ninterface Hero { id: number; name: string }\n${shown}`,
      'grpc-default-names',
    );
    const {app, url} = await server([HeroesService]);
    const {ctx, raw} = await heroesClient(url);
    try {
      expect(await lastValueFrom(raw.findOne({id: 9}))).toEqual({id: 9, name: 'Ada'});
    } finally {
      await ctx.close();
      await app.close();
    }
  },
);

claim(
  `${page}#default-names`,
  'a method of the .proto without a handler fails with UNIMPLEMENTED (12)',
  async () => {
    const {HeroesController} = samples(page, {under: 'serving-a-service', files: {}}).require(
      'heroes.controller',
    );
    const {app, url} = await server([HeroesController]);
    const {ctx, raw} = await heroesClient(url);
    try {
      const error: any = await lastValueFrom(raw.listHeroes({limit: 1})).catch((e: unknown) => e);
      expect(error.code).toBe(grpc.status.UNIMPLEMENTED);
      expect(error.code).toBe(12);
    } finally {
      await ctx.close();
      await app.close();
    }
  },
);

claim(
  `${page}#deadlines`,
  'a deadline in the third argument ends a slow call with DEADLINE_EXCEEDED (4)',
  async () => {
    const {Slow} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
@Controller()
export class Slow { @GrpcMethod('HeroesService', 'FindOne') async findOne(data: { id: number }) { await new Promise((r) => setTimeout(r, 1500)); return { id: data.id, name: 'late' }; } }
`,
      'grpc-slow',
    );
    const {app, url} = await server([Slow]);
    const {ctx, raw} = await heroesClient(url);
    try {
      const started = Date.now();
      const error: any = await lastValueFrom(
        raw.findOne({id: 1}, new grpc.Metadata(), {deadline: Date.now() + 200}),
      ).catch((e: unknown) => e);
      expect(error.code).toBe(4);
      expect(Date.now() - started).toBeLessThan(1200);
    } finally {
      await ctx.close();
      await app.close();
    }
  },
);

claim(
  `${page}#errors-and-status-codes`,
  "the page's FindOne answers an unknown id with NOT_FOUND (5) and its message; an RpcException from a string arrives as UNKNOWN with the string; other errors as UNKNOWN Internal server error",
  async () => {
    const notFound = fragment(page, 'errors-and-status-codes', 'status.NOT_FOUND').value;
    const {HeroesController} = samples(page, {under: 'serving-a-service', files: {}}).require(
      'heroes.controller',
    );
    expect(samples(page, {under: 'serving-a-service'}).sources.get('heroes.controller')).toContain(
      notFound.trim(),
    );
    const {Failing} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { GrpcMethod, RpcException } from '@nestjs/microservices';
@Controller()
export class Failing {
  @GrpcMethod('HeroesService', 'ListHeroes') listHeroes(req: { limit: number }) {
    if (req.limit === 1) throw new RpcException('plain string');
    throw new Error('secret detail');
  }
}
`,
      'grpc-failing',
    );
    const {app, url} = await server([HeroesController, Failing]);
    const {ctx, raw} = await heroesClient(url);
    try {
      const missing: any = await lastValueFrom(raw.findOne({id: 7})).catch((e: unknown) => e);
      expect([missing.code, missing.details]).toEqual([5, 'Hero 7 does not exist']);
      expect(await lastValueFrom(raw.findOne({id: 1}))).toEqual({id: 1, name: 'Ada'});
      const plain: any = await lastValueFrom(raw.listHeroes({limit: 1})).catch((e: unknown) => e);
      expect([plain.code, plain.details]).toEqual([2, 'plain string']);
      const unknown: any = await lastValueFrom(raw.listHeroes({limit: 2})).catch((e: unknown) => e);
      expect([unknown.code, unknown.details]).toEqual([2, 'Internal server error']);
    } finally {
      await ctx.close();
      await app.close();
    }
  },
);

const countHeroes = () => fragment(page, 'rx-streaming-handlers', `'CountHeroes'`).value;

claim(
  `${page}#rx-streaming-handlers`,
  '@GrpcStreamMethod FindMany answers each requested id; CountHeroes sends the last value; the client writes an observable as the request stream',
  async () => {
    const {HeroesController} = samples(page, {under: 'rx-streaming-handlers', files: {}}).require(
      'heroes.controller',
    );
    const {Counter} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { GrpcStreamMethod } from '@nestjs/microservices';
import { Observable } from 'rxjs';
import { count, map } from 'rxjs/operators';
interface HeroById { id: number }
interface HeroCount { total: number }
@Controller()
export class Counter {
  ${countHeroes()}
}
`,
      'grpc-counter',
    );
    const {app, url} = await server([HeroesController, Counter]);
    const {ctx, raw} = await heroesClient(url);
    try {
      const ids$ = new ReplaySubject();
      ids$.next({id: 1});
      ids$.next({id: 2});
      ids$.next({id: 3});
      ids$.complete();
      expect(await lastValueFrom(raw.findMany(ids$.asObservable()).pipe(toArray()))).toEqual([
        {id: 1, name: 'Ada'},
        {id: 2, name: 'Grace'},
      ]);
      expect(await lastValueFrom(raw.countHeroes(ids$.asObservable()))).toEqual({total: 3});
    } finally {
      await ctx.close();
      await app.close();
    }
  },
);

claim(
  `${page}#call-stream-handlers`,
  '@GrpcStreamCall handlers: FindMany writes on the duplex stream; CountHeroes answers through the callback (TS and JS samples)',
  async () => {
    for (const lang of ['ts', 'js'] as const) {
      const {HeroesController} = samples(page, {
        lang,
        under: 'call-stream-handlers',
        files: jsOnly(lang, 'interfaces/hero.interface'),
      }).require('heroes.controller');
      const callback = fragment(page, 'call-stream-handlers', 'sendUnaryData').value;
      const {CallCounter} = compileModule(
        `
import { Controller } from '@nestjs/common';
import { GrpcStreamCall } from '@nestjs/microservices';
import { ServerReadableStream, sendUnaryData } from '@grpc/grpc-js';
interface HeroById { id: number }
interface HeroCount { total: number }
@Controller()
export class CallCounter {
  ${callback}
}
`,
        `grpc-call-counter-${lang}`,
      );
      const {app, url} = await server([HeroesController, CallCounter]);
      const {ctx, raw} = await heroesClient(url);
      try {
        const ids$ = new ReplaySubject();
        [2, 1, 4].forEach((id) => ids$.next({id}));
        ids$.complete();
        expect(await lastValueFrom(raw.findMany(ids$.asObservable()).pipe(toArray()))).toEqual([
          {id: 2, name: 'Grace'},
          {id: 1, name: 'Ada'},
        ]);
        expect(await lastValueFrom(raw.countHeroes(ids$.asObservable()))).toEqual({total: 3});
      } finally {
        await ctx.close();
        await app.close();
      }
    }
  },
);

claim(
  `${page}#call-stream-handlers`,
  'with both decorators on one method, Nest prefers the @GrpcStreamMethod() handler',
  async () => {
    const {Both} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { GrpcStreamCall, GrpcStreamMethod } from '@nestjs/microservices';
import { Observable } from 'rxjs';
import { count, map } from 'rxjs/operators';
@Controller()
export class Both {
  @GrpcStreamCall('HeroesService', 'CountHeroes') viaCall(stream: any, callback: any) { stream.on('end', () => callback(null, { total: 100 })); stream.resume(); }
  @GrpcStreamMethod('HeroesService', 'CountHeroes') viaRx(data$: Observable<unknown>) { return data$.pipe(count(), map((total) => ({ total }))); }
}
`,
      'grpc-both',
    );
    const {app, url} = await server([Both]);
    const {ctx, raw} = await heroesClient(url);
    try {
      const ids$ = new ReplaySubject();
      ids$.next({id: 1});
      ids$.complete();
      expect(await lastValueFrom(raw.countHeroes(ids$.asObservable()))).toEqual({total: 1});
    } finally {
      await ctx.close();
      await app.close();
    }
  },
);

claim(
  `${page}#server-streaming`,
  'a @GrpcMethod returning an observable streams ListHeroes; the client emits one value per message',
  async () => {
    const listHeroes = fragment(page, 'server-streaming', `'ListHeroes'`).value;
    const {Lister} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import { from, Observable } from 'rxjs';
interface Hero { id: number; name: string }
interface ListHeroesRequest { limit: number }
@Controller()
export class Lister {
  private readonly heroes: Hero[] = [{ id: 1, name: 'Ada' }, { id: 2, name: 'Grace' }, { id: 3, name: 'Linus' }];
  ${listHeroes}
}
`,
      'grpc-lister',
    );
    const {app, url} = await server([Lister]);
    const {ctx, raw} = await heroesClient(url);
    try {
      expect(await lastValueFrom(raw.listHeroes({limit: 2}).pipe(toArray()))).toEqual([
        {id: 1, name: 'Ada'},
        {id: 2, name: 'Grace'},
      ]);
      expect(await lastValueFrom(raw.listHeroes({limit: 10}).pipe(take(1)))).toEqual({
        id: 1,
        name: 'Ada',
      });
    } finally {
      await ctx.close();
      await app.close();
    }
  },
);

claim(
  `${page}#grpc-metadata`,
  "request metadata reaches the handler (authorization); the metadata sent back is readable on the raw client's metadata event",
  async () => {
    const {HeroesController} = samples(page, {under: 'grpc-metadata', files: {}}).require(
      'heroes.controller',
    );
    const {app, url} = await server([HeroesController]);
    const {ctx, raw, client} = await heroesClient(url);
    try {
      const metadata = new grpc.Metadata();
      metadata.add('authorization', 'Bearer t0k3n');
      expect(await lastValueFrom(raw.findOne({id: 1}, metadata))).toEqual({id: 1, name: 'Ada'});
      expect(await lastValueFrom(raw.findOne({id: 1}))).toEqual({id: 1, name: 'Anonymous'});
      const rawClient = client.getClientByServiceName('HeroesService');
      const served = await new Promise<string[]>((resolve, reject) => {
        const call = rawClient.FindOne(
          {id: 1},
          new grpc.Metadata(),
          (err: Error | null) => err && reject(err),
        );
        call.on('metadata', (received: any) => resolve(received.get('x-served-by')));
      });
      expect(served).toEqual(['heroes-1']);
    } finally {
      await ctx.close();
      await app.close();
    }
  },
);

claim(
  `${page}#sample-usage`,
  'the HTTP gateway answers GET /heroes/1 with the hero from the gRPC call (TS and JS)',
  async () => {
    const {HeroesController: Served} = samples(page, {
      under: 'serving-a-service',
      files: {},
    }).require('heroes.controller');
    const {app, url} = await server([Served]);
    try {
      for (const lang of ['ts', 'js'] as const) {
        const clientSet = samples(page, {
          lang,
          under: 'sample-usage',
          pick: {'heroes.module': 1},
          files: {
            ...jsOnly(lang, 'interfaces/hero.interface'),
            ...jsOnly(lang, 'interfaces/heroes-service-client.interface'),
            ...(lang === 'js'
              ? {
                  'heroes.module': samples(page, {pick: {'heroes.module': 1}}).sources.get(
                    'heroes.module',
                  )!,
                }
              : {}),
          },
          edit: {'heroes.module': [protoEdit(), [`url: 'heroes:5000'`, `url: '${url}'`]]},
        });
        const {HeroesModule} = clientSet.require('heroes.module');
        const {HeroesController} = clientSet.require('heroes.controller');
        @Module({imports: [HeroesModule], controllers: [HeroesController]})
        class GatewayModule {}
        const http = await NestFactory.create(GatewayModule, {logger: log.logger});
        try {
          const base = await listen(http);
          const response = await fetch(`${base}/heroes/1`);
          expect(response.status).toBe(200);
          expect(await response.json()).toEqual({id: 1, name: 'Ada'});
        } finally {
          await http.close();
        }
      }
    } finally {
      await app.close();
    }
  },
);

claim(
  `${page}#loader-options`,
  'by default power_level reaches the handler as powerLevel; keepCase: true keeps power_level; defaults: true fills missing fields',
  async () => {
    const protoDir = mkdtempSync(join(tmpdir(), 'behaviour-grpc-loader-'));
    const path = join(protoDir, 'power.proto');
    writeFileSync(
      path,
      'syntax = "proto3";\npackage power;\nservice PowerService {\n  rpc Echo (Power) returns (Power) {}\n}\nmessage Power {\n  int32 power_level = 1;\n  string name = 2;\n}\n',
    );
    const seen: unknown[] = [];
    (globalThis as any).__grpcPower = seen;
    const {Power} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
@Controller()
export class Power { @GrpcMethod('PowerService', 'Echo') echo(data: unknown) { (globalThis as any).__grpcPower.push(data); return data; } }
`,
      'grpc-power',
    );
    try {
      for (const loader of [undefined, {keepCase: true, defaults: true}]) {
        const port = await freePort();
        @Module({controllers: [Power]})
        class PowerModule {}
        const app = await NestFactory.createMicroservice(PowerModule, {
          transport: Transport.GRPC,
          logger: log.logger,
          options: {package: 'power', protoPath: path, url: `127.0.0.1:${port}`, loader},
        });
        await app.listen();
        @Module({
          imports: [
            ClientsModule.register([
              {
                name: 'P',
                transport: Transport.GRPC,
                options: {package: 'power', protoPath: path, url: `127.0.0.1:${port}`, loader},
              },
            ]),
          ],
        })
        class ClientModule {}
        const ctx = await NestFactory.createApplicationContext(ClientModule, {logger: log.logger});
        const svc = (ctx.get('P') as any).getService('PowerService');
        await lastValueFrom(svc.echo(loader ? {power_level: 9} : {powerLevel: 9}));
        await ctx.close();
        await app.close();
      }
      expect(seen).toEqual([{powerLevel: 9}, {power_level: 9, name: ''}]);
    } finally {
      rmSync(protoDir, {recursive: true, force: true});
    }
  },
);

/** `code details` of the error a gRPC observable failed with. */
const failure = (observable: any): Promise<string> =>
  lastValueFrom(observable).then(
    (value: unknown) => `no error: ${JSON.stringify(value)}`,
    (error: any) => `${error.code} ${error.details}`,
  );

for (const lang of ['ts', 'js'] as const) {
  claim.abuse(
    `${page}#serving-a-service`,
    `a caller asking the page's FindOne for an id that does not exist gets NOT_FOUND (5) with the page's message, not INTERNAL (${lang})`,
    async () => {
      const {HeroesController} = samples(page, {
        lang,
        under: 'serving-a-service',
        files: jsOnly(lang, 'interfaces/hero.interface'),
      }).require('heroes.controller');
      const {app, url} = await server([HeroesController]);
      const {ctx, raw} = await heroesClient(url);
      try {
        expect(await failure(raw.findOne({id: 5}))).toBe('5 Hero 5 does not exist');
        // A request without the field: proto-loader leaves it undefined (no `defaults` option).
        expect(await failure(raw.findOne({}))).toBe('5 Hero undefined does not exist');
      } finally {
        await ctx.close();
        await app.close();
      }
    },
  );
}

claim.failure(
  `${page}#serving-a-service`,
  "a unary handler returning undefined or null gives INTERNAL (13) with the server's JavaScript error; an empty observable answers nothing until the deadline (4)",
  async () => {
    const {Careless} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import { EMPTY } from 'rxjs';
@Controller()
export class Careless {
  @GrpcMethod('HeroesService', 'FindOne') findOne(data: { id: number }) {
    if (data.id === 1) return undefined;
    if (data.id === 2) return null;
    return EMPTY;
  }
}
`,
      'grpc-careless',
    );
    const {app, url} = await server([Careless]);
    const {ctx, raw} = await heroesClient(url);
    try {
      const undefinedReply = await failure(raw.findOne({id: 1}));
      expectOutput(
        page,
        'grpc-undefined-response',
        undefinedReply.replace(/^13 /, '13 INTERNAL: '),
      );
      expect(await failure(raw.findOne({id: 2}))).toBe(
        "13 Cannot read properties of null (reading 'id')",
      );
      const started = Date.now();
      expect(
        await failure(raw.findOne({id: 3}, new grpc.Metadata(), {deadline: Date.now() + 300})),
      ).toBe('4 Deadline exceeded');
      expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    } finally {
      await ctx.close();
      await app.close();
    }
  },
);

/** A gRPC microservice in a child process, with one @GrpcStreamMethod CountHeroes handler (`body`). */
function countHeroesChild(body: string, port: number) {
  return nodeChild(
    `
require('reflect-metadata');
const { NestFactory } = require('@nestjs/core');
const { Module, Controller } = require('@nestjs/common');
const { Transport, GrpcStreamMethod, GrpcMethod, RpcException } = require('@nestjs/microservices');
const { status } = require('@grpc/grpc-js');
const { count, map, tap, filter } = require('rxjs/operators');
class Heroes {
  countHeroes(data$) { ${body} }
  findOne(data) { return { id: data.id, name: 'Ada' }; }
}
GrpcStreamMethod('HeroesService', 'CountHeroes')(Heroes.prototype, 'countHeroes', Object.getOwnPropertyDescriptor(Heroes.prototype, 'countHeroes'));
GrpcMethod('HeroesService', 'FindOne')(Heroes.prototype, 'findOne', Object.getOwnPropertyDescriptor(Heroes.prototype, 'findOne'));
Controller()(Heroes);
class AppModule {}
Module({ controllers: [Heroes] })(AppModule);
(async () => {
  const app = await NestFactory.createMicroservice(AppModule, { transport: Transport.GRPC, logger: false,
    options: { package: 'hero', protoPath: process.argv[2], url: '127.0.0.1:' + process.argv[3] } });
  await app.listen();
  console.log('LISTENING');
})();
`,
    [protoPath, String(port)],
  );
}

claim.failure(
  `${page}#errors-in-streaming-handlers`,
  'a client-streaming @GrpcStreamMethod whose observable errors, or completes empty, ends the microservice with EmptyError; the client gets UNAVAILABLE (14)',
  async () => {
    const bodies = [
      `return data$.pipe(tap((h) => { if (h.id === 99) throw new RpcException({ code: status.INVALID_ARGUMENT, message: 'bad id 99' }); }), count(), map((total) => ({ total })));`,
      `return data$.pipe(filter(() => false));`,
    ];
    for (const body of bodies) {
      const port = await freePort();
      const child = countHeroesChild(body, port);
      try {
        await child.waitFor('LISTENING');
        const {ctx, raw} = await heroesClient(`127.0.0.1:${port}`);
        try {
          const ids$ = new ReplaySubject();
          [1, 99].forEach((id) => ids$.next({id}));
          ids$.complete();
          const client = await failure(raw.countHeroes(ids$.asObservable()));
          expect(await child.exited).toBe(1);
          expect(child.out).toContain('EmptyErrorImpl');
          expect(child.out).toContain("message: 'no elements in sequence'");
          const code = client.split(' ')[0];
          expect(code).toBe('14');
          expectOutput(
            page,
            'grpc-client-stream-crash',
            `client: 14 UNAVAILABLE\nserver: EmptyError: no elements in sequence (process exited with code ${child.code})`,
          );
        } finally {
          await ctx.close();
        }
      } finally {
        await child.kill();
      }
    }
  },
  60_000,
);

claim(
  `${page}#errors-in-streaming-handlers`,
  "the page's @GrpcStreamCall CountHeroes ends a call with an invalid id with INVALID_ARGUMENT (3), counts valid ones, and the microservice keeps serving",
  async () => {
    const shown = fragment(page, 'errors-in-streaming-handlers', 'INVALID_ARGUMENT').value;
    const {Validating} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { GrpcStreamCall } from '@nestjs/microservices';
import { ServerReadableStream, sendUnaryData, status } from '@grpc/grpc-js';
interface HeroById { id: number }
interface HeroCount { total: number }
@Controller()
export class Validating {
  ${shown}
}
`,
      'grpc-validating-count',
    );
    const {app, url} = await server([Validating]);
    const {ctx, raw} = await heroesClient(url);
    try {
      const stream = (ids: number[]) => {
        const ids$ = new ReplaySubject();
        ids.forEach((id) => ids$.next({id}));
        ids$.complete();
        return ids$.asObservable();
      };
      expect(await failure(raw.countHeroes(stream([1, -4, 2])))).toBe('3 Invalid hero id -4');
      expect(await lastValueFrom(raw.countHeroes(stream([1, 2, 3])))).toEqual({total: 3});
    } finally {
      await ctx.close();
      await app.close();
    }
  },
);

claim.failure(
  `${page}#client`,
  'with no server listening a call fails at once with UNAVAILABLE (14); after the server starts on that address the same client reaches it',
  async () => {
    const {HeroesController} = samples(page, {under: 'serving-a-service', files: {}}).require(
      'heroes.controller',
    );
    const port = await freePort();
    const {ctx, raw} = await heroesClient(`127.0.0.1:${port}`);
    try {
      const started = Date.now();
      expect((await failure(raw.findOne({id: 1}))).split(' ')[0]).toBe('14');
      expect(Date.now() - started).toBeLessThan(5000);
      @Module({controllers: [HeroesController]})
      class LateModule {}
      const app = await NestFactory.createMicroservice(LateModule, {
        transport: Transport.GRPC,
        logger: log.logger,
        options: {package: 'hero', protoPath, url: `127.0.0.1:${port}`},
      });
      await app.listen();
      try {
        // The channel reconnects with a backoff (about a second at first): the next calls get through.
        let hero: unknown;
        for (let attempt = 0; attempt < 50 && !hero; attempt += 1) {
          hero = await lastValueFrom(raw.findOne({id: 1})).catch(() => undefined);
          if (!hero) await new Promise((r) => setTimeout(r, 200));
        }
        expect(hero).toEqual({id: 1, name: 'Ada'});
      } finally {
        await app.close();
      }
    } finally {
      await ctx.close();
    }
  },
  30_000,
);

claim.abuse(
  `${page}#options`,
  'a request over 4 MB is refused with RESOURCE_EXHAUSTED (8) before the handler runs; a 5 MB response is sent but fails on a default client the same way, and reaches one that raises maxReceiveMessageLength',
  async () => {
    const calls: number[] = [];
    (globalThis as any).__grpcBig = calls;
    const {Big} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
@Controller()
export class Big {
  @GrpcMethod('HeroesService', 'FindOne') findOne(data: { id: number }) {
    (globalThis as any).__grpcBig.push(data.id);
    return { id: data.id, name: 'x'.repeat(5 * 1024 * 1024) };
  }
}
`,
      'grpc-big',
    );
    const {app, url} = await server([Big]);
    const {ctx, raw, client} = await heroesClient(url);
    try {
      // The request message is a Hero with a 5 MB name: FindOne's HeroById decodes it to its id.
      const rawClient = client.getClientByServiceName('HeroesService');
      const big = await new Promise<string>((resolve) =>
        rawClient.makeUnaryRequest(
          '/hero.HeroesService/FindOne',
          (value: any) =>
            Buffer.concat([Buffer.from([0x08, 0x01, 0x12]), varint(value.length), value]),
          (bytes: Buffer) => bytes,
          Buffer.alloc(5 * 1024 * 1024, 0x61),
          (err: any) => resolve(err ? `${err.code} ${err.details}` : 'answered'),
        ),
      );
      expect(big).toMatch(/^8 /);
      expect(calls).toEqual([]);
      expect(await failure(raw.findOne({id: 2}))).toBe(
        '8 Received message larger than max (5242887 vs. 4194304)',
      );
      expect(calls).toEqual([2]);
      // A client that raises its receive limit gets the response.
      @Module({
        imports: [
          ClientsModule.register([
            {
              name: 'BIG',
              transport: Transport.GRPC,
              options: {package: 'hero', protoPath, url, maxReceiveMessageLength: 10 * 1024 * 1024},
            },
          ]),
        ],
      })
      class BigClientModule {}
      const bigCtx = await NestFactory.createApplicationContext(BigClientModule, {logger: false});
      try {
        const hero: any = await lastValueFrom(
          (bigCtx.get('BIG') as any).getService('HeroesService').findOne({id: 3}),
        );
        expect(hero.name).toHaveLength(5 * 1024 * 1024);
      } finally {
        await bigCtx.close();
      }
    } finally {
      await ctx.close();
      await app.close();
    }
  },
);

function varint(n: number): Buffer {
  const bytes: number[] = [];
  while (n > 0x7f) {
    bytes.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  bytes.push(n);
  return Buffer.from(bytes);
}

claim.failure(
  `${page}#server-streaming`,
  "a client that unsubscribes from ListHeroes early cancels the call: the server's observable is unsubscribed and stops producing",
  async () => {
    const produced: number[] = [];
    const finished: string[] = [];
    (globalThis as any).__grpcStream = {produced, finished};
    const {Endless} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import { interval } from 'rxjs';
import { finalize, map, tap } from 'rxjs/operators';
@Controller()
export class Endless {
  @GrpcMethod('HeroesService', 'ListHeroes') listHeroes() {
    const state = (globalThis as any).__grpcStream;
    return interval(30).pipe(tap((i) => state.produced.push(i)), map((i) => ({ id: i, name: 'Ada' })), finalize(() => state.finished.push('finalized')));
  }
}
`,
      'grpc-endless',
    );
    const {app, url} = await server([Endless]);
    const {ctx, raw} = await heroesClient(url);
    try {
      expect(await lastValueFrom(raw.listHeroes({limit: 0}).pipe(take(3), toArray()))).toHaveLength(
        3,
      );
      const deadline = Date.now() + 3000;
      while (!finished.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(finished).toEqual(['finalized']);
      const count = produced.length;
      await new Promise((r) => setTimeout(r, 200));
      expect(produced.length).toBe(count);
    } finally {
      await ctx.close();
      await app.close();
    }
  },
);

claim.failure(
  `${page}#rx-streaming-handlers`,
  "a client that cancels the page's CountHeroes call midway gets CANCELLED (1), and the microservice keeps serving",
  async () => {
    const {HeroesController} = samples(page, {under: 'rx-streaming-handlers', files: {}}).require(
      'heroes.controller',
    );
    const {Counter} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { GrpcStreamMethod } from '@nestjs/microservices';
import { Observable } from 'rxjs';
import { count, map } from 'rxjs/operators';
interface HeroById { id: number }
interface HeroCount { total: number }
@Controller()
export class Counter {
  ${countHeroes()}
}
`,
      'grpc-counter-cancel',
    );
    const {app, url} = await server([HeroesController, Counter]);
    const {ctx, raw, client} = await heroesClient(url);
    const failures: unknown[] = [];
    const onRejection = (reason: unknown) => failures.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      const rawClient = client.getClientByServiceName('HeroesService');
      const cancelled = await new Promise<string>((resolve) => {
        const call = rawClient.countHeroes((err: any) => resolve(err ? `${err.code}` : 'answered'));
        call.write({id: 1});
        setTimeout(() => call.cancel(), 100);
      });
      expect(cancelled).toBe('1');
      await new Promise((r) => setTimeout(r, 200));
      expect(failures).toEqual([]);
      const ids$ = new ReplaySubject();
      ids$.next({id: 1});
      ids$.complete();
      expect(await lastValueFrom(raw.countHeroes(ids$.asObservable()))).toEqual({total: 1});
    } finally {
      process.off('unhandledRejection', onRejection);
      await ctx.close();
      await app.close();
    }
  },
);

claim(
  `${page}#errors-in-streaming-handlers`,
  "a bidirectional @GrpcStreamCall handler that ends the call with stream.emit('error', { code, details }) gives the client that status, and the microservice keeps serving",
  async () => {
    const {Refusing} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { GrpcStreamCall } from '@nestjs/microservices';
import { status } from '@grpc/grpc-js';
@Controller()
export class Refusing {
  @GrpcStreamCall('HeroesService', 'FindMany')
  findMany(stream: any) {
    stream.on('data', (heroById: { id: number }) => {
      if (heroById.id <= 0) {
        stream.emit('error', { code: status.INVALID_ARGUMENT, details: 'Invalid hero id ' + heroById.id });
        return;
      }
      stream.write({ id: heroById.id, name: 'Ada' });
    });
    stream.on('end', () => stream.end());
  }
}
`,
      'grpc-refusing',
    );
    const {app, url} = await server([Refusing]);
    const {ctx, raw} = await heroesClient(url);
    try {
      const ids$ = new ReplaySubject();
      [1, -2].forEach((id) => ids$.next({id}));
      ids$.complete();
      expect(await failure(raw.findMany(ids$.asObservable()))).toBe('3 Invalid hero id -2');
      const ok$ = new ReplaySubject();
      ok$.next({id: 4});
      ok$.complete();
      expect(await lastValueFrom(raw.findMany(ok$.asObservable()).pipe(toArray()))).toEqual([
        {id: 4, name: 'Ada'},
      ]);
    } finally {
      await ctx.close();
      await app.close();
    }
  },
);

claim.abuse(
  `${page}#asynchronous-configuration`,
  "the page's registerAsync() factory stops the startup with 'HEROES_GRPC_URL is not set' when the variable is missing or empty, instead of calling localhost:5000; with it, the client calls that address",
  async () => {
    const set = samples(page, {
      pick: {'heroes.module': 2},
      edit: {'heroes.module': [protoEdit()]},
    });
    const {HeroesModule} = set.require('heroes.module');
    const saved = process.env.HEROES_GRPC_URL;
    try {
      for (const value of [undefined, '']) {
        if (value === undefined) delete process.env.HEROES_GRPC_URL;
        else process.env.HEROES_GRPC_URL = value;
        await expect(
          NestFactory.createApplicationContext(HeroesModule, {logger: false, abortOnError: false}),
          String(value),
        ).rejects.toThrow('HEROES_GRPC_URL is not set');
      }
      process.env.HEROES_GRPC_URL = '127.0.0.1:1';
      const ctx = await NestFactory.createApplicationContext(HeroesModule, {logger: false});
      try {
        expect(ctx.get('HERO_PACKAGE').url).toBe('127.0.0.1:1');
      } finally {
        await ctx.close();
      }
    } finally {
      if (saved === undefined) delete process.env.HEROES_GRPC_URL;
      else process.env.HEROES_GRPC_URL = saved;
    }
  },
);

claim.abuse(
  `${page}#errors-in-streaming-handlers`,
  "a request message that does not decode, sent to the page's @GrpcStreamCall FindMany or CountHeroes, ends that call with INTERNAL (13); a client that cancels FindMany midway ends only its call; the microservice keeps serving",
  async () => {
    const {HeroesController} = samples(page, {under: 'call-stream-handlers'}).require(
      'heroes.controller',
    );
    const guarded = fragment(page, 'errors-in-streaming-handlers', 'failed = true').value;
    const {GuardedCounter} = compileModule(
      `
import { Controller } from '@nestjs/common';
import { GrpcStreamCall } from '@nestjs/microservices';
import { ServerReadableStream, sendUnaryData, status } from '@grpc/grpc-js';
interface HeroById { id: number }
interface HeroCount { total: number }
@Controller()
export class GuardedCounter {
  ${guarded}
}
`,
      'grpc-guarded-counter-malformed',
    );
    const {app, url} = await server([HeroesController, GuardedCounter]);
    const failures: unknown[] = [];
    const onRejection = (reason: unknown) => failures.push(reason);
    process.on('unhandledRejection', onRejection);
    // A client that writes raw bytes: a field 1 announcing 10 bytes that never come.
    const bytes = {requestSerialize: (b: Buffer) => b, responseDeserialize: (b: Buffer) => b};
    const Raw = grpc.makeGenericClientConstructor({
      FindMany: {
        path: '/hero.HeroesService/FindMany',
        requestStream: true,
        responseStream: true,
        ...bytes,
      },
      CountHeroes: {
        path: '/hero.HeroesService/CountHeroes',
        requestStream: true,
        responseStream: false,
        ...bytes,
      },
    });
    const rawClient = new Raw(url, grpc.credentials.createInsecure());
    const malformed = Buffer.from([0x0a, 0x0a, 0x01]);
    const {ctx, raw, client} = await heroesClient(url);
    try {
      const bidi = await new Promise<number>((resolve) => {
        const call = rawClient.FindMany();
        call.on('data', () => undefined);
        call.on('error', (err: any) => resolve(err.code));
        call.write(malformed);
        call.end();
      });
      expect(bidi).toBe(grpc.status.INTERNAL);
      const counted = await new Promise<number>((resolve) => {
        const call = rawClient.CountHeroes((err: any) => resolve(err ? err.code : -1));
        call.write(malformed);
        call.end();
      });
      expect(counted).toBe(grpc.status.INTERNAL);
      const cancelled = await new Promise<number>((resolve) => {
        const call = client.getClientByServiceName('HeroesService').findMany();
        call.on('data', () => call.cancel());
        call.on('error', (err: any) => resolve(err.code));
        call.write({id: 1});
      });
      expect(cancelled).toBe(grpc.status.CANCELLED);
      await new Promise((r) => setTimeout(r, 200));
      expect(failures).toEqual([]);
      const ids$ = new ReplaySubject();
      [1, 2].forEach((id) => ids$.next({id}));
      ids$.complete();
      expect(await lastValueFrom(raw.countHeroes(ids$.asObservable()))).toEqual({total: 2});
      expect(await lastValueFrom(raw.findMany(ids$.asObservable()).pipe(toArray()))).toEqual([
        {id: 1, name: 'Ada'},
        {id: 2, name: 'Grace'},
      ]);
    } finally {
      process.off('unhandledRejection', onRejection);
      rawClient.close();
      await ctx.close();
      await app.close();
    }
  },
);

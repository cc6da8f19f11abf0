import {createServer, type Server} from 'node:http';
import {afterAll, afterEach, beforeAll, expect} from 'vitest';
import {
  claim,
  compileModule,
  fragment,
  listen,
  memoryLogger,
  nest,
  readPage,
  samples,
} from '../../lib';

const {Module, Controller, Get, Injectable, Inject} = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const {Test} = nest('@nestjs/testing');
const {HttpModule, HttpService} = nest('@nestjs/axios');
const axios = nest('axios').default;
const page = 'docs/techniques/http-module.md';

// A local target server stands in for https://api.example.com (no internet).
const breeds = [{name: 'Abyssinian'}, {name: 'Bengal'}];
let target: Server;
let targetUrl: string;
const hanging: import('node:http').ServerResponse[] = [];
const dripAborted: number[] = [];
const hits: {path: string; headers: Record<string, unknown>}[] = [];
beforeAll(async () => {
  target = createServer((req, res) => {
    hits.push({path: req.url ?? '', headers: req.headers});
    if (req.url === '/breeds') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(breeds));
    } else if (req.url === '/slow') {
      setTimeout(() => res.end('late'), 400);
    } else if (req.url === '/hang') {
      // Accepts the request and never answers.
      hanging.push(res);
    } else if (req.url === '/drip') {
      // One byte every 100 ms for 1.5 s: never idle for long.
      res.writeHead(200, {'content-type': 'text/plain'});
      let sent = 0;
      const timer = setInterval(() => {
        if (res.destroyed) return clearInterval(timer);
        res.write('x');
        if ((sent += 1) === 15) {
          clearInterval(timer);
          res.end();
        }
      }, 100);
      res.on('close', () => {
        if (!res.writableEnded) dripAborted.push(Date.now());
      });
    } else if (req.url?.startsWith('/elsewhere/')) {
      // A redirect to another host: the address is in the path.
      res.writeHead(302, {location: decodeURIComponent(req.url.slice('/elsewhere/'.length))}).end();
    } else if (req.url === '/big') {
      res.end(Buffer.alloc(11 * 1024 * 1024, 65));
    } else if (req.url === '/internal') {
      res.statusCode = 500;
      res.setHeader('content-type', 'application/json');
      res.end('{"error":"password authentication failed for user \\"breeds_admin\\""}');
    } else if (req.url?.startsWith('/hop/')) {
      const n = Number(req.url.slice(5));
      res.writeHead(302, {location: n > 0 ? `/hop/${n - 1}` : '/breeds'}).end();
    } else {
      res.statusCode = 500;
      res.end('boom');
    }
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const address = target.address();
  targetUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      for (const res of hanging) res.destroy();
      target.close(() => resolve());
    }),
);

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

const toTarget = (path = '/breeds'): [string, string] => [
  'https://api.example.com/breeds',
  `${targetUrl}${path}`,
];

/** A service around a method fragment of the page, with HttpService injected. */
function serviceAround(section: string, contains: string, path = '/breeds'): any {
  const method = fragment(page, section, contains)
    .value.replace(/^import .*$/gm, '')
    .split('https://api.example.com/breeds')
    .join(`${targetUrl}${path}`);
  return compileModule<any>(`
import { Injectable, Logger, ServiceUnavailableException } from '@nestjs/common';
import { HttpService } from '@nestjs/axios';
import { AxiosError } from 'axios';
import { lastValueFrom, Observable } from 'rxjs';
import { catchError, map } from 'rxjs/operators';
type Breed = { name: string };
@Injectable()
export class CatsService {
  constructor(private readonly httpService: HttpService) {}
${method}
}
`).CatsService;
}

@Controller('cats')
class CatsController {
  constructor(@Inject('CatsService') private readonly cats: any) {}
  @Get('breeds')
  findBreeds() {
    return this.cats.findBreeds();
  }
}

async function serve(
  CatsService: unknown,
  imports: unknown[] = [HttpModule],
  logger: unknown = false,
): Promise<string> {
  @Module({
    imports: imports as any[],
    controllers: [CatsController],
    providers: [CatsService as any, {provide: 'CatsService', useExisting: CatsService}],
  })
  class AppModule {}
  const app = await NestFactory.create(AppModule, {logger});
  close = () => app.close();
  return listen(app);
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#getting-started`,
    `HttpModule provides HttpService; get() returns an observable of the AxiosResponse (${lang})`,
    async () => {
      // cats.module is shown in TypeScript only; its code is plain Babel-style JavaScript too.
      const moduleSource = readPage(page).fences.find((f) => f.filename === 'cats.module')!.ts!;
      const set = samples(page, {
        under: 'getting-started',
        lang,
        edit: {'cats.service': [toTarget()]},
        files:
          lang === 'ts'
            ? {'interfaces/breed.interface': 'export interface Breed { name: string }'}
            : {'cats.module': moduleSource},
      });
      const {CatsModule} = set.require('cats.module');
      const {CatsService} = set.require('cats.service');
      const moduleRef = await Test.createTestingModule({imports: [CatsModule]}).compile();
      const response = await new Promise<any>((resolve, reject) =>
        moduleRef.get(CatsService).findBreeds().subscribe({next: resolve, error: reject}),
      );
      expect(response.status).toBe(200);
      expect(response.data).toEqual(breeds);
      expect(response.headers['content-type']).toBe('application/json');
      await moduleRef.close();
    },
  );
}

claim(
  `${page}#getting-started`,
  'the observable is cold: no request is sent until something subscribes',
  async () => {
    const moduleRef = await Test.createTestingModule({imports: [HttpModule]}).compile();
    const http = moduleRef.get(HttpService);
    const before = hits.length;
    const observable = http.get(`${targetUrl}/breeds`);
    await new Promise((r) => setTimeout(r, 150));
    expect(hits.length).toBe(before);
    await new Promise((resolve) => observable.subscribe({complete: resolve}));
    expect(hits.length).toBe(before + 1);
    await moduleRef.close();
  },
);

claim(
  `${page}#getting-started`,
  'a controller returning the unmapped AxiosResponse observable answers 500 (circular structure to JSON)',
  async () => {
    const set = samples(page, {
      under: 'getting-started',
      edit: {'cats.service': [toTarget()]},
      files: {'interfaces/breed.interface': 'export interface Breed { name: string }'},
    });
    const {CatsService} = set.require('cats.service');
    const logs = memoryLogger();
    const base = await serve(CatsService, [HttpModule], logs.logger);
    const response = await fetch(`${base}/cats/breeds`);
    expect(response.status).toBe(500);
    expect(logs.text()).toContain('Converting circular structure to JSON');
  },
);

claim(
  `${page}#getting-started`,
  "mapped to response.data with map(), the controller's observable sends the data",
  async () => {
    const base = await serve(
      serviceAround('getting-started', '.pipe(map((response) => response.data))'),
    );
    const response = await fetch(`${base}/cats/breeds`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(breeds);
  },
);

claim(
  `${page}#working-with-promises`,
  'lastValueFrom() turns the request into a promise of the response',
  async () => {
    const base = await serve(serviceAround('working-with-promises', 'lastValueFrom('));
    expect(await (await fetch(`${base}/cats/breeds`)).json()).toEqual(breeds);
  },
);

claim(
  `${page}#handling-errors`,
  'an error status makes the observable error; unhandled, the API answers 500',
  async () => {
    const base = await serve(
      serviceAround('getting-started', '.pipe(map((response) => response.data))', '/fail'),
    );
    expect((await fetch(`${base}/cats/breeds`)).status).toBe(500);
  },
);

claim(
  `${page}#handling-errors`,
  "catchError() turns the AxiosError into the page's 503 and logs the error's message",
  async () => {
    const logs = memoryLogger();
    const base = await serve(
      serviceAround('handling-errors', 'catchError(', '/fail'),
      [HttpModule],
      logs.logger,
    );
    const response = await fetch(`${base}/cats/breeds`);
    expect(response.status).toBe(503);
    expect((await response.json()).message).toBe('The breeds service is unavailable');
    expect(logs.text()).toContain(
      'error [CatsService] The breeds service failed: Request failed with status code 500',
    );
  },
);

claim(
  `${page}#configuration`,
  'the bare HttpModule uses the axios default instance; register() creates a separate instance per call with its options',
  async () => {
    const bare = await Test.createTestingModule({imports: [HttpModule]}).compile();
    expect(bare.get(HttpService).axiosRef).toBe(axios);
    await bare.close();
    @Injectable()
    class Probe {
      constructor(@Inject(HttpService) readonly http: any) {}
    }
    @Module({
      imports: [HttpModule.register({timeout: 5000, maxRedirects: 5})],
      providers: [Probe],
      exports: [Probe],
    })
    class SlowPartnerModule {}
    @Injectable()
    class OtherProbe {
      constructor(@Inject(HttpService) readonly http: any) {}
    }
    @Module({
      imports: [HttpModule.register({timeout: 100})],
      providers: [OtherProbe],
      exports: [OtherProbe],
    })
    class FastPartnerModule {}
    const moduleRef = await Test.createTestingModule({
      imports: [SlowPartnerModule, FastPartnerModule],
    }).compile();
    const slow = moduleRef.get(Probe).http.axiosRef;
    const fast = moduleRef.get(OtherProbe).http.axiosRef;
    expect(slow).not.toBe(axios);
    expect(slow).not.toBe(fast);
    expect([slow.defaults.timeout, slow.defaults.maxRedirects, fast.defaults.timeout]).toEqual([
      5000, 5, 100,
    ]);
    await expect(fast.get(`${targetUrl}/slow`)).rejects.toThrow('timeout of 100ms exceeded');
    expect((await slow.get(`${targetUrl}/slow`)).data).toBe('late');
    await moduleRef.close();
  },
);

claim(`${page}#configuration`, 'maxRedirects limits the redirects axios follows', async () => {
  const moduleRef = await Test.createTestingModule({
    imports: [HttpModule.register({maxRedirects: 5})],
  }).compile();
  const http = moduleRef.get(HttpService);
  expect((await http.axiosRef.get(`${targetUrl}/hop/4`)).data).toEqual(breeds);
  await expect(http.axiosRef.get(`${targetUrl}/hop/8`)).rejects.toThrow(
    /Maximum number of redirects exceeded/,
  );
  await moduleRef.close();
});

claim(
  `${page}#async-configuration`,
  'registerAsync(): useFactory (with inject), useClass (createHttpOptions()) and useExisting all configure the instance',
  async () => {
    const {HttpConfigService} = samples(page, {under: 'async-configuration'}).require(
      'http-config.service',
    );
    const {ConfigModule, ConfigService} = nest('@nestjs/config');
    process.env.BREEDS_API_URL = targetUrl;
    process.env.HTTP_TIMEOUT = '2500';
    const factory = HttpModule.registerAsync({
      imports: [ConfigModule],
      useFactory: async (configService: any) => ({
        baseURL: configService.get('BREEDS_API_URL'),
        timeout: configService.get('HTTP_TIMEOUT'),
      }),
      inject: [ConfigService],
    });
    @Module({providers: [HttpConfigService], exports: [HttpConfigService]})
    class SharedConfigModule {}
    for (const [imports, expected] of [
      [
        [ConfigModule.forRoot({ignoreEnvFile: true}), factory],
        {timeout: '2500', baseURL: targetUrl},
      ],
      [[HttpModule.registerAsync({useClass: HttpConfigService})], {timeout: 5000, maxRedirects: 5}],
      [
        [HttpModule.registerAsync({imports: [SharedConfigModule], useExisting: HttpConfigService})],
        {timeout: 5000, maxRedirects: 5},
      ],
    ] as const) {
      const moduleRef = await Test.createTestingModule({imports: imports as any}).compile();
      expect(moduleRef.get(HttpService, {strict: false}).axiosRef.defaults).toMatchObject(expected);
      await moduleRef.close();
    }
    // A string timeout (from the environment) still works: axios parses it.
    const moduleRef = await Test.createTestingModule({
      imports: [ConfigModule.forRoot({ignoreEnvFile: true}), factory],
    }).compile();
    expect(
      (await moduleRef.get(HttpService, {strict: false}).axiosRef.get('/breeds')).data,
    ).toEqual(breeds);
    await moduleRef.close();
  },
);

claim(
  `${page}#async-configuration`,
  'extraProviders are injectable into the options factory without a separate module',
  async () => {
    const Options = {provide: 'HTTP_DEFAULTS', useValue: {timeout: 1234}};
    const moduleRef = await Test.createTestingModule({
      imports: [
        HttpModule.registerAsync({
          useFactory: (defaults: any) => defaults,
          inject: ['HTTP_DEFAULTS'],
          extraProviders: [Options],
        }),
      ],
    }).compile();
    expect(moduleRef.get(HttpService, {strict: false}).axiosRef.defaults.timeout).toBe(1234);
    await moduleRef.close();
  },
);

claim(
  `${page}#using-axios-directly`,
  "axiosRef returns promises, and the interceptor that the page's CatsService attaches in onModuleInit() applies to the HttpService observables too",
  async () => {
    const code = fragment(page, 'using-axios-directly', 'axiosRef.get')
      .value.replace(/<Breed\[\]>/g, '')
      .split('https://api.example.com/breeds')
      .join(`${targetUrl}/breeds`);
    const {CatsService} = compileModule<any>(`
import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpService } from '@nestjs/axios';
${fragment(page, 'using-axios-directly', 'onModuleInit()').value}
`);
    const moduleRef = await Test.createTestingModule({
      imports: [HttpModule.register({})],
      providers: [CatsService],
    }).compile();
    await moduleRef.init();
    const httpService = moduleRef.get(HttpService);
    const run = new Function(
      'self',
      `return (async function () { ${code}; return response; }).call(self);`,
    );
    const response = await run({httpService});
    expect(response.data).toEqual(breeds);
    expect(hits[hits.length - 1].headers['x-request-source']).toBe('cats-service');
    await new Promise((resolve) =>
      httpService.get(`${targetUrl}/breeds`).subscribe({complete: resolve}),
    );
    expect(hits[hits.length - 1].headers['x-request-source']).toBe('cats-service');
    // Attached once: three requests later, the instance still holds one request interceptor.
    expect(httpService.axiosRef.interceptors.request.handlers.filter(Boolean)).toHaveLength(1);
    await moduleRef.close();
  },
);

claim(
  `${page}#using-axios-directly`,
  'every use() adds an interceptor: a use() inside a method that runs per request leaves one more on the instance after each call',
  async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [HttpModule.register({})],
    }).compile();
    const httpService = moduleRef.get(HttpService);
    const perRequest = async () => {
      httpService.axiosRef.interceptors.request.use((config: any) => config);
      await httpService.axiosRef.get(`${targetUrl}/breeds`);
    };
    for (let i = 0; i < 3; i += 1) await perRequest();
    expect(httpService.axiosRef.interceptors.request.handlers.filter(Boolean)).toHaveLength(3);
    await moduleRef.close();
  },
);

claim(
  `${page}#http-module`,
  '@nestjs/common 8 still exports a deprecated HttpService, which warns when it is created',
  async () => {
    const common = nest('@nestjs/common');
    const logs = memoryLogger();
    const moduleRef = await Test.createTestingModule({imports: [common.HttpModule]})
      .setLogger(logs.logger)
      .compile();
    moduleRef.get(common.HttpService);
    expect(logs.text()).toContain(
      'DEPRECATED! "HttpModule" (from the "@nestjs/common" package) is deprecated',
    );
    await moduleRef.close();
  },
);

// Abuse cases and failure modes.

claim.failure(
  `${page}#handling-errors`,
  "the service down (ECONNREFUSED): the page's catchError answers 503 without the address, which only the log shows",
  async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as {port: number}).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const method = fragment(page, 'handling-errors', 'catchError(')
      .value.replace(/^import .*$/gm, '')
      .split('https://api.example.com/breeds')
      .join(`http://127.0.0.1:${port}/breeds`);
    const {CatsService} = compileModule<any>(`
import { Injectable, Logger, ServiceUnavailableException } from '@nestjs/common';
import { HttpService } from '@nestjs/axios';
import { AxiosError } from 'axios';
import { Observable } from 'rxjs';
import { catchError, map } from 'rxjs/operators';
type Breed = { name: string };
@Injectable()
export class CatsService {
  constructor(private readonly httpService: HttpService) {}
${method}
}
`);
    const logs = memoryLogger();
    const base = await serve(CatsService, [HttpModule], logs.logger);
    const response = await fetch(`${base}/cats/breeds`);
    expect(response.status).toBe(503);
    const body = await response.text();
    expect(body).not.toContain(String(port));
    expect(JSON.parse(body).message).toBe('The breeds service is unavailable');
    expect(logs.text()).toContain(`connect ECONNREFUSED 127.0.0.1:${port}`);
  },
);

claim.failure(
  `${page}#handling-errors`,
  "the service answers 500 with an internal message: unhandled, the client gets Nest's generic 500, not the service's body",
  async () => {
    const base = await serve(
      serviceAround('getting-started', '.pipe(map((response) => response.data))', '/internal'),
    );
    const response = await fetch(`${base}/cats/breeds`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({statusCode: 500, message: 'Internal server error'});
  },
);

/** The page's register() options, as the fragment of the configuration section shows them. */
function pageRegisterOptions(): Record<string, unknown> {
  const code = fragment(page, 'configuration', 'HttpModule.register({').value;
  const options = /HttpModule\.register\((\{[\s\S]*?\})\)/.exec(code)![1];
  return compileModule<any>(`export const options = ${options};`).options;
}

claim.failure(
  `${page}#configuration`,
  "a service that never answers: the bare HttpModule waits on (still pending after 2 s); the page's register() options fail it after 5 s",
  async () => {
    const bare = await Test.createTestingModule({imports: [HttpModule]}).compile();
    const pending = await Promise.race([
      bare
        .get(HttpService)
        .axiosRef.get(`${targetUrl}/hang`)
        .then(
          () => 'answered',
          () => 'failed',
        ),
      new Promise((resolve) => setTimeout(() => resolve('pending'), 2000)),
    ]);
    expect(pending).toBe('pending');
    await bare.close();
    const moduleRef = await Test.createTestingModule({
      imports: [HttpModule.register(pageRegisterOptions())],
    }).compile();
    const started = Date.now();
    await expect(moduleRef.get(HttpService).axiosRef.get(`${targetUrl}/hang`)).rejects.toThrow(
      'timeout of 5000ms exceeded',
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(4900);
    await moduleRef.close();
  },
  15_000,
);

claim.failure(
  `${page}#configuration`,
  'the timeout is an idle timeout: a service that sends a byte every 100 ms for 1.5 s outlasts timeout: 1000; RxJS timeout() bounds the wait, but the request goes on',
  async () => {
    const {timeout} = nest('rxjs');
    const {lastValueFrom} = nest('rxjs');
    // A pause between two bytes ten times shorter than the timeout: no margin to lose under load.
    const moduleRef = await Test.createTestingModule({
      imports: [HttpModule.register({timeout: 1000})],
    }).compile();
    const http = moduleRef.get(HttpService);
    let started = Date.now();
    const dripped = await lastValueFrom(http.get(`${targetUrl}/drip`));
    expect(dripped.data).toBe('x'.repeat(15));
    expect(Date.now() - started).toBeGreaterThan(1200);
    // RxJS timeout() on a client without its own timeout.
    const untimed = await Test.createTestingModule({imports: [HttpModule.register({})]}).compile();
    dripAborted.length = 0;
    started = Date.now();
    await expect(
      lastValueFrom(untimed.get(HttpService).get(`${targetUrl}/drip`).pipe(timeout(500))),
    ).rejects.toThrow('Timeout has occurred');
    expect(Date.now() - started).toBeLessThan(1200);
    await untimed.close();
    // @nestjs/axios 0.0.8 does not cancel the request on unsubscribe: the service finishes sending.
    await new Promise((r) => setTimeout(r, 1500));
    expect(dripAborted).toEqual([]);
    await moduleRef.close();
  },
);

claim.abuse(
  `${page}#configuration`,
  "an 11 MB answer: read whole by default, refused by the page's maxContentLength (10 MB)",
  async () => {
    const bare = await Test.createTestingModule({imports: [HttpModule.register({})]}).compile();
    expect((await bare.get(HttpService).axiosRef.get(`${targetUrl}/big`)).data).toHaveLength(
      11 * 1024 * 1024,
    );
    await bare.close();
    const moduleRef = await Test.createTestingModule({
      imports: [HttpModule.register(pageRegisterOptions())],
    }).compile();
    await expect(moduleRef.get(HttpService).axiosRef.get(`${targetUrl}/big`)).rejects.toThrow(
      'maxContentLength size of 10485760 exceeded',
    );
    await moduleRef.close();
  },
);

/** The page's registerAsync() factory fragment, compiled. */
function pageAsyncOptions(): any {
  const code = fragment(
    page,
    'async-configuration',
    "configService.get<string>('BREEDS_API_URL')",
  ).value.replace(/;\s*$/, '');
  return compileModule<any>(`
import { HttpModule } from '@nestjs/axios';
import { ConfigModule, ConfigService } from '@nestjs/config';
export const asyncOptions = () => ${code};
`).asyncOptions();
}

async function withEnv(env: Record<string, string | undefined>, body: () => Promise<void>) {
  const saved = {
    BREEDS_API_URL: process.env.BREEDS_API_URL,
    HTTP_TIMEOUT: process.env.HTTP_TIMEOUT,
  };
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  try {
    await body();
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

claim.failure(
  `${page}#async-configuration`,
  "HTTP_TIMEOUT missing: the page's factory applies 5000 ms, where get<number>() alone gives no timeout at all",
  async () => {
    const {ConfigModule} = nest('@nestjs/config');
    await withEnv({BREEDS_API_URL: targetUrl, HTTP_TIMEOUT: undefined}, async () => {
      const moduleRef = await Test.createTestingModule({
        imports: [ConfigModule.forRoot({ignoreEnvFile: true}), pageAsyncOptions()],
      }).compile();
      const axiosRef = moduleRef.get(HttpService, {strict: false}).axiosRef;
      expect(axiosRef.defaults.timeout).toBe(5000);
      expect((await axiosRef.get('/breeds')).data).toEqual(breeds);
      await moduleRef.close();
    });
  },
);

claim.failure(
  `${page}#async-configuration`,
  'BREEDS_API_URL missing or HTTP_TIMEOUT=abc: the application refuses to start; without the check, a relative URL goes to port 80 of the local machine',
  async () => {
    const {ConfigModule} = nest('@nestjs/config');
    for (const env of [
      {BREEDS_API_URL: undefined, HTTP_TIMEOUT: '2000'},
      {BREEDS_API_URL: targetUrl, HTTP_TIMEOUT: 'abc'},
    ]) {
      await withEnv(env, async () => {
        await expect(
          Test.createTestingModule({
            imports: [ConfigModule.forRoot({ignoreEnvFile: true}), pageAsyncOptions()],
          }).compile(),
        ).rejects.toThrow('Set BREEDS_API_URL, and HTTP_TIMEOUT to a number of milliseconds');
      });
    }
    // What the check prevents: no baseURL, and the service's relative URL is sent to localhost:80.
    const moduleRef = await Test.createTestingModule({
      imports: [HttpModule.register({baseURL: undefined})],
    }).compile();
    // Whether something answers on port 80 or not, the request went there (follow-redirects' URL).
    const sent = await moduleRef
      .get(HttpService)
      .axiosRef.get('/breeds')
      .then(
        (response: any) => response.request.res.responseUrl,
        (error: any) => error.request._currentUrl,
      );
    expect(sent).toMatch(/^http:\/\/(\[::1\]|127\.0\.0\.1|localhost)\/breeds$/);
    await moduleRef.close();
  },
);

claim.abuse(
  `${page}#configuration`,
  "a redirect to another host, an internal one included, is followed with the page's maxRedirects: 5; maxRedirects: 0 refuses it",
  async () => {
    const internal = createServer((req, res) => res.end('internal admin page'));
    await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
    const internalUrl = `http://127.0.0.1:${(internal.address() as {port: number}).port}/admin`;
    try {
      const moduleRef = await Test.createTestingModule({
        imports: [HttpModule.register(pageRegisterOptions())],
      }).compile();
      const url = `${targetUrl}/elsewhere/${encodeURIComponent(internalUrl)}`;
      expect((await moduleRef.get(HttpService).axiosRef.get(url)).data).toBe('internal admin page');
      await moduleRef.close();
      const strict = await Test.createTestingModule({
        imports: [HttpModule.register({...pageRegisterOptions(), maxRedirects: 0})],
      }).compile();
      await expect(strict.get(HttpService).axiosRef.get(url)).rejects.toThrow(
        'Request failed with status code 302',
      );
      await strict.close();
    } finally {
      internal.close();
    }
  },
);

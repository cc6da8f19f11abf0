/// <reference types="reflect-metadata" />
import {expect, vi} from 'vitest';
import {claim, samples, fragment, compileModule, nest, applyEdits, memoryLogger} from '../../lib';

const {Module, Injectable, Controller, Get, Scope, ConsoleLogger, UseGuards, Global} =
  nest('@nestjs/common');
const {APP_GUARD} = nest('@nestjs/core');
const {Test} = nest('@nestjs/testing');
const page = 'docs/fundamentals/testing.md';

// The classes the page's specs test (the cats example of the overview pages).
const files = {
  'cats.service': `import { Injectable } from '@nestjs/common';
import { Cat } from './interfaces/cat.interface';
@Injectable()
export class CatsService {
  private readonly cats: Cat[] = [{ name: 'Real', age: 1, breed: 'Real' }];
  findAll(): Cat[] { return this.cats; }
}`,
  'cats.controller': `import { Controller, Get } from '@nestjs/common';
import { CatsService } from './cats.service';
@Controller('cats')
export class CatsController {
  constructor(private readonly catsService: CatsService) {}
  @Get()
  async findAll() { return this.catsService.findAll(); }
}`,
  'cats.module': `import { Module } from '@nestjs/common';
import { CatsController } from './cats.controller';
import { CatsService } from './cats.service';
@Module({ controllers: [CatsController], providers: [CatsService] })
export class CatsModule {}`,
  'cat.interface': `export interface Cat { name: string; age: number; breed: string }`,
};

/**
 * Runs a spec file of the page as Jest would: describe() bodies at load time,
 * beforeAll/beforeEach/it/afterEach/afterAll in order, `jest` being vitest's `vi`.
 * Returns the names of the tests that ran (a failing one throws).
 */
async function runSpec(load: () => unknown): Promise<string[]> {
  const tests: [string, () => unknown][] = [];
  const hooks = {
    beforeAll: [] as (() => unknown)[],
    beforeEach: [] as (() => unknown)[],
    afterEach: [] as (() => unknown)[],
    afterAll: [] as (() => unknown)[],
  };
  const globals: Record<string, unknown> = {
    describe: (_name: string, body: () => void) => body(),
    it: (name: string, fn: () => unknown) => tests.push([name, fn]),
    beforeAll: (fn: () => unknown) => hooks.beforeAll.push(fn),
    beforeEach: (fn: () => unknown) => hooks.beforeEach.push(fn),
    afterEach: (fn: () => unknown) => hooks.afterEach.push(fn),
    afterAll: (fn: () => unknown) => hooks.afterAll.push(fn),
    jest: vi,
    expect,
  };
  const saved = Object.fromEntries(
    Object.keys(globals).map((key) => [key, (globalThis as any)[key]]),
  );
  Object.assign(globalThis, globals);
  const ran: string[] = [];
  try {
    load();
    for (const fn of hooks.beforeAll) await fn();
    for (const [name, fn] of tests) {
      for (const hook of hooks.beforeEach) await hook();
      await fn();
      for (const hook of hooks.afterEach) await hook();
      vi.restoreAllMocks();
      ran.push(name);
    }
    for (const fn of hooks.afterAll) await fn();
  } finally {
    Object.assign(globalThis, saved);
  }
  return ran;
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#unit-testing`,
    `the isolated CatsController spec passes: new CatsController(new CatsService()) with a spied findAll() (${lang})`,
    async () => {
      const set = samples(page, {
        lang,
        pick: {'cats.controller.spec': 1},
        files: lang === 'ts' ? files : jsFiles(),
      });
      expect(await runSpec(() => set.require('cats.controller.spec'))).toEqual([
        'returns the cats provided by the service',
      ]);
    },
  );

  claim(
    `${page}#testing-utilities`,
    `the CatsController spec built with Test.createTestingModule() passes (${lang})`,
    async () => {
      const set = samples(page, {
        lang,
        pick: {'cats.controller.spec': 2},
        files: lang === 'ts' ? files : jsFiles(),
      });
      expect(await runSpec(() => set.require('cats.controller.spec'))).toEqual([
        'returns the cats provided by the service',
      ]);
    },
  );

  claim(
    `${page}#end-to-end-testing`,
    `the Cats e2e spec passes: overrideProvider(CatsService).useValue(), createNestApplication(), init(), supertest GET /cats (${lang})`,
    async () => {
      const set = samples(page, {
        lang,
        files: lang === 'ts' ? files : jsFiles(),
        // The Nest 8 starter compiles without esModuleInterop, where this namespace import is callable;
        // the suite compiles with it on, so it takes the CommonJS export directly.
        edit: {
          'test/cats.e2e-spec': [
            ["import * as request from 'supertest';", "const request = require('supertest');"],
          ],
        },
      });
      expect(await runSpec(() => set.require('test/cats.e2e-spec'))).toEqual(['GET /cats']);
    },
  );
}

function jsFiles() {
  return {
    'cats.service': `import { Injectable } from '@nestjs/common';
@Injectable()
export class CatsService {
  constructor() { this.cats = [{ name: 'Real', age: 1, breed: 'Real' }]; }
  findAll() { return this.cats; }
}`,
    'cats.controller': `import { Controller, Dependencies, Get } from '@nestjs/common';
import { CatsService } from './cats.service';
@Controller('cats')
@Dependencies(CatsService)
export class CatsController {
  constructor(catsService) { this.catsService = catsService; }
  @Get()
  async findAll() { return this.catsService.findAll(); }
}`,
    'cats.module': files['cats.module'],
  };
}

function catsSet() {
  const set = samples(page, {pick: {'cats.controller.spec': 1}, files});
  return {
    CatsService: set.require('cats.service').CatsService,
    CatsController: set.require('cats.controller').CatsController,
    CatsModule: set.require('cats.module').CatsModule,
  };
}

claim(
  `${page}#testing-utilities`,
  "the testing module's get() finds providers of imported modules; select(Module).get(token, { strict: true }) limits the lookup",
  async () => {
    const {CatsService, CatsModule} = catsSet();
    @Injectable()
    class OtherService {}
    const moduleRef = await Test.createTestingModule({
      imports: [CatsModule],
      providers: [OtherService],
    }).compile();
    expect(moduleRef.get(CatsService)).toBeInstanceOf(CatsService);
    expect(moduleRef.select(CatsModule).get(CatsService, {strict: true})).toBe(
      moduleRef.get(CatsService),
    );
    expect(() => moduleRef.select(CatsModule).get(OtherService, {strict: true})).toThrow(
      /Nest could not find OtherService/,
    );
    await moduleRef.close();
  },
);

claim(
  `${page}#testing-utilities`,
  'resolve() returns a request-scoped provider, a new instance on each call without a context id',
  async () => {
    @Injectable({scope: Scope.REQUEST})
    class CatsService {}
    const moduleRef = await Test.createTestingModule({providers: [CatsService]}).compile();
    const first = await moduleRef.resolve(CatsService);
    expect(first).toBeInstanceOf(CatsService);
    expect(await moduleRef.resolve(CatsService)).not.toBe(first);
    await moduleRef.close();
  },
);

claim(
  `${page}#overriding-providers`,
  'overrideProvider() replaces a provider of an imported module with useValue(), useClass() or useFactory({ factory, inject })',
  async () => {
    const {CatsService, CatsController, CatsModule} = catsSet();
    const cats = [{name: 'Tom', age: 3, breed: 'Tabby'}];
    const byValue = await Test.createTestingModule({imports: [CatsModule]})
      .overrideProvider(CatsService)
      .useValue({findAll: () => cats})
      .compile();
    expect(await byValue.get(CatsController).findAll()).toBe(cats);
    class FakeCatsService {
      findAll() {
        return ['fake'];
      }
    }
    const byClass = await Test.createTestingModule({imports: [CatsModule]})
      .overrideProvider(CatsService)
      .useClass(FakeCatsService)
      .compile();
    expect(byClass.get(CatsService)).toBeInstanceOf(FakeCatsService);
    expect(await byClass.get(CatsController).findAll()).toEqual(['fake']);
    // The factory's inject tokens are resolved where CatsService is declared (CatsModule): a global module provides PREFIX.
    @Global()
    @Module({providers: [{provide: 'PREFIX', useValue: 'made by factory'}], exports: ['PREFIX']})
    class PrefixModule {}
    const byFactory = await Test.createTestingModule({imports: [CatsModule, PrefixModule]})
      .overrideProvider(CatsService)
      .useFactory({factory: (prefix: string) => ({findAll: () => [prefix]}), inject: ['PREFIX']})
      .compile();
    expect(await byFactory.get(CatsController).findAll()).toEqual(['made by factory']);
    const notVisible = await Test.createTestingModule({
      imports: [CatsModule],
      providers: [{provide: 'PREFIX', useValue: 'root only'}],
    })
      .overrideProvider(CatsService)
      .useFactory({factory: (prefix: string) => ({findAll: () => [prefix]}), inject: ['PREFIX']})
      .compile()
      .then(
        () => null,
        (e: Error) => e,
      );
    expect(notVisible?.message).toMatch(
      /argument PREFIX at index \[0\] is available in the CatsModule context/,
    );
    await Promise.all([byValue.close(), byClass.close(), byFactory.close()]);
  },
);

claim(
  `${page}#overriding-providers`,
  'overrideGuard() replaces a guard bound with @UseGuards()',
  async () => {
    class DenyGuard {
      canActivate() {
        return false;
      }
    }
    @Controller('secret')
    @UseGuards(DenyGuard)
    class SecretController {
      @Get()
      get() {
        return 'open';
      }
    }
    const moduleRef = await Test.createTestingModule({controllers: [SecretController]})
      .overrideGuard(DenyGuard)
      .useValue({canActivate: () => true})
      .compile();
    const app = moduleRef.createNestApplication(undefined, {logger: false});
    await app.init();
    const request = require('supertest');
    await request(app.getHttpServer()).get('/secret').expect(200, 'open');
    await app.close();
  },
);

claim(
  `${page}#lifecycle-hooks-in-unit-tests`,
  'compile() calls no onModuleInit()/onApplicationBootstrap(); moduleRef.init() calls them in order',
  async () => {
    const log: string[] = [];
    @Injectable()
    class WarmCache {
      onModuleInit() {
        log.push('onModuleInit');
      }
      onApplicationBootstrap() {
        log.push('onApplicationBootstrap');
      }
    }
    const moduleRef = await Test.createTestingModule({providers: [WarmCache]}).compile();
    expect(log).toEqual([]);
    await moduleRef.init();
    expect(log).toEqual(['onModuleInit', 'onApplicationBootstrap']);
    await moduleRef.close();
  },
);

claim(
  `${page}#testing-enhancers-in-isolation`,
  "the RolesGuard spec (with a hand-made ExecutionContext and a stubbed reflector.getAllAndOverride()) passes against the execution context chapter's guard",
  async () => {
    const guardSet = samples('docs/fundamentals/execution-context.md', {pick: {'roles.guard': 1}});
    const spec = fragment(page, 'testing-enhancers-in-isolation', "describe('RolesGuard'").value;
    const source = applyEdits('roles.guard.spec', spec, [
      [
        "import { RolesGuard } from './roles.guard';",
        `const { RolesGuard } = require(${JSON.stringify(`${guardSet.dir}/roles.guard.js`)});`,
      ],
    ]);
    guardSet.require('roles.guard');
    expect(await runSpec(() => compileModule(source, 'roles.guard.spec'))).toEqual([
      'lets admins through',
      'refuses calls from other transports',
    ]);
  },
);

claim(
  `${page}#testing-enhancers-in-isolation`,
  'a hand-made context without getType() makes the spec fail with "TypeError: context.getType is not a function"',
  async () => {
    const guardSet = samples('docs/fundamentals/execution-context.md', {pick: {'roles.guard': 1}});
    const spec = fragment(page, 'testing-enhancers-in-isolation', "describe('RolesGuard'").value;
    const source = applyEdits('roles.guard.spec', spec, [
      [
        "import { RolesGuard } from './roles.guard';",
        `const { RolesGuard } = require(${JSON.stringify(`${guardSet.dir}/roles.guard.js`)});`,
      ],
      ['    getType: () => type,\n', ''],
    ]);
    guardSet.require('roles.guard');
    await expect(runSpec(() => compileModule(source, 'roles.guard.spec'))).rejects.toThrow(
      'context.getType is not a function',
    );
  },
);

claim(
  `${page}#auto-mocking`,
  'useMocker(): the factory supplies missing dependencies, registered providers keep precedence, and a falsy result ends in the unresolved dependency error',
  async () => {
    const {CatsService, CatsController} = catsSet();
    const asked: unknown[] = [];
    const factory = (token: unknown) => {
      asked.push(token);
      if (token === CatsService) return {findAll: () => [{name: 'Tom', age: 3, breed: 'Tabby'}]};
      return undefined;
    };
    const moduleRef = await Test.createTestingModule({controllers: [CatsController]})
      .useMocker(factory)
      .compile();
    expect(await moduleRef.get(CatsController).findAll()).toEqual([
      {name: 'Tom', age: 3, breed: 'Tabby'},
    ]);
    expect(asked).toEqual([CatsService]);
    asked.length = 0;
    const withReal = await Test.createTestingModule({
      controllers: [CatsController],
      providers: [CatsService],
    })
      .useMocker(factory)
      .compile();
    expect(withReal.get(CatsController).catsService).toBeInstanceOf(CatsService);
    expect(asked).toEqual([]);
    @Injectable()
    class Unknown {}
    @Injectable()
    class NeedsUnknown {
      constructor(readonly unknown: Unknown) {}
    }
    const error = await Test.createTestingModule({providers: [NeedsUnknown]})
      .useMocker(factory)
      .compile()
      .then(
        () => null,
        (e: Error) => e,
      );
    expect(error?.message).toMatch(/^Nest can't resolve dependencies of the NeedsUnknown \(\?\)/);
  },
);

claim(
  `${page}#auto-mocking`,
  'useMocker(): the factory is called once per consumer that misses a token, so two consumers get two mocks',
  async () => {
    @Injectable()
    class Clock {}
    @Injectable()
    class A {
      constructor(readonly clock: Clock) {}
    }
    @Injectable()
    class B {
      constructor(readonly clock: Clock) {}
    }
    let calls = 0;
    const moduleRef = await Test.createTestingModule({providers: [A, B]})
      .useMocker(() => {
        calls += 1;
        return {now: () => calls};
      })
      .compile();
    expect(calls).toBe(2);
    expect(moduleRef.get(A).clock).not.toBe(moduleRef.get(B).clock);
  },
);

claim(
  `${page}#keeping-e2e-tests-reliable`,
  'the testing module prints only errors; createNestApplication(undefined, { logger: false }) silences them; setLogger() shows everything',
  async () => {
    const {CatsModule} = catsSet();
    const written: string[] = [];
    const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: any) => {
      written.push(String(chunk));
      return true;
    });
    const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: any) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const quiet = await Test.createTestingModule({imports: [CatsModule]}).compile();
      const app = quiet.createNestApplication();
      await app.init();
      expect(written.join('')).toBe('');
      await app.close();
      const loud = await Test.createTestingModule({imports: [CatsModule]})
        .setLogger(new ConsoleLogger())
        .compile();
      const loudApp = loud.createNestApplication();
      await loudApp.init();
      await loudApp.close();
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
    // eslint-disable-next-line no-control-regex -- strips ANSI colour codes from Nest's logger output
    const text = written.join('').replace(/\x1b\[[0-9;]*m/g, '');
    expect(text).toMatch(/Mapped \{\/cats, GET\} route/);
    expect(text).toMatch(/CatsModule dependencies initialized/);
  },
);

claim(
  `${page}#keeping-e2e-tests-reliable`,
  'an error logged by the test application is printed unless logger: false',
  async () => {
    @Controller()
    class BrokenController {
      @Get()
      broken() {
        throw new Error('kaboom');
      }
    }
    const request = require('supertest');
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: any) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const moduleRef = await Test.createTestingModule({controllers: [BrokenController]}).compile();
      const app = moduleRef.createNestApplication();
      await app.init();
      await request(app.getHttpServer()).get('/').expect(500);
      await app.close();
      expect(written.join('')).toMatch(/kaboom/);
      written.length = 0;
      const silent = (
        await Test.createTestingModule({controllers: [BrokenController]}).compile()
      ).createNestApplication(undefined, {logger: false});
      await silent.init();
      await request(silent.getHttpServer()).get('/').expect(500);
      await silent.close();
      expect(written.join('')).toBe('');
    } finally {
      spy.mockRestore();
    }
  },
);

claim(
  `${page}#testing-with-fastify`,
  'the Fastify e2e sample: createNestApplication(new FastifyAdapter()), init(), ready(), app.inject() answers 200',
  async () => {
    const fence = fragment(page, 'testing-with-fastify', 'FastifyAdapter');
    const set = samples(page, {pick: {'cats.controller.spec': 1}, files});
    const source = applyEdits('fastify.e2e-spec', fence.value, [
      [
        "import { CatsModule } from '../src/cats/cats.module';",
        `const { CatsModule } = require(${JSON.stringify(`${set.dir}/cats.module.js`)});`,
      ],
    ]);
    expect(await runSpec(() => compileModule(source, 'cats-fastify.e2e-spec'))).toEqual([
      'GET /cats',
    ]);
  },
);

claim(
  `${page}#overriding-globally-registered-enhancers`,
  'with APP_GUARD useExisting JwtAuthGuard, overrideProvider(JwtAuthGuard).useClass(AllowAllGuard) replaces the global guard',
  async () => {
    @Injectable()
    class JwtAuthGuard {
      canActivate() {
        return false;
      }
    }
    @Injectable()
    class AllowAllGuard {
      canActivate() {
        return true;
      }
    }
    @Controller('cats')
    class CatsController {
      @Get()
      findAll() {
        return 'cats';
      }
    }
    const fence = fragment(
      page,
      'overriding-globally-registered-enhancers',
      'useExisting: JwtAuthGuard',
    );
    (globalThis as any).__testingGuards = {JwtAuthGuard};
    const {AppModule} = compileModule(
      applyEdits('app.module', fence.value, [
        [
          "import { JwtAuthGuard } from './auth/jwt-auth.guard';",
          'const { JwtAuthGuard } = (globalThis as any).__testingGuards;',
        ],
      ]),
      'testing-app.module',
    );
    @Module({imports: [AppModule], controllers: [CatsController]})
    class RootModule {}
    void APP_GUARD;
    const request = require('supertest');
    const real = (
      await Test.createTestingModule({imports: [RootModule]}).compile()
    ).createNestApplication(undefined, {logger: false});
    await real.init();
    await request(real.getHttpServer()).get('/cats').expect(403);
    await real.close();
    const moduleRef = await Test.createTestingModule({imports: [RootModule]})
      .overrideProvider(JwtAuthGuard)
      .useClass(AllowAllGuard)
      .compile();
    const app = moduleRef.createNestApplication(undefined, {logger: false});
    await app.init();
    await request(app.getHttpServer()).get('/cats').expect(200, 'cats');
    await app.close();
  },
);

/** The page's request-scoped spec, run against injection-scopes' CatsService and a controller that returns requestId(). */
function requestScopedSpec(edits: [string, string][] = []) {
  const scoped = samples('docs/fundamentals/injection-scopes.md', {
    pick: {'cats.service': 2},
    files: {
      'cats.controller': `import { Controller, Get } from '@nestjs/common';
import { CatsService } from './cats.service';
@Controller('cats')
export class CatsController {
  constructor(private readonly catsService: CatsService) {}
  @Get()
  findAll() { return { requestId: this.catsService.requestId() }; }
}`,
    },
  });
  scoped.require('cats.controller');
  const spec = fragment(
    page,
    'testing-request-scoped-instances',
    "describe('CatsService, per request'",
  ).value;
  const source = applyEdits('cats.request.spec', spec, [
    // The suite compiles with esModuleInterop, where a namespace import is not callable; a Nest 8 project has it off.
    ["import * as request from 'supertest';", "const request = require('supertest');"],
    ["from './cats.controller';", `from ${JSON.stringify(`${scoped.dir}/cats.controller.js`)};`],
    ["from './cats.service';", `from ${JSON.stringify(`${scoped.dir}/cats.service.js`)};`],
    [
      'moduleRef.createNestApplication();',
      'moduleRef.createNestApplication(undefined, { logger: (globalThis as any).__specLogger });',
    ],
    ...edits,
  ]);
  return () => compileModule(source, 'cats.request.spec');
}

claim(
  `${page}#testing-request-scoped-instances`,
  "the page's spec: after GET /cats with X-Request-ID req-1, resolve(CatsService, contextId) is the instance that served it and returns 'req-1'",
  async () => {
    (globalThis as any).__specLogger = false;
    expect(await runSpec(requestScopedSpec())).toEqual([
      'keeps the request ID of the request it served',
    ]);
  },
);

claim.abuse(
  `${page}#testing-request-scoped-instances`,
  "a second request in the same test, sent as another caller, is served with the first request's REQUEST: req-2 answers 'req-1'",
  async () => {
    (globalThis as any).__specLogger = false;
    const answers: unknown[] = [];
    (globalThis as any).__answers = answers;
    await runSpec(
      requestScopedSpec([
        [
          "await request(app.getHttpServer()).get('/cats').set('X-Request-ID', 'req-1').expect(200);",
          `await request(app.getHttpServer()).get('/cats').set('X-Request-ID', 'req-1').expect(200);
    const second = await request(app.getHttpServer()).get('/cats').set('X-Request-ID', 'req-2').expect(200);
    (globalThis as any).__answers.push(second.body);`,
        ],
      ]),
    );
    expect(answers).toEqual([{requestId: 'req-1'}]);
  },
);

claim.failure(
  `${page}#testing-request-scoped-instances`,
  'resolve(CatsService, contextId) before the request builds the instance with REQUEST undefined: the request answers 500 and the log shows "Cannot read properties of undefined (reading \'headers\')"',
  async () => {
    const logs = memoryLogger();
    (globalThis as any).__specLogger = logs.logger;
    const statuses: number[] = [];
    (globalThis as any).__statuses = statuses;
    await runSpec(
      requestScopedSpec([
        [
          "await request(app.getHttpServer()).get('/cats').set('X-Request-ID', 'req-1').expect(200);\n",
          `const early = await moduleRef.resolve(CatsService, contextId);
    const response = await request(app.getHttpServer()).get('/cats').set('X-Request-ID', 'req-1');
    (globalThis as any).__statuses.push(response.status);
    void early;
`,
        ],
        ["expect(catsService.requestId()).toBe('req-1');", 'void catsService;'],
      ]),
    );
    expect(statuses).toEqual([500]);
    expect(logs.text()).toContain("Cannot read properties of undefined (reading 'headers')");
  },
);

claim(
  `${page}#unit-testing`,
  'the Jest configuration of a project made by nest new (the CLI 8 schematics) has rootDir "src" and testRegex ".*\\.spec\\.ts$"',
  async () => {
    const {readFileSync} = await import('node:fs');
    const {join} = await import('node:path');
    const template = JSON.parse(
      readFileSync(
        join(
          __dirname,
          '..',
          '..',
          'node_modules',
          '@nestjs/schematics/dist/lib/application/files/ts/package.json',
        ),
        'utf8',
      ),
    );
    expect({rootDir: template.jest.rootDir, testRegex: template.jest.testRegex}).toEqual({
      rootDir: 'src',
      testRegex: '.*\\.spec\\.ts$',
    });
  },
);

claim(
  `${page}#closing-the-testing-module`,
  'moduleRef.close() runs the shutdown hooks of a testing module used on its own',
  async () => {
    const log: string[] = [];
    @Injectable()
    class Pool {
      onModuleDestroy() {
        log.push('onModuleDestroy');
      }
      onApplicationShutdown() {
        log.push('onApplicationShutdown');
      }
    }
    const moduleRef = await Test.createTestingModule({providers: [Pool]}).compile();
    await moduleRef.close();
    expect(log).toEqual(['onModuleDestroy', 'onApplicationShutdown']);
  },
);

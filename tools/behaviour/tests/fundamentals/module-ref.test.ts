/// <reference types="reflect-metadata" />
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {expect} from 'vitest';
import {applyEdits, claim, samples, fragment, compileModule, nest, listen} from '../../lib';
import {captureLog, compileInto, plain, runScript} from './_support';

const {Module, Injectable, Controller, Get, Scope, Inject, Global} = nest('@nestjs/common');
const {NestFactory, ModuleRef, ContextIdFactory, REQUEST} = nest('@nestjs/core');
const page = 'docs/fundamentals/module-ref.md';
const options: any = {logger: false, abortOnError: false};

const auditLogger = fragment(page, 'resolving-scoped-providers', 'class AuditLogger').value;
// The same class as Babel-style JavaScript, for the JavaScript halves of the samples.
const auditLoggerJs = `import { Injectable, Scope } from '@nestjs/common';

@Injectable({ scope: Scope.TRANSIENT })
export class AuditLogger {
  constructor() {
    this.entries = [];
  }

  record(action) {
    this.entries.push(action);
  }
}`;
const auditFile = (lang: 'ts' | 'js') => ({
  'audit-logger': lang === 'ts' ? auditLogger : auditLoggerJs,
});

claim(
  `${page}#retrieving-instances`,
  'CatsService.onModuleInit() gets BreedsService of its own module with moduleRef.get()',
  async () => {
    const set = samples(page, {
      under: 'retrieving-instances',
      files: {
        'breeds.service': `import { Injectable } from '@nestjs/common';\n@Injectable()\nexport class BreedsService {}`,
      },
    });
    const {CatsService} = set.require('cats.service');
    const {BreedsService} = set.require('breeds.service');
    @Module({providers: [CatsService, BreedsService]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    await app.init();
    expect(app.get(CatsService).breedsService).toBe(app.get(BreedsService));
    await app.close();
  },
);

function twoModules() {
  @Injectable()
  class BreedsService {}
  @Module({providers: [BreedsService], exports: [BreedsService]})
  class BreedsModule {}
  @Injectable()
  class CatsService {
    constructor(readonly moduleRef: any) {}
  }
  Reflect.defineMetadata('design:paramtypes', [ModuleRef], CatsService);
  @Module({imports: [BreedsModule], providers: [CatsService]})
  class CatsModule {}
  return {BreedsService, BreedsModule, CatsService, CatsModule};
}

claim(
  `${page}#retrieving-instances`,
  'get() does not find a provider the module only imports ("Nest could not find ..."); { strict: false } finds it',
  async () => {
    const {BreedsService, CatsService, CatsModule} = twoModules();
    const app = await NestFactory.create(CatsModule, options);
    await app.init();
    const {moduleRef} = app.get(CatsService);
    expect(() => moduleRef.get(BreedsService)).toThrow(
      /^Nest could not find BreedsService element/,
    );
    expect(moduleRef.get(BreedsService, {strict: false})).toBe(app.get(BreedsService));
    await app.close();
  },
);

claim(
  `${page}#retrieving-instances`,
  'get() does not find a provider of a global module either',
  async () => {
    @Injectable()
    class ConfigService {}
    @Global()
    @Module({providers: [ConfigService], exports: [ConfigService]})
    class ConfigModule {}
    @Injectable()
    class CatsService {
      constructor(readonly moduleRef: any) {}
    }
    Reflect.defineMetadata('design:paramtypes', [ModuleRef], CatsService);
    @Module({imports: [ConfigModule], providers: [CatsService]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    await app.init();
    expect(() => app.get(CatsService).moduleRef.get(ConfigService)).toThrow(/^Nest could not find/);
    await app.close();
  },
);

claim(
  `${page}#retrieving-instances`,
  'with strict: false and a token registered in several modules, get() returns the instance of the module registered last',
  async () => {
    @Module({providers: [{provide: 'COLOR', useValue: 'red'}]})
    class RedModule {}
    @Module({providers: [{provide: 'COLOR', useValue: 'blue'}]})
    class BlueModule {}
    @Injectable()
    class Probe {
      constructor(readonly moduleRef: any) {}
    }
    Reflect.defineMetadata('design:paramtypes', [ModuleRef], Probe);
    @Module({imports: [RedModule, BlueModule], providers: [Probe]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    await app.init();
    expect(app.get(Probe).moduleRef.get('COLOR', {strict: false})).toBe('blue');
    await app.close();
  },
);

claim(
  `${page}#retrieving-instances`,
  'get() of a request-scoped or transient provider throws "... is marked as a scoped provider"',
  async () => {
    const {AuditLogger} = compileModule(auditLogger, 'audit-logger');
    @Injectable({scope: Scope.REQUEST})
    class PerRequest {}
    @Module({providers: [AuditLogger, PerRequest]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    await app.init();
    const moduleRef = app.get(ModuleRef);
    expect(() => moduleRef.get(AuditLogger)).toThrow(/AuditLogger is marked as a scoped provider/);
    expect(() => moduleRef.get(PerRequest)).toThrow(/PerRequest is marked as a scoped provider/);
    await app.close();
  },
);

claim(
  `${page}#retrieving-instances`,
  'get() of a provider that is request-scoped only through bubbling does not throw but returns an object whose constructor never ran',
  async () => {
    let constructed = 0;
    @Injectable({scope: Scope.REQUEST})
    class PerRequest {}
    @Injectable()
    class Bubbled {
      constructor(readonly perRequest: PerRequest) {
        constructed += 1;
      }
    }
    @Module({providers: [PerRequest, Bubbled]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    await app.init();
    const placeholder = app.get(ModuleRef).get(Bubbled);
    expect(placeholder).toBeInstanceOf(Bubbled);
    expect(placeholder.perRequest).toBeUndefined();
    expect(constructed).toBe(0);
    await app.close();
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#resolving-scoped-providers`,
    `resolve() without a context id gives two AuditLoggers (logs false); with one ContextIdFactory.create() id, one (logs true) (${lang})`,
    async () => {
      for (const [nth, expected] of [
        [3, 'false'],
        [4, 'true'],
      ] as const) {
        const set = samples(page, {lang, pick: {'cats.service': nth}, files: auditFile(lang)});
        const {CatsService} = set.require('cats.service');
        const {AuditLogger} = set.require('audit-logger');
        @Module({providers: [CatsService, AuditLogger]})
        class AppModule {}
        const app = await NestFactory.create(AppModule, options);
        const {lines} = await captureLog(() => app.init());
        expect(lines).toEqual([expected]);
        await app.close();
      }
    },
  );
}

claim(
  `${page}#resolving-scoped-providers`,
  'resolve() of a singleton returns the shared instance, as get() does',
  async () => {
    @Injectable()
    class Shared {}
    @Module({providers: [Shared]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    await app.init();
    const moduleRef = app.get(ModuleRef);
    expect(await moduleRef.resolve(Shared)).toBe(moduleRef.get(Shared));
    await app.close();
  },
);

claim(
  `${page}#resolving-scoped-providers`,
  'introspect() reports REQUEST for a request-scoped or bubbled provider, TRANSIENT for a transient one, DEFAULT for a singleton',
  async () => {
    const {AuditLogger} = compileModule(auditLogger, 'audit-logger');
    @Injectable({scope: Scope.REQUEST})
    class PerRequest {}
    @Injectable()
    class Bubbled {
      constructor(readonly perRequest: PerRequest) {}
    }
    @Injectable()
    class Plain {}
    @Module({providers: [AuditLogger, PerRequest, Bubbled, Plain]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    await app.init();
    const moduleRef = app.get(ModuleRef);
    expect(moduleRef.introspect(PerRequest).scope).toBe(Scope.REQUEST);
    expect(moduleRef.introspect(Bubbled).scope).toBe(Scope.REQUEST);
    expect(moduleRef.introspect(AuditLogger).scope).toBe(Scope.TRANSIENT);
    expect(moduleRef.introspect(Plain).scope).toBe(Scope.DEFAULT);
    // The page's switch: resolve() for the transient logger.
    const {scope} = moduleRef.introspect(AuditLogger);
    const logger =
      scope === Scope.DEFAULT
        ? moduleRef.get(AuditLogger, {strict: false})
        : await moduleRef.resolve(AuditLogger, undefined, {strict: false});
    expect(logger).toBeInstanceOf(AuditLogger);
    await app.close();
  },
);

const requestCatsService = (lang: 'ts' | 'js') =>
  samples('docs/fundamentals/injection-scopes.md', {lang, pick: {'cats.service': 2}}).sources.get(
    'cats.service',
  )!;

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#registering-the-request-provider`,
    `JobsProcessor registers { headers } as the request of its context id, and the request-scoped CatsService reads the job's request ID (${lang})`,
    async () => {
      const set = samples(page, {
        under: 'registering-the-request-provider',
        lang,
        files: {'cats.service': requestCatsService(lang)},
      });
      const {JobsProcessor} = set.require('jobs.processor');
      const {CatsService} = set.require('cats.service');
      @Module({providers: [JobsProcessor, CatsService]})
      class AppModule {}
      const app = await NestFactory.create(AppModule, options);
      await app.init();
      expect(await app.get(JobsProcessor).process({id: '42'})).toBe('job-42');
      await app.close();
    },
  );
}

claim.abuse(
  `${page}#registering-the-request-provider`,
  "jobs processed at the same time each get their own context and request object: none reads another job's",
  async () => {
    const set = samples(page, {
      under: 'registering-the-request-provider',
      files: {'cats.service': requestCatsService('ts')},
    });
    const {JobsProcessor} = set.require('jobs.processor');
    const {CatsService} = set.require('cats.service');
    @Module({providers: [JobsProcessor, CatsService]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    await app.init();
    const processor = app.get(JobsProcessor);
    const ids = Array.from({length: 20}, (_, i) => String(i));
    expect(await Promise.all(ids.map((id) => processor.process({id})))).toEqual(
      ids.map((id) => `job-${id}`),
    );
    await app.close();
  },
);

claim(
  `${page}#registering-the-request-provider`,
  'without registerRequestByContextId(), a provider resolved in a ContextIdFactory.create() sub-tree gets undefined for REQUEST',
  async () => {
    @Injectable({scope: Scope.REQUEST})
    class NeedsRequest {
      constructor(@Inject(REQUEST) readonly request: unknown) {}
    }
    @Module({providers: [NeedsRequest]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    await app.init();
    const instance = await app.get(ModuleRef).resolve(NeedsRequest, ContextIdFactory.create());
    expect(instance.request).toBeUndefined();
    await app.close();
  },
);

claim(
  `${page}#getting-current-sub-tree`,
  "ContextIdFactory.getByRequest(request) resolves request-scoped providers in the current request's sub-tree; the page's CatsService.audit() records",
  async () => {
    const set = samples(page, {
      under: 'getting-current-sub-tree',
      files: {'audit-logger': auditLogger},
    });
    const {CatsService} = set.require('cats.service');
    const {AuditLogger} = set.require('audit-logger');
    @Injectable({scope: Scope.REQUEST})
    class Tracker {}
    @Controller()
    class AuditController {
      constructor(
        @Inject(CatsService) private readonly cats: any,
        @Inject(Tracker) private readonly tracker: any,
        @Inject(REQUEST) private readonly request: any,
        private readonly moduleRef: any,
      ) {}
      @Get()
      async check() {
        await this.cats.audit('listed cats');
        const same = await this.moduleRef.resolve(
          Tracker,
          ContextIdFactory.getByRequest(this.request),
        );
        const fresh = await this.moduleRef.resolve(Tracker);
        return {same: same === this.tracker, fresh: fresh === this.tracker};
      }
    }
    Reflect.defineMetadata(
      'design:paramtypes',
      [Object, Object, Object, ModuleRef],
      AuditController,
    );
    @Module({controllers: [AuditController], providers: [CatsService, AuditLogger, Tracker]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    const base = await listen(app);
    expect(await (await fetch(base)).json()).toEqual({same: true, fresh: false});
    await app.close();
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#instantiating-custom-classes-dynamically`,
    `create() builds an unregistered CatsFactory with its dependencies, a new one per call, not stored in the container (${lang})`,
    async () => {
      const set = samples(page, {
        under: 'instantiating-custom-classes-dynamically',
        lang,
        files: {
          'breeds.service': `import { Injectable } from '@nestjs/common';\n@Injectable()\nexport class BreedsService {}`,
        },
      });
      const {CatsService} = set.require('cats.service');
      const {CatsFactory} = set.require('cats.factory');
      const {BreedsService} = set.require('breeds.service');
      @Module({providers: [CatsService, BreedsService]})
      class AppModule {}
      const app = await NestFactory.create(AppModule, options);
      await app.init();
      const {catsFactory} = app.get(CatsService);
      expect(catsFactory).toBeInstanceOf(CatsFactory);
      expect(catsFactory.breedsService).toBe(app.get(BreedsService));
      const another = await app.get(ModuleRef).create(CatsFactory);
      expect(another).not.toBe(catsFactory);
      expect(() => app.get(CatsFactory)).toThrow(/Nest could not find CatsFactory/);
      await app.close();
    },
  );
}

claim.failure(
  `${page}#instantiating-custom-classes-dynamically`,
  'CatsFactory without @Injectable(): create() succeeds but hands undefined to BreedsService, without an error',
  async () => {
    const set = samples(page, {
      under: 'instantiating-custom-classes-dynamically',
      files: {
        'breeds.service': `import { Injectable } from '@nestjs/common';\n@Injectable()\nexport class BreedsService {}`,
      },
      edit: {
        'cats.factory': [
          ["import { Injectable } from '@nestjs/common';\n", ''],
          ['@Injectable()\n', ''],
        ],
      },
    });
    const {CatsService} = set.require('cats.service');
    const {BreedsService} = set.require('breeds.service');
    @Module({providers: [CatsService, BreedsService]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    await app.init();
    const {catsFactory} = app.get(CatsService);
    expect(catsFactory.constructor.name).toBe('CatsFactory');
    expect(catsFactory.breedsService).toBeUndefined();
    await app.close();
  },
);

claim(
  `${page}#lookups-on-the-application-object`,
  'app.get() searches every module by default (a provider of an imported module is found)',
  async () => {
    const {BreedsService, CatsModule} = twoModules();
    const app = await NestFactory.create(CatsModule, options);
    await app.init();
    expect(app.get(BreedsService)).toBeInstanceOf(BreedsService);
    await app.close();
  },
);

claim(
  `${page}#retrieving-instances`,
  'get() finds providers, controllers and enhancers bound with @UseGuards() by their class token; the class name as a string finds nothing',
  async () => {
    @Injectable()
    class BreedsService {}
    @Injectable()
    class AuthGuard {
      canActivate() {
        return true;
      }
    }
    @Controller()
    class CatsController {}
    nest('@nestjs/common').UseGuards(AuthGuard)(CatsController);
    @Module({controllers: [CatsController], providers: [BreedsService]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    const moduleRef = app.get(ModuleRef);
    expect(moduleRef.get(BreedsService)).toBeInstanceOf(BreedsService);
    expect(moduleRef.get(CatsController)).toBeInstanceOf(CatsController);
    expect(moduleRef.get(AuthGuard)).toBeInstanceOf(AuthGuard);
    expect(() => moduleRef.get('BreedsService')).toThrow(
      /^Nest could not find BreedsService element/,
    );
    await app.close();
  },
);

/** The page's main.ts fragment, around a request-scoped CatsService, as a script for a child process. */
function lookupScript(options: string): string {
  const body = applyEdits(
    'main',
    fragment(page, 'lookups-on-the-application-object', 'never runs').value,
    [
      ['NestFactory.create(AppModule)', `NestFactory.create(AppModule${options})`],
      ['// never runs', "console.log('caught: ' + (error as Error).message.split('\\n')[0]);"],
    ],
  );
  return `import { Injectable, Module, Scope } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
@Injectable({ scope: Scope.REQUEST })
class CatsService {}
@Module({ providers: [CatsService] })
class AppModule {}
async function main() {
  try {
    await (await NestFactory.create(AppModule, { logger: ['error'] })).resolve(class Unknown {});
  } catch (error) {
    console.log('resolve rejected: ' + (error as Error).message.split('\\n')[0]);
  }
${body}
  console.log('after');
}
main();
`;
}

claim.failure(
  `${page}#lookups-on-the-application-object`,
  'app.get() of a request-scoped provider with the default options: "ERROR [ExceptionHandler] ... is marked as a scoped provider", exit code 1, the catch block never runs; a failing app.resolve() rejects as usual',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'behaviour-lookup-'));
    try {
      compileInto(dir, 'main', lookupScript(''));
      const result = await runScript(dir, 'run.js', "require('./main');");
      expect(result.code).toBe(1);
      expect(result.stdout).toContain(
        'resolve rejected: Nest could not find Unknown element (this provider does not exist in the current context)',
      );
      expect(result.stdout).not.toMatch(/caught|after/);
      expect(plain(result.stdout + result.stderr)).toContain(
        'ERROR [ExceptionHandler] CatsService is marked as a scoped provider.',
      );
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  },
);

claim(
  `${page}#lookups-on-the-application-object`,
  'with { abortOnError: false }, app.get() logs the error and throws it: the catch block runs and the process goes on',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'behaviour-lookup-'));
    try {
      compileInto(dir, 'main', lookupScript(', { abortOnError: false }'));
      const result = await runScript(dir, 'run.js', "require('./main');");
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(
        /caught: CatsService is marked as a scoped provider\.[^\n]*\nafter\n$/,
      );
      expect(plain(result.stdout + result.stderr)).toContain(
        'ERROR [ExceptionHandler] CatsService',
      );
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  },
);

claim.abuse(
  `${page}#getting-current-sub-tree`,
  "alice's and bob's requests at the same time: each request's audit() calls go to that request's AuditLogger, never to the other's",
  async () => {
    const set = samples(page, {
      under: 'getting-current-sub-tree',
      files: {'audit-logger': auditLogger},
    });
    const {CatsService} = set.require('cats.service');
    const {AuditLogger} = set.require('audit-logger');
    @Controller()
    class AuditController {
      constructor(
        @Inject(CatsService) private readonly cats: any,
        @Inject(REQUEST) private readonly request: any,
        private readonly moduleRef: any,
      ) {}
      @Get()
      async check() {
        const user = this.request.headers['x-test-user'];
        await this.cats.audit(`${user} listed cats`);
        await new Promise((r) => setTimeout(r, 20));
        await this.cats.audit(`${user} adopted a cat`);
        const logger = await this.moduleRef.resolve(
          AuditLogger,
          ContextIdFactory.getByRequest(this.request),
        );
        return logger.entries.map((entry: string) => entry.replace(/^\S+ /, ''));
      }
    }
    Reflect.defineMetadata('design:paramtypes', [Object, Object, ModuleRef], AuditController);
    @Module({controllers: [AuditController], providers: [CatsService, AuditLogger]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    const base = await listen(app);
    const users = ['alice', 'bob', 'alice', 'bob', 'carol', 'dave'];
    const answers = await Promise.all(
      users.map(async (user) => (await fetch(base, {headers: {'x-test-user': user}})).json()),
    );
    expect(answers).toEqual(users.map((user) => [`${user} listed cats`, `${user} adopted a cat`]));
    await app.close();
  },
);

/// <reference types="reflect-metadata" />
import {expect} from 'vitest';
import {claim, expectOutput, samples, nest, listen, memoryLogger} from '../../lib';

const {Module, Injectable, Controller, Get, Global} = nest('@nestjs/common');
const {NestFactory, LazyModuleLoader, APP_GUARD} = nest('@nestjs/core');
const page = 'docs/fundamentals/lazy-loading-modules.md';
const options: any = {logger: false, abortOnError: false};

function reports() {
  let created = 0;
  @Injectable()
  class ReportsService {
    readonly id = ++created;
    async buildCatsReport() {
      return Buffer.from(`report ${this.id}`);
    }
  }
  @Module({providers: [ReportsService], exports: [ReportsService]})
  class ReportsModule {}
  return {ReportsService, ReportsModule, created: () => created};
}

async function bareApp(extra: any = {}) {
  @Module({})
  class AppModule {}
  const app = await NestFactory.create(AppModule, {...options, ...extra});
  await app.init();
  return app;
}

claim(
  `${page}#loading-a-module-more-than-once`,
  'every load() resolves to the same ModuleRef but creates new provider instances, logging "ReportsModule dependencies initialized" each time',
  async () => {
    const {ReportsService, ReportsModule, created} = reports();
    const memory = memoryLogger();
    const app = await bareApp({logger: memory.logger});
    const loader = app.get(LazyModuleLoader);
    const first = await loader.load(() => ReportsModule);
    const firstService = first.get(ReportsService);
    const second = await loader.load(() => ReportsModule);
    expect(second).toBe(first);
    expect(created()).toBe(2);
    expect(firstService.id).toBe(1);
    const lines = memory.lines
      .filter((line) => line.context === 'LazyModuleLoader')
      .map((line) => line.message);
    expect(lines).toEqual([
      'ReportsModule dependencies initialized',
      'ReportsModule dependencies initialized',
    ]);
    await app.close();
  },
);

claim(
  `${page}#getting-started`,
  'load() accepts a function returning a promise of the class, and a dynamic module',
  async () => {
    const {ReportsService, ReportsModule} = reports();
    const app = await bareApp();
    const loader = app.get(LazyModuleLoader);
    const viaPromise = await loader.load(() => Promise.resolve(ReportsModule));
    expect(viaPromise.get(ReportsService)).toBeInstanceOf(ReportsService);
    @Module({})
    class OptionsModule {
      static register(value: string) {
        return {
          module: OptionsModule,
          providers: [{provide: 'OPTION', useValue: value}],
          exports: ['OPTION'],
        };
      }
    }
    const dynamic = await loader.load(() => OptionsModule.register('on'));
    expect(dynamic.get('OPTION')).toBe('on');
    await app.close();
  },
);

claim(
  `${page}#dependencies-of-a-lazy-module`,
  'a lazy module is not linked to global modules: a provider of a global module fails to resolve with "Nest can\'t resolve dependencies"',
  async () => {
    @Injectable()
    class Clock {}
    @Global()
    @Module({providers: [Clock], exports: [Clock]})
    class ClockModule {}
    @Injectable()
    class UsesClock {
      constructor(readonly clock: Clock) {}
    }
    @Module({providers: [UsesClock]})
    class LazyModule {}
    @Module({imports: [ClockModule]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    await app.init();
    const error = await app
      .get(LazyModuleLoader)
      .load(() => LazyModule)
      .then(
        () => null,
        (e: Error) => e,
      );
    expect(error?.message).toMatch(
      /^Nest can't resolve dependencies of the UsesClock \(\?\)\. Please make sure that the argument Clock at index \[0\] is available in the LazyModule context\./,
    );
    @Module({imports: [ClockModule], providers: [UsesClock]})
    class ExplicitModule {}
    const loaded = await app.get(LazyModuleLoader).load(() => ExplicitModule);
    expect(loaded.get(UsesClock).clock).toBeInstanceOf(Clock);
    await app.close();
  },
);

claim(
  `${page}#dependencies-of-a-lazy-module`,
  "a lazy module that imports an already loaded module gets new instances of that module's providers",
  async () => {
    const {ReportsService, ReportsModule} = reports();
    @Injectable()
    class UsesReports {
      constructor(readonly reports: any) {}
    }
    Reflect.defineMetadata('design:paramtypes', [ReportsService], UsesReports);
    @Module({imports: [ReportsModule], providers: [UsesReports]})
    class LazyModule {}
    @Module({imports: [ReportsModule]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    await app.init();
    const eager = app.get(ReportsService);
    const lazy = await app.get(LazyModuleLoader).load(() => LazyModule);
    expect(lazy.get(UsesReports).reports).toBeInstanceOf(ReportsService);
    expect(lazy.get(UsesReports).reports).not.toBe(eager);
    await app.close();
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#getting-providers`,
    `CatsService loads ReportsModule on the first exportReport() only; concurrent callers share the promise (${lang})`,
    async () => {
      const set = samples(page, {
        under: 'getting-providers',
        lang,
        files: {
          'reports/reports.service': `import { Injectable } from '@nestjs/common';
(globalThis as any).__reportsLoaded = ((globalThis as any).__reportsLoaded ?? 0) + 1;
@Injectable()
export class ReportsService {
  async buildCatsReport() { return Buffer.from('cats report'); }
}`
            .replace('(globalThis as any)', 'globalThis')
            .replace('(globalThis as any)', 'globalThis'),
          'reports/reports.module': `import { Module } from '@nestjs/common';
import { ReportsService } from './reports.service';
@Module({ providers: [ReportsService] })
export class ReportsModule {}`,
        },
      });
      const {CatsService} = set.require('cats.service');
      (globalThis as any).__reportsLoaded = 0;
      @Module({providers: [CatsService]})
      class AppModule {}
      const memory = memoryLogger();
      const app = await NestFactory.create(AppModule, {logger: memory.logger, abortOnError: false});
      await app.init();
      expect((globalThis as any).__reportsLoaded).toBe(0);
      const cats = app.get(CatsService);
      const reportsFirst = await Promise.all([cats.exportReport(), cats.exportReport()]);
      expect(reportsFirst.map(String)).toEqual(['cats report', 'cats report']);
      await cats.exportReport();
      expect((globalThis as any).__reportsLoaded).toBe(1);
      expect(memory.lines.filter((line) => line.context === 'LazyModuleLoader')).toHaveLength(1);
      await app.close();
    },
  );
}

function lazyParts(calls: string[]) {
  @Injectable()
  class DenyAll {
    canActivate() {
      calls.push('guard');
      return false;
    }
  }
  @Injectable()
  class Hooked {
    onModuleInit() {
      calls.push('onModuleInit');
    }
    onApplicationBootstrap() {
      calls.push('onApplicationBootstrap');
    }
  }
  @Global()
  @Module({
    providers: [Hooked, {provide: APP_GUARD, useClass: DenyAll}, {provide: 'SHARED', useValue: 1}],
    exports: ['SHARED'],
  })
  class LazyModule {
    configure(consumer: any) {
      calls.push('configure');
      consumer
        .apply((_req: unknown, _res: unknown, next: () => void) => {
          calls.push('middleware');
          next();
        })
        .forRoutes('*');
    }
  }
  @Controller()
  class OpenController {
    @Get()
    open() {
      return 'open';
    }
  }
  @Module({controllers: [OpenController]})
  class AppModule {}
  return {LazyModule, AppModule};
}

claim(
  `${page}#what-does-not-apply-to-lazy-modules`,
  'a module loaded after init() gets no lifecycle hooks, no configure() call, no effect from its APP_GUARD, and @Global() does not make it global',
  async () => {
    const calls: string[] = [];
    const {LazyModule, AppModule} = lazyParts(calls);
    const app = await NestFactory.create(AppModule, options);
    const base = await listen(app);
    const loader = app.get(LazyModuleLoader);
    await loader.load(() => LazyModule);
    expect((await fetch(base)).status).toBe(200);
    @Injectable()
    class NeedsShared {
      constructor(@(nest('@nestjs/common').Inject('SHARED')) readonly shared: number) {}
    }
    @Module({providers: [NeedsShared]})
    class OtherLazyModule {}
    const error = await loader
      .load(() => OtherLazyModule)
      .then(
        () => null,
        (e: Error) => e,
      );
    expect(error?.message).toMatch(/^Nest can't resolve dependencies of the NeedsShared \(\?\)/);
    await app.close();
    expect(calls).toEqual([]);
  },
);

claim(
  `${page}#what-does-not-apply-to-lazy-modules`,
  'a module loaded before init() is initialized with the others (hooks, configure() and its middleware run), but its APP_GUARD still has no effect',
  async () => {
    const calls: string[] = [];
    const {LazyModule, AppModule} = lazyParts(calls);
    const app = await NestFactory.create(AppModule, options);
    await app.get(LazyModuleLoader).load(() => LazyModule);
    const base = await listen(app);
    expect((await fetch(base)).status).toBe(200);
    await app.close();
    expect(calls).toEqual(['configure', 'onModuleInit', 'onApplicationBootstrap', 'middleware']);
  },
);

claim(
  `${page}#lazy-loading-controllers-gateways-and-resolvers`,
  'a controller of a lazily loaded module gets no route: its path answers 404 after load()',
  async () => {
    @Controller('reports')
    class ReportsController {
      @Get()
      list() {
        return 'reports';
      }
    }
    @Module({controllers: [ReportsController]})
    class ReportsModule {}
    const app = await bareApp();
    const base = await listen(app);
    await app.get(LazyModuleLoader).load(() => ReportsModule);
    expect((await fetch(`${base}/reports`)).status).toBe(404);
    await app.close();
  },
);

claim(
  `${page}#dependencies-of-a-lazy-module`,
  "a lazy module's guard that injects Reflector fails to load with the page's message; Reflector in the module's own providers works, HttpAdapterHost there holds no adapter, ModuleRef is always there",
  async () => {
    const {Reflector, HttpAdapterHost, ModuleRef} = nest('@nestjs/core');
    @Injectable()
    class RolesGuard {
      constructor(readonly reflector: any) {}
    }
    Reflect.defineMetadata('design:paramtypes', [Reflector], RolesGuard);
    @Injectable()
    class AdapterUser {
      constructor(
        readonly host: any,
        readonly moduleRef: any,
      ) {}
    }
    Reflect.defineMetadata('design:paramtypes', [HttpAdapterHost, ModuleRef], AdapterUser);
    const app = await bareApp();
    const loader = app.get(LazyModuleLoader);
    const missing = await (async () => {
      @Module({providers: [RolesGuard]})
      class ReportsModule {}
      return loader
        .load(() => ReportsModule)
        .then(
          () => null,
          (e: Error) => e,
        );
    })();
    expectOutput(page, 'lazy-reflector', missing!.message.split('\n')[0]);
    @Module({providers: [Reflector, RolesGuard, HttpAdapterHost, AdapterUser]})
    class FixedModule {}
    const moduleRef = await loader.load(() => FixedModule);
    expect(moduleRef.get(RolesGuard).reflector).toBeInstanceOf(Reflector);
    // The eager application's host has the Express adapter; the lazy module's copy has none.
    expect(app.get(HttpAdapterHost).httpAdapter).toBeDefined();
    expect(moduleRef.get(AdapterUser).host.httpAdapter).toBeUndefined();
    expect(moduleRef.get(AdapterUser).moduleRef).toBe(moduleRef);
    await app.close();
  },
);

claim.failure(
  `${page}#getting-providers`,
  'the lazy module fails to load once (its factory cannot reach the database): that call rejects, and the next exportReport() loads it again instead of failing forever',
  async () => {
    const set = samples(page, {
      under: 'getting-providers',
      files: {
        'reports/reports.service': `import { Inject, Injectable } from '@nestjs/common';
@Injectable()
export class ReportsService {
  constructor(@Inject('REPORTS_DB') private readonly db: string) {}
  async buildCatsReport() { return Buffer.from('cats report from ' + this.db); }
}`,
        'reports/reports.module': `import { Module } from '@nestjs/common';
import { ReportsService } from './reports.service';
@Module({
  providers: [
    ReportsService,
    {
      provide: 'REPORTS_DB',
      useFactory: async () => {
        const g = globalThis as any;
        g.__reportsAttempts = (g.__reportsAttempts ?? 0) + 1;
        if (g.__reportsAttempts === 1) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
        return 'reports-db';
      },
    },
  ],
})
export class ReportsModule {}`,
      },
    });
    const {CatsService} = set.require('cats.service');
    (globalThis as any).__reportsAttempts = 0;
    @Module({providers: [CatsService]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    await app.init();
    const cats = app.get(CatsService);
    const first = await cats.exportReport().then(
      () => null,
      (e: Error) => e,
    );
    expect(first?.message).toBe('connect ECONNREFUSED 127.0.0.1:5432');
    expect(String(await cats.exportReport())).toBe('cats report from reports-db');
    expect((globalThis as any).__reportsAttempts).toBe(2);
    await app.close();
  },
);

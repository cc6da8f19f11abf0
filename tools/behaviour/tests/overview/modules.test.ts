import {expect} from 'vitest';
import {mkdtempSync, writeFileSync} from 'node:fs';
import {join, resolve} from 'node:path';
import {claim, samples, nest, expectOutput} from '../../lib';
import {start, call, pageSamples} from './_support';

const common = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const {Module, Injectable, Inject, Global, Controller, Get} = common;
const page = 'docs/modules.md';

/** The cats controller and service as the providers chapter writes them (the modules page moves them into CatsModule). */
function providersFiles(lang: 'ts' | 'js'): Record<string, string> {
  const set = samples('docs/providers.md', {
    lang,
    files: lang === 'ts' ? {'create-cat.dto': 'export class CreateCatDto {}'} : {},
  });
  const files: Record<string, string> = {
    'cats.controller': set.sources.get('cats.controller')!,
    'cats.service': set.sources.get('cats.service')!,
  };
  if (lang === 'ts') {
    files['create-cat.dto'] = 'export class CreateCatDto {}';
    files['cat.interface'] = set.sources.get('interfaces/cat.interface')!;
  }
  return files;
}

async function context(root: unknown) {
  return NestFactory.createApplicationContext(root, {logger: false, abortOnError: false});
}

async function failure(root: unknown): Promise<string> {
  try {
    const app = await context(root);
    await app.close();
  } catch (error) {
    return (error as Error).message;
  }
  return 'started';
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#feature-modules`,
    `AppModule importing CatsModule serves the cats routes as before (${lang})`,
    async () => {
      const set = pageSamples(page, {lang, pick: {'app.module': 1}, files: providersFiles(lang)});
      const {AppModule} = set.require('app.module');
      const {base} = await start(AppModule);
      expect(
        (await call(base, 'POST', '/cats', {body: {name: 'Tom', age: 3, breed: 'Persian'}})).status,
      ).toBe(201);
      expect((await call(base, 'GET', '/cats')).json()).toEqual([
        {name: 'Tom', age: 3, breed: 'Persian'},
      ]);
    },
  );

  claim(
    `${page}#shared-modules`,
    `every importer of CatsModule gets the same CatsService instance (${lang})`,
    async () => {
      const set = pageSamples(page, {lang, pick: {'cats.module': 1}, files: providersFiles(lang)});
      const {CatsModule} = set.require('cats.module');
      const {CatsService} = set.require('cats.service');
      @Injectable()
      class A {
        constructor(@Inject(CatsService) readonly cats: unknown) {}
      }
      @Injectable()
      class B {
        constructor(@Inject(CatsService) readonly cats: unknown) {}
      }
      @Module({imports: [CatsModule], providers: [A], exports: [A]})
      class ModuleA {}
      @Module({imports: [CatsModule], providers: [B], exports: [B]})
      class ModuleB {}
      @Module({imports: [ModuleA, ModuleB]})
      class Root {}
      const app = await context(Root);
      expect(app.get(A).cats).toBeInstanceOf(CatsService);
      expect(app.get(A).cats).toBe(app.get(B).cats);
      await app.close();
    },
  );

  claim(
    `${page}#dependency-injection`,
    `the module class receives CatsService through its constructor (${lang})`,
    async () => {
      const set = pageSamples(page, {lang, pick: {'cats.module': 2}, files: providersFiles(lang)});
      const {CatsModule} = set.require('cats.module');
      const {CatsService} = set.require('cats.service');
      const app = await context(CatsModule);
      expect(app.get(CatsModule).catsService).toBe(app.get(CatsService));
      await app.close();
    },
  );

  claim(
    `${page}#global-modules`,
    `after the @Global() CatsModule is registered once, another module injects CatsService without importing it (${lang})`,
    async () => {
      const set = pageSamples(page, {lang, pick: {'cats.module': 3}, files: providersFiles(lang)});
      const {CatsModule} = set.require('cats.module');
      const {CatsService} = set.require('cats.service');
      @Injectable()
      class Consumer {
        constructor(@Inject(CatsService) readonly cats: unknown) {}
      }
      @Module({providers: [Consumer]})
      class FeatureModule {}
      @Module({imports: [CatsModule, FeatureModule]})
      class Root {}
      const app = await context(Root);
      expect(app.get(Consumer).cats).toBeInstanceOf(CatsService);
      await app.close();
    },
  );

  claim(
    `${page}#dynamic-modules`,
    `DatabaseModule.forRoot() provides the options and DatabaseService, both exported (${lang})`,
    async () => {
      const set = pageSamples(page, {lang});
      const {DatabaseModule, DatabaseService, DATABASE_OPTIONS} = set.require(
        'database/database.module',
      );
      @Injectable()
      class Consumer {
        constructor(
          @Inject(DatabaseService) readonly db: any,
          @Inject(DATABASE_OPTIONS) readonly options: unknown,
        ) {}
      }
      @Module({
        imports: [DatabaseModule.forRoot({host: 'localhost', port: 5432, entities: ['Cat']})],
        providers: [Consumer],
      })
      class Root {}
      const app = await context(Root);
      expect(app.get(Consumer).db.describe()).toBe('localhost:5432 (1 entities)');
      expect(app.get(Consumer).options).toEqual({host: 'localhost', port: 5432, entities: ['Cat']});
      await app.close();
    },
  );
}

claim(
  `${page}#modules`,
  `a provider that is neither declared nor imported fails startup with "Nest can't resolve dependencies of the" + class name, naming the module`,
  async () => {
    @Injectable()
    class Hidden {}
    @Module({providers: [Hidden]})
    class OwnerModule {}
    @Injectable()
    class Asker {
      constructor(readonly hidden: Hidden) {}
    }
    @Module({imports: [OwnerModule], providers: [Asker]})
    class AskerModule {}
    const message = await failure(AskerModule);
    expect(message.startsWith("Nest can't resolve dependencies of the Asker (?)")).toBe(true);
    expect(message).toContain('AskerModule');
  },
);

claim(
  `${page}#shared-modules`,
  `a module that does not import CatsModule cannot see the exported service; registering the class again makes a second instance`,
  async () => {
    @Injectable()
    class CatsService {}
    @Module({providers: [CatsService], exports: [CatsService]})
    class CatsModule {}
    @Injectable()
    class Outsider {
      constructor(readonly cats: CatsService) {}
    }
    @Module({providers: [Outsider]})
    class OutsiderModule {}
    @Module({imports: [CatsModule, OutsiderModule]})
    class Root {}
    expect(await failure(Root)).toMatch(/^Nest can't resolve dependencies of the Outsider/);

    @Module({providers: [CatsService], exports: [CatsService]})
    class CopyModule {}
    @Injectable()
    class FromCopy {
      constructor(readonly cats: CatsService) {}
    }
    @Injectable()
    class FromOriginal {
      constructor(readonly cats: CatsService) {}
    }
    @Module({imports: [CopyModule], providers: [FromCopy], exports: [FromCopy]})
    class X {}
    @Module({imports: [CatsModule], providers: [FromOriginal], exports: [FromOriginal]})
    class Y {}
    @Module({imports: [X, Y]})
    class Both {}
    const app = await context(Both);
    expect(app.get(FromCopy).cats).not.toBe(app.get(FromOriginal).cats);
    await app.close();
  },
);

claim(
  `${page}#shared-modules`,
  `a module imported by several modules is created only once`,
  async () => {
    let created = 0;
    @Module({})
    class SharedModule {
      constructor() {
        created += 1;
      }
    }
    @Module({imports: [SharedModule]})
    class A {}
    @Module({imports: [SharedModule]})
    class B {}
    @Module({imports: [A, B, SharedModule]})
    class Root {}
    const app = await context(Root);
    expect(created).toBe(1);
    await app.close();
  },
);

claim(
  `${page}#module-re-exporting`,
  `an importer of CoreModule can inject what CommonModule exports`,
  async () => {
    @Injectable()
    class HelperService {}
    @Module({providers: [HelperService], exports: [HelperService]})
    class CommonModule {}
    (globalThis as any).__overviewCommon = CommonModule;
    const set = samples(page, {
      pick: {'core.module': 1},
      files: {'common.module': 'export const CommonModule = globalThis.__overviewCommon;'},
    });
    const {CoreModule} = set.require('core.module');
    @Injectable()
    class Feature {
      constructor(readonly helper: HelperService) {}
    }
    @Module({imports: [CoreModule], providers: [Feature]})
    class FeatureModule {}
    const app = await context(FeatureModule);
    expect(app.get(Feature).helper).toBeInstanceOf(HelperService);
    await app.close();
  },
);

claim(
  `${page}#dynamic-modules`,
  `imports accept a Promise of a DynamicModule; global: true makes its exports visible everywhere`,
  async () => {
    const {DatabaseModule, DatabaseService} = samples(page).require('database/database.module');
    @Injectable()
    class Elsewhere {
      constructor(@Inject(DatabaseService) readonly db: any) {}
    }
    @Module({providers: [Elsewhere]})
    class ElsewhereModule {}
    const globalDynamic = {
      ...DatabaseModule.forRoot({host: 'db', port: 1, entities: []}),
      global: true,
    };
    @Module({imports: [Promise.resolve(globalDynamic), ElsewhereModule]})
    class Root {}
    const app = await context(Root);
    expect(app.get(Elsewhere).db.describe()).toBe('db:1 (0 entities)');
    await app.close();
    @Module({
      imports: [DatabaseModule.forRoot({host: 'db', port: 1, entities: []}), ElsewhereModule],
    })
    class NotGlobal {}
    expect(await failure(NotGlobal)).toMatch(/^Nest can't resolve dependencies of the Elsewhere/);
  },
);

claim(
  `${page}#dynamic-modules`,
  `the page's CoreModule re-exports the configured DatabaseModule by its class: a feature module that imports CoreModule injects DatabaseService`,
  async () => {
    const set = samples(page, {pick: {'core.module': 2}});
    const {CoreModule} = set.require('core.module');
    const {DatabaseService} = set.require('database/database.module');
    @Injectable()
    class Consumer {
      constructor(@Inject(DatabaseService) readonly db: any) {}
    }
    @Module({imports: [CoreModule], providers: [Consumer]})
    class FeatureModule {}
    @Module({imports: [FeatureModule]})
    class Root {}
    const app = await context(Root);
    expect(app.get(Consumer).db.describe()).toBe('localhost:5432 (1 entities)');
    await app.close();
  },
);

claim(
  `${page}#dynamic-modules`,
  `an exports entry on the root module has no effect: a feature module imported by the root cannot inject what the root re-exports`,
  async () => {
    const set = samples(page, {pick: {'core.module': 2}});
    const {DatabaseModule, DatabaseService} = set.require('database/database.module');
    @Injectable()
    class Consumer {
      constructor(@Inject(DatabaseService) readonly db: any) {}
    }
    @Module({providers: [Consumer]})
    class FeatureModule {}
    @Module({
      imports: [
        DatabaseModule.forRoot({host: 'localhost', port: 5432, entities: ['Cat']}),
        FeatureModule,
      ],
      exports: [DatabaseModule],
    })
    class AppModule {}
    expect(await failure(AppModule)).toMatch(/^Nest can't resolve dependencies of the Consumer/);
  },
);

claim(
  `${page}#dependency-injection`,
  `a module class can be injected by its own providers only, not by the providers of a module that imports it`,
  async () => {
    @Module({})
    class OwnModule {}
    @Injectable()
    class Own {
      constructor(readonly module: OwnModule) {}
    }
    Reflect.defineMetadata('providers', [Own], OwnModule);
    Reflect.defineMetadata('exports', [Own], OwnModule);
    const app = await context(OwnModule);
    expect(app.get(Own).module).toBe(app.get(OwnModule));
    await app.close();

    @Injectable()
    class Outside {
      constructor(readonly module: OwnModule) {}
    }
    @Module({imports: [OwnModule], providers: [Outside]})
    class OtherModule {}
    expect(await failure(OtherModule)).toMatch(
      /^Nest can't resolve dependencies of the Outside \(\?\)\. Please make sure that the argument OwnModule at index \[0\] is available in the OtherModule context/,
    );
  },
);

/**
 * The page's CatsModule (the version that injects CatsService) with a cats.service.ts that injects CatsModule
 * back, compiled as `nest build` compiles a project: one TypeScript program (tsc), not file by file, so the
 * metadata names the imported class directly, as a reader's build does.
 */
function cycleModule(forwardRef: boolean) {
  const ts = nest('typescript');
  const pageModule = samples(page, {pick: {'cats.module': 2}, files: providersFiles('ts')});
  const dir = mkdtempSync(join(resolve(__dirname, '..', '..', '.run'), 'modules-cycle-'));
  const sources: Record<string, string> = {
    'cats.module.ts': pageModule.sources.get('cats.module')!,
    'cats.controller.ts': `import { Controller } from '@nestjs/common';\n@Controller('cats')\nexport class CatsController {}\n`,
    'cats.service.ts': `
import { forwardRef, Inject, Injectable } from '@nestjs/common';
import { CatsModule } from './cats.module';

@Injectable()
export class CatsService {
  constructor(${forwardRef ? '@Inject(forwardRef(() => CatsModule)) ' : ''}readonly catsModule: CatsModule) {}
}
`,
  };
  for (const [name, source] of Object.entries(sources)) writeFileSync(join(dir, name), source);
  const program = ts.createProgram(
    Object.keys(sources).map((name) => join(dir, name)),
    {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2017,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      // Only the three files: enough for the emitter to see which class each parameter names.
      noResolve: true,
      noLib: true,
      types: [],
    },
  );
  program.emit();
  return {
    CatsModule: require(join(dir, 'cats.module.js')).CatsModule,
    CatsService: require(join(dir, 'cats.service.js')).CatsService,
  };
}

claim.failure(
  `${page}#dependency-injection`,
  `when cats.service.ts injects CatsModule while the page's CatsModule injects CatsService, the file cycle leaves the type undefined and startup fails at once`,
  async () => {
    const {CatsModule} = cycleModule(false);
    const message = await failure(CatsModule);
    expectOutput(page, 'module-cycle-error', message.split('\n')[0]);
  },
);

claim(
  `${page}#dependency-injection`,
  `with @Inject(forwardRef(() => CatsModule)) on that parameter, the application starts and the service receives the module instance`,
  async () => {
    const {CatsModule, CatsService} = cycleModule(true);
    const app = await context(CatsModule);
    expect(app.get(CatsService).catsModule).toBe(app.get(CatsModule));
    await app.close();
  },
);

void Global;
void Controller;
void Get;

claim(
  `${page}#the-module-decorator`,
  `exports may name a provider by its class or by its token, and may mix own providers with imported modules`,
  async () => {
    @Injectable()
    class Clock {}
    @Module({providers: [{provide: 'ZONE', useValue: 'UTC'}], exports: ['ZONE']})
    class ZoneModule {}
    @Module({
      imports: [ZoneModule],
      providers: [Clock, {provide: 'FORMAT', useValue: 'iso'}],
      exports: [Clock, 'FORMAT', ZoneModule],
    })
    class TimeModule {}
    @Injectable()
    class Consumer {
      constructor(
        readonly clock: Clock,
        @Inject('FORMAT') readonly format: string,
        @Inject('ZONE') readonly zone: string,
      ) {}
    }
    @Module({imports: [TimeModule], providers: [Consumer]})
    class Root {}
    const app = await context(Root);
    const consumer = app.get(Consumer);
    expect([consumer.clock instanceof Clock, consumer.format, consumer.zone]).toEqual([
      true,
      'iso',
      'UTC',
    ]);
    await app.close();
  },
);

/// <reference types="reflect-metadata" />
import {expect} from 'vitest';
import {existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {spawnSync} from 'node:child_process';
import {createRequire} from 'node:module';
import {tmpdir} from 'node:os';
import {join, resolve} from 'node:path';
import {claim, compileModule, expectOutput, memoryLogger, nest} from '../../lib';
import {plain} from '../fundamentals/_support';

const {Module, Injectable, Inject, Global, forwardRef} = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const {Test} = nest('@nestjs/testing');
const ts = createRequire(resolve(__dirname, '../../package.json'))(
  'typescript',
) as typeof import('typescript');
const page = 'docs/faq/common-errors.md';
const options: any = {logger: false, abortOnError: false};

async function startError(root: unknown, extra: any = options): Promise<Error> {
  const error = await NestFactory.create(root, extra).then(
    async (app: any) => {
      await app.close();
      return null;
    },
    (e: Error) => e,
  );
  if (!error) throw new Error('the application started');
  return error;
}

function catsModule() {
  @Injectable()
  class CatsRepository {}
  @Injectable()
  class CatsService {
    constructor(readonly repository: CatsRepository) {}
  }
  @Module({providers: [CatsService]})
  class CatsModule {}
  return {CatsRepository, CatsService, CatsModule};
}

claim(
  `${page}#cannot-resolve-dependency-error`,
  "CatsService injecting an unprovided CatsRepository in CatsModule fails with the page's message, the template's shape",
  async () => {
    const {CatsModule} = catsModule();
    @Module({imports: [CatsModule]})
    class AppModule {}
    const error = await startError(AppModule);
    expectOutput(page, 'unknown-dependency', error.message);
    expectOutput(page, 'unknown-dependency-template', error.message, [
      [/CatsService/g, '<provider>'],
      [/CatsRepository/g, '<unknown_token>'],
      [/CatsModule/g, '<module>'],
      [/\[0\]/g, '[<index>]'],
    ]);
  },
);

claim(
  `${page}#cannot-resolve-dependency-error`,
  '"(ConfigService, ?)": the list shows every constructor dependency with a ? in place of the failing one',
  async () => {
    @Injectable()
    class ConfigService {}
    @Injectable()
    class Missing {}
    @Injectable()
    class CatsService {
      constructor(
        readonly config: ConfigService,
        readonly missing: Missing,
      ) {}
    }
    @Module({providers: [ConfigService, CatsService]})
    class AppModule {}
    const error = await startError(AppModule);
    expect(error.message.split('\n')[0]).toBe(
      "Nest can't resolve dependencies of the CatsService (ConfigService, ?). Please make sure that the argument Missing at index [1] is available in the AppModule context.",
    );
  },
);

claim(
  `${page}#cannot-resolve-dependency-error`,
  "a provider found in an imported module's exports, or in a global module, resolves; one the module does not export does not",
  async () => {
    @Injectable()
    class CatsRepository {}
    @Injectable()
    class Clock {}
    @Global()
    @Module({providers: [Clock], exports: [Clock]})
    class ClockModule {}
    @Module({providers: [CatsRepository], exports: [CatsRepository]})
    class DataModule {}
    @Module({providers: [CatsRepository]})
    class HiddenModule {}
    @Injectable()
    class CatsService {
      constructor(
        readonly repository: CatsRepository,
        readonly clock: Clock,
      ) {}
    }
    @Module({imports: [DataModule, ClockModule], providers: [CatsService]})
    class GoodModule {}
    const app = await NestFactory.create(GoodModule, options);
    await app.init();
    expect(app.get(CatsService).repository).toBeInstanceOf(CatsRepository);
    expect(app.get(CatsService).clock).toBeInstanceOf(Clock);
    await app.close();
    @Module({imports: [HiddenModule, ClockModule], providers: [CatsService]})
    class BadModule {}
    expect((await startError(BadModule)).message).toMatch(
      /^Nest can't resolve dependencies of the CatsService \(\?, Clock\)/,
    );
  },
);

claim(
  `${page}#cannot-resolve-dependency-error`,
  'a service put into imports is not registered (the error follows), and 8.4.7 warns "In the next major version, Nest will not allow classes annotated with @Injectable() ..."',
  async () => {
    const {CatsRepository, CatsService} = catsModule();
    @Module({imports: [CatsRepository], providers: [CatsService]})
    class CatsModule {}
    const memory = memoryLogger();
    const error = await startError(CatsModule, {logger: memory.logger, abortOnError: false});
    expect(error.message).toMatch(
      /^Nest can't resolve dependencies of the CatsService \(\?\)\. Please make sure that the argument CatsRepository at index \[0\]/,
    );
    const warning = memory.lines.find((line) => line.level === 'warn');
    expect(
      warning?.message.startsWith(
        'In the next major version, Nest will not allow classes annotated with @Injectable(), @Catch(), and @Controller() decorators to appear in the "imports" array of a module.',
      ),
    ).toBe(true);
  },
);

claim(
  `${page}#cannot-resolve-dependency-error`,
  'a parameter typed with an interface is reported as the unknown token Object',
  async () => {
    const {AppModule} = compileModule(
      `import { Injectable, Module } from '@nestjs/common';
export interface CatsRepository { findAll(): string[] }
@Injectable()
export class CatsService {
  constructor(private readonly repository: CatsRepository) {}
}
@Module({ providers: [CatsService] })
export class AppModule {}`,
      'interface-token',
    );
    expect((await startError(AppModule)).message.split('\n')[0]).toBe(
      "Nest can't resolve dependencies of the CatsService (?). Please make sure that the argument Object at index [0] is available in the AppModule context.",
    );
  },
);

claim(
  `${page}#cannot-resolve-dependency-error`,
  'a class that was undefined when the decorators ran is reported as the unknown token dependency (tsc output, or @Dependencies())',
  async () => {
    @Injectable()
    class CatsService {
      constructor(readonly repository: unknown) {}
    }
    // What tsc emits for `constructor(repository: CatsRepository)` while cats.repository is still loading.
    Reflect.defineMetadata('design:paramtypes', [undefined], CatsService);
    @Module({providers: [CatsService]})
    class AppModule {}
    expect((await startError(AppModule)).message.split('\n')[0]).toBe(
      "Nest can't resolve dependencies of the CatsService (?). Please make sure that the argument dependency at index [0] is available in the AppModule context.",
    );
  },
);

claim(
  `${page}#cannot-resolve-dependency-error`,
  'in a test, the testing module names its context RootTestModule',
  async () => {
    const {CatsService} = catsModule();
    const error = await Test.createTestingModule({providers: [CatsService]})
      .compile()
      .then(
        () => null,
        (e: Error) => e,
      );
    expect(error?.message.split('\n')[0]).toBe(
      "Nest can't resolve dependencies of the CatsService (?). Please make sure that the argument CatsRepository at index [0] is available in the RootTestModule context.",
    );
  },
);

claim(
  `${page}#cannot-resolve-dependency-error`,
  'the same provider listed in two modules is two instances',
  async () => {
    @Injectable()
    class Cache {}
    @Module({providers: [Cache], exports: [Cache]})
    class AModule {}
    @Module({providers: [Cache], exports: [Cache]})
    class BModule {}
    @Module({imports: [AModule, BModule]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    await app.init();
    expect(app.select(AModule).get(Cache, {strict: true})).not.toBe(
      app.select(BModule).get(Cache, {strict: true}),
    );
    await app.close();
  },
);

claim(
  `${page}#cannot-resolve-dependency-error`,
  'with NEST_DEBUG set, the injector logs "Resolving dependency ...", "Looking for ... in ..." and "Found ... in ..."',
  async () => {
    const {CatsRepository, CatsService} = catsModule();
    @Module({providers: [CatsService, CatsRepository]})
    class AppModule {}
    const memory = memoryLogger();
    process.env.NEST_DEBUG = 'true';
    try {
      const app = await NestFactory.create(AppModule, {logger: memory.logger, abortOnError: false});
      await app.close();
    } finally {
      delete process.env.NEST_DEBUG;
    }
    const injector = memory.lines
      .filter((line) => line.context === 'InjectorLogger')
      // eslint-disable-next-line no-control-regex -- strips ANSI colour codes from Nest's logger output
      .map((line) => line.message.replace(/\x1b\[[0-9;]*m/g, ''));
    expect(injector).toContain('Resolving dependency CatsRepository in the CatsService provider ');
    expect(injector).toContain('Looking for CatsRepository in AppModule');
    expect(injector).toContain('Found CatsRepository in AppModule');
  },
);

function cyclicModules(): {AppModule: unknown} {
  // What a file cycle leaves in the decorator: the other module is still undefined.
  @Module({imports: [undefined]})
  class CatsModule {}
  @Module({imports: [CatsModule]})
  class CommonModule {}
  @Module({imports: [CommonModule]})
  class AppModule {}
  return {AppModule};
}

claim(
  `${page}#circular-dependency-error`,
  "an undefined entry of imports fails with the page's message; Scope lists the importers of the failing module, not the module itself",
  async () => {
    const error = await startError(cyclicModules().AppModule);
    expect(error.message.split('\n').pop()).toBe('Scope [AppModule -> CommonModule]');
    expectOutput(page, 'undefined-module-template', error.message, [
      [/CatsModule/g, '<module>'],
      [/\[0\]/g, '[<index>]'],
      [/Scope \[[^\]]*\]/, 'Scope [<module_import_chain>]'],
    ]);
  },
);

claim(
  `${page}#circular-dependency-error`,
  'forwardRef() on both sides of a module cycle lets both modules start',
  async () => {
    @Module({imports: [forwardRef(() => OwnersModule)]})
    class CatsModule {}
    @Module({imports: [forwardRef(() => CatsModule)]})
    class OwnersModule {}
    @Module({imports: [CatsModule]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    await app.init();
    await app.close();
  },
);

claim(
  `${page}#circular-dependency-error`,
  'forwardRef(() => undefined) in imports fails with a TypeError without a message, thrown by Reflect.getMetadata in DependenciesScanner.isInjectable',
  async () => {
    @Module({imports: [forwardRef(() => undefined)]})
    class CatsModule {}
    const error = await startError(CatsModule);
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe('');
    expect(error.stack).toMatch(
      /at Reflect\.getMetadata[\s\S]*at DependenciesScanner\.isInjectable/,
    );
  },
);

claim(
  `${page}#circular-dependency-error`,
  'an undefined entry of providers fails with "A circular dependency has been detected inside <module>"',
  async () => {
    @Module({providers: [undefined]})
    class CatsModule {}
    expect((await startError(CatsModule)).message).toBe(
      'A circular dependency has been detected inside CatsModule. Please, make sure that each side of a bidirectional relationships are decorated with "forwardRef()".',
    );
  },
);

claim(
  `${page}#circular-dependency-error`,
  'a provider cycle resolved with @Inject(forwardRef(() => ...)) on both constructor parameters starts',
  async () => {
    @Injectable()
    class CatsService {
      constructor(@Inject(forwardRef(() => OwnersService)) readonly owners: any) {}
    }
    @Injectable()
    class OwnersService {
      constructor(@Inject(forwardRef(() => CatsService)) readonly cats: any) {}
    }
    @Module({providers: [CatsService, OwnersService]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    await app.init();
    expect(app.get(CatsService).owners).toBe(app.get(OwnersService));
    await app.close();
  },
);

claim(
  `${page}#cannot-find-module-after-a-build`,
  'a TypeScript file outside src moves the output to dist/src/main.js, and node dist/main fails with the error shown; excluding it brings dist/main.js back',
  () => {
    const project = mkdtempSync(join(tmpdir(), 'common-errors-dist-'));
    try {
      mkdirSync(join(project, 'src'));
      writeFileSync(join(project, 'src', 'main.ts'), "console.log('started');\n");
      writeFileSync(join(project, 'seed.ts'), "console.log('seeding');\n");
      const build = (files: string[]) => {
        rmSync(join(project, 'dist'), {recursive: true, force: true});
        const program = ts.createProgram(
          files.map((file) => join(project, file)),
          // The output layout is all that matters here: no lib files, no type check.
          {module: ts.ModuleKind.CommonJS, outDir: join(project, 'dist'), types: [], noLib: true},
        );
        expect(program.emit().emitSkipped).toBe(false);
        return spawnSync(process.execPath, ['dist/main'], {cwd: project, encoding: 'utf8'});
      };
      const withScript = build(['src/main.ts', 'seed.ts']);
      expect(existsSync(join(project, 'dist', 'src', 'main.js'))).toBe(true);
      expect(withScript.status).toBe(1);
      const line = withScript.stderr.split('\n').find((l) => l.startsWith('Error: Cannot find'));
      expectOutput(page, 'missing-dist-main', line, [
        [new RegExp(project, 'g'), '/home/user/project'],
      ]);
      const srcOnly = build(['src/main.ts']);
      expect(srcOnly.status).toBe(0);
      expect(srcOnly.stdout).toBe('started\n');
    } finally {
      rmSync(project, {recursive: true, force: true});
    }
  },
);

claim(
  `${page}#cannot-resolve-dependency-error`,
  'a class imported with `import type`: tsc (a whole-program build, as nest build) reports the unknown token Function, a file-by-file transpiler Object',
  async () => {
    const dir = join(resolve(__dirname, '../..'), '.run', `import-type-${process.pid}`);
    rmSync(dir, {recursive: true, force: true});
    mkdirSync(dir, {recursive: true});
    try {
      const files = {
        'cats.repository.ts': `import { Injectable } from '@nestjs/common';
@Injectable()
export class CatsRepository { findAll(): string[] { return []; } }`,
        'cats.service.ts': `import { Injectable, Module } from '@nestjs/common';
import type { CatsRepository } from './cats.repository';
@Injectable()
export class CatsService {
  constructor(private readonly repository: CatsRepository) {}
}
@Module({ providers: [CatsService] })
export class CatsModule {}`,
      };
      for (const [name, source] of Object.entries(files)) writeFileSync(join(dir, name), source);
      const options = {
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2017,
        experimentalDecorators: true,
        emitDecoratorMetadata: true,
        skipLibCheck: true,
        types: [],
        outDir: join(dir, 'tsc'),
      };
      ts.createProgram(
        Object.keys(files).map((name) => join(dir, name)),
        options,
      ).emit();
      const {CatsModule} = createRequire(join(dir, 'tsc', 'x.js'))('./cats.service.js');
      expectOutput(page, 'type-only-import', (await startError(CatsModule)).message.split('\n')[0]);
      const isolated = compileModule(files['cats.service.ts'], 'type-only-isolated');
      expect((await startError(isolated.CatsModule)).message.split('\n')[0]).toMatch(
        /the argument Object at index \[0\]/,
      );
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  },
);

claim(
  `${page}#cannot-resolve-dependency-error`,
  "NEST_DEBUG's lines are written at the log level: none with logger ['error', 'warn']; NEST_DEBUG=false turns them on too",
  async () => {
    // A child process: Nest's logger is process-wide, and the reader runs one application.
    const {runScript} = await import('../fundamentals/_support');
    const dir = mkdtempSync(join(tmpdir(), 'behaviour-nest-debug-'));
    try {
      // One process, three starts in turn: the variable and the log levels change between them.
      const result = await runScript(
        dir,
        'debug.js',
        `
const { Module, Injectable } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
class CatsRepository {} Injectable()(CatsRepository);
class CatsService { constructor(repository) {} } Injectable()(CatsService);
Reflect.defineMetadata('design:paramtypes', [CatsRepository], CatsService);
class AppModule {} Module({ providers: [CatsService, CatsRepository] })(AppModule);
(async () => {
  for (const [value, levels] of [['true', ['error', 'warn']], ['true', ['log', 'error', 'warn']], ['false', ['log', 'error', 'warn']]]) {
    process.env.NEST_DEBUG = value;
    console.log('--- NEST_DEBUG=' + value + ' logger=' + levels.join(','));
    const app = await NestFactory.create(AppModule, { logger: levels, abortOnError: false });
    await app.close();
  }
})();
`,
      );
      const runs = plain(result.stdout)
        .split(/^--- .*$/m)
        .slice(1)
        .map((part) => part.split('\n').filter((line) => line.includes('[InjectorLogger]')));
      const [restricted, shown, withFalse] = runs;
      expect(restricted).toEqual([]);
      expect(shown.length).toBeGreaterThan(0);
      expect(shown.every((line) => /\bLOG \[InjectorLogger\]/.test(line))).toBe(true);
      expect(shown.some((line) => line.includes('Found CatsRepository in AppModule'))).toBe(true);
      expect(withFalse.length).toBe(shown.length);
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  },
);

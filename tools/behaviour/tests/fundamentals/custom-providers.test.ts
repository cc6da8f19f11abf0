/// <reference types="reflect-metadata" />
import {expect} from 'vitest';
import {
  claim,
  samples,
  fragment,
  compileModule,
  nest,
  listen,
  applyEdits,
  typeErrors,
} from '../../lib';
import {captureLog} from './_support';

const {Module, Injectable, Inject, Controller, Get} = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const page = 'docs/fundamentals/custom-providers.md';
const options: any = {logger: false, abortOnError: false};

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#di-fundamentals`,
    `the page's CatsService, CatsController and AppModule start, and GET /cats answers the service's list (${lang})`,
    async () => {
      // app.module has no JavaScript half (it has no types): the JavaScript set uses the same file.
      const appModule = samples(page, {under: 'di-fundamentals'}).sources.get('app.module')!;
      const set = samples(page, {
        under: 'di-fundamentals',
        lang,
        files: lang === 'js' ? {'app.module': appModule} : {},
      });
      const {AppModule} = set.require('app.module');
      const {CatsService} = set.require('cats.service');
      const app = await NestFactory.create(AppModule, options);
      const base = await listen(app);
      app.get(CatsService).create({name: 'Tom', age: 3, breed: 'Tabby'});
      expect(await (await fetch(`${base}/cats`)).json()).toEqual([
        {name: 'Tom', age: 3, breed: 'Tabby'},
      ]);
      await app.close();
    },
  );
}

claim(
  `${page}#di-fundamentals`,
  'without the CatsService provider, startup fails with "Nest can\'t resolve dependencies of the CatsController (?)"',
  async () => {
    const set = samples(page, {
      under: 'di-fundamentals',
      edit: {'app.module': [['providers: [CatsService],', '']]},
    });
    const {AppModule} = set.require('app.module');
    const error = await NestFactory.create(AppModule, options).then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/^Nest can't resolve dependencies of the CatsController \(\?\)/);
  },
);

claim(
  `${page}#di-fundamentals`,
  'providers are singletons: one CatsService instance for every consumer',
  async () => {
    const set = samples(page, {under: 'di-fundamentals'});
    const {CatsService} = set.require('cats.service');
    @Injectable()
    class A {
      constructor(@Inject(CatsService) readonly cats: unknown) {}
    }
    @Injectable()
    class B {
      constructor(@Inject(CatsService) readonly cats: unknown) {}
    }
    @Module({providers: [CatsService, A, B]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    expect(app.get(A).cats).toBe(app.get(B).cats);
    await app.close();
  },
);

claim(
  `${page}#value-providers-usevalue`,
  'with { provide: CatsService, useValue: fakeCatsService }, the controller receives the object exactly as given (no constructor, no copy)',
  async () => {
    const set = samples(page, {under: 'di-fundamentals'});
    const {CatsController} = set.require('cats.controller');
    const {CatsService} = set.require('cats.service');
    const fence = fragment(page, 'value-providers-usevalue', 'fakeCatsService');
    const source = applyEdits('value.module', fence.value, [
      [
        "import { CatsService } from './cats.service';",
        'const { CatsService } = (globalThis as any).__valueCats;',
      ],
      [
        '@Module({\n  providers: [',
        '@Module({\n  controllers: [(globalThis as any).__valueCats.CatsController],\n  providers: [',
      ],
      ['export class AppModule {}', 'export class AppModule {}\nexport { fakeCatsService };'],
    ]);
    (globalThis as any).__valueCats = {CatsService, CatsController};
    const {AppModule, fakeCatsService} = compileModule(source, 'value-module');
    const app = await NestFactory.create(AppModule, options);
    const base = await listen(app);
    expect(await (await fetch(`${base}/cats`)).json()).toEqual([
      {name: 'Tom', age: 3, breed: 'Tabby'},
    ]);
    expect(app.get(CatsService)).toBe(fakeCatsService);
    await app.close();
  },
);

claim(
  `${page}#value-providers-usevalue`,
  "useValue is not compared with the token: the page's stub without create() compiles once its Pick<CatsService, ...> annotation is gone, and with the annotation the compiler rejects it",
  () => {
    const fence = fragment(page, 'value-providers-usevalue', 'fakeCatsService').value;
    const catsService = applyEdits(
      'cats.service',
      samples(page, {under: 'di-fundamentals'}).sources.get('cats.service') ?? '',
      [["from './interfaces/cat.interface'", "from './cat.interface'"]],
    );
    const withoutCreate = applyEdits('value.module', fence, [['  create: () => undefined,\n', '']]);
    const unannotated = applyEdits('value.module', withoutCreate, [
      [": Pick<CatsService, 'findAll' | 'create'>", ''],
    ]);
    // One program: the page's module, the stub without create() and no annotation, the same annotated.
    const errors = typeErrors({
      'cats.service': catsService,
      'cat.interface': 'export interface Cat { name: string; age: number; breed: string }',
      'page.module': fence,
      'unannotated.module': unannotated,
      'annotated.module': withoutCreate,
    });
    expect(errors.map((e) => [e.code, e.at.replace(/:.*$/, '')])).toEqual([
      ['TS2741', 'annotated.module'],
    ]);
    expect(errors[0].message).toContain("Property 'create' is missing");
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#non-class-based-provider-tokens`,
    `CatsRepository receives the 'CONNECTION' value through @Inject('CONNECTION') (${lang})`,
    async () => {
      const set = samples(page, {
        under: 'non-class-based-provider-tokens',
        lang,
        files: {
          connection: lang === 'ts' ? 'export class Connection {}' : 'export class Connection {}',
        },
      });
      const {CatsRepository} = set.require('cats.repository');
      const connection = {name: 'db'};
      @Module({providers: [CatsRepository, {provide: 'CONNECTION', useValue: connection}]})
      class AppModule {}
      const app = await NestFactory.create(AppModule, options);
      expect(app.get(CatsRepository).connection).toBe(connection);
      await app.close();
    },
  );
}

claim(
  `${page}#non-class-based-provider-tokens`,
  'two symbols with the same description are different tokens; a string enum member is a string token',
  async () => {
    const first = Symbol('CONNECTION');
    const second = Symbol('CONNECTION');
    enum Tokens {
      Connection = 'CONNECTION',
    }
    @Injectable()
    class Consumer {
      constructor(
        @Inject(first) readonly a: string,
        @Inject(second) readonly b: string,
        @Inject(Tokens.Connection) readonly c: string,
      ) {}
    }
    @Module({
      providers: [
        Consumer,
        {provide: first, useValue: 'first'},
        {provide: second, useValue: 'second'},
        {provide: 'CONNECTION', useValue: 'by string'},
      ],
    })
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    const consumer = app.get(Consumer);
    expect([consumer.a, consumer.b, consumer.c]).toEqual(['first', 'second', 'by string']);
    await app.close();
  },
);

function configClasses() {
  const base = `import { Injectable } from '@nestjs/common';
export abstract class ConfigService { abstract get(key: string): string; }
@Injectable()
export class DevelopmentConfigService extends ConfigService { get(key: string) { return 'dev:' + key; } }
@Injectable()
export class ProductionConfigService extends ConfigService { get(key: string) { return 'prod:' + key; } }`;
  return compileModule(base, 'config-classes');
}

claim(
  `${page}#class-providers-useclass`,
  'useClass picks DevelopmentConfigService when NODE_ENV is development, ProductionConfigService for production; consumers inject ConfigService',
  async () => {
    const classes = configClasses();
    (globalThis as any).__configClasses = classes;
    const fence = fragment(page, 'class-providers-useclass', 'configServiceProvider');
    const source = applyEdits('config.module', fence.value, [
      [/import \{ (\w+) \} from '\.\/config\/[\w-.]+';\n/g, ''],
      [
        "import { Module } from '@nestjs/common';",
        "import { Module } from '@nestjs/common';\nconst { ConfigService, DevelopmentConfigService, ProductionConfigService } = (globalThis as any).__configClasses;",
      ],
    ]);
    const results: string[] = [];
    const saved = process.env.NODE_ENV;
    try {
      for (const env of ['production', 'development']) {
        process.env.NODE_ENV = env;
        const {AppModule} = compileModule(source, `useclass-${env}`);
        @Injectable()
        class Consumer {
          constructor(@Inject(classes.ConfigService) readonly config: any) {}
        }
        @Module({imports: [], providers: [Consumer]})
        class Root {}
        void Root;
        const app = await NestFactory.create(AppModule, options);
        results.push(app.get(classes.ConfigService).get('DATABASE_URL'));
        expect(Consumer).toBeDefined();
        await app.close();
      }
    } finally {
      process.env.NODE_ENV = saved;
    }
    expect(results).toEqual(['prod:DATABASE_URL', 'dev:DATABASE_URL']);
  },
);

function databaseFiles(lang: 'ts' | 'js' = 'ts') {
  if (lang === 'js') {
    return {
      'config/config.service': `import { Injectable } from '@nestjs/common';
@Injectable()
export class ConfigService { get(key) { return key === 'DATABASE_URL' ? 'postgres://cats' : undefined; } }`,
      'database.connection': `export class DatabaseConnection {
  constructor(url, poolSize) { this.url = url; this.poolSize = poolSize; DatabaseConnection.created += 1; }
}
DatabaseConnection.created = 0;`,
    };
  }
  return {
    'config/config.service': `import { Injectable } from '@nestjs/common';
@Injectable()
export class ConfigService { get(key: string) { return key === 'DATABASE_URL' ? 'postgres://cats' : undefined; } }`,
    'database.connection': `export class DatabaseConnection {
  static created = 0;
  constructor(readonly url: string, readonly poolSize?: number) { DatabaseConnection.created += 1; }
}`,
  };
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#factory-providers-usefactory`,
    `the connection factory receives ConfigService through inject and runs once for all consumers (${lang})`,
    async () => {
      const set = samples(page, {
        under: 'factory-providers-usefactory',
        lang,
        files: databaseFiles(lang),
      });
      const {connectionProvider} = set.require('database.providers');
      const {ConfigService} = set.require('config/config.service');
      const {DatabaseConnection} = set.require('database.connection');
      @Injectable()
      class A {
        constructor(@Inject('CONNECTION') readonly connection: any) {}
      }
      @Injectable()
      class B {
        constructor(@Inject('CONNECTION') readonly connection: any) {}
      }
      @Module({providers: [ConfigService, connectionProvider, A, B]})
      class AppModule {}
      const app = await NestFactory.create(AppModule, options);
      expect(app.get(A).connection).toBeInstanceOf(DatabaseConnection);
      expect(app.get(A).connection.url).toBe('postgres://cats');
      expect(app.get(B).connection).toBe(app.get(A).connection);
      expect(DatabaseConnection.created).toBe(1);
      await app.close();
    },
  );
}

claim(
  `${page}#factory-providers-usefactory`,
  "{ token: 'POOL_SIZE', optional: true } gives the factory undefined when nothing provides it (poolSize 5), the value when something does",
  async () => {
    const fence = fragment(page, 'factory-providers-usefactory', 'optional: true');
    const files = databaseFiles();
    const set = samples(page, {
      under: 'factory-providers-usefactory',
      files: {...files, 'database.module': fence.value},
    });
    const {DatabaseModule} = set.require('database.module');
    const app = await NestFactory.create(DatabaseModule, options);
    expect(app.get('CONNECTION').poolSize).toBe(5);
    await app.close();
    @Module({imports: [DatabaseModule]})
    class Unused {}
    void Unused;
    const withPool = samples(page, {
      under: 'factory-providers-usefactory',
      files: {
        ...files,
        'database.module': fence.value.replace(
          '    ConfigService,\n',
          "    ConfigService,\n    { provide: 'POOL_SIZE', useValue: 20 },\n",
        ),
      },
    });
    const app2 = await NestFactory.create(
      withPool.require('database.module').DatabaseModule,
      options,
    );
    expect(app2.get('CONNECTION').poolSize).toBe(20);
    await app2.close();
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#alias-providers-useexisting`,
    `'AliasedLoggerService' and LoggerService resolve to the same instance in an importing module (${lang})`,
    async () => {
      const {LoggerModule, LoggerService} = samples(page, {
        under: 'alias-providers-useexisting',
        lang,
      }).require('logger.module');
      @Injectable()
      class A {
        constructor(
          @Inject(LoggerService) readonly logger: any,
          @Inject('AliasedLoggerService') readonly alias: any,
        ) {}
      }
      @Module({imports: [LoggerModule], providers: [A]})
      class AppModule {}
      const app = await NestFactory.create(AppModule, options);
      expect(app.get(A).alias).toBe(app.get(A).logger);
      const {lines} = await captureLog(() => app.get(A).alias.log('hello'));
      expect(lines).toEqual(['[app] hello']);
      await app.close();
    },
  );
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#non-service-based-providers`,
    `CatsPaginatorService reads catsPerPage from APP_SETTINGS: 10 in development, 50 in production and when NODE_ENV is unset (${lang})`,
    async () => {
      const {CatsPaginatorService} = samples(page, {
        under: 'non-service-based-providers',
        lang,
      }).require('cats-paginator.service');
      const fence = fragment(page, 'non-service-based-providers', 'APP_SETTINGS');
      const saved = process.env.NODE_ENV;
      const counts: number[] = [];
      try {
        for (const env of ['development', 'production', undefined]) {
          if (env === undefined) delete process.env.NODE_ENV;
          else process.env.NODE_ENV = env;
          const {AppModule} = compileModule(fence.value, `settings-${env ?? 'unset'}-${lang}`);
          @Module({imports: [], providers: [CatsPaginatorService]})
          class Root {}
          void Root;
          Reflect.defineMetadata(
            'providers',
            [...Reflect.getMetadata('providers', AppModule), CatsPaginatorService],
            AppModule,
          );
          const app = await NestFactory.create(AppModule, options);
          counts.push(app.get(CatsPaginatorService).pageCount(100));
          await app.close();
        }
      } finally {
        if (saved === undefined) delete process.env.NODE_ENV;
        else process.env.NODE_ENV = saved;
      }
      expect(counts).toEqual([10, 2, 2]);
    },
  );
}

claim(
  `${page}#export-custom-provider`,
  "exporting 'CONNECTION' by token or the provider object itself makes it injectable in importing modules",
  async () => {
    const files = databaseFiles();
    for (const variant of ['token', 'object']) {
      const set = samples(page, {
        under: 'export-custom-provider',
        files,
        edit:
          variant === 'object'
            ? {'database.module': [["exports: ['CONNECTION'],", 'exports: [connectionFactory],']]}
            : {},
      });
      const {DatabaseModule} = set.require('database.module');
      @Injectable()
      class CatsRepository {
        constructor(@Inject('CONNECTION') readonly connection: any) {}
      }
      @Module({imports: [DatabaseModule], providers: [CatsRepository]})
      class CatsModule {}
      const app = await NestFactory.create(CatsModule, options);
      expect(app.get(CatsRepository).connection.url).toBe('postgres://cats');
      await app.close();
    }
    void Controller;
    void Get;
  },
);

claim.failure(
  `${page}#class-providers-useclass`,
  'NODE_ENV missing, empty or misspelled (prod, Production): the application gets ProductionConfigService, never the development settings',
  async () => {
    const classes = configClasses();
    (globalThis as any).__configClasses = classes;
    const fence = fragment(page, 'class-providers-useclass', 'configServiceProvider');
    const source = applyEdits('config.module', fence.value, [
      [/import \{ (\w+) \} from '\.\/config\/[\w-.]+';\n/g, ''],
      [
        "import { Module } from '@nestjs/common';",
        "import { Module } from '@nestjs/common';\nconst { ConfigService, DevelopmentConfigService, ProductionConfigService } = (globalThis as any).__configClasses;",
      ],
    ]);
    const saved = process.env.NODE_ENV;
    const results: string[] = [];
    try {
      for (const env of [undefined, '', 'prod', 'Production']) {
        if (env === undefined) delete process.env.NODE_ENV;
        else process.env.NODE_ENV = env;
        const {AppModule} = compileModule(source, `useclass-unset-${results.length}`);
        const app = await NestFactory.create(AppModule, options);
        results.push(app.get(classes.ConfigService).get('DATABASE_URL'));
        await app.close();
      }
    } finally {
      if (saved === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = saved;
    }
    expect(results).toEqual(Array(4).fill('prod:DATABASE_URL'));
  },
);

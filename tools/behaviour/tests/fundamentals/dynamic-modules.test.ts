/// <reference types="reflect-metadata" />
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, expect} from 'vitest';
import {claim, samples, fragment, nest, applyEdits, compileModule} from '../../lib';

const {Module, Injectable, Inject} = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const page = 'docs/fundamentals/dynamic-modules.md';
const options: any = {logger: false, abortOnError: false};

/** A TypeScript-only fragment as plain JavaScript (types erased, ES imports kept) for the JavaScript sets. */
function toJs(source: string): string {
  const ts = nest('typescript');
  return ts.transpileModule(source, {
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2019,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
    },
  }).outputText;
}

let root: string;
let cwd: string;
let nodeEnv: string | undefined;
beforeAll(() => {
  nodeEnv = process.env.NODE_ENV;
  delete process.env.NODE_ENV;
  // A project folder with the page's development.env in ./config (and a production.env).
  root = mkdtempSync(join(tmpdir(), 'behaviour-dynamic-'));
  mkdirSync(join(root, 'config'));
  mkdirSync(join(root, 'other'));
  writeFileSync(
    join(root, 'config', 'development.env'),
    fragment(page, 'config-module-example', 'HELLO_MESSAGE').value,
  );
  writeFileSync(join(root, 'config', 'production.env'), 'HELLO_MESSAGE=Hello from production\n');
  writeFileSync(
    join(root, 'other', 'development.env'),
    'HELLO_MESSAGE=Hello from the other folder\n',
  );
  writeFileSync(join(root, 'development.env'), 'HELLO_MESSAGE=Hello from the project root\n');
  cwd = process.cwd();
  process.chdir(root);
});
afterAll(() => {
  if (nodeEnv !== undefined) process.env.NODE_ENV = nodeEnv;
  process.chdir(cwd);
  rmSync(root, {recursive: true, force: true});
});

const constants = () =>
  fragment(page, 'injecting-the-options', "export const CONFIG_OPTIONS = 'CONFIG_OPTIONS';").value;
const moduleWithOptions = () =>
  fragment(page, 'injecting-the-options', 'provide: CONFIG_OPTIONS').value;

/** The page's options-aware ConfigService with a ConfigModule version chosen by the test. */
function configSet(configModule: string, lang: 'ts' | 'js' = 'ts') {
  return samples(page, {
    lang,
    files: {
      constants: constants(),
      'config.module': lang === 'js' ? toJs(configModule) : configModule,
    },
  });
}

claim(
  `${page}#config-module-example`,
  'the static ConfigService reads development.env from the project root when NODE_ENV is unset',
  async () => {
    const set = samples(page, {
      under: 'config-module-example',
      files: {
        'config.module': fragment(page, 'config-module-example', 'exports: [ConfigService]').value,
      },
    });
    const {ConfigModule} = set.require('config.module');
    const {ConfigService} = set.require('config.service');
    const saved = process.env.NODE_ENV;
    delete process.env.NODE_ENV;
    try {
      const app = await NestFactory.create(ConfigModule, options);
      expect(app.get(ConfigService).get('HELLO_MESSAGE')).toBe('Hello from the project root');
      await app.close();
    } finally {
      if (saved !== undefined) process.env.NODE_ENV = saved;
    }
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#injecting-the-options`,
    `ConfigModule.register({ folder: './config' }) makes ConfigService read config/development.env, or config/production.env with NODE_ENV=production (${lang})`,
    async () => {
      const set = configSet(moduleWithOptions(), lang);
      const {ConfigModule} = set.require('config.module');
      const {ConfigService} = set.require('config.service');
      const saved = process.env.NODE_ENV;
      const read: string[] = [];
      try {
        for (const env of [undefined, 'production']) {
          if (env) process.env.NODE_ENV = env;
          else delete process.env.NODE_ENV;
          @Module({imports: [ConfigModule.register({folder: './config'})]})
          class AppModule {}
          const app = await NestFactory.create(AppModule, options);
          read.push(app.get(ConfigService).get('HELLO_MESSAGE'));
          await app.close();
        }
      } finally {
        if (saved !== undefined) process.env.NODE_ENV = saved;
        else delete process.env.NODE_ENV;
      }
      expect(read).toEqual(['Hello from the development environment', 'Hello from production']);
    },
  );
}

claim(
  `${page}#importing-the-same-module-more-than-once`,
  'two imports with identical options share one ConfigService; different options give separate instances',
  async () => {
    const set = configSet(moduleWithOptions());
    const {ConfigModule} = set.require('config.module');
    const {ConfigService} = set.require('config.service');
    const consumer = (name: string) => {
      const target = class {
        constructor(readonly config: any) {}
      };
      Object.defineProperty(target, 'name', {value: name});
      Injectable()(target);
      Reflect.defineMetadata('design:paramtypes', [ConfigService], target);
      return target;
    };
    const [A, B, C] = [consumer('A'), consumer('B'), consumer('C')];
    @Module({imports: [ConfigModule.register({folder: './config'})], providers: [A], exports: [A]})
    class AModule {}
    @Module({imports: [ConfigModule.register({folder: './config'})], providers: [B], exports: [B]})
    class BModule {}
    @Module({imports: [ConfigModule.register({folder: './other'})], providers: [C], exports: [C]})
    class CModule {}
    @Module({imports: [AModule, BModule, CModule]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    expect(app.get(A).config).toBe(app.get(B).config);
    expect(app.get(C).config).not.toBe(app.get(A).config);
    expect(app.get(C).config.get('HELLO_MESSAGE')).toBe('Hello from the other folder');
    await app.close();
  },
);

claim(
  `${page}#module-configuration`,
  'providers of the @Module() decorator and of the register() result end up in the same module',
  async () => {
    const merged = fragment(page, 'module-configuration', 'providers: [EnvFileReader]').value;
    const set = samples(page, {
      files: {
        'config.module': merged,
        'env-file-reader': `import { Injectable } from '@nestjs/common';\n@Injectable()\nexport class EnvFileReader {}`,
        'config.service': `import { Injectable } from '@nestjs/common';\nimport { EnvFileReader } from './env-file-reader';\n@Injectable()\nexport class ConfigService {\n  constructor(readonly reader: EnvFileReader) {}\n}`,
      },
    });
    const {ConfigModule} = set.require('config.module');
    const {ConfigService} = set.require('config.service');
    const {EnvFileReader} = set.require('env-file-reader');
    @Module({imports: [ConfigModule.register({})]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    expect(app.get(ConfigService).reader).toBeInstanceOf(EnvFileReader);
    await app.close();
  },
);

claim(
  `${page}#registering-a-global-dynamic-module`,
  'with global: true, ConfigService is injectable in modules that do not import ConfigModule',
  async () => {
    const global = fragment(page, 'registering-a-global-dynamic-module', 'global: true').value;
    const set = configSet(
      applyEdits('config.module', global, [
        [
          "import { ConfigService } from './config.service';",
          "import { ConfigService } from './config.service';\nimport { CONFIG_OPTIONS } from './constants';",
        ],
        [
          'providers: [ConfigService],',
          "providers: [{ provide: CONFIG_OPTIONS, useValue: { folder: './config' } }, ConfigService],",
        ],
      ]),
    );
    const {ConfigModule} = set.require('config.module');
    const {ConfigService} = set.require('config.service');
    @Injectable()
    class Greeter {
      constructor(@Inject(ConfigService) readonly config: any) {}
    }
    @Module({providers: [Greeter]})
    class FeatureModule {}
    @Module({imports: [ConfigModule.register({}), FeatureModule]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    expect(app.get(Greeter).config.get('HELLO_MESSAGE')).toBe(
      'Hello from the development environment',
    );
    await app.close();
  },
);

claim(
  `${page}#re-exporting-a-dynamic-module`,
  'CoreModule imports ConfigModule.register() and exports ConfigModule: its importers get the configured ConfigService',
  async () => {
    const set = samples(page, {
      files: {
        constants: constants(),
        'config.module': moduleWithOptions(),
        'core.module': fragment(page, 're-exporting-a-dynamic-module', 'export class CoreModule')
          .value,
      },
    });
    const {CoreModule} = set.require('core.module');
    const {ConfigService} = set.require('config.service');
    @Injectable()
    class Greeter {
      constructor(@Inject(ConfigService) readonly config: any) {}
    }
    @Module({imports: [CoreModule], providers: [Greeter]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    expect(app.get(Greeter).config.get('HELLO_MESSAGE')).toBe(
      'Hello from the development environment',
    );
    await app.close();
  },
);

claim(
  `${page}#defaults-and-validation`,
  "register() without arguments reads ./config; an empty folder throws at register() time with the page's message",
  async () => {
    const set = configSet(fragment(page, 'defaults-and-validation', 'defaultOptions').value);
    const {ConfigModule} = set.require('config.module');
    const {ConfigService} = set.require('config.service');
    @Module({imports: [ConfigModule.register()]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    expect(app.get(ConfigService).get('HELLO_MESSAGE')).toBe(
      'Hello from the development environment',
    );
    await app.close();
    expect(() => ConfigModule.register({folder: ''})).toThrow(
      'ConfigModule.register(): "folder" must be a non-empty string',
    );
  },
);

claim(
  `${page}#example`,
  'forgetting ConfigService in exports fails in the consumer; forgetting the CONFIG_OPTIONS provider fails in ConfigService',
  async () => {
    const noExport = configSet(
      applyEdits('config.module', moduleWithOptions(), [
        ['exports: [ConfigService],', 'exports: [],'],
      ]),
    );
    const {ConfigService} = noExport.require('config.service');
    @Injectable()
    class AppService {
      constructor(@Inject(ConfigService) readonly config: any) {}
    }
    @Module({
      imports: [noExport.require('config.module').ConfigModule.register({folder: './config'})],
      providers: [AppService],
    })
    class AppModule {}
    const first = await NestFactory.create(AppModule, options).then(
      () => null,
      (e: Error) => e,
    );
    expect(first?.message).toMatch(
      /^Nest can't resolve dependencies of the AppService \(\?\)\. Please make sure that the argument ConfigService at index \[0\] is available in the AppModule context/,
    );
    const noOptions = configSet(
      applyEdits('config.module', moduleWithOptions(), [
        [/\{\s*provide: CONFIG_OPTIONS,\s*useValue: options,\s*\},/, ''],
      ]),
    );
    @Module({
      imports: [noOptions.require('config.module').ConfigModule.register({folder: './config'})],
    })
    class BrokenModule {}
    const second = await NestFactory.create(BrokenModule, options).then(
      () => null,
      (e: Error) => e,
    );
    expect(second?.message).toMatch(
      /^Nest can't resolve dependencies of the ConfigService \(\?\)\. Please make sure that the argument CONFIG_OPTIONS at index \[0\] is available in the ConfigModule context/,
    );
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#example`,
    `AppService gets HELLO_MESSAGE through the configured ConfigService, and AppController answers it (${lang})`,
    async () => {
      const set = samples(page, {
        lang,
        files: {
          constants: constants(),
          'config.module': lang === 'js' ? toJs(moduleWithOptions()) : moduleWithOptions(),
          'app.controller':
            lang === 'js'
              ? toJs(fragment(page, 'example', 'export class AppController').value)
              : fragment(page, 'example', 'export class AppController').value,
        },
        edit: {'app.service': [["from './config/config.service'", "from './config.service'"]]},
      });
      const {ConfigModule} = set.require('config.module');
      const {AppService} = set.require('app.service');
      const {AppController} = set.require('app.controller');
      @Module({
        imports: [ConfigModule.register({folder: './config'})],
        controllers: [AppController],
        providers: [AppService],
      })
      class AppModule {}
      const app = await NestFactory.create(AppModule, options);
      await app.listen(0, '127.0.0.1');
      const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
      expect(await (await fetch(url)).text()).toBe('Hello from the development environment');
      await app.close();
    },
  );
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#implementing-forroot-and-forfeature`,
    `StorageModule.forRoot() once and forFeature(['cats']) in a feature module: CatsService receives the cats collection (${lang})`,
    async () => {
      const storageService =
        lang === 'ts'
          ? `import { Inject, Injectable } from '@nestjs/common';
import { STORAGE_OPTIONS } from './storage.constants';
import { Collection } from './collection';
@Injectable()
export class StorageService {
  static created = 0;
  constructor(@Inject(STORAGE_OPTIONS) readonly options: { path: string }) { StorageService.created += 1; }
  collection(name: string) { return new Collection(name, this.options.path); }
}`
          : `import { Dependencies, Injectable } from '@nestjs/common';
import { STORAGE_OPTIONS } from './storage.constants';
import { Collection } from './collection';
@Injectable()
@Dependencies(STORAGE_OPTIONS)
export class StorageService {
  constructor(options) { this.options = options; StorageService.created += 1; }
  collection(name) { return new Collection(name, this.options.path); }
}
StorageService.created = 0;`;
      const set = samples(page, {
        lang,
        files: {
          'storage.constants': (lang === 'js' ? toJs : (x: string) => x)(
            fragment(
              page,
              'implementing-forroot-and-forfeature',
              'getCollectionToken(name: string)',
            ).value,
          ),
          'storage.service': storageService,
          collection:
            lang === 'ts'
              ? `export class Collection<T = unknown> { constructor(readonly name: string, readonly path: string) {} async findAll(): Promise<T[]> { return [{ from: this.path + '/' + this.name } as any]; } }`
              : `export class Collection { constructor(name, path) { this.name = name; this.path = path; } async findAll() { return [{ from: this.path + '/' + this.name }]; } }`,
          ...(lang === 'ts' ? {'cat.interface': 'export interface Cat { name: string }'} : {}),
        },
      });
      const {StorageModule} = set.require('storage.module');
      const {StorageService} = set.require('storage.service');
      const {CatsService} = set.require('cats.service');
      @Module({
        imports: [StorageModule.forFeature(['cats'])],
        providers: [CatsService],
        exports: [CatsService],
      })
      class CatsModule {}
      @Module({imports: [StorageModule.forFeature(['dogs'])]})
      class DogsModule {}
      @Module({imports: [StorageModule.forRoot({path: './data'}), CatsModule, DogsModule]})
      class AppModule {}
      const app = await NestFactory.create(AppModule, options);
      expect(await app.get(CatsService).findAll()).toEqual([{from: './data/cats'}]);
      expect(StorageService.created).toBe(1);
      await app.close();
    },
  );
}

claim(
  `${page}#writing-your-own-async-method`,
  'registerAsync() with an async useFactory: ConfigService receives the options the factory resolves',
  async () => {
    const set = samples(page, {
      files: {
        constants: constants(),
        'config.module': fragment(page, 'writing-your-own-async-method', 'static registerAsync')
          .value,
      },
    });
    const {ConfigModule} = set.require('config.module');
    const {ConfigService} = set.require('config.service');
    const saved = process.env.CONFIG_FOLDER;
    process.env.CONFIG_FOLDER = './other';
    try {
      const appModule = fragment(
        page,
        'writing-your-own-async-method',
        'ConfigModule.registerAsync({',
      ).value;
      void appModule;
      @Module({
        imports: [
          ConfigModule.registerAsync({
            useFactory: async () => ({folder: process.env.CONFIG_FOLDER || './config'}),
          }),
        ],
      })
      class AppModule {}
      const app = await NestFactory.create(AppModule, options);
      expect(app.get(ConfigService).get('HELLO_MESSAGE')).toBe('Hello from the other folder');
      await app.close();
    } finally {
      if (saved === undefined) delete process.env.CONFIG_FOLDER;
      else process.env.CONFIG_FOLDER = saved;
    }
  },
);

/** The page's CatsApiModule (HttpModule.registerAsync with the ConfigModule of the page) reading `folder`. */
function catsApiModule(folder: string) {
  const set = samples(page, {
    files: {
      constants: constants(),
      'config.module': moduleWithOptions(),
      'cats-api.module': applyEdits(
        'cats-api.module',
        fragment(page, 'async-variants', 'HttpModule.registerAsync').value,
        [
          [
            "ConfigModule.register({ folder: './config' })",
            `ConfigModule.register({ folder: '${folder}' })`,
          ],
        ],
      ),
    },
  });
  return set.require('cats-api.module').CatsApiModule;
}

claim(
  `${page}#async-variants`,
  "HttpModule.registerAsync() with imports: [ConfigModule.register()] and inject: [ConfigService] builds the client from the factory's options",
  async () => {
    const {HttpService} = nest('@nestjs/axios');
    mkdirSync(join(root, 'api'), {recursive: true});
    writeFileSync(join(root, 'api', 'development.env'), 'CATS_API_URL=https://cats.example.com\n');
    const app = await NestFactory.create(catsApiModule('./api'), options);
    const http = app.get(HttpService);
    expect(http.axiosRef.defaults.baseURL).toBe('https://cats.example.com');
    expect(http.axiosRef.defaults.timeout).toBe(5000);
    await app.close();
  },
);

claim.failure(
  `${page}#async-variants`,
  'CATS_API_URL missing from the .env file: the factory stops NestFactory.create() with "CATS_API_URL is missing from the .env file"; without the check, axios sends httpService.get(\'/cats\') to localhost, port 80',
  async () => {
    mkdirSync(join(root, 'noapi'), {recursive: true});
    writeFileSync(join(root, 'noapi', 'development.env'), 'HELLO_MESSAGE=hi\n');
    const error = await NestFactory.create(catsApiModule('./noapi'), options).then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).toBe('CATS_API_URL is missing from the .env file');
    // What the check prevents: a client whose baseURL is undefined calls localhost:80.
    const {HttpModule, HttpService} = nest('@nestjs/axios');
    const {lastValueFrom} = nest('rxjs');
    @Module({imports: [HttpModule.register({baseURL: undefined, timeout: 2000})]})
    class UncheckedModule {}
    const app = await NestFactory.create(UncheckedModule, options);
    const failed = await lastValueFrom(app.get(HttpService).get('/cats')).then(
      () => null,
      (e: any) => e,
    );
    expect(failed?.code).toBe('ECONNREFUSED');
    expect(['127.0.0.1', '::1']).toContain(failed?.address);
    expect(failed?.port).toBe(80);
    await app.close();
  },
);

/** The page's TypeOrmConfigService (TypeScript only on the page). */
const typeOrmConfigService = () =>
  compileModule(
    fragment(page, 'async-variants', 'class TypeOrmConfigService').value,
    'typeorm-config.service',
  ).TypeOrmConfigService;

claim.failure(
  `${page}#async-variants`,
  'DATABASE_HOST unset or empty: TypeOrmConfigService throws "DATABASE_HOST is not set", and forRootAsync({ useClass }) stops NestFactory.create() with it before any connection attempt; a set variable becomes the host',
  async () => {
    const TypeOrmConfigService = typeOrmConfigService();
    const {TypeOrmModule} = nest('@nestjs/typeorm');
    const saved = process.env.DATABASE_HOST;
    try {
      for (const value of [undefined, '']) {
        if (value === undefined) delete process.env.DATABASE_HOST;
        else process.env.DATABASE_HOST = value;
        expect(() => new TypeOrmConfigService().createTypeOrmOptions()).toThrow(
          'DATABASE_HOST is not set',
        );
      }
      delete process.env.DATABASE_HOST;
      @Module({imports: [TypeOrmModule.forRootAsync({useClass: TypeOrmConfigService})]})
      class AppModule {}
      const error = await NestFactory.create(AppModule, options).then(
        () => null,
        (e: Error) => e,
      );
      expect(error?.message).toBe('DATABASE_HOST is not set');
      process.env.DATABASE_HOST = 'db.internal';
      expect(new TypeOrmConfigService().createTypeOrmOptions()).toMatchObject({
        type: 'postgres',
        host: 'db.internal',
      });
    } finally {
      if (saved === undefined) delete process.env.DATABASE_HOST;
      else process.env.DATABASE_HOST = saved;
    }
  },
);

claim(
  `${page}#writing-your-own-async-method`,
  '@nestjs/common 8.4.7 has no ConfigurableModuleBuilder export',
  () => {
    expect('ConfigurableModuleBuilder' in nest('@nestjs/common')).toBe(false);
  },
);

claim(
  `${page}#re-exporting-a-dynamic-module`,
  'register() repeated in exports runs again, and its options are ignored: importers get the copy configured in imports',
  async () => {
    const set = samples(page, {
      files: {
        constants: constants(),
        'config.module': moduleWithOptions(),
        'core.module': applyEdits(
          'core.module',
          fragment(page, 're-exporting-a-dynamic-module', 'export class CoreModule').value,
          [
            [
              'exports: [ConfigModule],',
              "exports: [ConfigModule.register({ folder: './other' })],",
            ],
          ],
        ),
      },
    });
    const {ConfigModule} = set.require('config.module');
    const register = ConfigModule.register;
    let calls = 0;
    ConfigModule.register = (...args: unknown[]) => {
      calls += 1;
      return register.apply(ConfigModule, args);
    };
    const {CoreModule} = set.require('core.module');
    const {ConfigService} = set.require('config.service');
    @Injectable()
    class Greeter {
      constructor(@Inject(ConfigService) readonly config: any) {}
    }
    @Module({imports: [CoreModule], providers: [Greeter]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    expect(calls).toBe(2);
    expect(app.get(Greeter).config.get('HELLO_MESSAGE')).toBe(
      'Hello from the development environment',
    );
    await app.close();
  },
);

const validatingModule = () => fragment(page, 'defaults-and-validation', 'defaultOptions').value;

claim.failure(
  `${page}#defaults-and-validation`,
  "register({ folder: process.env.CONFIG_FOLDER }) with the variable unset: the spread copies undefined over the default and the page's validation message stops the start",
  async () => {
    const {ConfigModule} = configSet(validatingModule()).require('config.module');
    const saved = process.env.CONFIG_FOLDER;
    delete process.env.CONFIG_FOLDER;
    try {
      expect(() => ConfigModule.register({folder: process.env.CONFIG_FOLDER})).toThrow(
        'ConfigModule.register(): "folder" must be a non-empty string',
      );
      // The call-site fallback the page suggests reads ./config.
      const dynamic = ConfigModule.register({folder: process.env.CONFIG_FOLDER ?? './config'});
      expect(dynamic.providers[0].useValue).toEqual({folder: './config'});
    } finally {
      if (saved !== undefined) process.env.CONFIG_FOLDER = saved;
    }
  },
);

claim.failure(
  `${page}#defaults-and-validation`,
  "an empty folder: the validating register() throws when the importing decorator is evaluated; without the check, ConfigService quietly reads the project root's development.env",
  async () => {
    const {ConfigModule} = configSet(validatingModule()).require('config.module');
    expect(() => {
      @Module({imports: [ConfigModule.register({folder: ''})]})
      class AppModule {}
      return AppModule;
    }).toThrow('ConfigModule.register(): "folder" must be a non-empty string');
    const unchecked = configSet(moduleWithOptions());
    @Module({imports: [unchecked.require('config.module').ConfigModule.register({folder: ''})]})
    class UncheckedModule {}
    const app = await NestFactory.create(UncheckedModule, options);
    expect(app.get(unchecked.require('config.service').ConfigService).get('HELLO_MESSAGE')).toBe(
      'Hello from the project root',
    );
    await app.close();
  },
);

claim.failure(
  `${page}#example`,
  'the .env file missing: NestFactory.create() fails with "ENOENT: no such file or directory", naming the full path',
  async () => {
    const set = configSet(moduleWithOptions());
    @Module({imports: [set.require('config.module').ConfigModule.register({folder: './missing'})]})
    class AppModule {}
    const error = await NestFactory.create(AppModule, options).then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).toBe(
      `ENOENT: no such file or directory, open '${join(root, 'missing', 'development.env')}'`,
    );
  },
);

claim.failure(
  `${page}#example`,
  'a key the .env file lacks: get() returns undefined and GET / answers 200 with an empty body',
  async () => {
    mkdirSync(join(root, 'nokey'), {recursive: true});
    writeFileSync(join(root, 'nokey', 'development.env'), 'DATABASE_HOST=localhost\n');
    const set = samples(page, {
      files: {
        constants: constants(),
        'config.module': moduleWithOptions(),
        'app.controller': fragment(page, 'example', 'export class AppController').value,
      },
      edit: {'app.service': [["from './config/config.service'", "from './config.service'"]]},
    });
    @Module({
      imports: [set.require('config.module').ConfigModule.register({folder: './nokey'})],
      controllers: [set.require('app.controller').AppController],
      providers: [set.require('app.service').AppService],
    })
    class AppModule {}
    const app = await NestFactory.create(AppModule, options);
    await app.listen(0, '127.0.0.1');
    const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
    await app.close();
  },
);

/** The page's registerAsync() ConfigModule, and the same module without its numbered provider. */
const asyncModule = () =>
  fragment(page, 'writing-your-own-async-method', 'static registerAsync').value;

function twoFolders(configModuleSource: string) {
  const set = configSet(configModuleSource);
  const {ConfigModule} = set.require('config.module');
  const {ConfigService} = set.require('config.service');
  // One helper, two feature modules: the factories have the same source text, different folders.
  const configFor = (folder: string) =>
    ConfigModule.registerAsync({useFactory: async () => ({folder})});
  const consumer = (name: string) => {
    const target = class {
      constructor(readonly config: any) {}
    };
    Object.defineProperty(target, 'name', {value: name});
    Injectable()(target);
    Reflect.defineMetadata('design:paramtypes', [ConfigService], target);
    return target;
  };
  const [Cats, Other] = [consumer('CatsReader'), consumer('OtherReader')];
  @Module({imports: [configFor('./config')], providers: [Cats], exports: [Cats]})
  class CatsModule {}
  @Module({imports: [configFor('./other')], providers: [Other], exports: [Other]})
  class OtherModule {}
  @Module({imports: [CatsModule, OtherModule]})
  class AppModule {}
  return {AppModule, Cats, Other};
}

claim.abuse(
  `${page}#writing-your-own-async-method`,
  "two registerAsync() calls from one helper, configFor('./config') and configFor('./other'): with the page's numbered provider each feature module reads its own folder",
  async () => {
    const {AppModule, Cats, Other} = twoFolders(asyncModule());
    const app = await NestFactory.create(AppModule, options);
    expect(app.get(Cats).config.get('HELLO_MESSAGE')).toBe(
      'Hello from the development environment',
    );
    expect(app.get(Other).config.get('HELLO_MESSAGE')).toBe('Hello from the other folder');
    await app.close();
  },
);

claim.abuse(
  `${page}#writing-your-own-async-method`,
  'the same two calls without the CONFIG_REGISTRATION provider: Nest compares the factories by their text and makes them one module, so the second feature module silently reads the first folder',
  async () => {
    const {AppModule, Cats, Other} = twoFolders(
      applyEdits('config.module', asyncModule(), [
        [/\n\s*\/\/ Makes each registerAsync\(\) call[^\n]*\n[^\n]*CONFIG_REGISTRATION[^\n]*/, ''],
      ]),
    );
    const app = await NestFactory.create(AppModule, options);
    expect(app.get(Other).config).toBe(app.get(Cats).config);
    expect(app.get(Other).config.get('HELLO_MESSAGE')).toBe(
      'Hello from the development environment',
    );
    await app.close();
  },
);

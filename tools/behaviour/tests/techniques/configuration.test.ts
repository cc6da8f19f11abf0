import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, afterEach, beforeAll, beforeEach, expect} from 'vitest';
import {
  claim,
  compileModule,
  expectOutput,
  fragment,
  listen,
  nest,
  readPage,
  samples,
} from '../../lib';
import {bootMain} from './_boot';

const {Module, Injectable, Inject} = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const {ConfigModule, ConfigService} = nest('@nestjs/config');
const Joi = nest('joi');
const page = 'docs/techniques/configuration.md';

// Every test works in its own folder (the .env files) and restores process.env afterwards.
let workdir: string;
let previousCwd: string;
let savedEnv: NodeJS.ProcessEnv;
beforeAll(() => {
  previousCwd = process.cwd();
});
beforeEach(() => {
  workdir = mkdtempSync(join(tmpdir(), 'behaviour-config-'));
  process.chdir(workdir);
  savedEnv = {...process.env};
});
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
  for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
  Object.assign(process.env, savedEnv);
  process.chdir(previousCwd);
  rmSync(workdir, {recursive: true, force: true});
});
afterAll(() => process.chdir(previousCwd));

async function closeApp(): Promise<void> {
  const current = close;
  close = undefined;
  await current?.();
}

const file = (name: string, text: string) => writeFileSync(join(workdir, name), text);

async function context(imports: unknown[], providers: unknown[] = []): Promise<any> {
  @Module({imports: imports as any[], providers: providers as any[]})
  class AppModule {}
  const app = await NestFactory.createApplicationContext(AppModule, {
    logger: false,
    abortOnError: false,
  });
  close = () => app.close();
  return app;
}

claim(
  `${page}#getting-started`,
  'forRoot() reads .env from the working directory, synchronously, and writes its keys into process.env',
  async () => {
    file('.env', 'CFG_DATABASE_USER=test\nCFG_PORT=3000\n');
    const dynamic = ConfigModule.forRoot();
    // Already there when forRoot() returns, before any provider exists.
    expect(process.env.CFG_DATABASE_USER).toBe('test');
    const app = await context([dynamic]);
    expect(app.get(ConfigService).get('CFG_PORT')).toBe('3000');
  },
);

claim(
  `${page}#getting-started`,
  'the runtime environment wins over .env; malformed lines are skipped silently',
  async () => {
    file('.env', 'CFG_LEVEL=debug\nthis line is not a pair\nCFG_OTHER=ok\n');
    process.env.CFG_LEVEL = 'warn';
    const app = await context([ConfigModule.forRoot()]);
    const config = app.get(ConfigService);
    expect([config.get('CFG_LEVEL'), config.get('CFG_OTHER'), process.env.CFG_LEVEL]).toEqual([
      'warn',
      'ok',
      'warn',
    ]);
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#using-the-configservice`,
    `a provider injecting ConfigService reads a variable of .env (${lang})`,
    async () => {
      file('.env', 'DATABASE_USER=test\n');
      // feature.module is shown in TypeScript only; its code is valid JavaScript too.
      const moduleSource = readPage(page).fences.find((f) => f.filename === 'feature.module')!.ts!;
      const set = samples(page, {
        under: 'using-the-configservice',
        lang,
        files: lang === 'js' ? {'feature.module': moduleSource} : {},
      });
      const {FeatureModule} = set.require('feature.module');
      const {FeatureService} = set.require('feature.service');
      const app = await context([ConfigModule.forRoot(), FeatureModule]);
      expect(app.get(FeatureService).databaseUser()).toBe('test');
    },
  );
}

claim(
  `${page}#custom-env-file-path`,
  'envFilePath: the first listed file wins, a missing file is skipped, relative paths from the working directory',
  async () => {
    file('.env.development.local', 'CFG_A=local\n');
    file('.env.development', 'CFG_A=shared\nCFG_B=shared\n');
    const options = new Function(
      `return ${fragment(page, 'custom-env-file-path', "'.env.development.local'")
        .value.replace(/^ConfigModule\.forRoot\(/, '')
        .replace(/\);\s*$/, '')}`,
    )();
    const app = await context([
      ConfigModule.forRoot({...options, envFilePath: [...options.envFilePath, 'missing.env']}),
    ]);
    const config = app.get(ConfigService);
    expect([config.get('CFG_A'), config.get('CFG_B')]).toEqual(['local', 'shared']);
  },
);

/** The page's NODE_ENV fragment as a function that returns what its forRoot() call returns. */
function envFileModule(): () => any {
  const code = fragment(page, 'custom-env-file-path', 'envFilePath: `.env.${').value;
  expect(code).toMatch(/^ConfigModule\.forRoot\(/m);
  return compileModule<{load: () => any}>(
    `import { ConfigModule } from '@nestjs/config';
export function load() {
${code.replace(/^ConfigModule\.forRoot\(/m, 'return ConfigModule.forRoot(')}
}`,
    'env-file-path',
  ).load;
}

claim.failure(
  `${page}#custom-env-file-path`,
  "NODE_ENV unset or misspelt (prod): the page's check stops the process with its message instead of loading .env.development or no file; NODE_ENV=production loads .env.production",
  async () => {
    file(
      '.env.development',
      'CFG_AUTH_ENABLED=false\nCFG_DATABASE_URL=postgres://dev:dev@localhost/dev\n',
    );
    file('.env.production', 'CFG_DATABASE_URL=postgres://prod@db/app\n');
    const load = envFileModule();
    delete process.env.NODE_ENV;
    let message = '';
    try {
      load();
    } catch (error) {
      message = `Error: ${(error as Error).message}`;
    }
    // The old fallback loaded .env.development here.
    expect(process.env.CFG_AUTH_ENABLED).toBeUndefined();
    expectOutput(page, 'node-env-missing', message);
    process.env.NODE_ENV = 'prod';
    expect(load).toThrow('NODE_ENV must be development, test or production; it is "prod"');
    process.env.NODE_ENV = 'production';
    const app = await context([load()]);
    const config = app.get(ConfigService);
    expect([config.get('CFG_DATABASE_URL'), config.get('CFG_AUTH_ENABLED')]).toEqual([
      'postgres://prod@db/app',
      undefined,
    ]);
  },
);

claim(
  `${page}#disable-env-variables-loading`,
  'ignoreEnvFile: true reads no .env file',
  async () => {
    file('.env', 'CFG_FROM_FILE=yes\n');
    const app = await context([ConfigModule.forRoot({ignoreEnvFile: true})]);
    expect(app.get(ConfigService).get('CFG_FROM_FILE')).toBeUndefined();
    expect(process.env.CFG_FROM_FILE).toBeUndefined();
  },
);

claim(
  `${page}#use-module-globally`,
  'isGlobal: a module that does not import ConfigModule can inject ConfigService',
  async () => {
    @Injectable()
    class Reader {
      constructor(@Inject(ConfigService) readonly config: any) {}
    }
    @Module({providers: [Reader], exports: [Reader]})
    class FeatureModule {}
    const app = await context([
      ConfigModule.forRoot({isGlobal: true, ignoreEnvFile: true}),
      FeatureModule,
    ]);
    expect(app.get(Reader).config).toBeInstanceOf(ConfigService);
    await closeApp();
    await expect(
      context([ConfigModule.forRoot({ignoreEnvFile: true}), FeatureModule]),
    ).rejects.toThrow(/can't resolve dependencies of the Reader/);
  },
);

claim(
  `${page}#custom-configuration-files`,
  "load: a factory's object is read by dot path, and the factory sees the .env values",
  async () => {
    file('.env', 'PORT=4000\nDATABASE_HOST=db.internal\n');
    const set = samples(page, {
      under: 'custom-configuration-files',
      pick: {'config/configuration': 1},
    });
    const {AppModule} = set.require('app.module');
    const app = await NestFactory.createApplicationContext(AppModule, {
      logger: false,
      abortOnError: false,
    });
    close = () => app.close();
    const config = app.get(ConfigService);
    expect(config.get('port')).toBe(4000);
    expect(config.get('database.host')).toBe('db.internal');
    expect(config.get('database')).toEqual({host: 'db.internal', port: 5432});
    expect(config.get('database.user', 'postgres')).toBe('postgres');
  },
);

claim(
  `${page}#custom-configuration-files`,
  'an async factory is awaited before dependent providers; a thrown error stops the bootstrap',
  async () => {
    const slow = async () => {
      await new Promise((r) => setTimeout(r, 50));
      return {remote: {flag: true}};
    };
    const app = await context([ConfigModule.forRoot({ignoreEnvFile: true, load: [slow]})]);
    expect(app.get(ConfigService).get('remote.flag')).toBe(true);
    await closeApp();
    const failing = async () => {
      throw new Error('secrets manager unreachable');
    };
    await expect(
      context([ConfigModule.forRoot({ignoreEnvFile: true, load: [failing]})]),
    ).rejects.toThrow('secrets manager unreachable');
  },
);

claim(`${page}#yaml-configuration-files`, 'the YAML factory returns the parsed file', async () => {
  const yaml = fragment(page, 'yaml-configuration-files', 'yaml-db').value;
  const set = samples(page, {under: 'yaml-configuration-files', pick: {'config/configuration': 2}});
  writeFileSync(join(set.dir, 'config.yaml'), yaml);
  const configuration = set.require('config/configuration').default;
  expect(configuration()).toEqual({
    http: {host: 'localhost', port: 8080},
    db: {postgres: {url: 'localhost', port: 5432, database: 'yaml-db'}},
  });
});

claim(
  `${page}#using-the-configservice`,
  'the type argument converts nothing: a .env number stays a string',
  async () => {
    file('.env', 'CFG_TIMEOUT=5000\n');
    const app = await context([ConfigModule.forRoot()]);
    expect(app.get(ConfigService).get('CFG_TIMEOUT')).toBe('5000');
  },
);

claim(
  `${page}#using-the-configservice`,
  'get() checks the validated environment, then process.env, then the factories',
  async () => {
    process.env.CFG_SHARED = 'from-env';
    const app = await context([
      ConfigModule.forRoot({
        ignoreEnvFile: true,
        load: [() => ({CFG_SHARED: 'from-factory', CFG_ONLY_FACTORY: 'factory'})],
        validationSchema: Joi.object({CFG_SHARED: Joi.string().uppercase()}),
        validationOptions: {convert: true},
      }),
    ]);
    const config = app.get(ConfigService);
    expect(config.get('CFG_SHARED')).toBe('FROM-ENV');
    expect(config.get('CFG_ONLY_FACTORY')).toBe('factory');
    await closeApp();
    const plain = await context([
      ConfigModule.forRoot({ignoreEnvFile: true, load: [() => ({CFG_SHARED: 'from-factory'})]}),
    ]);
    expect(plain.get(ConfigService).get('CFG_SHARED')).toBe('from-env');
    expect(plain.get(ConfigService).get('CFG_NOWHERE')).toBeUndefined();
  },
);

claim(
  `${page}#configuration-namespaces`,
  'registerAs(): values under the namespace path, and KEY injects the namespace object (ts and js)',
  async () => {
    process.env.DATABASE_HOST = 'db.internal';
    for (const lang of ['ts', 'js'] as const) {
      // config/database.config and app.module are shown in TypeScript only; their code is valid JavaScript too.
      const tsOnly = (name: string) =>
        readPage(page)
          .fences.filter(
            (f) =>
              f.filename === name &&
              f.line < readPage(page).headings.get('namespaced-configuration-in-other-modules')!,
          )
          .pop()!.ts!;
      const set = samples(page, {
        under: 'configuration-namespaces',
        lang,
        files:
          lang === 'js'
            ? {
                'config/database.config': tsOnly('config/database.config'),
                'app.module': tsOnly('app.module'),
              }
            : {},
      });
      const {AppModule} = set.require('app.module');
      const {DatabaseService} = set.require('database.service');
      const databaseConfig = set.require('config/database.config').default;
      @Module({
        imports: [AppModule, ConfigModule.forFeature(databaseConfig)],
        providers: [DatabaseService],
      })
      class Root {}
      const app = await NestFactory.createApplicationContext(Root, {
        logger: false,
        abortOnError: false,
      });
      expect(app.get(ConfigService).get('database.host')).toBe('db.internal');
      expect(app.get(DatabaseService).address()).toBe('db.internal:5432');
      await app.close();
    }
  },
);

claim(
  `${page}#namespaced-configuration-in-other-modules`,
  'asProvider() returns imports, useFactory and inject; the factory passes the namespace through',
  async () => {
    process.env.DATABASE_HOST = 'db.internal';
    const databaseConfig = samples(page, {
      under: 'configuration-namespaces',
      pick: {'config/database.config': 1},
    }).require('config/database.config').default;
    const provider = databaseConfig.asProvider();
    expect(Object.keys(provider).sort()).toEqual(['imports', 'inject', 'useFactory']);
    expect(provider.inject).toEqual([databaseConfig.KEY]);
    const OPTIONS = 'OPTIONS';
    @Module({
      imports: provider.imports,
      providers: [{provide: OPTIONS, useFactory: provider.useFactory, inject: provider.inject}],
    })
    class Consumer {}
    const app = await context([Consumer]);
    expect(app.get(OPTIONS)).toEqual({host: 'db.internal', port: 5432});
  },
);

claim(
  `${page}#partial-registration`,
  'forFeature() makes the namespace KEY injectable and merges it into ConfigService (read in onModuleInit)',
  async () => {
    process.env.DATABASE_HOST = 'feature.db';
    const set = samples(page, {under: 'partial-registration'});
    const {DatabaseModule} = set.require('database.module');
    const {DatabaseService} = set.require('database.service');
    const databaseConfig = set.require('config/database.config').default;
    @Injectable()
    class KeyReader {
      constructor(@Inject(databaseConfig.KEY) readonly db: any) {}
    }
    @Module({
      imports: [DatabaseModule, ConfigModule.forFeature(databaseConfig)],
      providers: [DatabaseService, KeyReader],
    })
    class Root {}
    const app = await context([ConfigModule.forRoot({ignoreEnvFile: true}), Root]);
    expect((app.get(DatabaseService) as any).host).toBe('feature.db');
    expect(app.get(KeyReader).db).toEqual({host: 'feature.db', port: 5432});
  },
);

claim(
  `${page}#cache-environment-variables`,
  'with cache: true, a change to process.env after the first read is not seen',
  async () => {
    process.env.CFG_CACHED = 'first';
    const cached = await context([ConfigModule.forRoot({ignoreEnvFile: true, cache: true})]);
    expect(cached.get(ConfigService).get('CFG_CACHED')).toBe('first');
    process.env.CFG_CACHED = 'second';
    expect(cached.get(ConfigService).get('CFG_CACHED')).toBe('first');
    await closeApp();
    const fresh = await context([ConfigModule.forRoot({ignoreEnvFile: true})]);
    const config = fresh.get(ConfigService);
    expect(config.get('CFG_CACHED')).toBe('second');
    process.env.CFG_CACHED = 'third';
    expect(config.get('CFG_CACHED')).toBe('third');
  },
);

claim(
  `${page}#schema-validation`,
  "a missing required variable makes forRoot() throw the page's message",
  async () => {
    const set = samples(page, {under: 'schema-validation', pick: {'app.module': 4}});
    delete process.env.DATABASE_URL;
    let message = '';
    try {
      set.require('app.module');
    } catch (error) {
      message = `Error: ${(error as Error).message}`;
    }
    expectOutput(page, 'joi-missing-variable', message);
  },
);

claim(
  `${page}#schema-validation`,
  "on success, default() fills in values and Joi.number() converts: get('PORT') is the number 3000",
  async () => {
    process.env.DATABASE_URL = 'postgres://localhost/app';
    delete process.env.PORT;
    delete process.env.NODE_ENV;
    const {AppModule} = samples(page, {
      under: 'schema-validation',
      pick: {'app.module': 4},
    }).require('app.module');
    const app = await NestFactory.createApplicationContext(AppModule, {
      logger: false,
      abortOnError: false,
    });
    close = () => app.close();
    const config = app.get(ConfigService);
    expect([config.get('PORT'), config.get('NODE_ENV')]).toEqual([3000, 'development']);
    // Keys not yet in process.env are written there (as strings).
    expect(process.env.PORT).toBe('3000');
  },
);

claim(
  `${page}#schema-validation`,
  'the schema checks the environment, not the objects of load factories',
  async () => {
    expect(() =>
      ConfigModule.forRoot({
        ignoreEnvFile: true,
        load: [() => ({CFG_REQUIRED: 'x'})],
        validationSchema: Joi.object({CFG_REQUIRED: Joi.string().required()}),
      }),
    ).toThrow('Config validation error: "CFG_REQUIRED" is required');
  },
);

claim(
  `${page}#schema-validation`,
  "defaults: unknown variables allowed and all errors reported; with validationOptions, abortEarly falls back to Joi's true",
  async () => {
    const schema = Joi.object({CFG_ONE: Joi.string().required(), CFG_TWO: Joi.string().required()});
    expect(() => ConfigModule.forRoot({ignoreEnvFile: true, validationSchema: schema})).toThrow(
      'Config validation error: "CFG_ONE" is required. "CFG_TWO" is required',
    );
    expect(() =>
      ConfigModule.forRoot({ignoreEnvFile: true, validationSchema: schema, validationOptions: {}}),
    ).toThrow(/^Config validation error: "CFG_ONE" is required$/);
  },
);

claim(
  `${page}#schema-validation`,
  'allowUnknown: false fails on the real environment; with ignoreEnvVars only the .env file is validated',
  async () => {
    file('.env', 'NODE_ENV=test\nPORT=3000\n');
    const options = new Function(
      'Joi',
      `return ${fragment(page, 'schema-validation', 'allowUnknown: false')
        .value.replace(/^ConfigModule\.forRoot\(/, '')
        .replace(/\);\s*$/, '')}`,
    )(Joi);
    delete process.env.NODE_ENV;
    expect(() => ConfigModule.forRoot(options)).toThrow(
      /Config validation error: "\w+" is not allowed/,
    );
    expect(() => ConfigModule.forRoot({...options, ignoreEnvVars: true})).not.toThrow();
  },
);

claim(
  `${page}#custom-validate-function`,
  'the class-validator validate() converts PORT to a number, serves it, and throws on a bad NODE_ENV',
  async () => {
    const set = samples(page, {under: 'custom-validate-function'});
    process.env.NODE_ENV = 'production';
    process.env.PORT = '8080';
    const {AppModule} = set.require('app.module');
    const app = await NestFactory.createApplicationContext(AppModule, {
      logger: false,
      abortOnError: false,
    });
    close = () => app.close();
    expect(app.get(ConfigService).get('PORT')).toBe(8080);
    const {validate} = set.require('env.validation');
    expect(() => validate({NODE_ENV: 'staging', PORT: '8080'})).toThrow(
      /property NODE_ENV has failed the following constraints: isEnum/,
    );
  },
);

claim(
  `${page}#custom-getter-functions`,
  'the getters parse AUTH_ENABLED and REQUEST_TIMEOUT_MS (default 5000), ts and js',
  async () => {
    for (const lang of ['ts', 'js'] as const) {
      const {ApiConfigService} = samples(page, {
        under: 'custom-getter-functions',
        lang,
        pick: {'app.module': 1},
      }).require('api-config.service');
      process.env.AUTH_ENABLED = 'true';
      delete process.env.REQUEST_TIMEOUT_MS;
      const app = await context([ConfigModule.forRoot({ignoreEnvFile: true})], [ApiConfigService]);
      const api = app.get(ApiConfigService);
      expect([api.isAuthEnabled, api.requestTimeoutMs]).toEqual([true, 5000]);
      process.env.REQUEST_TIMEOUT_MS = '250';
      expect(api.requestTimeoutMs).toBe(250);
      await closeApp();
    }
  },
);

claim(
  `${page}#custom-getter-functions`,
  "with AUTH_ENABLED: Joi.boolean() added to the page's schema, get() returns a boolean and AUTH_ENABLED=false (or FALSE) still turns authentication off; true keeps it on (ts and js)",
  async () => {
    // The page's schema with one more key; isGlobal lets the getter service see ConfigService.
    const schemaModule = () =>
      samples(page, {
        under: 'schema-validation',
        pick: {'app.module': 4},
        edit: {
          'app.module': [
            ['ConfigModule.forRoot({', 'ConfigModule.forRoot({\n      isGlobal: true,'],
            [
              'DATABASE_URL: Joi.string().required(),',
              'DATABASE_URL: Joi.string().required(),\n        AUTH_ENABLED: Joi.boolean().default(true),',
            ],
          ],
        },
      }).require('app.module').AppModule;
    for (const lang of ['ts', 'js'] as const) {
      const {ApiConfigService} = samples(page, {
        under: 'custom-getter-functions',
        lang,
        pick: {'app.module': 1},
      }).require('api-config.service');
      for (const [value, expected] of [
        ['false', false],
        ['FALSE', false],
        ['true', true],
      ] as const) {
        process.env.DATABASE_URL = 'postgres://localhost/app';
        process.env.AUTH_ENABLED = value;
        delete process.env.PORT;
        const module = schemaModule();
        const app = await context([module], [ApiConfigService]);
        expect(app.get(ConfigService).get('AUTH_ENABLED')).toBe(expected);
        expect(app.get(ApiConfigService).isAuthEnabled, `${lang} AUTH_ENABLED=${value}`).toBe(
          expected,
        );
        await closeApp();
      }
    }
  },
);

claim(
  `${page}#environment-variables-loaded-hook`,
  'ConfigModule.envVariablesLoaded is a promise that has resolved once forRoot() ran',
  async () => {
    ConfigModule.forRoot({ignoreEnvFile: true});
    await expect(
      Promise.race([
        ConfigModule.envVariablesLoaded.then(() => 'resolved'),
        new Promise((r) => setTimeout(() => r('pending'), 200)),
      ]),
    ).resolves.toBe('resolved');
  },
);

claim(
  `${page}#expandable-variables`,
  'expandVariables: ${APP_URL} is expanded; without the flag the value stays literal; the process environment wins',
  async () => {
    file('.env', fragment(page, 'expandable-variables', 'SUPPORT_EMAIL').value);
    delete process.env.APP_URL;
    delete process.env.SUPPORT_EMAIL;
    const {AppModule} = samples(page, {
      under: 'expandable-variables',
      pick: {'app.module': 6},
    }).require('app.module');
    const app = await NestFactory.createApplicationContext(AppModule, {
      logger: false,
      abortOnError: false,
    });
    close = () => app.close();
    expect(app.get(ConfigService).get('SUPPORT_EMAIL')).toBe('support@mywebsite.com');
    await closeApp();
    delete process.env.APP_URL;
    delete process.env.SUPPORT_EMAIL;
    const literal = await context([ConfigModule.forRoot()]);
    expect(literal.get(ConfigService).get('SUPPORT_EMAIL')).toBe('support@${APP_URL}');
    await closeApp();
    delete process.env.SUPPORT_EMAIL;
    process.env.APP_URL = 'example.org';
    const fromEnv = await context([ConfigModule.forRoot({expandVariables: true})]);
    expect(fromEnv.get(ConfigService).get('SUPPORT_EMAIL')).toBe('support@example.org');
  },
);

claim(
  `${page}#using-in-the-maints`,
  'app.get(ConfigService) in main.ts finds the service, even when only a feature module imports ConfigModule',
  async () => {
    process.env.PORT = '4321';
    @Module({imports: [ConfigModule.forRoot({ignoreEnvFile: true})]})
    class FeatureModule {}
    @Module({imports: [FeatureModule]})
    class AppModule {}
    const app = await bootMain(page, AppModule, {
      under: 'using-in-the-maints',
      edit: [[/return app;/, 'return { app, port };']],
    });
    close = () => app.app.close();
    expect(app.port).toBe(4321);
    const base = await listen(app.app);
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  },
);

claim(
  `${page}#configuration-in-tests`,
  'the testing module with ignoreEnvFile and a factory gives the fixed values, while real env variables still take part',
  async () => {
    file('.env', 'CFG_LEAK=yes\n');
    process.env.CFG_REAL = 'from-process';
    const code = fragment(page, 'configuration-in-tests', 'createTestingModule').value;
    const {createTestingModule} = compileModule<any>(
      code.replace(
        "import { FeatureService } from './feature.service';",
        "import { Injectable } from '@nestjs/common';\n@Injectable() class FeatureService {}",
      ),
    );
    const moduleRef = await createTestingModule();
    const config = moduleRef.get(ConfigService);
    expect(config.get('database')).toEqual({host: 'localhost', port: 5433});
    expect(config.get('CFG_LEAK')).toBeUndefined();
    expect(config.get('CFG_REAL')).toBe('from-process');
    await moduleRef.close();
  },
);

/** The error forRoot() throws when the module file is loaded with `env`, or null when it loads. */
function loadError(section: string, pick: Record<string, number>, env: Record<string, string>) {
  Object.assign(process.env, env);
  const set = samples(page, {under: section, pick});
  try {
    set.require('app.module');
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

claim.failure(
  `${page}#schema-validation`,
  'with the page\'s schema, an empty PORT= or PORT=abc fails with "must be a number" (default() does not replace an empty value), PORT=70000 with "must be a valid port"',
  async () => {
    const base = {DATABASE_URL: 'postgres://localhost/app'};
    expect(loadError('schema-validation', {'app.module': 4}, {...base, PORT: ''})).toBe(
      'Config validation error: "PORT" must be a number',
    );
    expect(loadError('schema-validation', {'app.module': 4}, {...base, PORT: 'abc'})).toBe(
      'Config validation error: "PORT" must be a number',
    );
    expect(loadError('schema-validation', {'app.module': 4}, {...base, PORT: '70000'})).toBe(
      'Config validation error: "PORT" must be a valid port',
    );
    expect(loadError('schema-validation', {'app.module': 4}, {...base, PORT: '0'})).toBeNull();
  },
);

claim.failure(
  `${page}#custom-validate-function`,
  'the class-validator validate() refuses an empty PORT= (converted to 0), PORT=abc (NaN) and PORT=70000',
  async () => {
    const {validate} = samples(page, {under: 'custom-validate-function'}).require('env.validation');
    for (const PORT of ['', 'abc', '70000', '80.5'])
      expect(() => validate({NODE_ENV: 'production', PORT}), JSON.stringify(PORT)).toThrow(
        /property PORT has failed the following constraints/,
      );
    expect(validate({NODE_ENV: 'production', PORT: '8080'}).PORT).toBe(8080);
  },
);

claim.abuse(
  `${page}#custom-getter-functions`,
  'a misspelt or missing AUTH_ENABLED (TRUE, 1, empty, unset) keeps authentication on, only "false" turns it off; a bad REQUEST_TIMEOUT_MS gives 5000 (ts and js)',
  async () => {
    for (const lang of ['ts', 'js'] as const) {
      const {ApiConfigService} = samples(page, {
        under: 'custom-getter-functions',
        lang,
        pick: {'app.module': 1},
      }).require('api-config.service');
      const app = await context([ConfigModule.forRoot({ignoreEnvFile: true})], [ApiConfigService]);
      const api = app.get(ApiConfigService);
      for (const value of ['TRUE', '1', '', 'yes', undefined]) {
        if (value === undefined) delete process.env.AUTH_ENABLED;
        else process.env.AUTH_ENABLED = value;
        expect(api.isAuthEnabled, `${lang} AUTH_ENABLED=${value}`).toBe(true);
      }
      process.env.AUTH_ENABLED = 'false';
      expect(api.isAuthEnabled).toBe(false);
      for (const value of ['', 'abc', '0']) {
        process.env.REQUEST_TIMEOUT_MS = value;
        expect(api.requestTimeoutMs, `${lang} REQUEST_TIMEOUT_MS=${value}`).toBe(5000);
      }
      await closeApp();
    }
  },
);

claim.failure(
  `${page}#using-in-the-maints`,
  "PORT=abc, PORT=0 or an empty PORT stop the page's main.ts with a message; get() alone would hand 'abc' to listen(), which serves on a socket file named abc",
  async () => {
    @Module({imports: [ConfigModule.forRoot({ignoreEnvFile: true})]})
    class AppModule {}
    for (const value of ['abc', '0', '']) {
      process.env.PORT = value;
      await expect(
        bootMain(page, AppModule, {under: 'using-in-the-maints'}),
        JSON.stringify(value),
      ).rejects.toThrow(`PORT must be a port number, not "${value}"`);
    }
    // What listen() does with the unchecked string.
    process.env.PORT = 'abc';
    const app = await NestFactory.create(AppModule, {logger: false});
    close = () => app.close();
    await app.listen(app.get(ConfigService).get('PORT', 3000));
    expect(app.getHttpServer().address()).toBe('abc');
  },
);

import {afterEach, describe, expect} from 'vitest';
import {
  claim,
  samples,
  fragment,
  nest,
  listen,
  memoryLogger,
  expectOutput,
  compileModule,
} from '../../lib';

const {
  Module,
  Controller,
  Get,
  Injectable,
  Logger,
  ConsoleLogger,
  UseGuards,
  UseInterceptors,
  NotFoundException,
  Post,
} = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const {Transport} = nest('@nestjs/microservices');
const {ConfigModule} = nest('@nestjs/config');
const {Test} = nest('@nestjs/testing');
const {GraphQLModule} = nest('@nestjs/graphql');
const page = 'docs/techniques/logger.md';

// The logger's static state is process-wide: every test leaves it as it found it.
const defaultLogger = (Logger as any).staticInstanceRef;
const defaultLevels = defaultLogger.options.logLevels;
let toClose: any[] = [];
afterEach(async () => {
  for (const app of toClose) await app.close().catch(() => undefined);
  toClose = [];
  (Logger as any).isBufferAttached = false;
  (Logger as any).logBuffer = [];
  (Logger as any).logLevels = undefined;
  defaultLogger.setLogLevels(defaultLevels);
  (Logger as any).staticInstanceRef = defaultLogger;
});

/** Runs `fn` with process.stdout/stderr captured (colors off) and returns what was written. */
async function capture(fn: () => unknown): Promise<{out: string; err: string}> {
  const out: string[] = [];
  const err: string[] = [];
  const write = {out: process.stdout.write, err: process.stderr.write};
  const noColor = process.env.NO_COLOR;
  process.env.NO_COLOR = '1';
  process.stdout.write = ((chunk: any) => {
    out.push(String(chunk));
    return true;
  }) as any;
  process.stderr.write = ((chunk: any) => {
    err.push(String(chunk));
    return true;
  }) as any;
  try {
    await fn();
  } finally {
    process.stdout.write = write.out;
    process.stderr.write = write.err;
    if (noColor === undefined) delete process.env.NO_COLOR;
    else process.env.NO_COLOR = noColor;
  }
  return {out: out.join(''), err: err.join('')};
}

/** cats.service imports a Cat interface the page does not show. */
const catInterface = (lang: 'ts' | 'js') =>
  lang === 'ts'
    ? 'export interface Cat { name: string; age?: number; breed?: string }'
    : 'export {};';

/** Runs `fn` with process.exit replaced, and returns the exit code it asked for (undefined if none). */
function exitCodeOf(fn: () => unknown): number | undefined {
  const exit = process.exit;
  let code: number | undefined;
  (process as any).exit = (c?: number) => {
    code = c ?? 0;
    throw new Error('process.exit');
  };
  try {
    fn();
  } catch (error) {
    if ((error as Error).message !== 'process.exit') throw error;
  } finally {
    process.exit = exit;
  }
  return code;
}

@Controller('cats')
class CatsController {
  @Get()
  findAll() {
    return [];
  }
}

@Module({controllers: [CatsController]})
class AppModule {}

claim(
  `${page}#basic-customization`,
  'the default logger prints the lines the page shows (pid, local time, level, context, message, +ms)',
  async () => {
    const {out} = await capture(async () => {
      const app = await NestFactory.create(AppModule);
      toClose.push(app);
      await app.init();
    });
    const lines = out.split('\n').slice(0, 3).join('\n');
    expect(lines).toMatch(/^\[Nest\] \d+ {2}- /);
    expectOutput(page, 'logger-default', lines, [
      [/\[Nest\] \d+/g, '[Nest] PID'],
      [/- .*?(?= {5}LOG)/g, '- TIME'],
      [/\+\d+ms/g, '+Nms'],
    ]);
  },
);

claim(`${page}#basic-customization`, 'logger: false prints nothing', async () => {
  const {out, err} = await capture(async () => {
    const app = await NestFactory.create(AppModule, {logger: false});
    toClose.push(app);
    await app.init();
    new Logger('Mine').error('not printed');
  });
  expect(out + err).toBe('');
});

describe('#basic-customization levels', () => {
  const printed = async (levels: string[]) => {
    const {out, err} = await capture(async () => {
      const app = await NestFactory.create(AppModule, {logger: levels});
      toClose.push(app);
      const logger = new Logger('Levels');
      logger.debug('debug');
      logger.verbose('verbose');
      logger.log('log');
      logger.warn('warn');
      logger.error('error');
    });
    return (out + err)
      .split('\n')
      .filter((line) => line.includes('[Levels]'))
      .map((line) => line.trim().split(' ').pop());
  };

  claim(
    `${page}#basic-customization`,
    "['error', 'warn'] keeps warnings and errors only",
    async () => {
      expect(await printed(['error', 'warn'])).toEqual(['warn', 'error']);
    },
  );
  claim(
    `${page}#basic-customization`,
    "a level enables every more severe level: ['warn'] prints warn and error, ['log'] adds log",
    async () => {
      expect(await printed(['warn'])).toEqual(['warn', 'error']);
      expect(await printed(['log'])).toEqual(['log', 'warn', 'error']);
    },
  );
  claim(
    `${page}#basic-customization`,
    "['debug'] alone enables everything; ['error', 'debug'] prints exactly those two",
    async () => {
      expect(await printed(['debug'])).toEqual(['debug', 'verbose', 'log', 'warn', 'error']);
      expect(await printed(['error', 'debug'])).toEqual(['debug', 'error']);
    },
  );
});

claim(
  `${page}#basic-customization`,
  'createMicroservice() and createApplicationContext() accept logger and bufferLogs too',
  async () => {
    const context = memoryLogger();
    const app = await NestFactory.createApplicationContext(AppModule, {logger: context.logger});
    toClose.push(app);
    expect(context.lines.map((l) => l.message)).toContain('Starting Nest application...');
    const micro = memoryLogger();
    const service = await NestFactory.createMicroservice(AppModule, {
      transport: Transport.TCP,
      options: {host: '127.0.0.1', port: 0},
      logger: micro.logger,
      bufferLogs: true,
    });
    toClose.push(service);
    expect(micro.lines).toEqual([]);
    service.flushLogs();
    expect(micro.lines.map((l) => l.message)).toContain('Starting Nest application...');
  },
);

claim(
  `${page}#basic-customization`,
  "Nest's own lines carry +ms; an application Logger only with { timestamp: true }",
  async () => {
    const {out} = await capture(async () => {
      const app = await NestFactory.create(AppModule);
      toClose.push(app);
      await app.init();
      new Logger('Plain').log('plain message');
      new Logger('Timed', {timestamp: true}).log('timed message');
    });
    expect(out).toMatch(/\[InstanceLoader\] AppModule dependencies initialized \+\d+ms/);
    expect(out).toMatch(/\[Plain\] plain message\n/);
    expect(out).toMatch(/\[Timed\] timed message \+\d+ms\n/);
  },
);

describe('#custom-implementation', () => {
  for (const lang of ['ts', 'js'] as const) {
    claim(
      `${page}#custom-implementation`,
      `every message, Nest's and yours, goes through MyLogger (stdout for log, stderr for error) (${lang})`,
      async () => {
        const {MyLogger} = samples(page, {under: 'custom-implementation', lang}).require(
          'my-logger.service',
        );
        const {out, err} = await capture(async () => {
          const app = await NestFactory.create(AppModule, {logger: new MyLogger()});
          toClose.push(app);
          await app.init();
          new Logger('Mine').error('it broke');
        });
        expect(out).toContain('[info] Starting Nest application...\n');
        expect(out).toContain('[info] AppModule dependencies initialized\n');
        expect(err).toBe('[error] it broke\n');
      },
    );
  }

  claim(
    `${page}#custom-implementation`,
    "an unhandled TypeError reaches error(message, stack, 'ExceptionsHandler'); an HttpException is not logged",
    async () => {
      const calls: unknown[][] = [];
      const recorder = {log() {}, warn() {}, error: (...args: unknown[]) => void calls.push(args)};
      @Controller('boom')
      class BoomController {
        @Get()
        boom() {
          return (undefined as any).missing;
        }
        @Get('missing')
        missing() {
          throw new NotFoundException();
        }
      }
      @Module({controllers: [BoomController]})
      class BoomModule {}
      const app = await NestFactory.create(BoomModule, {logger: recorder});
      toClose.push(app);
      const base = await listen(app);
      const response = await fetch(`${base}/boom`);
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({statusCode: 500, message: 'Internal server error'});
      expect(calls).toHaveLength(1);
      const [message, stack, context] = calls[0] as string[];
      expect(message).toMatch(/Cannot read properties of undefined/);
      expect(stack).toMatch(/^TypeError: /);
      expect(context).toBe('ExceptionsHandler');
      expect((await fetch(`${base}/boom/missing`)).status).toBe(404);
      expect(calls).toHaveLength(1);
    },
  );

  claim(
    `${page}#custom-implementation`,
    'the facade silently drops debug()/verbose() when the logger lacks them',
    async () => {
      const seen: string[] = [];
      const minimal = {log: (m: string) => void seen.push(m), error() {}, warn() {}};
      const app = await NestFactory.create(AppModule, {logger: minimal});
      toClose.push(app);
      const logger = new Logger('X');
      expect(() => logger.debug('dropped')).not.toThrow();
      expect(() => logger.verbose('dropped')).not.toThrow();
      expect(() => Logger.debug('dropped')).not.toThrow();
      logger.log('kept');
      expect(seen).toContain('kept');
      expect(seen).not.toContain('dropped');
    },
  );

  claim(
    `${page}#custom-implementation`,
    'useLogger() with a list of levels calls setLogLevels(); without it the call fails with a TypeError (logged, then process.exit(1) by default)',
    async () => {
      const {MyLogger} = samples(page, {under: 'custom-implementation'}).require(
        'my-logger.service',
      );
      const app = await NestFactory.create(AppModule, {
        logger: new MyLogger(),
        abortOnError: false,
      });
      toClose.push(app);
      expect(() => app.useLogger(['error'])).toThrow(TypeError);
      // With the default abortOnError, Nest's exception zone logs the TypeError and ends the process.
      const strict = await NestFactory.create(AppModule, {logger: new MyLogger()});
      toClose.push(strict);
      let code: number | undefined;
      const {err} = await capture(() => {
        code = exitCodeOf(() => strict.useLogger(['error']));
      });
      expect(code).toBe(1);
      expect(err).toMatch(/^\[error\] .*setLogLevels is not a function/);
      const levels: unknown[] = [];
      const withLevels = Object.assign(new MyLogger(), {
        setLogLevels: (l: unknown) => void levels.push(l),
      });
      app.useLogger(withLevels);
      app.useLogger(['error', 'warn']);
      expect(levels).toEqual([['error', 'warn']]);
    },
  );
});

describe('#extend-built-in-logger', () => {
  claim(
    `${page}#extend-built-in-logger`,
    "a ConsoleLogger subclass's error() override receives (message, stack, context) and super prints the usual format",
    async () => {
      const {MyLogger} = samples(page, {under: 'extend-built-in-logger'}).require(
        'my-logger.service',
      );
      const calls: unknown[][] = [];
      const original = MyLogger.prototype.error;
      class Spy extends MyLogger {
        error(...args: unknown[]) {
          calls.push(args);
          return original.apply(this, args);
        }
      }
      const {err} = await capture(async () => {
        await NestFactory.create(AppModule, {logger: new Spy()}).then((app: any) =>
          toClose.push(app),
        );
        new Logger('Cats').error('Could not save the cat', 'Error: boom\n    at somewhere');
      });
      expect(calls).toEqual([['Could not save the cat', 'Error: boom\n    at somewhere', 'Cats']]);
      expect(err).toMatch(
        /ERROR \[Cats\] Could not save the cat\nError: boom\n {4}at somewhere\n$/,
      );
    },
  );

  for (const lang of ['ts', 'js'] as const) {
    claim(
      `${page}#extend-built-in-logger`,
      `IsoTimeLogger prints an ISO 8601 UTC timestamp on every line (${lang})`,
      async () => {
        const {IsoTimeLogger} = samples(page, {lang}).require('iso-time-logger.service');
        const {out} = await capture(async () => {
          const app = await NestFactory.create(AppModule, {logger: new IsoTimeLogger()});
          toClose.push(app);
        });
        expect(out.split('\n')[0]).toMatch(
          /^\[Nest\] \d+ {2}- \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z {5}LOG \[NestFactory\] Starting Nest application\.\.\.$/,
        );
      },
    );
  }

  claim(
    `${page}#extend-built-in-logger`,
    "new MyLogger('Bootstrap', { logLevels: ['error', 'warn', 'log'] }) keeps debug quiet",
    async () => {
      const {MyLogger} = samples(page, {under: 'extend-built-in-logger'}).require(
        'my-logger.service',
      );
      const line = fragment(page, 'extend-built-in-logger', "new MyLogger('Bootstrap'").value;
      expect(line).toContain("new MyLogger('Bootstrap', { logLevels: ['error', 'warn', 'log'] })");
      const {out} = await capture(async () => {
        const app = await NestFactory.create(AppModule, {
          logger: new MyLogger('Bootstrap', {logLevels: ['error', 'warn', 'log']}),
        });
        toClose.push(app);
        new Logger('Cats').debug('quiet');
        new Logger('Cats').log('loud');
      });
      expect(out).not.toContain('quiet');
      expect(out).toContain('LOG [Cats] loud');
    },
  );

  claim(
    `${page}#extend-built-in-logger`,
    'a subclass of Logger passed as logger throws the message the page quotes',
    async () => {
      class OldStyle extends Logger {}
      let error: Error | undefined;
      await capture(async () => {
        try {
          await NestFactory.create(AppModule, {logger: new OldStyle()});
        } catch (e) {
          error = e as Error;
        }
      });
      expect(error?.message).toBe(
        'Using the "extends Logger" instruction is not allowed in Nest v8. Please, use "extends ConsoleLogger" instead.',
      );
    },
  );

  claim(
    `${page}#extend-built-in-logger`,
    'a subclass of Logger given to useLogger() logs the same message and, by default, ends the process',
    async () => {
      class OldStyle extends Logger {}
      const app = await NestFactory.create(AppModule, {logger: false});
      toClose.push(app);
      (Logger as any).staticInstanceRef = defaultLogger;
      let code: number | undefined;
      const {err} = await capture(() => {
        code = exitCodeOf(() => app.useLogger(new OldStyle()));
      });
      expect(code).toBe(1);
      expect(err).toContain(
        'Using the "extends Logger" instruction is not allowed in Nest v8. Please, use "extends ConsoleLogger" instead.',
      );
    },
  );
});

describe('#dependency-injection', () => {
  const diSet = (lang: 'ts' | 'js' = 'ts') =>
    samples(page, {
      under: 'dependency-injection',
      lang,
      files:
        lang === 'js'
          ? {
              'logger.module': samples(page, {under: 'dependency-injection'}).sources.get(
                'logger.module',
              )!,
            }
          : {},
    });

  for (const lang of ['ts', 'js'] as const) {
    claim(
      `${page}#dependency-injection`,
      `with bufferLogs, the startup lines wait and are printed by the injected MyLogger once listen() starts (${lang})`,
      async () => {
        const set = diSet(lang);
        const {LoggerModule} = set.require('logger.module');
        const {MyLogger} = set.require('my-logger.service');
        @Module({
          imports: [
            ConfigModule.forRoot({
              ignoreEnvFile: true,
              isGlobal: true,
              load: [() => ({LOG_LEVELS: 'error,warn,log'})],
            }),
            LoggerModule,
          ],
          controllers: [CatsController],
        })
        class DiModule {}
        const printedBy: string[] = [];
        const original = MyLogger.prototype.log;
        MyLogger.prototype.log = function (this: any, ...args: unknown[]) {
          printedBy.push(String(args[0]));
          return original.apply(this, args);
        };
        let beforeListen = '';
        const {out} = await capture(async () => {
          const app = await NestFactory.create(DiModule, {bufferLogs: true});
          toClose.push(app);
          app.useLogger(app.get(MyLogger));
          beforeListen = `${printedBy.length}`;
          await app.listen(0, '127.0.0.1');
        });
        MyLogger.prototype.log = original;
        expect(beforeListen).toBe('0');
        expect(printedBy).toContain('Starting Nest application...');
        expect(out).toContain('LOG [NestFactory] Starting Nest application...');
      },
    );
  }

  claim(
    `${page}#dependency-injection`,
    'MyLogger reads LOG_LEVELS from ConfigService: "error,warn,log" leaves debug out',
    async () => {
      const set = diSet();
      const {LoggerModule} = set.require('logger.module');
      const {MyLogger} = set.require('my-logger.service');
      @Module({
        imports: [
          ConfigModule.forRoot({
            ignoreEnvFile: true,
            isGlobal: true,
            load: [() => ({LOG_LEVELS: 'error,warn'})],
          }),
          LoggerModule,
        ],
      })
      class DiModule {}
      const app = await NestFactory.create(DiModule, {logger: false});
      toClose.push(app);
      const logger = app.get(MyLogger);
      expect(logger.isLevelEnabled('warn')).toBe(true);
      expect(logger.isLevelEnabled('log')).toBe(false);
    },
  );

  for (const lang of ['ts', 'js'] as const) {
    claim.failure(
      `${page}#dependency-injection`,
      `LOG_LEVELS missing or empty: the page's MyLogger keeps error, warn and log; 'ERROR, Warn' is read as error and warn; an unknown name ('info') stops the start with a message (${lang})`,
      async () => {
        const set = diSet(lang);
        const {LoggerModule} = set.require('logger.module');
        const {MyLogger} = set.require('my-logger.service');
        const enabled = async (value: string | undefined) => {
          const saved = process.env.LOG_LEVELS;
          if (value === undefined) delete process.env.LOG_LEVELS;
          else process.env.LOG_LEVELS = value;
          try {
            @Module({
              imports: [ConfigModule.forRoot({ignoreEnvFile: true, isGlobal: true}), LoggerModule],
            })
            class DiModule {}
            const app = await NestFactory.create(DiModule, {logger: false, abortOnError: false});
            toClose.push(app);
            const logger = app.get(MyLogger);
            return ['error', 'warn', 'log', 'debug', 'verbose'].filter((level) =>
              logger.isLevelEnabled(level),
            );
          } finally {
            if (saved === undefined) delete process.env.LOG_LEVELS;
            else process.env.LOG_LEVELS = saved;
          }
        };
        expect(await enabled(undefined)).toEqual(['error', 'warn', 'log']);
        expect(await enabled('')).toEqual(['error', 'warn', 'log']);
        expect(await enabled('ERROR, Warn')).toEqual(['error', 'warn']);
        expect(await enabled(' error , warn , log , debug ')).toEqual([
          'error',
          'warn',
          'log',
          'debug',
        ]);
        await expect(enabled('error,info')).rejects.toThrow(
          'LOG_LEVELS: unknown level(s) info; use error, warn, log, debug, verbose',
        );
      },
    );
  }

  claim(
    `${page}#dependency-injection`,
    'when initialization fails, the buffered lines and the error are printed by the default ConsoleLogger',
    async () => {
      @Injectable()
      class NeedsSomething {
        constructor(private readonly missing: CatsController) {}
      }
      @Module({providers: [NeedsSomething]})
      class BrokenModule {}
      let failed = false;
      const {out, err} = await capture(async () => {
        await NestFactory.create(BrokenModule, {bufferLogs: true, abortOnError: false}).catch(
          () => {
            failed = true;
          },
        );
      });
      expect(failed).toBe(true);
      expect(out).toContain('LOG [NestFactory] Starting Nest application...');
      expect(err).toMatch(
        /ERROR \[ExceptionHandler\] Nest can't resolve dependencies of the NeedsSomething/,
      );
    },
  );

  claim(
    `${page}#dependency-injection`,
    'autoFlushLogs: an application context flushes on useLogger(); with false, only flushLogs() does',
    async () => {
      const first = memoryLogger();
      const context = await NestFactory.createApplicationContext(AppModule, {bufferLogs: true});
      toClose.push(context);
      context.useLogger(first.logger);
      expect(first.lines.map((l) => l.message)).toContain('Starting Nest application...');
      await context.close();
      toClose = [];
      const second = memoryLogger();
      const manual = await NestFactory.createApplicationContext(AppModule, {
        bufferLogs: true,
        autoFlushLogs: false,
      });
      toClose.push(manual);
      manual.useLogger(second.logger);
      expect(second.lines).toEqual([]);
      manual.flushLogs();
      expect(second.lines.map((l) => l.message)).toContain('Starting Nest application...');
    },
  );
});

describe('#using-the-logger-for-application-logging', () => {
  for (const lang of ['ts', 'js'] as const) {
    claim(
      `${page}#using-the-logger-for-application-logging`,
      `CatsService logs 'Added "Tom", 1 cats in total' with [CatsService]; logger ['error', 'warn'] silences its debug() (${lang})`,
      async () => {
        const {CatsService} = samples(page, {
          under: 'using-the-logger-for-application-logging',
          lang,
          files: {'interfaces/cat.interface': catInterface(lang)},
        }).require('cats.service');
        const {out} = await capture(async () => {
          const app = await NestFactory.create(AppModule);
          toClose.push(app);
          const cats = new CatsService();
          cats.create({name: 'Tom', age: 3, breed: 'Tabby'});
          cats.findAll();
        });
        expect(out).toMatch(/LOG \[CatsService\] Added "Tom", 1 cats in total\n/);
        expect(out).toMatch(/DEBUG \[CatsService\] Listing all cats\n/);
        const quiet = await capture(async () => {
          const app = await NestFactory.create(AppModule, {logger: ['error', 'warn']});
          toClose.push(app);
          new CatsService().findAll();
        });
        expect(quiet.out).not.toContain('[CatsService]');
      },
    );
  }

  claim(
    `${page}#using-the-logger-for-application-logging`,
    "a static call takes the context as the last string; on a Logger with a context an extra string prints a second line with the Logger's context",
    async () => {
      const {out} = await capture(async () => {
        const app = await NestFactory.create(AppModule, {logger: ['warn']});
        toClose.push(app);
        Logger.warn('Slow query', 'Database');
        new Logger('CatsService').warn('Slow query', 'Database');
      });
      const lines = out
        .trim()
        .split('\n')
        .filter((line) => line.includes('WARN'))
        .map((line) => line.replace(/^.*? {3}(?=WARN)/, ''));
      expect(lines).toEqual([
        'WARN [Database] Slow query',
        'WARN [CatsService] Slow query',
        'WARN [CatsService] Database',
      ]);
    },
  );

  claim(
    `${page}#using-the-logger-for-application-logging`,
    'after useLogger(instance), a Logger created in a class forwards to that instance',
    async () => {
      const log = memoryLogger();
      const app = await NestFactory.create(AppModule, {logger: false});
      toClose.push(app);
      app.useLogger(log.logger);
      new Logger('CatsService').log('forwarded');
      expect(log.lines).toContainEqual({
        level: 'log',
        message: 'forwarded',
        context: 'CatsService',
      });
    },
  );

  claim(
    `${page}#logging-objects-and-errors`,
    'a plain object is printed as indented JSON below "Object:"; error(message, stack) prints the stack on its own lines',
    async () => {
      const {out, err} = await capture(async () => {
        const app = await NestFactory.create(AppModule, {logger: ['debug']});
        toClose.push(app);
        const logger = new Logger('CatsService');
        logger.debug({name: 'Tom', age: 3, breed: 'Tabby'});
        const error = new Error('disk full');
        logger.error('Could not save the cat', error.stack);
      });
      expect(out).toMatch(
        /DEBUG \[CatsService\] Object:\n\{\n {2}"name": "Tom",\n {2}"age": 3,\n {2}"breed": "Tabby"\n\}\n/,
      );
      expect(err).toMatch(
        /ERROR \[CatsService\] Could not save the cat\nError: disk full\n {4}at /,
      );
    },
  );
});

describe('#logging-requests', () => {
  for (const lang of ['ts', 'js'] as const) {
    claim(
      `${page}#logging-requests`,
      `LoggingInterceptor logs "GET /cats <n>ms" with context HTTP for a successful request only; a guard's rejection never reaches it (${lang})`,
      async () => {
        const {LoggingInterceptor} = samples(page, {lang}).require('logging.interceptor');
        @Controller('cats')
        class LoggedController {
          @Get()
          findAll() {
            return ['Tom'];
          }
          @Get('fail')
          fail() {
            throw new NotFoundException();
          }
          @Get('guarded')
          @UseGuards({canActivate: () => false} as any)
          guarded() {
            return 'never';
          }
        }
        @Module({controllers: [LoggedController]})
        class LoggedModule {}
        const log = memoryLogger();
        const app = await NestFactory.create(LoggedModule, {logger: log.logger});
        toClose.push(app);
        app.useGlobalInterceptors(new LoggingInterceptor());
        const base = await listen(app);
        await fetch(`${base}/cats`);
        await fetch(`${base}/cats/fail`);
        expect((await fetch(`${base}/cats/guarded`)).status).toBe(403);
        const http = log.lines
          .filter((line) => line.context === 'HTTP')
          .map((line) => line.message);
        expect(http).toHaveLength(1);
        expect(http[0]).toMatch(/^GET \/cats \d+ms$/);
      },
    );
  }

  for (const lang of ['ts', 'js'] as const) {
    claim.abuse(
      `${page}#logging-requests`,
      `bound globally in an application that also serves GraphQL (@nestjs/graphql 9), the page's LoggingInterceptor lets queries through unlogged and still logs HTTP routes (${lang})`,
      async () => {
        const {LoggingInterceptor} = samples(page, {lang}).require('logging.interceptor');
        const {HelloResolver} = compileModule<any>(`
import { Query, Resolver } from '@nestjs/graphql';
@Resolver()
export class HelloResolver {
  @Query(() => String)
  hello() {
    return 'world';
  }
}
`);
        @Module({
          imports: [GraphQLModule.forRoot({autoSchemaFile: true})],
          providers: [HelloResolver],
          controllers: [CatsController],
        })
        class MixedModule {}
        const log = memoryLogger();
        const app = await NestFactory.create(MixedModule, {logger: log.logger});
        toClose.push(app);
        app.useGlobalInterceptors(new LoggingInterceptor());
        const base = await listen(app);
        const response = await fetch(`${base}/graphql`, {
          method: 'POST',
          headers: {'content-type': 'application/json'},
          body: JSON.stringify({query: '{ hello }'}),
        });
        expect(await response.json()).toEqual({data: {hello: 'world'}});
        expect((await fetch(`${base}/cats`)).status).toBe(200);
        const http = log.lines
          .filter((line) => line.context === 'HTTP')
          .map((line) => line.message);
        expect(http).toHaveLength(1);
        expect(http[0]).toMatch(/^GET \/cats \d+ms$/);
      },
    );
  }
});

describe('#injecting-a-custom-logger', () => {
  const set = (lang: 'ts' | 'js' = 'ts') =>
    samples(page, {
      under: 'injecting-a-custom-logger',
      lang,
      files: {
        'interfaces/cat.interface': catInterface(lang),
        'logger.module': samples(page, {under: 'dependency-injection'}).sources.get(
          'logger.module',
        )!,
      },
    });

  for (const lang of ['ts', 'js'] as const) {
    claim(
      `${page}#injecting-a-custom-logger`,
      `the transient MyLogger gives each consumer its own instance and context; audit() prints 'AUDIT "<user>" "<action>"' (${lang})`,
      async () => {
        const s = set(lang);
        const {LoggerModule} = s.require('logger.module');
        const {CatsService} = s.require('cats.service');
        const {MyLogger} = s.require('my-logger.service');
        @Injectable()
        class OtherConsumer {
          constructor(readonly logger: any) {}
        }
        Reflect.defineMetadata('design:paramtypes', [MyLogger], OtherConsumer);
        @Module({imports: [LoggerModule], providers: [CatsService, OtherConsumer]})
        class CatsModule {}
        let code: number | undefined;
        const {out, err} = await capture(async () => {
          const app = await NestFactory.create(CatsModule, {logger: ['log']});
          toClose.push(app);
          app.get(CatsService).remove('Tom', 'ada');
          const other = app.get(OtherConsumer).logger;
          expect(other).not.toBe(app.get(CatsService).logger);
          code = exitCodeOf(() => app.get(MyLogger));
        });
        expect(code).toBe(1);
        expect(err).toMatch(/MyLogger is marked as a scoped provider/);
        expect(out).toMatch(/LOG \[CatsService\] AUDIT "ada" "removed cat Tom"\n/);
      },
    );
  }

  for (const lang of ['ts', 'js'] as const) {
    claim.abuse(
      `${page}#injecting-a-custom-logger`,
      `a cat name with a line break and a fake AUDIT entry: the page's audit() prints one AUDIT line, the forged entry stays quoted inside it (${lang})`,
      async () => {
        const s = set(lang);
        const {LoggerModule} = s.require('logger.module');
        const {CatsService} = s.require('cats.service');
        @Module({imports: [LoggerModule], providers: [CatsService]})
        class CatsModule {}
        const forged =
          'Tom\n[Nest] 1  - 01/18/2022, 9:41:07 AM     LOG [CatsService] AUDIT "admin" "removed cat Felix"';
        const {out} = await capture(async () => {
          const app = await NestFactory.create(CatsModule, {logger: ['log']});
          toClose.push(app);
          app.get(CatsService).remove(forged, 'mallory');
        });
        const audit = out.split('\n').filter((line) => line.includes('AUDIT'));
        expect(audit).toHaveLength(1);
        expect(audit[0]).toMatch(
          /LOG \[CatsService\] AUDIT "mallory" "removed cat Tom\\n\[Nest\] 1 .*AUDIT \\"admin\\" \\"removed cat Felix\\""$/,
        );
        expect(out.split('\n').filter((line) => line.startsWith('[Nest] 1  - '))).toEqual([]);
      },
    );
  }

  claim(
    `${page}#injecting-a-custom-logger`,
    'app.useLogger(new MyLogger()) makes Nest print through the class as well',
    async () => {
      const {MyLogger} = set().require('my-logger.service');
      const instance = new MyLogger();
      const seen: string[] = [];
      const original = instance.log.bind(instance);
      instance.log = (...args: any[]) => {
        seen.push(String(args[0]));
        return original(...args);
      };
      await capture(async () => {
        const app = await NestFactory.create(AppModule, {bufferLogs: true});
        toClose.push(app);
        app.useLogger(instance);
        await app.listen(0, '127.0.0.1');
      });
      expect(seen).toContain('Starting Nest application...');
    },
  );
});

claim(
  `${page}#logging-in-tests`,
  "setLogger(new ConsoleLogger('Test', { logLevels: ['error'] })) keeps a testing module quiet except for errors",
  async () => {
    const {out, err} = await capture(async () => {
      const moduleRef = await Test.createTestingModule({imports: [AppModule]})
        .setLogger(new ConsoleLogger('Test', {logLevels: ['error']}))
        .compile();
      toClose.push(moduleRef);
      new Logger('Spec').log('quiet');
      new Logger('Spec').error('shown');
    });
    expect(out).toBe('');
    expect(err).toMatch(/ERROR \[Spec\] shown/);
  },
);

describe('#production-json-logging', () => {
  for (const lang of ['ts', 'js'] as const) {
    claim(
      `${page}#production-json-logging`,
      `JsonLogger writes the record the page shows, one JSON object per line (${lang})`,
      async () => {
        const {JsonLogger} = samples(page, {lang}).require('json-logger.service');
        const {CatsService} = samples(page, {
          under: 'using-the-logger-for-application-logging',
          lang,
          files: {'interfaces/cat.interface': catInterface(lang)},
        }).require('cats.service');
        const {out} = await capture(async () => {
          const app = await NestFactory.create(AppModule, {logger: new JsonLogger()});
          toClose.push(app);
          const cats = new CatsService();
          cats.create({name: 'Felix'});
          cats.create({name: 'Garfield'});
          (cats as any).logger.debug('not written: debug is off');
          cats.create({name: 'Tom'});
        });
        const lines = out.trim().split('\n');
        const last = lines[lines.length - 1];
        expect(lines.every((line) => JSON.parse(line))).toBe(true);
        expect(out).not.toContain('debug is off');
        expectOutput(page, 'json-log', last, [
          [/"time": ?"[^"]+"/, '"time":"T"'],
          [/"pid": ?\d+/, '"pid":0'],
        ]);
      },
    );
  }

  claim(
    `${page}#production-json-logging`,
    'an error record carries the stack and the context; setLogLevels() changes what is written',
    async () => {
      const {JsonLogger} = samples(page).require('json-logger.service');
      const json = new JsonLogger();
      const {out, err} = await capture(async () => {
        const app = await NestFactory.create(AppModule, {logger: json});
        toClose.push(app);
        new Logger('Cats').error('Could not save', 'Error: boom');
        app.useLogger(['debug']);
        new Logger('Cats').debug('now visible');
      });
      const error = JSON.parse(err.trim());
      expect(error).toMatchObject({
        level: 'error',
        context: 'Cats',
        message: 'Could not save',
        stack: 'Error: boom',
      });
      expect(out).toContain('"message":"now visible"');
    },
  );
});

void UseInterceptors;

const forgedName = 'Tom\n[Nest] 1  - 01/18/2022, 9:41:07 AM     LOG [AuthService] admin signed in';

claim.abuse(
  `${page}#using-the-logger-for-application-logging`,
  "a cat name with a line break and a fake entry stays inside the one real line (quoted); unquoted, ConsoleLogger would print the forged '[AuthService] admin signed in' line",
  async () => {
    const {CatsService} = samples(page, {
      under: 'using-the-logger-for-application-logging',
      files: {'interfaces/cat.interface': catInterface('ts')},
    }).require('cats.service');
    const {out} = await capture(async () => {
      const app = await NestFactory.create(AppModule);
      toClose.push(app);
      new CatsService().create({name: forgedName});
      new Logger('CatsService').log(`Added ${forgedName}, 1 cats in total`);
    });
    const lines = out.split('\n');
    const quoted = lines.filter((line) => line.includes('LOG [CatsService] Added "Tom\\n[Nest]'));
    expect(quoted).toHaveLength(1);
    expect(quoted[0]).toContain('[AuthService] admin signed in", 1 cats in total');
    // The unquoted call: the fake entry starts a line of its own.
    expect(lines.filter((line) => line.startsWith('[Nest] 1  - ')).length).toBe(1);
  },
);

claim.abuse(
  `${page}#production-json-logging`,
  'JsonLogger keeps a message with line breaks on one line: JSON escapes them, so no record can be forged',
  async () => {
    const {JsonLogger} = samples(page).require('json-logger.service');
    const {out} = await capture(async () => {
      const app = await NestFactory.create(AppModule, {logger: new JsonLogger()});
      toClose.push(app);
      new Logger('CatsService').log(`Added ${forgedName}`);
    });
    const records = out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records[records.length - 1].message).toBe(`Added ${forgedName}`);
    expect(records.every((record) => record.context !== 'AuthService')).toBe(true);
  },
);

claim.abuse(
  `${page}#logging-requests`,
  "LoggingInterceptor writes no secret: a request with ?token=, an Authorization header and a password in its body is logged as 'POST /cats <n>ms'",
  async () => {
    const {LoggingInterceptor} = samples(page).require('logging.interceptor');
    @Controller('cats')
    class LoggedController {
      @Post()
      create() {
        return {};
      }
    }
    @Module({controllers: [LoggedController]})
    class LoggedModule {}
    const log = memoryLogger();
    const app = await NestFactory.create(LoggedModule, {logger: log.logger});
    toClose.push(app);
    app.useGlobalInterceptors(new LoggingInterceptor());
    const base = await listen(app);
    await fetch(`${base}/cats?token=reset-code-123`, {
      method: 'POST',
      headers: {authorization: 'Bearer eyJhbGciOi.secret', 'content-type': 'application/json'},
      body: JSON.stringify({password: 'hunter2'}),
    });
    const http = log.lines.filter((line) => line.context === 'HTTP').map((line) => line.message);
    expect(http).toHaveLength(1);
    expect(http[0]).toMatch(/^POST \/cats \d+ms$/);
    expect(log.text()).not.toMatch(/reset-code-123|eyJhbGciOi|hunter2/);
  },
);

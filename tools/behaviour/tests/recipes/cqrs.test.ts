import {afterAll, beforeAll, describe, expect} from 'vitest';
import {
  claim,
  samples,
  nest,
  listen,
  memoryLogger,
  expectOutput,
  compileModule,
  fragment,
} from '../../lib';
import {join} from 'node:path';
import {capturedConsole, childApp, consoleMask, flatImports} from './_support';

const page = 'docs/recipes/cqrs.md';
const {NestFactory} = nest('@nestjs/core');
const {Module} = nest('@nestjs/common');
const cqrs = nest('@nestjs/cqrs');

async function until(check: () => boolean | Promise<boolean>, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const post = (base: string, path: string, body: unknown) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: {'content-type': 'application/json'},
    body: JSON.stringify(body),
  });

/**
 * The page's files, flattened into one folder by the harness: the three barrels (commands/handlers/index,
 * events/handlers/index, queries/handlers/index) would all be index.js there, so they get distinct names
 * and the module imports them by those names. The module, the barrels and app.module are shown once, for
 * both languages; the JS run takes them from the TypeScript fences (they contain no types).
 */
function heroesSet(lang: 'ts' | 'js') {
  const ts = samples(page);
  const files: Record<string, string> = {
    'command-handlers': ts.sources.get('commands/handlers/index')!,
    'event-handlers': ts.sources.get('events/handlers/index')!,
    'query-handlers': ts.sources.get('queries/handlers/index')!,
  };
  if (lang === 'js') {
    files['heroes.module'] = ts.sources.get('heroes.module')!;
    files['app.module'] = ts.sources.get('app.module')!;
  }
  return samples(page, {
    lang,
    files,
    edit: {
      'heroes.module': [
        ["from './commands/handlers'", "from './command-handlers'"],
        ["from './events/handlers'", "from './event-handlers'"],
        ["from './queries/handlers'", "from './query-handlers'"],
      ],
    },
  });
}

for (const lang of ['ts', 'js'] as const) {
  describe(`the heroes module (${lang})`, () => {
    let app: any;
    let base: string;
    const log = memoryLogger();
    beforeAll(async () => {
      const set = heroesSet(lang);
      const {AppModule} = set.require('app.module');
      app = await NestFactory.create(AppModule, {logger: log.logger});
      base = await listen(app);
    });
    afterAll(async () => {
      await app?.close();
    });

    claim(
      `${page}#module-setup`,
      `POST /heroes/hero-1/kill runs the command, the event handler logs, the saga drops the item, GET shows both (${lang})`,
      async () => {
        const response = await post(base, '/heroes/hero-1/kill', {dragonId: 'dragon-7'});
        expect(response.status).toBe(201);
        await until(
          async () => (await (await fetch(`${base}/heroes/hero-1`)).json()).items.length === 1,
        );
        const view = await (await fetch(`${base}/heroes/hero-1`)).json();
        expectOutput(page, 'hero-view', view);
      },
    );

    claim(
      `${page}#handling-events`,
      `the event handler logs through the application logger with its class name as context (${lang})`,
      async () => {
        await until(() => log.lines.some((line) => line.context === 'HeroKilledDragonHandler'));
        const line = log.lines.find((l) => l.context === 'HeroKilledDragonHandler')!;
        expect(line).toEqual({
          level: 'log',
          context: 'HeroKilledDragonHandler',
          message: 'Aria killed dragon-7 (1 so far)',
        });
      },
    );

    claim(
      `${page}#dispatching-a-command`,
      `a handler's rejection reaches the controller: an unknown hero gives 404 with the NotFoundException message (${lang})`,
      async () => {
        const response = await post(base, '/heroes/nobody/kill', {dragonId: 'dragon-1'});
        expect(response.status).toBe(404);
        expect(await response.json()).toEqual({
          statusCode: 404,
          message: 'Hero "nobody" does not exist',
          error: 'Not Found',
        });
      },
    );
  });
}

claim(
  `${page}#handling-a-command`,
  'CommandBus.execute() throws CommandHandlerNotFoundException synchronously; QueryBus.execute() rejects with QueryHandlerNotFoundException',
  async () => {
    @Module({imports: [cqrs.CqrsModule]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, {logger: false});
    await app.init();
    try {
      class Unknown {}
      expect(() => app.get(cqrs.CommandBus).execute(new Unknown())).toThrow(
        cqrs.CommandHandlerNotFoundException,
      );
      const result = app.get(cqrs.QueryBus).execute(new Unknown());
      expect(result).toBeInstanceOf(Promise);
      await expect(result).rejects.toBeInstanceOf(cqrs.QueryHandlerNotFoundException);
    } finally {
      await app.close();
    }
  },
);

claim(
  `${page}#handling-a-command`,
  "a handler is found even when its own module doesn't import CqrsModule (the scan covers every module)",
  async () => {
    const {PingHandler, PingCommand} = compileModule(`
    import { CommandHandler } from '@nestjs/cqrs';
    export class PingCommand {}
    @CommandHandler(PingCommand)
    export class PingHandler { async execute() { return 'pong'; } }`);
    @Module({providers: [PingHandler]})
    class PingModule {}
    @Module({imports: [cqrs.CqrsModule, PingModule]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, {logger: false});
    await app.init();
    try {
      expect(await app.get(cqrs.CommandBus).execute(new PingCommand())).toBe('pong');
    } finally {
      await app.close();
    }
  },
);

claim(
  `${page}#handling-a-command`,
  'before onApplicationBootstrap no handler is registered: a command sent from onModuleInit finds none',
  async () => {
    const {PingHandler, PingCommand, Early, seen} = compileModule(`
    import { Injectable } from '@nestjs/common';
    import { CommandBus, CommandHandler } from '@nestjs/cqrs';
    export class PingCommand {}
    @CommandHandler(PingCommand)
    export class PingHandler { async execute() { return 'pong'; } }
    export const seen: { error?: unknown } = {};
    @Injectable()
    export class Early {
      constructor(private readonly bus: CommandBus) {}
      onModuleInit() {
        try { this.bus.execute(new PingCommand()); } catch (error) { seen.error = error; }
      }
    }`);
    @Module({imports: [cqrs.CqrsModule], providers: [PingHandler, Early]})
    class AppModule {}
    const app = await NestFactory.create(AppModule, {logger: false});
    await app.init();
    try {
      expect(seen.error).toBeInstanceOf(cqrs.CommandHandlerNotFoundException);
      expect(await app.get(cqrs.CommandBus).execute(new PingCommand())).toBe('pong');
    } finally {
      await app.close();
    }
  },
);

claim(
  `${page}#handling-a-command`,
  'a handler marked request-scoped stops the bootstrap with InvalidClassScopeException',
  async () => {
    const {providers} = compileModule(`
    import { Injectable, Scope } from '@nestjs/common';
    import { CommandHandler } from '@nestjs/cqrs';
    export class PingCommand {}
    @CommandHandler(PingCommand)
    @Injectable({ scope: Scope.REQUEST })
    export class PingHandler { async execute() { return 'pong'; } }
    export const providers = [PingHandler];`);
    @Module({imports: [cqrs.CqrsModule], providers})
    class AppModule {}
    const app = await NestFactory.create(AppModule, {logger: false});
    await expect(app.init()).rejects.toThrow(
      'PingHandler is marked as a scoped provider. Request and transient-scoped providers can\'t be used in combination with "get()" method.',
    );
    await app.close().catch(() => undefined);
  },
);

claim(
  `${page}#handling-a-command`,
  'a handler that injects a request-scoped provider boots, but its constructor never ran: the dependency is undefined when it executes',
  async () => {
    const {providers, PingCommand} = compileModule(`
    import { Injectable, Scope } from '@nestjs/common';
    import { CommandHandler } from '@nestjs/cqrs';
    @Injectable({ scope: Scope.REQUEST })
    export class CurrentUser { name = 'aria'; }
    export class PingCommand {}
    @CommandHandler(PingCommand)
    export class PingHandler {
      constructor(private readonly user: CurrentUser) {}
      async execute() { return this.user.name; }
    }
    export const providers = [CurrentUser, PingHandler];`);
    @Module({imports: [cqrs.CqrsModule], providers})
    class AppModule {}
    const app = await NestFactory.create(AppModule, {logger: false});
    await app.init();
    try {
      await expect(app.get(cqrs.CommandBus).execute(new PingCommand())).rejects.toThrow(
        /Cannot read properties of undefined \(reading 'name'\)/,
      );
    } finally {
      await app.close();
    }
  },
);

claim(
  `${page}#publishing-events-directly`,
  'EventBus.publish() skips the aggregate: the event reaches its handler, the hero is unchanged',
  async () => {
    const set = samples(page);
    const {HeroesAdminService} = set.require('heroes-admin.service');
    const {HeroFoundItemEvent} = set.require('events/impl/hero-found-item.event');
    const {HeroRepository} = set.require('repository/hero.repository');
    const received: unknown[] = [];
    @cqrs.EventsHandler(HeroFoundItemEvent)
    class Collector {
      handle(event: unknown) {
        received.push(event);
      }
    }
    @Module({
      imports: [cqrs.CqrsModule],
      providers: [HeroesAdminService, HeroRepository, Collector],
    })
    class AppModule {}
    const app = await NestFactory.create(AppModule, {logger: false});
    await app.init();
    try {
      app.get(HeroesAdminService).grantDailyReward('hero-2');
      await until(() => received.length === 1);
      expect(received[0]).toEqual(new HeroFoundItemEvent('hero-2', 'daily-chest'));
      expect((await app.get(HeroRepository).findOneById('hero-2')).items).toEqual([]);
    } finally {
      await app.close();
    }
  },
);

claim(
  `${page}#aggregates`,
  'apply() queues the event and runs the on<EventName> method (the testing sample)',
  async () => {
    const set = samples(page);
    const {Hero} = set.require('models/hero.model');
    const {HeroKilledDragonEvent} = set.require('events/impl/hero-killed-dragon.event');
    const hero = new Hero('hero-1', 'Aria');
    hero.killEnemy('dragon-7');
    expect(hero.getUncommittedEvents()).toEqual([new HeroKilledDragonEvent('hero-1', 'dragon-7')]);
    expect(hero.dragonsKilled).toBe(1);
  },
);

claim(
  `${page}#testing`,
  'the saga maps a HeroKilledDragonEvent to DropAncientItemCommand(heroId, ancient-sword)',
  async () => {
    const {lastValueFrom, of} = nest('rxjs');
    const {toArray} = nest('rxjs/operators');
    const set = samples(page);
    const {HeroesGameSagas} = set.require('sagas/heroes.sagas');
    const {HeroKilledDragonEvent} = set.require('events/impl/hero-killed-dragon.event');
    const {DropAncientItemCommand} = set.require('commands/impl/drop-ancient-item.command');
    const commands = await lastValueFrom(
      new HeroesGameSagas()
        .dragonKilled(of(new HeroKilledDragonEvent('hero-1', 'dragon-7')))
        .pipe(toArray()),
    );
    expect(commands).toEqual([new DropAncientItemCommand('hero-1', 'ancient-sword')]);
  },
);

claim(
  `${page}#handling-events`,
  "with Nest's ConsoleLogger, killing a dragon prints the line shown",
  async () => {
    const console = capturedConsole();
    try {
      const {AppModule} = heroesSet('ts').require('app.module');
      const app = await NestFactory.create(AppModule, {logger: console.logger});
      try {
        const base = await listen(app);
        await post(base, '/heroes/hero-1/kill', {dragonId: 'dragon-7'});
        await until(() => console.lines.some((line) => line.includes('[HeroKilledDragonHandler]')));
        expectOutput(
          page,
          'dragon-killed-log',
          console.lines.find((line) => line.includes('[HeroKilledDragonHandler]'))!,
          consoleMask,
        );
      } finally {
        await app.close();
      }
    } finally {
      console.restore();
    }
  },
);

// Abuse cases and failure modes.

/** The heroes app in a child process, with HeroRepository.findOneById failing from its `failFrom`-th call on. */
function heroesChild(failFrom: number, patch = ''): ReturnType<typeof childApp> {
  const set = heroesSet('ts');
  return childApp(
    `${flatImports(set.dir)}
const { NestFactory } = require('@nestjs/core');
const { AppModule } = require(${JSON.stringify(join(set.dir, 'app.module.js'))});
const { HeroRepository } = require(${JSON.stringify(join(set.dir, 'hero.repository.js'))});
const { HeroKilledDragonHandler } = require(${JSON.stringify(join(set.dir, 'hero-killed-dragon.handler.js'))});
(async () => {
  const app = await NestFactory.create(AppModule, { logger: ['error', 'log'] });
  const repository = app.get(HeroRepository);
  const findOneById = repository.findOneById.bind(repository);
  let calls = 0;
  repository.findOneById = async (id) => {
    calls += 1;
    if (calls >= ${failFrom}) throw new Error('connection to the database lost');
    return findOneById(id);
  };
  ${patch}
  await app.listen(0, '127.0.0.1');
  console.log('PORT ' + app.getHttpServer().address().port);
})();
`,
    set.dir,
  );
}

claim.failure(
  `${page}#handling-events`,
  "the repository fails inside the page's event handler and the saga's command handler: both log the error and the process carries on",
  async () => {
    const child = heroesChild(2);
    try {
      const base = `http://127.0.0.1:${await child.port}`;
      expect((await post(base, '/heroes/hero-1/kill', {dragonId: 'dragon-7'})).status).toBe(201);
      await until(
        () =>
          child.output().includes('Could not report dragon-7: connection to the database lost') &&
          child
            .output()
            .includes('Could not give ancient-sword to hero-1: connection to the database lost'),
      );
      // Still serving: the query fails with the repository (500), but it is answered.
      expect((await fetch(`${base}/heroes/hero-1`)).status).toBe(500);
    } finally {
      child.kill();
    }
  },
);

claim.failure(
  `${page}#handling-events`,
  'what the try/catch prevents: a handle() that rejects stops the whole process after the request was answered',
  async () => {
    const child = heroesChild(
      Infinity,
      `app.get(HeroKilledDragonHandler).handle = async () => { throw new Error('connection to the database lost'); };`,
    );
    try {
      const base = `http://127.0.0.1:${await child.port}`;
      expect((await post(base, '/heroes/hero-1/kill', {dragonId: 'dragon-7'})).status).toBe(201);
      const code = await Promise.race([
        child.exited,
        new Promise((r) => setTimeout(() => r('alive'), 5000)),
      ]);
      expect(code).toBe(1);
      expect(child.output()).toContain('"HeroKilledDragonHandler" has thrown an error.');
    } finally {
      child.kill();
    }
  },
);

claim.abuse(
  `${page}#dispatching-a-command`,
  'the DTO class validates nothing: a body without dragonId (or with an object in it) kills the dragon undefined',
  async () => {
    const {AppModule} = heroesSet('ts').require('app.module');
    const app = await NestFactory.create(AppModule, {logger: false});
    try {
      const base = await listen(app);
      expect((await post(base, '/heroes/hero-2/kill', {})).status).toBe(201);
      expect((await post(base, '/heroes/hero-2/kill', {dragonId: {$gt: ''}})).status).toBe(201);
      await until(
        async () => (await (await fetch(`${base}/heroes/hero-2`)).json()).dragonsKilled === 2,
      );
    } finally {
      await app.close();
    }
  },
);

claim.abuse(
  `${page}#dispatching-a-command`,
  'with @IsString() on the DTO and a global ValidationPipe, the TypeScript controller refuses {} (400); the JavaScript one, without type metadata, still accepts it',
  async () => {
    const dto = {
      ts: "import { IsString } from 'class-validator';\nexport class KillDragonDto { @IsString() dragonId: string; }",
      js: "import { IsString } from 'class-validator';\nexport class KillDragonDto { @IsString() dragonId; }",
    };
    const {ValidationPipe} = nest('@nestjs/common');
    for (const [lang, status] of [
      ['ts', 400],
      ['js', 201],
    ] as const) {
      const ts = samples(page);
      const set = samples(page, {
        lang,
        files: {
          'command-handlers': ts.sources.get('commands/handlers/index')!,
          'event-handlers': ts.sources.get('events/handlers/index')!,
          'query-handlers': ts.sources.get('queries/handlers/index')!,
          'heroes.module': ts.sources.get('heroes.module')!,
          'app.module': ts.sources.get('app.module')!,
          'dto/kill-dragon.dto': dto[lang],
        },
        edit: {
          'heroes.module': [
            ["from './commands/handlers'", "from './command-handlers'"],
            ["from './events/handlers'", "from './event-handlers'"],
            ["from './queries/handlers'", "from './query-handlers'"],
          ],
        },
      });
      const {AppModule} = set.require('app.module');
      const app = await NestFactory.create(AppModule, {logger: false});
      app.useGlobalPipes(new ValidationPipe());
      try {
        const base = await listen(app);
        expect((await post(base, '/heroes/hero-1/kill', {})).status, lang).toBe(status);
      } finally {
        await app.close();
      }
    }
  },
);

/**
 * The heroes app in a child process with the page's veteranRewarded saga added to HeroesGameSagas
 * (`filterEdit` adapts its filter, to show what the page's form prevents).
 */
function veteranChild(filterEdit: [string, string] | null): ReturnType<typeof childApp> {
  let saga = fragment(page, 'sagas', 'veteranRewarded').value.trim();
  if (filterEdit) {
    if (!saga.includes(filterEdit[0])) throw new Error(`the saga has no ${filterEdit[0]}`);
    saga = saga.replace(filterEdit[0], filterEdit[1]);
  }
  const ts = samples(page);
  const set = samples(page, {
    files: {
      'command-handlers': ts.sources.get('commands/handlers/index')!,
      'event-handlers': ts.sources.get('events/handlers/index')!,
      'query-handlers': ts.sources.get('queries/handlers/index')!,
    },
    edit: {
      'heroes.module': [
        ["from './commands/handlers'", "from './command-handlers'"],
        ["from './events/handlers'", "from './event-handlers'"],
        ["from './queries/handlers'", "from './query-handlers'"],
      ],
      'sagas/heroes.sagas': [
        [
          "import { map } from 'rxjs/operators';",
          "import { delay, filter, map } from 'rxjs/operators';",
        ],
        [/\n\}\n?$/, `\n\n${saga}\n}\n`],
      ],
    },
  });
  return childApp(
    `${flatImports(set.dir)}
const { NestFactory } = require('@nestjs/core');
const { AppModule } = require(${JSON.stringify(join(set.dir, 'app.module.js'))});
(async () => {
  const app = await NestFactory.create(AppModule, { logger: ['error'] });
  await app.listen(0, '127.0.0.1');
  console.log('PORT ' + app.getHttpServer().address().port);
})();
`,
    set.dir,
  );
}

claim.failure(
  `${page}#sagas`,
  "a kill without dragonId ({}) reaches the page's veteranRewarded saga as undefined: its String() filter lets the process serve on; event.dragonId.startsWith() would answer 201 and then end the process",
  async () => {
    const child = veteranChild(null);
    try {
      const base = `http://127.0.0.1:${await child.port}`;
      expect((await post(base, '/heroes/hero-1/kill', {})).status).toBe(201);
      expect((await post(base, '/heroes/hero-1/kill', {dragonId: 'elder-9'})).status).toBe(201);
      await until(async () =>
        (await (await fetch(`${base}/heroes/hero-1`)).json()).items.includes('elder-scale'),
      );
      expect(
        await Promise.race([child.exited, new Promise((r) => setTimeout(() => r('alive'), 300))]),
      ).toBe('alive');
    } finally {
      child.kill();
    }
    const loose = veteranChild(['String(event.dragonId).startsWith', 'event.dragonId.startsWith']);
    try {
      const base = `http://127.0.0.1:${await loose.port}`;
      expect((await post(base, '/heroes/hero-1/kill', {})).status).toBe(201);
      const code = await Promise.race([
        loose.exited,
        new Promise((r) => setTimeout(() => r('alive'), 5000)),
      ]);
      expect(code).toBe(1);
      expect(loose.output()).toContain(
        'Command handler which execution was triggered by Saga has thrown an error.',
      );
      expect(loose.output()).toContain(
        "Cannot read properties of undefined (reading 'startsWith')",
      );
    } finally {
      loose.kill();
    }
  },
);

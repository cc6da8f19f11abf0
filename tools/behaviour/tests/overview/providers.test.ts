import {expect} from 'vitest';
import {claim, samples, nest} from '../../lib';
import {start, call, pageSamples} from './_support';

const common = nest('@nestjs/common');
const {NestFactory} = nest('@nestjs/core');
const {Module, Injectable, Inject, Controller, Get, Scope} = common;
const page = 'docs/providers.md';

async function context(root: unknown) {
  return NestFactory.createApplicationContext(root, {logger: false, abortOnError: false});
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#provider-registration`,
    `with CatsService registered in AppModule, POST /cats stores a cat and GET /cats returns it (${lang})`,
    async () => {
      const set = pageSamples(page, {
        lang,
        files: lang === 'ts' ? {'create-cat.dto': 'export class CreateCatDto {}'} : {},
      });
      const {AppModule} = set.require('app.module');
      const {base} = await start(AppModule);
      const created = await call(base, 'POST', '/cats', {
        body: {name: 'Tom', age: 3, breed: 'Persian'},
      });
      expect([created.status, created.text]).toEqual([201, '']);
      expect((await call(base, 'GET', '/cats')).json()).toEqual([
        {name: 'Tom', age: 3, breed: 'Persian'},
      ]);
    },
  );

  claim(
    `${page}#provider-registration`,
    `without the providers entry, startup fails naming the class whose dependency is missing and the module (${lang})`,
    async () => {
      const set = pageSamples(page, {
        lang,
        files: lang === 'ts' ? {'create-cat.dto': 'export class CreateCatDto {}'} : {},
      });
      const {CatsController} = set.require('cats.controller');
      @Module({controllers: [CatsController]})
      class AppModule {}
      const error = await context(AppModule).then(
        () => 'started',
        (e: Error) => e.message,
      );
      expect(error).toMatch(
        /^Nest can't resolve dependencies of the CatsController \(\?\)\. Please make sure that the argument CatsService at index \[0\] is available in the AppModule context\./,
      );
    },
  );
}

claim(
  `${page}#dependency-injection`,
  `Nest creates the service once and hands the same instance to every class that asks for it`,
  async () => {
    const set = samples(page, {files: {'create-cat.dto': 'export class CreateCatDto {}'}});
    const {CatsController} = set.require('cats.controller');
    const {CatsService} = set.require('cats.service');
    @Injectable()
    class Other {
      constructor(@Inject(CatsService) readonly cats: unknown) {}
    }
    @Module({controllers: [CatsController], providers: [CatsService, Other]})
    class AppModule {}
    const app = await context(AppModule);
    expect(app.get(CatsController).catsService).toBe(app.get(CatsService));
    expect(app.get(Other).cats).toBe(app.get(CatsService));
    await app.close();
  },
);

claim(
  `${page}#optional-providers`,
  `without an 'HTTP_OPTIONS' provider the @Optional() parameter is undefined and getTimeout() returns 5000; with one, its timeout`,
  async () => {
    const {HttpService} = samples(page, {pick: {'http.service': 1}}).require('http.service');
    @Module({providers: [HttpService]})
    class Bare {}
    const bare = await context(Bare);
    expect(bare.get(HttpService).options).toBeUndefined();
    expect(bare.get(HttpService).getTimeout()).toBe(5000);
    await bare.close();
    @Module({
      providers: [
        HttpService,
        {provide: 'HTTP_OPTIONS', useValue: {baseUrl: 'http://cats', timeout: 250}},
      ],
    })
    class Configured {}
    const configured = await context(Configured);
    expect(configured.get(HttpService).getTimeout()).toBe(250);
    await configured.close();
  },
);

claim(
  `${page}#optional-providers`,
  `without @Optional(), a missing provider stops the application at startup`,
  async () => {
    @Injectable()
    class Strict {
      constructor(@Inject('HTTP_OPTIONS') readonly options: unknown) {}
    }
    @Module({providers: [Strict]})
    class AppModule {}
    const error = await context(AppModule).then(
      () => 'started',
      (e: Error) => e.message,
    );
    expect(error).toMatch(/^Nest can't resolve dependencies of the Strict \(\?\)/);
  },
);

claim(
  `${page}#property-based-injection`,
  `@Inject('HTTP_OPTIONS') on a property fills it, also in a subclass that declares no constructor`,
  async () => {
    const {HttpService} = samples(page, {pick: {'http.service': 2}}).require('http.service');
    @Injectable()
    class CatsHttpService extends HttpService {}
    const options = {baseUrl: 'http://cats.example.com', timeout: 1000};
    @Module({
      providers: [HttpService, CatsHttpService, {provide: 'HTTP_OPTIONS', useValue: options}],
    })
    class AppModule {}
    const app = await context(AppModule);
    expect(app.get(HttpService).getBaseUrl()).toBe('http://cats.example.com');
    expect(app.get(CatsHttpService).getBaseUrl()).toBe('http://cats.example.com');
    await app.close();
  },
);

claim(
  `${page}#scopes`,
  `a request-scoped provider is created for each request; a transient one for each consumer`,
  async () => {
    let requestScoped = 0;
    let transient = 0;
    @Injectable({scope: Scope.REQUEST})
    class PerRequest {
      constructor() {
        requestScoped += 1;
      }
    }
    @Injectable({scope: Scope.TRANSIENT})
    class PerConsumer {
      constructor() {
        transient += 1;
      }
    }
    @Injectable()
    class A {
      constructor(readonly t: PerConsumer) {}
    }
    @Injectable()
    class B {
      constructor(readonly t: PerConsumer) {}
    }
    @Controller('scopes')
    class ScopesController {
      constructor(readonly perRequest: PerRequest) {}
      @Get()
      get() {
        return 'ok';
      }
    }
    @Module({controllers: [ScopesController], providers: [PerRequest, PerConsumer, A, B]})
    class AppModule {}
    const {app, base} = await start(AppModule);
    await call(base, 'GET', '/scopes');
    await call(base, 'GET', '/scopes');
    expect(requestScoped).toBe(2);
    expect(transient).toBe(2);
    expect(app.get(A).t).not.toBe(app.get(B).t);
  },
);

// Review 4: what @Injectable() really provides, and shared state in a singleton.

claim.failure(
  `${page}#services`,
  `a provider class without any decorator is created, but its constructor dependency is undefined, and the application starts without an error`,
  async () => {
    @Injectable()
    class Plain {
      value = 42;
    }
    // No decorator: TypeScript writes no design:paramtypes for the constructor.
    class PlainWithDependency {
      constructor(readonly plain: Plain) {}
    }
    @Injectable()
    class Decorated {
      constructor(readonly plain: Plain) {}
    }
    expect(Reflect.getMetadata('design:paramtypes', PlainWithDependency)).toBeUndefined();
    @Module({providers: [Plain, PlainWithDependency, Decorated]})
    class AppModule {}
    const app = await context(AppModule);
    try {
      expect(app.get(PlainWithDependency)).toBeInstanceOf(PlainWithDependency);
      expect(app.get(PlainWithDependency).plain).toBeUndefined();
      expect(app.get(Decorated).plain.value).toBe(42);
    } finally {
      await app.close();
    }
  },
);

claim.abuse(
  `${page}#scopes`,
  `a singleton that keeps the current user in a field hands alice's request bob's name when the two requests overlap`,
  async () => {
    @Injectable()
    class GreetingService {
      private currentUser = '';
      async greet(user: string) {
        this.currentUser = user;
        await new Promise((resolve) => setTimeout(resolve, 100));
        return `Hello ${this.currentUser}`;
      }
    }
    @Controller('greet')
    class GreetingController {
      constructor(private readonly greetings: GreetingService) {}
      @Get(':user')
      greet(@common.Param('user') user: string) {
        return this.greetings.greet(user);
      }
    }
    @Module({controllers: [GreetingController], providers: [GreetingService]})
    class AppModule {}
    const {base} = await start(AppModule);
    const alice = call(base, 'GET', '/greet/alice');
    await new Promise((resolve) => setTimeout(resolve, 30));
    const bob = call(base, 'GET', '/greet/bob');
    expect([(await alice).text, (await bob).text]).toEqual(['Hello bob', 'Hello bob']);
  },
);

import {expect} from 'vitest';
import {claim, samples, nest, expectOutput} from '../../lib';
import {
  start,
  call,
  platforms,
  expectGlobalOnlyOverHttp,
  microserviceGlobalProbe,
  pageSamples,
} from './_support';

const common = nest('@nestjs/common');
const {APP_GUARD, Reflector} = nest('@nestjs/core');
const {of} = nest('rxjs');
const {
  Controller,
  Get,
  Post,
  Module,
  UseGuards,
  UseInterceptors,
  UsePipes,
  UseFilters,
  UnauthorizedException,
  Param,
  SetMetadata,
} = common;
const page = 'docs/guards.md';

const catsService = `
import { Injectable } from '@nestjs/common';
@Injectable()
export class CatsService {
  constructor() { this.cats = []; }
  create(cat) { this.cats.push(cat); }
  findAll() { return this.cats; }
}
`;
const support = {'cats.service': catsService, 'create-cat.dto': 'export class CreateCatDto {}'};

/** Puts the user named by the x-user header (its roles, comma separated) on request.user, as an authentication step would. */
function authenticate(req: any, _res: unknown, next: () => void) {
  const roles = req.headers['x-roles'];
  if (roles !== undefined)
    req.user = {id: 7, firstName: 'Alice', roles: roles ? String(roles).split(',') : []};
  next();
}

function moduleOf(controller: unknown, providers: unknown[] = []) {
  @Module({controllers: [controller as any], providers: providers as any[]})
  class AppModule {}
  return AppModule;
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#authorization-guard`,
    `AuthGuard lets the request through when validateRequest() is true and answers 403 when it is false (${lang})`,
    async () => {
      const set = pageSamples(page, {
        lang,
        files: {
          'validate-request': `export function validateRequest(request) { return request.headers['x-token'] === 'secret'; }`,
        },
      });
      const {AuthGuard} = set.require('auth.guard');
      @Controller('cats')
      @UseGuards(AuthGuard)
      class CatsController {
        @Get()
        findAll() {
          return [];
        }
      }
      const {base} = await start([CatsController]);
      expect((await call(base, 'GET', '/cats', {headers: {'x-token': 'secret'}})).json()).toEqual(
        [],
      );
      const denied = await call(base, 'GET', '/cats');
      expect(denied.status).toBe(403);
      expectOutput(page, 'forbidden-resource', denied.text);
    },
  );

  claim(
    `${page}#binding-guards`,
    `the skeleton RolesGuard bound with @UseGuards() on the controller lets every request through (${lang})`,
    async () => {
      const set = pageSamples(page, {
        lang,
        pick: {'cats.controller': 1, 'roles.guard': 1},
        files: support,
      });
      const {CatsController} = set.require('cats.controller');
      const {CatsService} = set.require('cats.service');
      const {base} = await start(moduleOf(CatsController, [CatsService]));
      expect((await call(base, 'POST', '/cats', {body: {name: 'Tom'}})).status).toBe(201);
      expect((await call(base, 'GET', '/cats')).json()).toEqual([{name: 'Tom'}]);
    },
  );

  claim(
    `${page}#the-current-user`,
    `with @Roles('admin'), POST /cats answers 403 "Forbidden resource" without the role and 201 with it; GET stays public (${lang})`,
    async () => {
      const set = pageSamples(page, {
        lang,
        pick: {'cats.controller': 3, 'roles.guard': 2},
        files: support,
      });
      const {CatsController} = set.require('cats.controller');
      const {CatsService} = set.require('cats.service');
      const {RolesGuard} = set.require('roles.guard');
      const {base} = await start(
        moduleOf(CatsController, [CatsService, {provide: APP_GUARD, useClass: RolesGuard}]),
        {setup: (app) => app.use(authenticate)},
      );
      const anonymous = await call(base, 'POST', '/cats', {body: {name: 'Tom'}});
      expect(anonymous.status).toBe(403);
      expectOutput(page, 'forbidden-resource', anonymous.text);
      const user = await call(base, 'POST', '/cats', {
        body: {name: 'Tom'},
        headers: {'x-roles': 'user'},
      });
      expect(user.status).toBe(403);
      expect(
        (
          await call(base, 'POST', '/cats', {
            body: {name: 'Tom'},
            headers: {'x-roles': 'user,admin'},
          })
        ).status,
      ).toBe(201);
    },
  );
}

for (const platform of platforms) {
  claim(
    `${page}#putting-it-all-together`,
    `a handler without @Roles() stays public under the global RolesGuard (${platform})`,
    async () => {
      const set = samples(page, {pick: {'roles.guard': 2}});
      const {RolesGuard} = set.require('roles.guard');
      const {Roles} = set.require('roles.decorator');
      @Controller('cats')
      class CatsController {
        @Get()
        findAll() {
          return 'public';
        }

        @Get('admin')
        @Roles('admin')
        admin() {
          return 'admin';
        }
      }
      const {base} = await start(
        moduleOf(CatsController, [{provide: APP_GUARD, useClass: RolesGuard}]),
        {platform},
      );
      expect((await call(base, 'GET', '/cats')).text).toBe('public');
      const denied = await call(base, 'GET', '/cats/admin');
      expect(denied.status).toBe(403);
      expectOutput(page, 'forbidden-resource', denied.text);
    },
  );
}

claim(
  `${page}#binding-guards`,
  `useGlobalGuards(new RolesGuard()) applies to every route (the instance gets no Reflector)`,
  async () => {
    const {RolesGuard: Skeleton} = samples(page, {pick: {'roles.guard': 1}}).require('roles.guard');
    let calls = 0;
    class Counting extends Skeleton {
      canActivate(context: unknown) {
        calls += 1;
        return super.canActivate(context);
      }
    }
    @Controller('cats')
    class CatsController {
      @Get()
      findAll() {
        return 'ok';
      }
    }
    const {base} = await start([CatsController], {
      setup: (app) => app.useGlobalGuards(new Counting()),
    });
    expect((await call(base, 'GET', '/cats')).text).toBe('ok');
    expect(calls).toBe(1);
    // The full guard built with new has no Reflector to read metadata with.
    const {RolesGuard} = samples(page, {pick: {'roles.guard': 2}}).require('roles.guard');
    expect(new RolesGuard().reflector).toBeUndefined();
  },
);

claim(
  `${page}#guards`,
  `guards run after all middleware and before interceptors and pipes; a guard that says no stops everything downstream`,
  async () => {
    const order: string[] = [];
    const guard = (answer: boolean) => ({
      canActivate: () => (order.push(`guard:${answer}`), answer),
    });
    const interceptor = {
      intercept: (_c: unknown, next: any) => (order.push('interceptor'), next.handle()),
    };
    const pipe = {transform: (v: unknown) => (order.push('pipe'), v)};
    @Controller('cats')
    class CatsController {
      @Get('open/:id')
      @UseGuards(guard(true))
      @UseInterceptors(interceptor)
      @UsePipes(pipe)
      open(@Param('id') id: string) {
        order.push('handler');
        return id;
      }

      @Get('closed/:id')
      @UseGuards(guard(false))
      @UseInterceptors(interceptor)
      @UsePipes(pipe)
      closed(@Param('id') id: string) {
        order.push('handler');
        return id;
      }
    }
    const {base} = await start([CatsController], {
      setup: (app) =>
        app.use(
          (_req: unknown, _res: unknown, next: () => void) => (order.push('middleware'), next()),
        ),
    });
    await call(base, 'GET', '/cats/open/1');
    expect(order).toEqual(['middleware', 'guard:true', 'interceptor', 'pipe', 'handler']);
    order.length = 0;
    expect((await call(base, 'GET', '/cats/closed/1')).status).toBe(403);
    expect(order).toEqual(['middleware', 'guard:false']);
  },
);

claim(
  `${page}#binding-guards`,
  `several guards run in the order listed, and the first that says no stops the request`,
  async () => {
    const order: string[] = [];
    const guard = (name: string, answer: boolean) => ({
      canActivate: () => (order.push(name), answer),
    });
    @Controller('cats')
    class CatsController {
      @Get()
      @UseGuards(guard('first', true), guard('second', false), guard('third', true))
      findAll() {
        return 'never';
      }
    }
    const {base} = await start([CatsController]);
    expect((await call(base, 'GET', '/cats')).status).toBe(403);
    expect(order).toEqual(['first', 'second']);
  },
);

claim(
  `${page}#authorization-guard`,
  `canActivate() may return a Promise or an Observable, which Nest awaits; a falsy answer is a no`,
  async () => {
    @Controller('cats')
    class CatsController {
      @Get('promise')
      @UseGuards({canActivate: async () => true})
      promise() {
        return 'promise';
      }

      @Get('observable')
      @UseGuards({canActivate: () => of(true)})
      observable() {
        return 'observable';
      }

      @Get('observable-no')
      @UseGuards({canActivate: () => of(false)})
      observableNo() {
        return 'never';
      }

      @Get('falsy')
      @UseGuards({canActivate: () => 0})
      falsy() {
        return 'never';
      }
    }
    const {base} = await start([CatsController]);
    expect((await call(base, 'GET', '/cats/promise')).text).toBe('promise');
    expect((await call(base, 'GET', '/cats/observable')).text).toBe('observable');
    expect((await call(base, 'GET', '/cats/observable-no')).status).toBe(403);
    expect((await call(base, 'GET', '/cats/falsy')).status).toBe(403);
  },
);

claim(
  `${page}#the-current-user`,
  `a guard that throws UnauthorizedException answers 401, and the route's filters receive guard exceptions first`,
  async () => {
    const denyAnonymous = {
      canActivate: (context: any) => {
        if (!context.switchToHttp().getRequest().user) throw new UnauthorizedException();
        return true;
      },
    };
    @Controller('cats')
    class CatsController {
      @Get()
      @UseGuards(denyAnonymous)
      findAll() {
        return 'ok';
      }

      @Get('filtered')
      @UseGuards(denyAnonymous)
      @UseFilters({
        catch: (_e: unknown, host: any) =>
          host.switchToHttp().getResponse().status(401).json({filtered: true}),
      })
      filtered() {
        return 'ok';
      }
    }
    const {base} = await start([CatsController]);
    const reply = await call(base, 'GET', '/cats');
    expect([reply.status, reply.json()]).toEqual([401, {statusCode: 401, message: 'Unauthorized'}]);
    expect((await call(base, 'GET', '/cats/filtered')).json()).toEqual({filtered: true});
  },
);

claim(
  `${page}#roles-on-the-controller-class`,
  `getAllAndOverride() returns the handler's tag before the class's; getAllAndMerge() merges both into one array`,
  async () => {
    const seen: Record<string, unknown> = {};
    class Inspect {
      constructor(private readonly reflector: any) {}
      canActivate(context: any) {
        const targets = [context.getHandler(), context.getClass()];
        seen[context.getHandler().name] = {
          override: this.reflector.getAllAndOverride('roles', targets),
          merge: this.reflector.getAllAndMerge('roles', targets),
          handlerOnly: this.reflector.get('roles', context.getHandler()),
        };
        return true;
      }
    }
    Reflect.defineMetadata('design:paramtypes', [Reflector], Inspect);
    common.Injectable()(Inspect);
    @Controller('admin')
    @SetMetadata('roles', ['admin'])
    @UseGuards(Inspect)
    class AdminController {
      @Get('own')
      @SetMetadata('roles', ['auditor'])
      own() {
        return 'own';
      }

      @Get('inherited')
      inherited() {
        return 'inherited';
      }
    }
    const {base} = await start([AdminController]);
    await call(base, 'GET', '/admin/own');
    await call(base, 'GET', '/admin/inherited');
    expect(seen).toEqual({
      own: {override: ['auditor'], merge: ['auditor', 'admin'], handlerOnly: ['auditor']},
      inherited: {override: ['admin'], merge: ['admin'], handlerOnly: undefined},
    });
  },
);

void Post;

claim(
  `${page}#binding-guards`,
  `global guards (useGlobalGuards() or APP_GUARD) never reach a WebSocket gateway; a connected microservice gets them only with inheritAppConfig: true`,
  async () => {
    await expectGlobalOnlyOverHttp('guard', expect);
  },
  30000,
);

claim(
  `${page}#binding-guards`,
  `in an application made with NestFactory.createMicroservice(), useGlobalGuards() guards each message`,
  async () => {
    const {answer, ran} = await microserviceGlobalProbe('guard');
    expect([answer, ran]).toEqual([
      {error: {status: 'error', message: 'Forbidden resource'}},
      ['guard'],
    ]);
  },
);

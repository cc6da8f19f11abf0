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

// Abuse cases and failure modes of the full RolesGuard (review 4): the page's guard, decorator and
// AdminController, behind an authentication step that puts the caller named by the request on request.user.

/** x-roles: comma-separated roles (an empty value is a user without roles); x-user: the whole user as JSON. */
function authenticateOnce(req: any, res: unknown, next: () => void) {
  if (req.headers['x-user'] !== undefined) {
    req.user = JSON.parse(String(req.headers['x-user']));
    next();
  } else authenticate(req, res, next);
}

/** The page's final RolesGuard (optionally edited), bound as APP_GUARD, with the page's AdminController and any extra controllers. */
async function rolesApp(
  options: {lang?: 'ts' | 'js'; guardEdits?: [string, string][]; extra?: unknown[]} = {},
) {
  const set = pageSamples(page, {
    lang: options.lang ?? 'ts',
    pick: {'roles.guard': 2},
    edit: options.guardEdits ? {'roles.guard': options.guardEdits} : undefined,
  });
  const {RolesGuard} = set.require('roles.guard');
  const {AdminController} = set.require('admin.controller');
  const {Roles} = set.require('roles.decorator');
  const {base} = await start(
    moduleOf(AdminController, [{provide: APP_GUARD, useClass: RolesGuard}]),
    {setup: (app) => app.use(authenticateOnce)},
  );
  return {base, Roles, RolesGuard, set};
}
const asRoles = (roles: string) => ({headers: {'x-roles': roles}});
const asUser = (user: unknown) => ({headers: {'x-user': JSON.stringify(user)}});

for (const lang of ['ts', 'js'] as const) {
  claim.abuse(
    `${page}#roles-on-the-controller-class`,
    `@Roles('admin') on the controller refuses an anonymous caller with 403 (${lang})`,
    async () => {
      const {base} = await rolesApp({lang});
      const anonymous = await call(base, 'GET', '/admin');
      expect(anonymous.status).toBe(403);
      expectOutput(page, 'forbidden-resource', anonymous.text);
      expect((await call(base, 'GET', '/admin', asRoles('admin'))).json()).toEqual({
        dashboard: true,
      });
    },
  );

  claim.abuse(
    `${page}#roles-on-the-controller-class`,
    `@Roles('admin') on the controller refuses a signed-in user who lacks the admin role (${lang})`,
    async () => {
      const {base} = await rolesApp({lang});
      expect((await call(base, 'GET', '/admin', asRoles('user'))).status).toBe(403);
      expect((await call(base, 'GET', '/admin', asRoles('user,editor'))).status).toBe(403);
    },
  );
}

claim.abuse(
  `${page}#roles-on-the-controller-class`,
  `the handler's @Roles('superadmin') replaces the controller's tag: an admin is refused on /admin/billing, a superadmin gets in`,
  async () => {
    const {base} = await rolesApp();
    expect((await call(base, 'GET', '/admin/billing', asRoles('admin'))).status).toBe(403);
    expect((await call(base, 'GET', '/admin/billing', asRoles('superadmin'))).json()).toEqual({
      billing: true,
    });
    // The precedence the page spells out: the superadmin is not an admin, so the dashboard stays closed to them.
    expect((await call(base, 'GET', '/admin', asRoles('superadmin'))).status).toBe(403);
  },
);

claim.abuse(
  `${page}#roles-on-the-controller-class`,
  `a @Roles('user') tag on a handler of an admin-only controller opens that handler to every user (the precedence works both ways)`,
  async () => {
    const set = samples(page, {pick: {'roles.guard': 2}});
    const {RolesGuard} = set.require('roles.guard');
    const {Roles} = set.require('roles.decorator');
    @Controller('admin')
    @Roles('admin')
    class Loosened {
      @Get('reports')
      @Roles('user')
      reports() {
        return 'reports';
      }
    }
    const {base} = await start(moduleOf(Loosened, [{provide: APP_GUARD, useClass: RolesGuard}]), {
      setup: (app) => app.use(authenticateOnce),
    });
    expect((await call(base, 'GET', '/admin/reports', asRoles('user'))).text).toBe('reports');
  },
);

claim.abuse(
  `${page}#roles-on-the-controller-class`,
  `a guard that reads only the handler with get() lets every caller, anonymous included, into the admin-only controller`,
  async () => {
    const {base} = await rolesApp({
      guardEdits: [
        [
          `this.reflector.getAllAndOverride<string[]>('roles', [
      context.getHandler(),
      context.getClass(),
    ]);`,
          `this.reflector.get<string[]>('roles', context.getHandler());`,
        ],
      ],
    });
    expect((await call(base, 'GET', '/admin')).json()).toEqual({dashboard: true});
    expect((await call(base, 'GET', '/admin', asRoles('user'))).json()).toEqual({dashboard: true});
  },
);

const mergeEdit: [string, string] = [
  `this.reflector.getAllAndOverride<string[]>('roles', [`,
  `this.reflector.getAllAndMerge<string[]>('roles', [`,
];

claim.abuse(
  `${page}#roles-on-the-controller-class`,
  `with getAllAndMerge() in the guard, an admin reaches the superadmin-only billing handler (merging makes the check less strict)`,
  async () => {
    const {base} = await rolesApp({guardEdits: [mergeEdit]});
    expect((await call(base, 'GET', '/admin/billing', asRoles('admin'))).json()).toEqual({
      billing: true,
    });
  },
);

claim(
  `${page}#roles-on-the-controller-class`,
  `with getAllAndMerge() in the guard, a handler without any roles tag answers 403 to everybody, because the merge returns [] instead of undefined`,
  async () => {
    const {RolesGuard} = samples(page, {
      pick: {'roles.guard': 2},
      edit: {'roles.guard': [mergeEdit]},
    }).require('roles.guard');
    @Controller('cats')
    class Untagged {
      @Get()
      findAll() {
        return 'public';
      }
    }
    const {base} = await start(moduleOf(Untagged, [{provide: APP_GUARD, useClass: RolesGuard}]), {
      setup: (app) => app.use(authenticateOnce),
    });
    expect((await call(base, 'GET', '/cats')).status).toBe(403);
    expect((await call(base, 'GET', '/cats', asRoles('admin,superadmin'))).status).toBe(403);
  },
);

claim.abuse(
  `${page}#putting-it-all-together`,
  `a user whose roles is a string ('nonadmin', 'superadmin') is refused: no substring match`,
  async () => {
    const set = samples(page, {pick: {'roles.guard': 2}});
    const {RolesGuard} = set.require('roles.guard');
    const {Roles} = set.require('roles.decorator');
    @Controller('cats')
    class CatsController {
      @Post()
      @Roles('admin')
      create() {
        return 'created';
      }
    }
    const {base} = await start(
      moduleOf(CatsController, [{provide: APP_GUARD, useClass: RolesGuard}]),
      {setup: (app) => app.use(authenticateOnce)},
    );
    for (const roles of ['nonadmin', 'superadmin', 'admin']) {
      expect((await call(base, 'POST', '/cats', asUser({id: 9, roles}))).status, roles).toBe(403);
    }
    expect((await call(base, 'POST', '/cats', asUser({id: 9, roles: ['admin']}))).text).toBe(
      'created',
    );
  },
);

claim.abuse(
  `${page}#putting-it-all-together`,
  `a user object without any roles property is refused`,
  async () => {
    const {base} = await rolesApp();
    expect((await call(base, 'GET', '/admin', asUser({id: 9, firstName: 'Bob'}))).status).toBe(403);
    expect((await call(base, 'GET', '/admin', asRoles(''))).status).toBe(403);
  },
);

claim.abuse(
  `${page}#putting-it-all-together`,
  `an empty @Roles() tag refuses every caller, admins included (it fails closed)`,
  async () => {
    const set = samples(page, {pick: {'roles.guard': 2}});
    const {RolesGuard} = set.require('roles.guard');
    const {Roles} = set.require('roles.decorator');
    @Controller('cats')
    class Empty {
      @Get()
      @Roles()
      findAll() {
        return 'never';
      }
    }
    const {base} = await start(moduleOf(Empty, [{provide: APP_GUARD, useClass: RolesGuard}]), {
      setup: (app) => app.use(authenticateOnce),
    });
    expect((await call(base, 'GET', '/cats', asRoles('admin,superadmin,user'))).status).toBe(403);
  },
);

for (const [how, body] of [
  ['throws an Error', `throw new Error('user store unreachable');`],
  ['returns a promise that rejects', `return Promise.reject(new Error('user store unreachable'));`],
] as const) {
  claim.failure(
    `${page}#the-current-user`,
    `when the guard's check ${how}, the request fails closed with the standard 500 and the handler never runs`,
    async () => {
      const set = pageSamples(page, {
        files: {'validate-request': `export function validateRequest(request) { ${body} }`},
      });
      const {AuthGuard} = set.require('auth.guard');
      let ran = 0;
      @Controller('cats')
      @UseGuards(AuthGuard)
      class CatsController {
        @Get()
        findAll() {
          ran += 1;
          return [];
        }
      }
      const {base} = await start([CatsController]);
      const reply = await call(base, 'GET', '/cats', {headers: {'x-token': 'secret'}});
      expect([reply.status, reply.json()]).toEqual([
        500,
        {statusCode: 500, message: 'Internal server error'},
      ]);
      expect(ran).toBe(0);
    },
  );
}

claim.failure(
  `${page}#binding-guards`,
  `useGlobalGuards(new RolesGuard()) with the full guard has no Reflector: every route answers 500; new RolesGuard(app.get(Reflector)) works`,
  async () => {
    const set = samples(page, {pick: {'roles.guard': 2}});
    const {RolesGuard} = set.require('roles.guard');
    const {AdminController} = set.require('admin.controller');
    @Controller('cats')
    class Open {
      @Get()
      findAll() {
        return 'public';
      }
    }
    const broken = await start(moduleOf(AdminController, []), {
      setup: (app) => {
        app.use(authenticateOnce);
        app.useGlobalGuards(new RolesGuard());
      },
    });
    for (const path of ['/admin', '/admin/billing']) {
      const reply = await call(broken.base, 'GET', path, asRoles('admin,superadmin'));
      expect([reply.status, reply.json()]).toEqual([
        500,
        {statusCode: 500, message: 'Internal server error'},
      ]);
    }
    const fixed = await start(moduleOf(Open, []), {
      setup: (app) => {
        app.use(authenticateOnce);
        app.useGlobalGuards(new RolesGuard(app.get(Reflector)));
      },
    });
    expect((await call(fixed.base, 'GET', '/cats')).text).toBe('public');
  },
);

claim.abuse(
  `${page}#binding-guards`,
  `a guard built as an anonymous class expression is skipped and the route answers everybody; the same class wrapped in mixin() refuses`,
  async () => {
    const denyAll = () =>
      class {
        canActivate() {
          return false;
        }
      };
    const Anonymous = denyAll();
    const Mixed = common.mixin(denyAll());
    expect([Anonymous.name, typeof Mixed.name]).toEqual(['', 'string']);
    @Controller('cats')
    class CatsController {
      @Get('anonymous')
      @UseGuards(Anonymous)
      anonymous() {
        return 'open';
      }

      @Get('mixin')
      @UseGuards(Mixed)
      mixed() {
        return 'never';
      }
    }
    const {base} = await start([CatsController]);
    expect((await call(base, 'GET', '/cats/anonymous')).text).toBe('open');
    expect((await call(base, 'GET', '/cats/mixin')).status).toBe(403);
  },
);

// Review 5: a global RolesGuard on a connected microservice (inheritAppConfig: true) and a forged message.

claim.abuse(
  `${page}#putting-it-all-together`,
  `in a hybrid application with inheritAppConfig: true, the page's RolesGuard (APP_GUARD) refuses a message to an @Roles('admin') handler even when the payload carries { user: { roles: ['admin'] } }; HTTP routes keep working`,
  async () => {
    const ms = nest('@nestjs/microservices');
    const {freePort, listen} = await import('../../lib');
    const set = samples(page, {pick: {'roles.guard': 2}});
    const {RolesGuard} = set.require('roles.guard');
    const {Roles} = set.require('roles.decorator');
    const ran: unknown[] = [];
    @Controller('cats')
    class CatsController {
      @ms.MessagePattern('cats.delete-all')
      @Roles('admin')
      deleteAll(@ms.Payload() data: unknown) {
        ran.push(data);
        return 'deleted';
      }

      @Post()
      @Roles('admin')
      create() {
        return {created: true};
      }
    }
    const {NestFactory} = nest('@nestjs/core');
    const app = await NestFactory.create(
      moduleOf(CatsController, [{provide: APP_GUARD, useClass: RolesGuard}]),
      {logger: false},
    );
    const {onClose} = await import('./_support');
    onClose(() => app.close());
    app.use(authenticate);
    const port = await freePort();
    app.connectMicroservice(
      {transport: ms.Transport.TCP, options: {host: '127.0.0.1', port}},
      {inheritAppConfig: true},
    );
    await app.startAllMicroservices();
    const base = await listen(app);
    const client = ms.ClientProxyFactory.create({
      transport: ms.Transport.TCP,
      options: {host: '127.0.0.1', port},
    });
    onClose(async () => client.close());
    const {lastValueFrom} = nest('rxjs');
    const forged = await lastValueFrom(
      client.send('cats.delete-all', {user: {roles: ['admin']}}),
    ).then(
      (value: unknown) => ({value}),
      (error: unknown) => ({error}),
    );
    expect(forged).toEqual({error: {status: 'error', message: 'Forbidden resource'}});
    expect(ran).toEqual([]);
    const admin = await call(base, 'POST', '/cats', {headers: {'x-roles': 'admin'}});
    expect([admin.status, admin.json()]).toEqual([201, {created: true}]);
    const user = await call(base, 'POST', '/cats', {headers: {'x-roles': 'user'}});
    expect(user.status).toBe(403);
  },
);

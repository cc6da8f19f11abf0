import {expect} from 'vitest';
import {claim, samples, nest} from '../../lib';
import {start, call, pageSamples} from './_support';

const common = nest('@nestjs/common');
const {
  Module,
  Controller,
  Get,
  UsePipes,
  createParamDecorator,
  applyDecorators,
  SetMetadata,
  UseGuards,
} = common;
const page = 'docs/custom-decorators.md';

const alice = {
  id: 7,
  firstName: 'Alice',
  lastName: 'Martin',
  email: 'alice@example.com',
  roles: ['admin'],
};

/** Puts the user on request.user, as the authentication step the page describes would. */
function authenticate(user: unknown) {
  return (req: any, _res: unknown, next: () => void) => {
    if (req.headers['x-token'] === 'secret') req.user = user;
    next();
  };
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#param-decorators`,
    `@User() hands the handler request.user: { owner: 'Alice' } (${lang})`,
    async () => {
      const set = pageSamples(page, {
        lang,
        pick: {'user.decorator': 1, 'cats.controller': 1},
        files: {'user.entity': 'export class UserEntity {}'},
      });
      const {CatsController} = set.require('cats.controller');
      const {base} = await start([CatsController], {setup: (app) => app.use(authenticate(alice))});
      expect(
        (await call(base, 'GET', '/cats/mine', {headers: {'x-token': 'secret'}})).json(),
      ).toEqual({owner: 'Alice'});
    },
  );

  claim(
    `${page}#passing-data`,
    `@User('firstName') yields the first name, @User() still the whole user (${lang})`,
    async () => {
      const set = pageSamples(page, {lang, pick: {'user.decorator': 2, 'cats.controller': 2}});
      const {CatsController} = set.require('cats.controller');
      const {User} = set.require('user.decorator');
      @Controller('users')
      class Whole {
        @Get('me')
        me(@User() user: unknown, @User('email') email: string) {
          return {user, email};
        }
      }
      const {base} = await start([CatsController, Whole], {
        setup: (app) => app.use(authenticate(alice)),
      });
      expect(
        (await call(base, 'GET', '/cats/greeting', {headers: {'x-token': 'secret'}})).json(),
      ).toEqual({greeting: 'Hello Alice'});
      expect(
        (await call(base, 'GET', '/users/me', {headers: {'x-token': 'secret'}})).json(),
      ).toEqual({user: alice, email: 'alice@example.com'});
    },
  );
}

claim(
  `${page}#working-with-pipes`,
  `ValidationPipe({ validateCustomDecorators: true }) validates the @User() value against UserEntity; without the option the value passes unchecked`,
  async () => {
    const set = samples(page, {pick: {'user.decorator': 2, 'cats.controller': 3}});
    const {CatsController} = set.require('cats.controller');
    const {User} = set.require('user.decorator');
    const {UserEntity} = set.require('user.entity');
    @Controller('unchecked')
    class Unchecked {
      @Get()
      mine(@User(new common.ValidationPipe()) user: InstanceType<typeof UserEntity>) {
        return {owner: (user as any).firstName};
      }
    }
    Reflect.defineMetadata('design:paramtypes', [UserEntity], Unchecked.prototype, 'mine');
    const invalid = {...alice, email: 'not-an-email'};
    const {base} = await start([CatsController, Unchecked], {
      setup: (app) => app.use(authenticate(invalid)),
    });
    const rejected = await call(base, 'GET', '/cats/mine', {headers: {'x-token': 'secret'}});
    expect([rejected.status, rejected.json()]).toEqual([
      400,
      {statusCode: 400, message: ['email must be an email'], error: 'Bad Request'},
    ]);
    expect(
      (await call(base, 'GET', '/unchecked', {headers: {'x-token': 'secret'}})).json(),
    ).toEqual({owner: 'Alice'});
    const {base: valid} = await start([CatsController], {
      setup: (app) => app.use(authenticate(alice)),
    });
    expect(
      (await call(valid, 'GET', '/cats/mine', {headers: {'x-token': 'secret'}})).json(),
    ).toEqual({owner: 'Alice'});
  },
);

claim(
  `${page}#working-with-pipes`,
  `pipes bound at a wider scope run for a custom decorator's argument, with type 'custom'`,
  async () => {
    const {User} = samples(page, {pick: {'user.decorator': 2}}).require('user.decorator');
    const seen: unknown[] = [];
    @Controller('cats')
    @UsePipes({
      transform: (value: unknown, metadata: any) => (
        seen.push([metadata.type, metadata.data, value]),
        value
      ),
    })
    class CatsController {
      @Get()
      get(@User('firstName') firstName: string) {
        return firstName;
      }
    }
    const {base} = await start([CatsController], {setup: (app) => app.use(authenticate(alice))});
    expect((await call(base, 'GET', '/cats', {headers: {'x-token': 'secret'}})).text).toBe('Alice');
    expect(seen).toEqual([['custom', 'firstName', 'Alice']]);
  },
);

claim(
  `${page}#param-decorators`,
  `the factory's execution context reports getType() 'http' for an HTTP request`,
  async () => {
    const Type = createParamDecorator((_data: unknown, ctx: any) => ctx.getType());
    @Controller('cats')
    class CatsController {
      @Get('type')
      type(@Type() type: string) {
        return type;
      }
    }
    const {base} = await start([CatsController]);
    expect((await call(base, 'GET', '/cats/type')).text).toBe('http');
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#decorator-composition`,
    `@Auth('admin') bundles the roles metadata, both guards and the Swagger decorators (${lang})`,
    async () => {
      const guards = samples('docs/guards.md', {
        pick: {'roles.guard': 2},
        files: {
          'validate-request': `export function validateRequest(request) { return request.headers['x-token'] === 'secret'; }`,
        },
      });
      (globalThis as any).__overviewGuards = {
        AuthGuard: guards.require('auth.guard').AuthGuard,
        RolesGuard: guards.require('roles.guard').RolesGuard,
      };
      const set = samples(page, {
        lang,
        files: {
          'auth.guard': 'export const AuthGuard = globalThis.__overviewGuards.AuthGuard;',
          'roles.guard': 'export const RolesGuard = globalThis.__overviewGuards.RolesGuard;',
        },
      });
      const {UsersController} = set.require('users.controller');
      const handler = UsersController.prototype.findAllUsers;
      expect(Reflect.getMetadata('roles', handler)).toEqual(['admin']);
      expect(Reflect.getMetadata('__guards__', handler)).toEqual([
        (globalThis as any).__overviewGuards.AuthGuard,
        (globalThis as any).__overviewGuards.RolesGuard,
      ]);
      expect(Reflect.getMetadata('swagger/apiSecurity', handler)).toEqual([{bearer: []}]);
      expect(Reflect.getMetadata('swagger/apiResponse', handler)).toMatchObject({
        401: {description: 'Unauthorized'},
      });
      const {base} = await start([UsersController], {setup: (app) => app.use(authenticate(alice))});
      expect((await call(base, 'GET', '/users')).status).toBe(403);
      expect((await call(base, 'GET', '/users', {headers: {'x-token': 'secret'}})).json()).toEqual(
        [],
      );
    },
  );
}

claim(
  `${page}#decorator-composition`,
  `applyDecorators() also works on a controller class`,
  async () => {
    const Tagged = () =>
      applyDecorators(SetMetadata('roles', ['admin']), UseGuards({canActivate: () => false}));
    @Controller('admin')
    @Tagged()
    class AdminController {
      @Get()
      get() {
        return 'never';
      }
    }
    expect(Reflect.getMetadata('roles', AdminController)).toEqual(['admin']);
    const {base} = await start([AdminController]);
    expect((await call(base, 'GET', '/admin')).status).toBe(403);
  },
);

// Abuse cases and failure modes (review 4): anonymous callers, missing properties, the JavaScript half of the
// validation sample, GraphQL resolvers, and @Auth() on a controller with the guards chapter's guards.

const bob = {id: 8, firstName: 'Bob', lastName: 'Stone', roles: ['user']};

for (const lang of ['ts', 'js'] as const) {
  claim.abuse(
    `${page}#param-decorators`,
    `an anonymous caller gets 401 from @User(), not a 500 from the handler reading user.firstName (${lang})`,
    async () => {
      const set = pageSamples(page, {
        lang,
        pick: {'user.decorator': 1, 'cats.controller': 1},
        files: {'user.entity': 'export class UserEntity {}'},
      });
      const {CatsController} = set.require('cats.controller');
      const {base} = await start([CatsController], {setup: (app) => app.use(authenticate(alice))});
      const reply = await call(base, 'GET', '/cats/mine');
      expect([reply.status, reply.json()]).toEqual([
        401,
        {statusCode: 401, message: 'Unauthorized'},
      ]);
    },
  );
}

claim.abuse(
  `${page}#passing-data`,
  `an anonymous caller gets 401 from @User('firstName') instead of a greeting for undefined`,
  async () => {
    const set = pageSamples(page, {pick: {'user.decorator': 2, 'cats.controller': 2}});
    const {CatsController} = set.require('cats.controller');
    const {base} = await start([CatsController], {setup: (app) => app.use(authenticate(alice))});
    expect((await call(base, 'GET', '/cats/greeting')).status).toBe(401);
    expect(
      (await call(base, 'GET', '/cats/greeting', {headers: {'x-token': 'wrong'}})).status,
    ).toBe(401);
  },
);

claim(
  `${page}#passing-data`,
  `@User('email') for a user without an email property hands the handler undefined`,
  async () => {
    const {User} = samples(page, {pick: {'user.decorator': 2}}).require('user.decorator');
    @Controller('users')
    class Emails {
      @Get('email')
      email(@User('email') email: string) {
        return {email: email ?? 'undefined'};
      }
    }
    const {base} = await start([Emails], {setup: (app) => app.use(authenticate(bob))});
    expect(
      (await call(base, 'GET', '/users/email', {headers: {'x-token': 'secret'}})).json(),
    ).toEqual({email: 'undefined'});
  },
);

claim(
  `${page}#working-with-pipes`,
  `the JavaScript half names UserEntity with expectedType and rejects an invalid user with 400; without expectedType it validates nothing (js)`,
  async () => {
    const invalid = {...alice, email: 'not-an-email'};
    const checked = pageSamples(page, {
      lang: 'js',
      pick: {'user.decorator': 2, 'cats.controller': 3},
    });
    const {CatsController} = checked.require('cats.controller');
    const {base} = await start([CatsController], {setup: (app) => app.use(authenticate(invalid))});
    const rejected = await call(base, 'GET', '/cats/mine', {headers: {'x-token': 'secret'}});
    expect([rejected.status, rejected.json()]).toEqual([
      400,
      {statusCode: 400, message: ['email must be an email'], error: 'Bad Request'},
    ]);
    const unchecked = pageSamples(page, {
      lang: 'js',
      pick: {'user.decorator': 2, 'cats.controller': 3},
      edit: {'cats.controller': [[', expectedType: UserEntity', '']]},
    });
    const {CatsController: Unchecked} = unchecked.require('cats.controller');
    const {base: open} = await start([Unchecked], {setup: (app) => app.use(authenticate(invalid))});
    expect(
      (await call(open, 'GET', '/cats/mine', {headers: {'x-token': 'secret'}})).json(),
    ).toEqual({owner: 'Alice'});
  },
);

/** A code-first GraphQL app with one query that reads the user with the given decorator, plus the same read over HTTP. */
async function graphqlWith(User: any) {
  const {GraphQLModule, Resolver, Query} = nest('@nestjs/graphql');
  @Resolver()
  class MeResolver {
    @Query(() => String)
    me(@User('firstName') firstName: string) {
      return firstName;
    }
  }
  @Controller('me')
  class MeController {
    @Get()
    me(@User('firstName') firstName: string) {
      return firstName;
    }
  }
  @Module({
    imports: [GraphQLModule.forRoot({autoSchemaFile: true, playground: false})],
    providers: [MeResolver],
    controllers: [MeController],
  })
  class AppModule {}
  const {base} = await start(AppModule, {setup: (app) => app.use(authenticate(alice))});
  const query = async (headers: Record<string, string>) =>
    (await call(base, 'POST', '/graphql', {body: {query: '{ me }'}, headers})).json();
  return {base, query};
}

claim(
  `${page}#several-transports`,
  `the transport-aware @User() reads the user in a GraphQL resolver (getType() is 'graphql') and over HTTP; an anonymous query gets UNAUTHENTICATED`,
  async () => {
    const {User} = samples(page, {pick: {'user.decorator': 3}}).require('user.decorator');
    const {base, query} = await graphqlWith(User);
    expect(await query({'x-token': 'secret'})).toEqual({data: {me: 'Alice'}});
    const anonymous = await query({});
    expect(anonymous.data).toBeNull();
    expect(anonymous.errors[0]).toMatchObject({
      message: 'Unauthorized',
      extensions: {code: 'UNAUTHENTICATED'},
    });
    expect((await call(base, 'GET', '/me', {headers: {'x-token': 'secret'}})).text).toBe('Alice');
  },
  30000,
);

claim.failure(
  `${page}#several-transports`,
  `in a GraphQL resolver, the HTTP-only @User() finds no user: switchToHttp().getRequest() is not the request, and even a signed-in query fails`,
  async () => {
    const {User} = samples(page, {pick: {'user.decorator': 2}}).require('user.decorator');
    const Type = createParamDecorator((_data: unknown, ctx: any) => ({
      type: ctx.getType(),
      request: typeof ctx.switchToHttp().getRequest(),
    }));
    const {query} = await graphqlWith(User);
    const signedIn = await query({'x-token': 'secret'});
    expect(signedIn.data).toBeNull();
    expect(signedIn.errors[0].message).toBe("Cannot read properties of undefined (reading 'user')");
    // What the factory sees there.
    const {GraphQLModule, Resolver, Query} = nest('@nestjs/graphql');
    @Resolver()
    class Probe {
      @Query(() => String)
      probe(@Type() seen: unknown) {
        return JSON.stringify(seen);
      }
    }
    @Module({
      imports: [GraphQLModule.forRoot({autoSchemaFile: true, playground: false})],
      providers: [Probe],
    })
    class ProbeModule {}
    const {base} = await start(ProbeModule);
    const probe = (await call(base, 'POST', '/graphql', {body: {query: '{ probe }'}})).json();
    expect(JSON.parse(probe.data.probe)).toEqual({type: 'graphql', request: 'undefined'});
  },
  30000,
);

/** The guards chapter's AuthGuard (a token) and RolesGuard (optionally wrapped), and this page's samples using them. */
function composedSet(lang: 'ts' | 'js', wrap: (guard: any) => any = (guard) => guard) {
  const guards = samples('docs/guards.md', {
    pick: {'roles.guard': 2},
    files: {
      'validate-request': `export function validateRequest(request) { return request.headers['x-token'] === 'secret'; }`,
    },
  });
  (globalThis as any).__overviewGuards = {
    AuthGuard: wrap(guards.require('auth.guard').AuthGuard),
    RolesGuard: wrap(guards.require('roles.guard').RolesGuard),
  };
  return samples(page, {
    lang,
    files: {
      'auth.guard': 'export const AuthGuard = globalThis.__overviewGuards.AuthGuard;',
      'roles.guard': 'export const RolesGuard = globalThis.__overviewGuards.RolesGuard;',
    },
  });
}
function signedIn(req: any, _res: unknown, next: () => void) {
  if (req.headers['x-user']) req.user = JSON.parse(String(req.headers['x-user']));
  next();
}
const as = (user: unknown) => ({headers: {'x-token': 'secret', 'x-user': JSON.stringify(user)}});

for (const lang of ['ts', 'js'] as const) {
  claim.abuse(
    `${page}#decorator-composition`,
    `@Auth('admin') on a controller refuses an anonymous caller and a signed-in user without the admin role; an admin gets in (${lang})`,
    async () => {
      const {AdminController} = composedSet(lang).require('admin.controller');
      const {base} = await start([AdminController], {setup: (app) => app.use(signedIn)});
      expect((await call(base, 'GET', '/admin/users')).status).toBe(403);
      expect((await call(base, 'GET', '/admin/users', as(bob))).status).toBe(403);
      expect((await call(base, 'GET', '/admin/users', as(alice))).json()).toEqual([]);
    },
  );
}

claim.abuse(
  `${page}#decorator-composition`,
  `@Auth() on the controller and on a handler runs both guards twice, and the handler's @Auth('user') opens that handler to every user`,
  async () => {
    let runs = 0;
    // Subclasses inherit the design:paramtypes metadata, so RolesGuard still receives the Reflector. They need a
    // name: Nest 8 skips a guard class whose name is empty (guards-context-creator.js:24).
    const counting = (Guard: any) =>
      class Counted extends Guard {
        canActivate(context: unknown) {
          runs += 1;
          return super.canActivate(context);
        }
      };
    const {Auth: CountedAuth} = composedSet('ts', counting).require('auth.decorator');
    @Controller('admin')
    @CountedAuth('admin')
    class AdminController {
      @Get('reports')
      @CountedAuth('user')
      reports() {
        return 'reports';
      }
    }
    const {base} = await start([AdminController], {setup: (app) => app.use(signedIn)});
    expect((await call(base, 'GET', '/admin/reports', as(bob))).text).toBe('reports');
    expect(runs).toBe(4);
    expect((await call(base, 'GET', '/admin/reports')).status).toBe(403);
  },
);

// Review 5: a profile field with markup in the answer, and the transport-aware @User() on a microservice message.

for (const lang of ['ts', 'js'] as const) {
  claim.abuse(
    `${page}#param-decorators`,
    `a user whose first name is markup gets it back as JSON (application/json), not as an HTML page (${lang})`,
    async () => {
      const set = pageSamples(page, {
        lang,
        pick: {'user.decorator': 1, 'cats.controller': 1},
        files: {'user.entity': 'export class UserEntity {}'},
      });
      const {CatsController} = set.require('cats.controller');
      const mallory = {...alice, firstName: '<img src=x onerror=alert(document.cookie)>'};
      const {base} = await start([CatsController], {
        setup: (app) => app.use(authenticate(mallory)),
      });
      const reply = await call(base, 'GET', '/cats/mine', {headers: {'x-token': 'secret'}});
      expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(reply.json()).toEqual({owner: mallory.firstName});
    },
  );
}

claim.abuse(
  `${page}#several-transports`,
  `on a microservice message, the transport-aware @User() refuses a payload that carries { user: { id: 1 } }: the handler never runs with the sender's user`,
  async () => {
    const ms = nest('@nestjs/microservices');
    const {freePort} = await import('../../lib');
    const {onClose} = await import('./_support');
    const {User} = samples(page, {pick: {'user.decorator': 3}}).require('user.decorator');
    const ran: unknown[] = [];
    @Controller()
    class CatsController {
      @ms.MessagePattern('cats.mine')
      mine(@User() user: unknown) {
        ran.push(user);
        return 'cats of the sender';
      }
    }
    @Module({controllers: [CatsController]})
    class AppModule {}
    const port = await freePort();
    const app = await nest('@nestjs/core').NestFactory.createMicroservice(AppModule, {
      transport: ms.Transport.TCP,
      options: {host: '127.0.0.1', port},
      logger: false,
    });
    onClose(() => app.close());
    await app.listen();
    const client = ms.ClientProxyFactory.create({
      transport: ms.Transport.TCP,
      options: {host: '127.0.0.1', port},
    });
    onClose(async () => client.close());
    const {lastValueFrom} = nest('rxjs');
    const answer = await lastValueFrom(client.send('cats.mine', {user: {id: 1}})).then(
      (value: unknown) => ({value}),
      (error: unknown) => ({error}),
    );
    expect(answer).toEqual({error: {status: 'error', message: 'Internal server error'}});
    expect(ran).toEqual([]);
  },
);

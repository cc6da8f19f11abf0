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

const userEntity = `
import { IsEmail, IsString } from 'class-validator';
export class UserEntity {
  @IsString()
  firstName: string;

  @IsEmail()
  email: string;
}
`;

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#param-decorators`,
    `@User() hands the handler request.user: "Cats owned by Alice" (${lang})`,
    async () => {
      const set = pageSamples(page, {
        lang,
        pick: {'user.decorator': 1, 'cats.controller': 1},
        files: {'user.entity': 'export class UserEntity {}'},
      });
      const {CatsController} = set.require('cats.controller');
      const {base} = await start([CatsController], {setup: (app) => app.use(authenticate(alice))});
      expect((await call(base, 'GET', '/cats/mine', {headers: {'x-token': 'secret'}})).text).toBe(
        'Cats owned by Alice',
      );
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
        (await call(base, 'GET', '/cats/greeting', {headers: {'x-token': 'secret'}})).text,
      ).toBe('Hello Alice');
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
    const set = samples(page, {
      pick: {'user.decorator': 2, 'cats.controller': 3},
      files: {'user.entity': userEntity},
    });
    const {CatsController} = set.require('cats.controller');
    const {User} = set.require('user.decorator');
    const {UserEntity} = set.require('user.entity');
    @Controller('unchecked')
    class Unchecked {
      @Get()
      mine(@User(new common.ValidationPipe()) user: InstanceType<typeof UserEntity>) {
        return `Cats owned by ${(user as any).firstName}`;
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
    expect((await call(base, 'GET', '/unchecked', {headers: {'x-token': 'secret'}})).text).toBe(
      'Cats owned by Alice',
    );
    const {base: valid} = await start([CatsController], {
      setup: (app) => app.use(authenticate(alice)),
    });
    expect((await call(valid, 'GET', '/cats/mine', {headers: {'x-token': 'secret'}})).text).toBe(
      'Cats owned by Alice',
    );
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

void Module;

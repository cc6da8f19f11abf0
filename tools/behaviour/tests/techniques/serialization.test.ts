import {afterAll, expect} from 'vitest';
import {
  applyEdits,
  claim,
  samples,
  fragment,
  compileModule,
  nest,
  listen,
  expectOutput,
} from '../../lib';

const {
  Module,
  ClassSerializerInterceptor,
  Controller,
  Get,
  UseInterceptors,
  SerializeOptions,
  StreamableFile,
} = nest('@nestjs/common');
const {NestFactory, Reflector} = nest('@nestjs/core');
const page = 'docs/techniques/serialization.md';

/** The page shows user.entity in TypeScript only: what a JavaScript reader writes (the same decorators, no types). */
const jsEntity = `import { Exclude } from 'class-transformer';
export class UserEntity {
  @Exclude()
  password;
  constructor(partial) { Object.assign(this, partial); }
}`;

const apps: any[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
});

async function start(
  controllers: unknown[],
  providers: unknown[] = [],
  configure?: (app: any) => void,
): Promise<string> {
  @Module({controllers, providers})
  class AppModule {}
  const app = await NestFactory.create(AppModule, {logger: false});
  configure?.(app);
  apps.push(app);
  return listen(app);
}

async function get(base: string, path: string): Promise<any> {
  const response = await fetch(`${base}${path}`);
  expect(response.status).toBe(200);
  const text = await response.text();
  return text ? JSON.parse(text) : text;
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#exclude-properties`,
    `GET /users/1 answers the body the page prints, without the password (${lang})`,
    async () => {
      const set = samples(page, {
        under: 'exclude-properties',
        lang,
        files: lang === 'js' ? {'user.entity': jsEntity} : {},
      });
      const {UsersController} = set.require('users.controller');
      const base = await start([UsersController]);
      const body = await get(base, '/users/1');
      expect(body).not.toHaveProperty('password');
      expectOutput(page, 'serialized-user', body);
    },
  );
}

claim(
  `${page}#exclude-properties`,
  'an object literal with the same fields is sent with the password',
  async () => {
    @Controller('users')
    @UseInterceptors(ClassSerializerInterceptor)
    class LiteralController {
      @Get()
      find() {
        return {id: 1, email: 'ada@example.com', password: 'secret'};
      }
    }
    const base = await start([LiteralController]);
    expect(await get(base, '/users')).toEqual({
      id: 1,
      email: 'ada@example.com',
      password: 'secret',
    });
  },
);

claim(
  `${page}#exclude-properties`,
  'bound globally with app.get(Reflector), the interceptor serializes every route and reads @SerializeOptions()',
  async () => {
    const {UserEntity} = samples(page, {under: 'exclude-properties'}).require('user.entity');
    const line = fragment(page, 'exclude-properties', 'useGlobalInterceptors').value.split('\n')[1];
    const {apply} = compileModule<{apply: (app: any) => void}>(
      `import { ClassSerializerInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
export function apply(app: any) { ${line} }`,
      'serializer-global',
    );
    @Controller('global')
    class GlobalController {
      @Get()
      find() {
        return new UserEntity({id: 2, email: 'x@example.com', password: 'secret', _internal: 1});
      }
      @Get('prefixed')
      @SerializeOptions({excludePrefixes: ['_']})
      prefixed() {
        return new UserEntity({id: 2, _internal: 1});
      }
    }
    const base = await start([GlobalController], [], apply);
    expect(await get(base, '/global')).toEqual({id: 2, email: 'x@example.com', _internal: 1});
    expect(await get(base, '/global/prefixed')).toEqual({id: 2});
  },
);

claim(
  `${page}#exclude-properties`,
  'default options of the constructor are merged with @SerializeOptions() key by key',
  async () => {
    const {UserEntity} = samples(page, {under: 'exclude-properties'}).require('user.entity');
    @Controller('defaults')
    class DefaultsController {
      @Get()
      plain() {
        return new UserEntity({id: 3, _secret: 1, $meta: 2});
      }
      @Get('route')
      @SerializeOptions({excludePrefixes: ['_']})
      route() {
        return new UserEntity({id: 3, _secret: 1, $meta: 2});
      }
    }
    const base = await start([DefaultsController], [], (app) =>
      app.useGlobalInterceptors(
        new ClassSerializerInterceptor(app.get(Reflector), {excludePrefixes: ['$']}),
      ),
    );
    expect(await get(base, '/defaults')).toEqual({id: 3, _secret: 1});
    // The route's excludePrefixes replaces the default one (same key).
    expect(await get(base, '/defaults/route')).toEqual({id: 3, $meta: 2});
  },
);

claim(
  `${page}#overview`,
  'arrays are transformed element by element; strings, numbers, null and StreamableFile pass unchanged',
  async () => {
    const {UserEntity} = samples(page, {under: 'exclude-properties'}).require('user.entity');
    @Controller('many')
    @UseInterceptors(ClassSerializerInterceptor)
    class ManyController {
      @Get()
      list() {
        return [new UserEntity({id: 1, password: 'a'}), new UserEntity({id: 2, password: 'b'})];
      }
      @Get('text')
      text() {
        return 'plain text';
      }
      @Get('number')
      number() {
        return 42;
      }
      @Get('null')
      nothing() {
        return null;
      }
      @Get('file')
      file() {
        return new StreamableFile(Buffer.from('file body'));
      }
    }
    const base = await start([ManyController]);
    expect(await get(base, '/many')).toEqual([{id: 1}, {id: 2}]);
    expect(await (await fetch(`${base}/many/text`)).text()).toBe('plain text');
    expect(await (await fetch(`${base}/many/number`)).text()).toBe('42');
    const empty = await fetch(`${base}/many/null`);
    expect(empty.status).toBe(200);
    expect(await empty.text()).toBe('');
    expect(await (await fetch(`${base}/many/file`)).text()).toBe('file body');
  },
);

claim(
  `${page}#expose-properties`,
  '@Expose() on a getter adds fullName; getters without it are not serialized',
  async () => {
    const {UserEntity} = samples(page, {under: 'expose-properties'}).require('user.entity');
    Object.defineProperty(UserEntity.prototype, 'initials', {
      get() {
        return `${this.firstName[0]}${this.lastName[0]}`;
      },
    });
    @Controller('exposed')
    @UseInterceptors(ClassSerializerInterceptor)
    class ExposeController {
      @Get()
      find() {
        return new UserEntity({id: 1, firstName: 'Ada', lastName: 'Lovelace', password: 'x'});
      }
    }
    const base = await start([ExposeController]);
    expect(await get(base, '/exposed')).toEqual({
      id: 1,
      firstName: 'Ada',
      lastName: 'Lovelace',
      fullName: 'Ada Lovelace',
    });
  },
);

claim(
  `${page}#expose-properties`,
  '@Expose({ name }) renames a property in the output',
  async () => {
    const {UserEntity} = compileModule(
      `import { Expose } from 'class-transformer';
export class UserEntity { @Expose({ name: 'mail' }) email: string; constructor(p: any) { Object.assign(this, p); } }`,
      'expose-name',
    );
    @Controller('renamed')
    @UseInterceptors(ClassSerializerInterceptor)
    class RenameController {
      @Get()
      find() {
        return new UserEntity({email: 'ada@example.com'});
      }
    }
    const base = await start([RenameController]);
    expect(await get(base, '/renamed')).toEqual({mail: 'ada@example.com'});
  },
);

claim(
  `${page}#transform`,
  'the @Transform() rule serializes role { id: 3, name: "admin" } as "admin"',
  async () => {
    const {UserEntity} = samples(page, {
      under: 'transform',
      files: {'role.entity': 'export class RoleEntity { id: number; name: string; }'},
    }).require('user.entity');
    @Controller('roles')
    @UseInterceptors(ClassSerializerInterceptor)
    class RoleController {
      @Get()
      find() {
        return new UserEntity({
          id: 1,
          firstName: 'Ada',
          password: 'x',
          role: {id: 3, name: 'admin'},
        });
      }
    }
    const base = await start([RoleController]);
    expect(await get(base, '/roles')).toEqual({id: 1, firstName: 'Ada', role: 'admin'});
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#pass-options`,
    `@SerializeOptions({ excludePrefixes: ['_'] }) on the controller removes underscore properties of each user (${lang})`,
    async () => {
      const set = samples(page, {
        under: 'pass-options',
        lang,
        files: {
          'role.entity': 'export class RoleEntity {}',
          ...(lang === 'js' ? {'user.entity': jsEntity} : {}),
          'users.service':
            lang === 'ts'
              ? `import { Injectable } from '@nestjs/common';
@Injectable() export class UsersService { async findAll(): Promise<any[]> { return [{ id: 1, firstName: 'Ada', _version: 4, password: 'x' }, { id: 2, firstName: 'Alan', _version: 1 }]; } }`
              : `import { Injectable } from '@nestjs/common';
@Injectable() export class UsersService { async findAll() { return [{ id: 1, firstName: 'Ada', _version: 4, password: 'x' }, { id: 2, firstName: 'Alan', _version: 1 }]; } }`,
        },
      });
      const {UsersController} = set.require('users.controller');
      const {UsersService} = set.require('users.service');
      const base = await start([UsersController], [UsersService]);
      expect(await get(base, '/users')).toEqual([
        {id: 1, firstName: 'Ada'},
        {id: 2, firstName: 'Alan'},
      ]);
    },
  );
}

claim(
  `${page}#pass-options`,
  "a handler's own @SerializeOptions() replaces the controller's (the two are not combined)",
  async () => {
    const {UserEntity} = samples(page, {under: 'exclude-properties'}).require('user.entity');
    @Controller('levels')
    @UseInterceptors(ClassSerializerInterceptor)
    @SerializeOptions({excludePrefixes: ['_']})
    class LevelsController {
      @Get()
      controllerLevel() {
        return new UserEntity({id: 1, _a: 1, $b: 2});
      }
      @Get('own')
      @SerializeOptions({excludePrefixes: ['$']})
      handlerLevel() {
        return new UserEntity({id: 1, _a: 1, $b: 2});
      }
    }
    const base = await start([LevelsController]);
    expect(await get(base, '/levels')).toEqual({id: 1, $b: 2});
    expect(await get(base, '/levels/own')).toEqual({id: 1, _a: 1});
  },
);

claim(
  `${page}#pass-options`,
  "strategy: 'excludeAll' emits only @Expose() properties; groups select tagged properties",
  async () => {
    const {Account} = compileModule(
      `import { Expose } from 'class-transformer';
export class Account {
  @Expose() id: number;
  @Expose({ groups: ['admin'] }) email: string;
  internalNote: string;
  constructor(p: any) { Object.assign(this, p); }
}`,
      'exclude-all',
    );
    @Controller('accounts')
    @UseInterceptors(ClassSerializerInterceptor)
    class AccountsController {
      @Get()
      @SerializeOptions({strategy: 'excludeAll'})
      list() {
        return new Account({id: 1, email: 'a@example.com', internalNote: 'vip'});
      }
      @Get('admin')
      @SerializeOptions({strategy: 'excludeAll', groups: ['admin']})
      admin() {
        return new Account({id: 1, email: 'a@example.com', internalNote: 'vip'});
      }
    }
    const base = await start([AccountsController]);
    expect(await get(base, '/accounts')).toEqual({id: 1});
    expect(await get(base, '/accounts/admin')).toEqual({id: 1, email: 'a@example.com'});
  },
);

claim(
  `${page}#limitations`,
  'with @Res() the interceptor never sees the data: the password is sent',
  async () => {
    const {UserEntity} = samples(page, {under: 'exclude-properties'}).require('user.entity');
    const ResController = compileModule(
      `import { ClassSerializerInterceptor, Controller, Get, Res, UseInterceptors } from '@nestjs/common';
export function make(UserEntity: any) {
  @Controller('res')
  @UseInterceptors(ClassSerializerInterceptor)
  class ResController { @Get() find(@Res() res: any) { res.json(new UserEntity({ id: 1, password: 'x' })); } }
  return ResController;
}`,
      'res-controller',
    ).make(UserEntity);
    const base = await start([ResController]);
    expect(await get(base, '/res')).toEqual({id: 1, password: 'x'});
  },
);

claim(
  `${page}#websockets-and-microservices`,
  'bound to a gateway, the interceptor serializes what a message handler returns',
  async () => {
    const {UserEntity} = samples(page, {under: 'exclude-properties'}).require('user.entity');
    const {make} = compileModule(
      `import { ClassSerializerInterceptor, UseInterceptors } from '@nestjs/common';
import { SubscribeMessage, WebSocketGateway } from '@nestjs/websockets';
export function make(UserEntity: any) {
  @WebSocketGateway()
  @UseInterceptors(ClassSerializerInterceptor)
  class UsersGateway {
    @SubscribeMessage('user') user() { return new UserEntity({ id: 1, email: 'ada@example.com', password: 'secret' }); }
  }
  return UsersGateway;
}`,
      'serializer-gateway',
    );
    @Module({providers: [make(UserEntity)]})
    class GatewayModule {}
    const app = await NestFactory.create(GatewayModule, {logger: false});
    apps.push(app);
    const base = await listen(app);
    const {io} = nest('socket.io-client');
    const socket = io(base, {transports: ['websocket'], forceNew: true});
    try {
      const answer = await new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no answer')), 3000);
        socket.emit('user', {}, (data: unknown) => {
          clearTimeout(timer);
          resolve(data);
        });
      });
      expect(answer).toEqual({id: 1, email: 'ada@example.com'});
    } finally {
      socket.close();
    }
  },
);

claim.failure(
  `${page}#transform`,
  "a user whose role is null is sent without a role (the page's value?.name); value.name would make the response a 500",
  async () => {
    const set = samples(page, {
      under: 'transform',
      files: {'role.entity': 'export class RoleEntity { id: number; name: string; }'},
    });
    const {UserEntity} = set.require('user.entity');
    const unguarded = compileModule<any>(
      applyEdits('user.entity', set.sources.get('user.entity')!, [
        ['value?.name', 'value.name'],
        ["import { RoleEntity } from './role.entity';", 'class RoleEntity {}'],
      ]),
      'user.entity',
    ).UserEntity;
    const make = (Entity: any) => {
      @Controller(Entity === UserEntity ? 'guarded' : 'unguarded')
      @UseInterceptors(ClassSerializerInterceptor)
      class RoleController {
        @Get()
        find() {
          return new Entity({id: 2, firstName: 'Bob', password: 'x', role: null});
        }
      }
      return RoleController;
    };
    const base = await start([make(UserEntity), make(unguarded)]);
    expect(await get(base, '/guarded')).toEqual({id: 2, firstName: 'Bob'});
    const broken = await fetch(`${base}/unguarded`);
    expect([broken.status, await broken.json()]).toEqual([
      500,
      {statusCode: 500, message: 'Internal server error'},
    ]);
  },
);

claim.abuse(
  `${page}#limitations`,
  'a plain object in a property of an entity is sent as it is, password included; an entity inside a plain wrapper object is transformed',
  async () => {
    const {UserEntity} = samples(page, {under: 'exclude-properties'}).require('user.entity');
    @Controller('depth')
    @UseInterceptors(ClassSerializerInterceptor)
    class DepthController {
      @Get('literal-inside')
      literalInside() {
        return new UserEntity({id: 1, password: 'h1', manager: {id: 2, password: 'h2'}});
      }
      @Get('entity-inside')
      entityInside() {
        return {user: new UserEntity({id: 1, password: 'h1'})};
      }
    }
    const base = await start([DepthController]);
    expect(await get(base, '/depth/literal-inside')).toEqual({
      id: 1,
      manager: {id: 2, password: 'h2'},
    });
    expect(await get(base, '/depth/entity-inside')).toEqual({user: {id: 1}});
  },
);

claim.abuse(
  `${page}#pass-options`,
  "a column added to the table later (resetToken) is sent with the page's default strategy, and kept private by excludeAll with @Expose()",
  async () => {
    const {UserEntity} = samples(page, {under: 'exclude-properties'}).require('user.entity');
    const {AllowListedUser} = compileModule<any>(`
import { Expose } from 'class-transformer';
export class AllowListedUser {
  @Expose() id: number;
  @Expose() email: string;
  constructor(partial: Partial<AllowListedUser>) { Object.assign(this, partial); }
}
`);
    // A row as the database returns it once a migration added a column.
    const row = {id: 1, email: 'ada@example.com', password: 'h', resetToken: 'tok-123'};
    @Controller('columns')
    @UseInterceptors(ClassSerializerInterceptor)
    class ColumnsController {
      @Get('default')
      byDefault() {
        return new UserEntity(row);
      }
      @Get('allow-list')
      @SerializeOptions({strategy: 'excludeAll'})
      allowList() {
        return new AllowListedUser(row);
      }
    }
    const base = await start([ColumnsController]);
    expect(await get(base, '/columns/default')).toEqual({
      id: 1,
      email: 'ada@example.com',
      resetToken: 'tok-123',
    });
    expect(await get(base, '/columns/allow-list')).toEqual({id: 1, email: 'ada@example.com'});
  },
);

/**
 * The generated files are the page's own (controller, update DTO); the service is the one @nestjs/schematics
 * 8.0.11 writes for `nest g resource users` (REST, CRUD), checked by running the schematic in a temporary
 * project, where it also added UsersModule to AppModule and tried to install @nestjs/mapped-types@* (which
 * npm refused: 12.0.0 declares @nestjs/common ^10 || ^11 || ^12), as the page's hint says.
 */
import {afterAll, beforeAll, describe, expect} from 'vitest';
import {claim, samples, nest, listen, expectOutput} from '../../lib';

const page = 'docs/recipes/crud-generator.md';
const {NestFactory} = nest('@nestjs/core');
const {Module, ValidationPipe} = nest('@nestjs/common');

/** The generated controller and service in a module of their own, the controller edited by `edit`. */
async function startGenerated(edit?: Record<string, [string, string][]>) {
  const set = samples(page, {files: generated, edit});
  @Module({
    controllers: [set.require('users.controller').UsersController],
    providers: [set.require('users.service').UsersService],
  })
  class UsersModule {}
  const app = await NestFactory.create(UsersModule, {logger: false});
  return {app, base: await listen(app)};
}

const generated: Record<string, string> = {
  'users.service': `
    import { Injectable } from '@nestjs/common';
    import { CreateUserDto } from './dto/create-user.dto';
    import { UpdateUserDto } from './dto/update-user.dto';
    @Injectable()
    export class UsersService {
      create(createUserDto: CreateUserDto) { return 'This action adds a new user'; }
      findAll() { return \`This action returns all users\`; }
      findOne(id: number) { return \`This action returns a #\${id} user\`; }
      update(id: number, updateUserDto: UpdateUserDto) { return \`This action updates a #\${id} user\`; }
      remove(id: number) { return \`This action removes a #\${id} user\`; }
    }`,
  // CreateUserDto starts empty; one validated property added, as the page suggests.
  'create-user.dto':
    "import { IsString } from 'class-validator';\nexport class CreateUserDto { @IsString() name: string; }",
};

describe('the generated REST resource', () => {
  let app: any;
  let base: string;
  beforeAll(async () => {
    const set = samples(page, {files: generated});
    const {UsersController} = set.require('users.controller');
    const {UsersService} = set.require('users.service');
    @Module({controllers: [UsersController], providers: [UsersService]})
    class UsersModule {}
    app = await NestFactory.create(UsersModule, {logger: false});
    app.useGlobalPipes(new ValidationPipe());
    base = await listen(app);
  });
  afterAll(async () => {
    await app?.close();
  });
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {'content-type': 'application/json'},
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return {status: response.status, text: await response.text()};
  };

  claim(
    `${page}#what-you-get`,
    'the controller maps POST, GET, GET :id, PATCH :id and DELETE :id to the service, which returns placeholder strings',
    async () => {
      expect(await call('POST', '/users', {name: 'Aria'})).toEqual({
        status: 201,
        text: 'This action adds a new user',
      });
      expect(await call('GET', '/users')).toEqual({
        status: 200,
        text: 'This action returns all users',
      });
      expect(await call('GET', '/users/1')).toEqual({
        status: 200,
        text: 'This action returns a #1 user',
      });
      expect(await call('PATCH', '/users/1', {})).toEqual({
        status: 200,
        text: 'This action updates a #1 user',
      });
      expect(await call('DELETE', '/users/1')).toEqual({
        status: 200,
        text: 'This action removes a #1 user',
      });
    },
  );

  claim(
    `${page}#dtos-and-partialtype`,
    "UpdateUserDto accepts every field as optional and keeps the create DTO's validation rules",
    async () => {
      expect((await call('PATCH', '/users/1', {})).status).toBe(200);
      expect((await call('PATCH', '/users/1', {name: 'Bram'})).status).toBe(200);
      const invalid = await call('PATCH', '/users/1', {name: 42});
      expect(invalid.status).toBe(400);
      expect(JSON.parse(invalid.text).message).toEqual(['name must be a string']);
      expect((await call('POST', '/users', {})).status).toBe(400);
    },
  );
});

claim.abuse(
  `${page}#dtos-and-partialtype`,
  'as generated (empty DTO, no pipe), create() receives any body, a made-up role included; ValidationPipe with whitelist: true lets none of it through',
  async () => {
    const received: unknown[] = [];
    (globalThis as any).__crudReceived = received;
    const files = {
      ...generated,
      // The service as generated, recording what create() gets (where your repository call would go).
      'users.service': generated['users.service'].replace(
        "create(createUserDto: CreateUserDto) { return 'This action adds a new user'; }",
        "create(createUserDto: CreateUserDto) { (globalThis as any).__crudReceived.push(createUserDto); return 'This action adds a new user'; }",
      ),
      // The DTO exactly as the schematic writes it.
      'create-user.dto': 'export class CreateUserDto {}',
    };
    for (const pipe of [undefined, new ValidationPipe({whitelist: true})]) {
      const set = samples(page, {files});
      @Module({
        controllers: [set.require('users.controller').UsersController],
        providers: [set.require('users.service').UsersService],
      })
      class UsersModule {}
      const app = await NestFactory.create(UsersModule, {logger: false});
      if (pipe) app.useGlobalPipes(pipe);
      try {
        const base = await listen(app);
        const response = await fetch(`${base}/users`, {
          method: 'POST',
          headers: {'content-type': 'application/json'},
          body: JSON.stringify({name: 'Mallory', role: 'admin'}),
        });
        expect(response.status).toBe(201);
      } finally {
        await app.close();
      }
    }
    expect(received).toEqual([{name: 'Mallory', role: 'admin'}, {}]);
  },
);

claim.abuse(
  `${page}#what-you-get`,
  "ids that are not plain digits: the generated +id turns abc into NaN, 0x10 into 16, 1e1 into 10, a space into 0; @Param('id', ParseIntPipe) answers 400 to each (output crud-id-conversion)",
  async () => {
    const plain = await startGenerated();
    const piped = await startGenerated({
      'users.controller': [
        [
          "findOne(@Param('id') id: string) {\n    return this.usersService.findOne(+id);",
          "findOne(@Param('id', ParseIntPipe) id: number) {\n    return this.usersService.findOne(id);",
        ],
        ['import { Controller,', 'import { ParseIntPipe, Controller,'],
      ],
    });
    try {
      const lines: string[] = [];
      for (const id of ['abc', '0x10', '1e1', '1.5', '%20', '7']) {
        const a = await fetch(`${plain.base}/users/${id}`);
        expect(a.status).toBe(200);
        const b = await fetch(`${piped.base}/users/${id}`);
        const shown = b.status === 200 ? await b.text() : String(b.status);
        if (b.status !== 200) {
          expect(await b.json()).toMatchObject({
            message: 'Validation failed (numeric string is expected)',
          });
        }
        lines.push(
          `${`GET /users/${id}`.padEnd(17)} +id: ${(await a.text()).padEnd(31)}   ParseIntPipe: ${shown}`,
        );
      }
      expectOutput(page, 'crud-id-conversion', lines.join('\n'));
    } finally {
      await plain.app.close();
      await piped.app.close();
    }
  },
);

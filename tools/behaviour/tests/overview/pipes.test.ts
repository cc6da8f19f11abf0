import {expect} from 'vitest';
import {claim, samples, nest, expectOutput, fragment, compileModule} from '../../lib';
import {
  start,
  call,
  withoutMetadata,
  expectGlobalOnlyOverHttp,
  microserviceGlobalProbe,
  pageSamples,
} from './_support';

const common = nest('@nestjs/common');
const {APP_PIPE} = nest('@nestjs/core');
const {
  Controller,
  Get,
  Post,
  Module,
  Injectable,
  Param,
  Query,
  Body,
  Headers,
  Req,
  UsePipes,
  ParseIntPipe,
  ParseUUIDPipe,
  ParseArrayPipe,
  BadRequestException,
  createParamDecorator,
  ImATeapotException,
} = common;
const page = 'docs/pipes.md';

// The service the page's controllers call (not shown on the page): it echoes what it receives. Plain JS syntax, so the JS halves load it too.
const catsService = `
import { Injectable } from '@nestjs/common';
@Injectable()
export class CatsService {
  constructor() { this.created = []; }
  findOne(id) { return { id, type: typeof id }; }
  findByAge(age) { return { age, type: typeof age }; }
  findOneByUuid(uuid) { return { uuid }; }
  findAll(options) { return options; }
  create(cat) { this.created.push(cat); }
}
`;

function app(controller: unknown, extra: unknown[] = [], service?: unknown) {
  @Module({
    controllers: [controller as any],
    providers: [service as any, ...(extra as any[])].filter(Boolean),
  })
  class AppModule {}
  return AppModule;
}

function cats(lang: 'ts' | 'js', n: number, more: Record<string, string> = {}) {
  const set = pageSamples(page, {
    lang,
    pick: {'cats.controller': n},
    files: {'cats.service': catsService, ...more},
  });
  return {
    CatsController: set.require('cats.controller').CatsController,
    CatsService: set.require('cats.service').CatsService,
    set,
  };
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#binding-pipes`,
    `with ParseIntPipe, GET /cats/7 gives findOne() the number 7 (${lang})`,
    async () => {
      const {CatsController, CatsService} = cats(lang, 1);
      const {base} = await start(app(CatsController, [], CatsService));
      expect((await call(base, 'GET', '/cats/7')).json()).toEqual({id: 7, type: 'number'});
    },
  );

  claim(
    `${page}#binding-pipes`,
    `GET /cats/abc is rejected with 400 "Validation failed (numeric string is expected)" (${lang})`,
    async () => {
      const {CatsController, CatsService} = cats(lang, 1);
      const {base} = await start(app(CatsController, [], CatsService));
      const reply = await call(base, 'GET', '/cats/abc');
      expect(reply.status).toBe(400);
      expectOutput(page, 'parse-int-error', reply.text);
    },
  );

  claim(
    `${page}#passing-options`,
    `new ParseIntPipe({ errorHttpStatusCode: NOT_ACCEPTABLE }) answers 406 for a non-numeric id (${lang})`,
    async () => {
      const {CatsController, CatsService} = cats(lang, 2);
      const {base} = await start(app(CatsController, [], CatsService));
      const reply = await call(base, 'GET', '/cats/abc');
      expect([reply.status, reply.json()]).toEqual([
        406,
        {
          statusCode: 406,
          message: 'Validation failed (numeric string is expected)',
          error: 'Not Acceptable',
        },
      ]);
      expect((await call(base, 'GET', '/cats/12')).json()).toEqual({id: 12, type: 'number'});
    },
  );

  claim(
    `${page}#query-parameters`,
    `?age=3 passes the number 3; ?age=old and a missing age answer 400 (${lang})`,
    async () => {
      const {CatsController, CatsService} = cats(lang, 3);
      const {base} = await start(app(CatsController, [], CatsService));
      expect((await call(base, 'GET', '/cats?age=3')).json()).toEqual({age: 3, type: 'number'});
      const old = await call(base, 'GET', '/cats?age=old');
      expect(old.status).toBe(400);
      expectOutput(page, 'parse-int-error', old.text);
      expect((await call(base, 'GET', '/cats')).status).toBe(400);
    },
  );

  claim(
    `${page}#validating-uuids`,
    `ParseUUIDPipe({ version: '4' }) lets a v4 UUID through and rejects others with "Validation failed (uuid v4 is expected)" (${lang})`,
    async () => {
      const {CatsController, CatsService} = cats(lang, 4);
      const {base} = await start(app(CatsController, [], CatsService));
      const v4 = '3f2b8c1e-5d4a-4c2b-9e8f-0a1b2c3d4e5f';
      expect((await call(base, 'GET', `/cats/${v4}`)).json()).toEqual({uuid: v4});
      const v1 = await call(base, 'GET', '/cats/6fa459ea-ee8a-11ed-a05b-0242ac120003');
      expect([v1.status, v1.json()]).toEqual([
        400,
        {statusCode: 400, message: 'Validation failed (uuid v4 is expected)', error: 'Bad Request'},
      ]);
    },
  );

  claim(
    `${page}#providing-defaults`,
    `GET /cats gives false and 0; ?page=2 gives 2; ?page=two answers 400 (${lang})`,
    async () => {
      const {CatsController, CatsService} = cats(lang, 9);
      const {base} = await start(app(CatsController, [], CatsService));
      expect((await call(base, 'GET', '/cats')).json()).toEqual({vaccinatedOnly: false, page: 0});
      expect((await call(base, 'GET', '/cats?page=2')).json()).toEqual({
        vaccinatedOnly: false,
        page: 2,
      });
      expect((await call(base, 'GET', '/cats?vaccinatedOnly=true&page=1')).json()).toEqual({
        vaccinatedOnly: true,
        page: 1,
      });
      expect((await call(base, 'GET', '/cats?page=two')).status).toBe(400);
    },
  );

  claim(
    `${page}#binding-validation-pipes`,
    `the Joi pipe rejects { "name": "Tom" } with 400 "Validation failed" and lets a full cat through (${lang})`,
    async () => {
      const schema = fragment(page, 'binding-validation-pipes', 'Joi.object').value;
      const dto =
        lang === 'ts'
          ? `${schema}\nexport class CreateCatDto { name: string; age: number; breed: string; }`
          : schema;
      const {CatsController, CatsService} = cats(lang, 6, {'create-cat.dto': dto});
      const {base} = await start(app(CatsController, [], CatsService));
      const bad = await call(base, 'POST', '/cats', {body: {name: 'Tom'}});
      expect(bad.status).toBe(400);
      expectOutput(page, 'joi-validation-error', bad.text);
      expect(
        (await call(base, 'POST', '/cats', {body: {name: 'Tom', age: 3, breed: 'Persian'}})).status,
      ).toBe(201);
    },
  );

  claim(
    `${page}#transformation-use-case`,
    `UserByIdPipe turns the id into the user, or answers 404 "User 99 does not exist" (${lang})`,
    async () => {
      const usersService = `
import { Injectable } from '@nestjs/common';
@Injectable()
export class UsersService {
  findOne(id) { return id === 1 ? { id: 1, firstName: 'Alice' } : undefined; }
}
`;
      const set = pageSamples(page, {
        lang,
        files: {'users.service': usersService, 'user.entity': 'export class UserEntity {}'},
      });
      const {UsersController} = set.require('users.controller');
      const {UsersService} = set.require('users.service');
      const {base} = await start(app(UsersController, [], UsersService));
      expect((await call(base, 'GET', '/users/1')).json()).toEqual({id: 1, firstName: 'Alice'});
      const missing = await call(base, 'GET', '/users/99');
      expect([missing.status, missing.json()]).toEqual([
        404,
        {statusCode: 404, message: 'User 99 does not exist', error: 'Not Found'},
      ]);
    },
  );
}

claim(
  `${page}#class-validator`,
  `the class-validator pipe rejects a bad body with 400 "Validation failed" and hands a valid one on as a CreateCatDto instance`,
  async () => {
    const seen: unknown[] = [];
    const {CatsController, CatsService} = cats('ts', 7);
    const {base} = await start(app(CatsController, [], CatsService), {
      setup: (a) => seen.push(a.get(CatsService)),
    });
    const bad = await call(base, 'POST', '/cats', {body: {name: 'Tom', age: -1, breed: 'Persian'}});
    expect([bad.status, bad.json()]).toEqual([
      400,
      {statusCode: 400, message: 'Validation failed', error: 'Bad Request'},
    ]);
    expect(
      (await call(base, 'POST', '/cats', {body: {name: 'Tom', age: '3', breed: 'Persian'}})).status,
    ).toBe(400);
    expect(
      (await call(base, 'POST', '/cats', {body: {name: 'Tom', age: 3, breed: 'Persian'}})).status,
    ).toBe(201);
    const created = (seen[0] as any).created;
    expect(created).toEqual([{name: 'Tom', age: 3, breed: 'Persian'}]);
    expect(created[0].constructor.name).toBe('CreateCatDto');
  },
);

claim(
  `${page}#argument-metadata`,
  `in plain JavaScript (no type metadata, as Babel builds it) metatype is undefined, so the validation pipe lets every value through`,
  async () => {
    const set = pageSamples(page, {
      lang: 'js',
      pick: {'cats.controller': 7},
      files: {'cats.service': catsService},
    });
    withoutMetadata(set, 'cats.controller');
    const {CatsController} = set.require('cats.controller');
    const {CatsService} = set.require('cats.service');
    const metas: any[] = [];
    class Recording {
      transform(value: unknown, metadata: any) {
        metas.push(metadata);
        return value;
      }
    }
    const {base} = await start(app(CatsController, [], CatsService), {
      setup: (a) => a.useGlobalPipes(new Recording()),
    });
    expect((await call(base, 'POST', '/cats', {body: {age: 'three'}})).status).toBe(201);
    expect(metas).toEqual([{type: 'body', metatype: undefined, data: undefined}]);
  },
);

claim(
  `${page}#controller-scoped-pipes`,
  `@UsePipes(ValidationPipe) on AdminController validates every payload of the controller`,
  async () => {
    const set = samples(page, {pick: {'validation.pipe': 2, 'create-cat.dto': 2}});
    const {AdminController} = set.require('admin.controller');
    const {base} = await start([AdminController]);
    expect((await call(base, 'POST', '/admin/cats', {body: {name: 'Tom'}})).status).toBe(400);
    const ok = await call(base, 'POST', '/admin/cats', {
      body: {name: 'Tom', age: 3, breed: 'Persian'},
    });
    expect([ok.status, ok.json()]).toEqual([201, {name: 'Tom', age: 3, breed: 'Persian'}]);
  },
);

claim(
  `${page}#global-scoped-pipes`,
  `the APP_PIPE provider of the page makes the validation pipe global`,
  async () => {
    const set = samples(page, {pick: {'validation.pipe': 2, 'create-cat.dto': 2}});
    const {AppModule} = set.require('app.module');
    const {CreateCatDto} = set.require('create-cat.dto');
    @Controller('cats')
    class CatsController {
      @Post()
      create(@Body() dto: InstanceType<typeof CreateCatDto>) {
        return dto;
      }
    }
    Reflect.defineMetadata('design:paramtypes', [CreateCatDto], CatsController.prototype, 'create');
    @Module({imports: [AppModule], controllers: [CatsController]})
    class Root {}
    const {base} = await start(Root);
    expect((await call(base, 'POST', '/cats', {body: {name: 'Tom'}})).json()).toEqual({
      statusCode: 400,
      message: 'Validation failed',
      error: 'Bad Request',
    });
  },
);

claim(
  `${page}#global-scoped-pipes`,
  `pipes run global first, then controller, method and parameter scoped; @UsePipes() runs its pipes in the order listed`,
  async () => {
    const order: string[] = [];
    const tag = (name: string) => ({transform: (value: unknown) => (order.push(name), value)});
    @Controller('cats')
    @UsePipes(tag('controller'))
    class CatsController {
      @Get(':id')
      @UsePipes(tag('method-1'), tag('method-2'))
      findOne(@Param('id', tag('parameter')) id: string) {
        return id;
      }
    }
    const {base} = await start([CatsController], {setup: (a) => a.useGlobalPipes(tag('global'))});
    expect((await call(base, 'GET', '/cats/1')).text).toBe('1');
    expect(order).toEqual(['global', 'controller', 'method-1', 'method-2', 'parameter']);
  },
);

claim(
  `${page}#argument-metadata`,
  `metadata holds type, metatype (the declared class, Object for an interface or no annotation) and data`,
  async () => {
    const metas: any[] = [];
    class Recording {
      transform(value: unknown, metadata: any) {
        metas.push(metadata);
        return value;
      }
    }
    interface Shape {
      name: string;
    }
    class CreateCatDto {}
    const User = createParamDecorator(() => 'user');
    @Controller('cats')
    @UsePipes(Recording)
    class CatsController {
      @Post(':id')
      create(
        @Body() dto: CreateCatDto,
        @Param('id') id: string,
        @Query('q') q: Shape,
        @Query('r') r: any,
        @User() user: string,
      ) {
        return [dto, id, q, r, user].length;
      }
    }
    const {base} = await start([CatsController]);
    await call(base, 'POST', '/cats/1?q=a&r=b', {body: {}});
    const byType = (a: any, b: any) => `${a.type}${a.data}`.localeCompare(`${b.type}${b.data}`);
    expect(metas.sort(byType)).toEqual(
      [
        {type: 'body', metatype: CreateCatDto, data: undefined},
        {type: 'custom', metatype: String, data: undefined},
        {type: 'param', metatype: String, data: 'id'},
        {type: 'query', metatype: Object, data: 'q'},
        {type: 'query', metatype: Object, data: 'r'},
      ].sort(byType),
    );
  },
);

claim(
  `${page}#binding-validation-pipes`,
  `@UsePipes() reaches @Body(), @Query(), @Param() and custom decorators, never @Req() or @Headers()`,
  async () => {
    const types: string[] = [];
    const User = createParamDecorator(() => 'user');
    @Controller('cats')
    class CatsController {
      @Post(':id')
      @UsePipes({transform: (value: unknown, metadata: any) => (types.push(metadata.type), value)})
      create(
        @Body() body: object,
        @Query('q') q: string,
        @Param('id') id: string,
        @User() user: string,
        @Req() req: object,
        @Headers('host') host: string,
      ) {
        return [body, q, id, user, req, host].length;
      }
    }
    const {base} = await start([CatsController]);
    await call(base, 'POST', '/cats/1?q=a', {body: {}});
    expect(types.sort()).toEqual(['body', 'custom', 'param', 'query']);
  },
);

claim(
  `${page}#transformation-use-case`,
  `the hand-written ParseIntPipe accepts '7' and '-5' and refuses '12abc' (which parseInt() alone reads as 12); the built-in one does the same`,
  async () => {
    const {CatsController, CatsService} = cats('ts', 8);
    const {base} = await start(app(CatsController, [], CatsService));
    expect((await call(base, 'GET', '/cats/7')).json()).toEqual({id: 7, type: 'number'});
    expect((await call(base, 'GET', '/cats/-5')).json()).toEqual({id: -5, type: 'number'});
    expect(parseInt('12abc', 10)).toBe(12);
    expect((await call(base, 'GET', '/cats/12abc')).status).toBe(400);
    expect((await call(base, 'GET', '/cats/abc')).json()).toEqual({
      statusCode: 400,
      message: 'Validation failed',
      error: 'Bad Request',
    });
    const builtIn = cats('ts', 1);
    const {base: strict} = await start(app(builtIn.CatsController, [], builtIn.CatsService));
    expect((await call(strict, 'GET', '/cats/12abc')).status).toBe(400);
    expect((await call(strict, 'GET', '/cats/-5')).json()).toEqual({id: -5, type: 'number'});
  },
);

claim(
  `${page}#enums-booleans-and-arrays`,
  `the search handler gets 'siamese', true and [1, 2, 3]; ParseBoolPipe rejects '1' and 'yes', ParseEnumPipe an unknown breed`,
  async () => {
    const {CatsController} = compileModule(
      fragment(page, 'enums-booleans-and-arrays', 'ParseEnumPipe').value,
      'search-controller',
    );
    const {base} = await start([CatsController]);
    expect(
      (await call(base, 'GET', '/cats/search?breed=siamese&vaccinated=true&ids=1,2,3')).json(),
    ).toEqual({breed: 'siamese', vaccinated: true, ids: [1, 2, 3]});
    for (const bad of ['1', 'yes']) {
      const reply = await call(base, 'GET', `/cats/search?breed=siamese&vaccinated=${bad}&ids=1`);
      expect([reply.status, reply.json().message]).toEqual([
        400,
        'Validation failed (boolean string is expected)',
      ]);
    }
    const breed = await call(base, 'GET', '/cats/search?breed=tabby&vaccinated=true&ids=1');
    expect([breed.status, breed.json().message]).toEqual([
      400,
      'Validation failed (enum string is expected)',
    ]);
  },
);

claim(
  `${page}#validating-uuids`,
  `without a version any UUID passes; a value that is not a string gets 400 "The value passed as UUID is not a string" whatever errorHttpStatusCode says`,
  async () => {
    @Controller('cats')
    class CatsController {
      @Get('any/:uuid')
      any(@Param('uuid', ParseUUIDPipe) uuid: string) {
        return uuid;
      }

      @Get('by-query')
      byQuery(
        @Query('id', new ParseUUIDPipe({version: '4', errorHttpStatusCode: 418})) id: string,
      ) {
        return id;
      }
    }
    const {base} = await start([CatsController]);
    expect((await call(base, 'GET', '/cats/any/6fa459ea-ee8a-11ed-a05b-0242ac120003')).text).toBe(
      '6fa459ea-ee8a-11ed-a05b-0242ac120003',
    );
    expect((await call(base, 'GET', '/cats/by-query?id=nope')).status).toBe(418);
    const missing = await call(base, 'GET', '/cats/by-query');
    expect([missing.status, missing.json()]).toEqual([
      400,
      {statusCode: 400, message: 'The value passed as UUID is not a string', error: 'Bad Request'},
    ]);
  },
);

claim(
  `${page}#enums-booleans-and-arrays`,
  `ParseArrayPipe with optional: true passes a missing value through; without it the value is rejected`,
  async () => {
    @Controller('cats')
    class CatsController {
      @Get('optional')
      optional(@Query('ids', new ParseArrayPipe({items: Number, optional: true})) ids?: number[]) {
        return {ids: ids ?? 'missing'};
      }

      @Get('required')
      required(@Query('ids', new ParseArrayPipe({items: Number})) ids: number[]) {
        return {ids};
      }
    }
    const {base} = await start([CatsController]);
    expect((await call(base, 'GET', '/cats/optional')).json()).toEqual({ids: 'missing'});
    expect((await call(base, 'GET', '/cats/required')).status).toBe(400);
  },
);

claim(
  `${page}#passing-options`,
  `exceptionFactory receives the error message and its exception is thrown; an errorHttpStatusCode outside the table is not accepted`,
  async () => {
    @Controller('cats')
    class CatsController {
      @Get(':id')
      findOne(
        @Param(
          'id',
          new ParseIntPipe({
            exceptionFactory: (message: string) => new ImATeapotException(`custom: ${message}`),
          }),
        )
        id: number,
      ) {
        return id;
      }
    }
    const {base} = await start([CatsController]);
    const reply = await call(base, 'GET', '/cats/x');
    expect([reply.status, reply.json().message]).toEqual([
      418,
      'custom: Validation failed (numeric string is expected)',
    ]);
    expect(() => new ParseIntPipe({errorHttpStatusCode: 421}).exceptionFactory('m')).toThrow();
    expect(() => new ParseIntPipe({errorHttpStatusCode: 505}).exceptionFactory('m')).toThrow();
  },
);

claim(
  `${page}#pipes`,
  `a pipe that throws skips the handler, and the route's exception filters receive the exception`,
  async () => {
    let ran = false;
    @Controller('cats')
    class CatsController {
      @Get(':id')
      @common.UseFilters({
        catch: (_e: unknown, host: any) =>
          host.switchToHttp().getResponse().status(422).json({filtered: true}),
      })
      findOne(
        @Param('id', {
          transform: () => {
            throw new BadRequestException('no');
          },
        })
        id: string,
      ) {
        ran = true;
        return id;
      }
    }
    const {base} = await start([CatsController]);
    const reply = await call(base, 'GET', '/cats/1');
    expect([reply.status, reply.json(), ran]).toEqual([422, {filtered: true}, false]);
  },
);

void Injectable;
void APP_PIPE;

claim(
  `${page}#global-scoped-pipes`,
  `global pipes (useGlobalPipes() or APP_PIPE) never reach a WebSocket gateway; a connected microservice gets them only with inheritAppConfig: true`,
  async () => {
    await expectGlobalOnlyOverHttp('pipe', expect);
  },
  30000,
);

claim(
  `${page}#global-scoped-pipes`,
  `in an application made with NestFactory.createMicroservice(), useGlobalPipes() runs the pipe for each message`,
  async () => {
    const {answer, ran} = await microserviceGlobalProbe('pipe');
    expect([answer, ran]).toEqual([{value: 'hello'}, ['pipe', 'handler']]);
  },
);

// Review 4: what the parse pipes accept, what the class-validator pipe lets through, and which arguments
// pipes see.

claim.abuse(
  `${page}#binding-pipes`,
  `the built-in ParseIntPipe refuses 1e3, " 12", 0x10 and 12abc, but turns 9007199254740993 into 9007199254740992 (another id) and -0 into -0`,
  async () => {
    const {CatsController, CatsService} = cats('ts', 1);
    const {base} = await start(app(CatsController, [], CatsService));
    for (const id of ['1e3', '%2012', '0x10', '12abc']) {
      const reply = await call(base, 'GET', `/cats/${id}`);
      expect(reply.status, id).toBe(400);
      expectOutput(page, 'parse-int-error', reply.text);
    }
    expect((await call(base, 'GET', '/cats/9007199254740993')).json()).toEqual({
      id: 9007199254740992,
      type: 'number',
    });
    expect((await call(base, 'GET', '/cats/99999999999999999999')).json()).toEqual({
      id: 100000000000000000000,
      type: 'number',
    });
  },
);

claim.abuse(
  `${page}#query-parameters`,
  `ParseIntPipe on @Query('age') refuses a repeated value (?age=3&age=4) and a bracketed one (?age[$gt]=1) with 400`,
  async () => {
    const {CatsController, CatsService} = cats('ts', 3);
    const {base} = await start(app(CatsController, [], CatsService));
    for (const query of ['age=3&age=4', 'age[$gt]=1']) {
      const reply = await call(base, 'GET', `/cats?${query}`);
      expect(reply.status, query).toBe(400);
      expectOutput(page, 'parse-int-error', reply.text);
    }
  },
);

claim.abuse(
  `${page}#transformation-use-case`,
  `the hand-written ParseIntPipe refuses 0x10, " 12", 1e3, a repeated query value and 9007199254740993, all of which parseInt() alone would accept`,
  async () => {
    const {ParseIntPipe: HandWritten} = samples(page, {pick: {'parse-int.pipe': 1}}).require(
      'parse-int.pipe',
    );
    @Controller('cats')
    class CatsController {
      @Get()
      byAge(@Query('age', new HandWritten()) age: number) {
        return {age};
      }
    }
    const {base} = await start([CatsController]);
    expect((await call(base, 'GET', '/cats?age=12')).json()).toEqual({age: 12});
    for (const query of [
      'age=0x10',
      'age=%2012',
      'age=1e3',
      'age=12&age=x',
      'age=9007199254740993',
    ]) {
      expect((await call(base, 'GET', `/cats?${query}`)).status, query).toBe(400);
    }
  },
);

/** The page's class-validator pipe on POST /cats (fence 7), with a service that keeps what it receives. */
async function validatedCats() {
  const seen: unknown[] = [];
  const {CatsController, CatsService} = cats('ts', 7);
  const {base} = await start(app(CatsController, [], CatsService), {
    setup: (a) => seen.push(a.get(CatsService)),
  });
  return {base, created: () => (seen[0] as any).created as any[]};
}
const tom = {name: 'Tom', age: 3, breed: 'Persian'};

claim.abuse(
  `${page}#class-validator`,
  `the class-validator pipe refuses a body with a property the DTO does not declare (isAdmin: true) instead of passing it to the service`,
  async () => {
    const {base, created} = await validatedCats();
    const reply = await call(base, 'POST', '/cats', {body: {...tom, isAdmin: true}});
    expect([reply.status, reply.json().message]).toEqual([400, 'Validation failed']);
    expect(created()).toEqual([]);
  },
);

claim.abuse(
  `${page}#class-validator`,
  `the class-validator pipe refuses a JSON array body, [] and [{ "name": 5 }] alike, which an array's missing rules would otherwise let through`,
  async () => {
    const {base, created} = await validatedCats();
    for (const body of ['[]', '[{"name": 5}]']) {
      expect((await call(base, 'POST', '/cats', {body})).status, body).toBe(400);
    }
    expect(created()).toEqual([]);
  },
);

claim.abuse(
  `${page}#class-validator`,
  `a "__proto__" key in the body does not reach the service: Object.assign() of what the handler got sets no foreign prototype`,
  async () => {
    const {base, created} = await validatedCats();
    const body = '{"__proto__": {"isAdmin": true}, "name": "Tom", "age": 3, "breed": "Persian"}';
    expect((await call(base, 'POST', '/cats', {body})).status).toBe(201);
    const [cat] = created();
    expect(Object.keys(cat)).toEqual(['name', 'age', 'breed']);
    const merged: any = Object.assign({}, cat);
    expect(merged.isAdmin).toBeUndefined();
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
  },
);

claim.abuse(
  `${page}#class-validator`,
  `a "constructor" key or an object where a string is meant (name: { $ne: "" }) does not get past the rules`,
  async () => {
    const {base, created} = await validatedCats();
    for (const body of [
      '{"constructor": {"name": "Object"}, "name": 5, "age": 3, "breed": "Persian"}',
      '{"name": {"$ne": ""}, "age": 3, "breed": "Persian"}',
    ]) {
      expect((await call(base, 'POST', '/cats', {body})).status, body).toBe(400);
    }
    expect(created()).toEqual([]);
  },
);

claim(
  `${page}#binding-validation-pipes`,
  `@UploadedFile() arguments go through global, controller and method pipes with type 'custom': a @UsePipes() body schema is applied to the file too`,
  async () => {
    const {FileInterceptor} = nest('@nestjs/platform-express');
    const {UploadedFile, UseInterceptors} = common;
    const seen: string[] = [];
    const recorder = (scope: string) => ({
      transform: (value: any, metadata: any) => {
        seen.push(`${scope}:${metadata.type}:${value?.originalname ?? typeof value}`);
        return value;
      },
    });
    @Controller('cats')
    @UsePipes(recorder('controller'))
    class CatsController {
      @Post('photo')
      @UseInterceptors(FileInterceptor('photo'))
      @UsePipes(recorder('method'))
      upload(@UploadedFile() photo: any) {
        return {size: photo.size};
      }
    }
    const {base} = await start([CatsController], {
      setup: (a) => a.useGlobalPipes(recorder('global')),
    });
    const form = new FormData();
    form.append('photo', new Blob(['meow']), 'tom.jpg');
    const reply = await fetch(`${base}/cats/photo`, {method: 'POST', body: form});
    expect(await reply.json()).toEqual({size: 4});
    expect(seen).toEqual([
      'global:custom:tom.jpg',
      'controller:custom:tom.jpg',
      'method:custom:tom.jpg',
    ]);
  },
);

claim.abuse(
  `${page}#custom-pipes`,
  `a pipe built as an anonymous class expression never runs, so the value reaches the handler unchecked; wrapped in mixin() it runs`,
  async () => {
    const refuseAll = () =>
      class {
        transform() {
          throw new BadRequestException('refused');
        }
      };
    const Anonymous = refuseAll();
    const Mixed = common.mixin(refuseAll());
    @Controller('cats')
    class CatsController {
      @Get('anonymous/:id')
      anonymous(@Param('id', Anonymous) id: string) {
        return `unchecked ${id}`;
      }

      @Get('mixin/:id')
      mixed(@Param('id', Mixed) id: string) {
        return `never ${id}`;
      }
    }
    const {base} = await start([CatsController]);
    expect((await call(base, 'GET', '/cats/anonymous/1;DROP')).text).toBe('unchecked 1;DROP');
    expect((await call(base, 'GET', '/cats/mixin/1')).status).toBe(400);
  },
);

claim.abuse(
  `${page}#enums-booleans-and-arrays`,
  `the search handler refuses repeated or bracketed breed and vaccinated values with 400; ids repeated as ?ids=1&ids=2 still give [1, 2], a bracketed ids is refused`,
  async () => {
    const {CatsController} = compileModule(
      fragment(page, 'enums-booleans-and-arrays', 'ParseEnumPipe').value,
      'search-controller-abuse',
    );
    const {base} = await start([CatsController]);
    const search = (query: string) => call(base, 'GET', `/cats/search?${query}`);
    for (const query of [
      'breed=siamese&breed=persian&vaccinated=true&ids=1',
      'breed[$ne]=x&vaccinated=true&ids=1',
      'breed=siamese&vaccinated=true&vaccinated=false&ids=1',
      'breed=siamese&vaccinated[$ne]=false&ids=1',
      'breed=siamese&vaccinated=true&ids[$gt]=1',
    ]) {
      expect((await search(query)).status, query).toBe(400);
    }
    expect((await search('breed=siamese&vaccinated=true&ids=1&ids=2')).json()).toEqual({
      breed: 'siamese',
      vaccinated: true,
      ids: [1, 2],
    });
  },
);

// Review 5: what the Joi pipe hands on for a numeric string, and a malformed id before the lookup pipe.

for (const lang of ['ts', 'js'] as const) {
  claim.abuse(
    `${page}#object-schema-validation`,
    `a client that sends the age as the string "3", "1e3" or " 7 " gets past Joi.number() but the handler receives Joi's number, never the string (${lang})`,
    async () => {
      const schema = fragment(page, 'binding-validation-pipes', 'Joi.object').value;
      const dto =
        lang === 'ts'
          ? `${schema}\nexport class CreateCatDto { name: string; age: number; breed: string; }`
          : schema;
      const {CatsController, CatsService} = cats(lang, 6, {'create-cat.dto': dto});
      const {app: nestApp, base} = await start(app(CatsController, [], CatsService));
      for (const age of ['3', '1e3', ' 7 ']) {
        const reply = await call(base, 'POST', '/cats', {body: {name: 'Tom', age, breed: 'x'}});
        expect([age, reply.status]).toEqual([age, 201]);
      }
      const created = nestApp.get(CatsService).created;
      expect(created.map((cat: {age: unknown}) => cat.age)).toEqual([3, 1000, 7]);
    },
  );

  claim.abuse(
    `${page}#transformation-use-case`,
    `GET /users/1abc, /users/1.5 and /users/1e9 are refused with 400 before UserByIdPipe looks anything up; /users/1 still loads user 1 (${lang})`,
    async () => {
      const usersService = `
import { Injectable } from '@nestjs/common';
@Injectable()
export class UsersService {
  constructor() { this.looked = []; }
  findOne(id) { this.looked.push(id); return id === 1 ? { id: 1, firstName: 'Alice' } : undefined; }
}
`;
      const set = pageSamples(page, {
        lang,
        files: {'users.service': usersService, 'user.entity': 'export class UserEntity {}'},
      });
      const {UsersController} = set.require('users.controller');
      const {UsersService} = set.require('users.service');
      const {app: nestApp, base} = await start(app(UsersController, [], UsersService));
      for (const id of ['1abc', '1.5', '1e9']) {
        const reply = await call(base, 'GET', `/users/${id}`);
        expect([id, reply.status]).toEqual([id, 400]);
      }
      expect(nestApp.get(UsersService).looked).toEqual([]);
      expect((await call(base, 'GET', '/users/1')).json()).toEqual({id: 1, firstName: 'Alice'});
      expect(nestApp.get(UsersService).looked).toEqual([1]);
    },
  );
}

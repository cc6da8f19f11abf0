import {afterAll, beforeAll, describe, expect} from 'vitest';
import {claim, samples, nest, listen} from '../../lib';
import {documentFor, schemasOf} from './_support';

const page = 'docs/openapi/mapped-types.md';
const {NestFactory} = nest('@nestjs/core');
const {Module, ValidationPipe} = nest('@nestjs/common');

const dto = (name: string, pick?: number) => {
  const set = samples(page, pick ? {pick: {[name]: pick}} : {});
  return set.require(name);
};

claim(
  `${page}#partial`,
  'PartialType keeps the properties and their OpenAPI options, none of them required',
  async () => {
    const {UpdateCatDto} = dto('update-cat.dto', 1);
    const {UpdateCatDto: schema} = await schemasOf(UpdateCatDto);
    expect(Object.keys(schema.properties)).toEqual(['name', 'age', 'breed']);
    expect(schema.properties.age).toEqual({type: 'number', minimum: 0});
    expect(schema.required ?? []).toEqual([]);
  },
);

describe('PATCH /cats/:id with the derived DTO and the ValidationPipe', () => {
  let app: any;
  let base: string;
  beforeAll(async () => {
    const {CatsController} = samples(page, {pick: {'update-cat.dto': 1}}).require(
      'cats.controller',
    );
    @Module({controllers: [CatsController]})
    class AppModule {}
    app = await NestFactory.create(AppModule, {logger: false});
    app.useGlobalPipes(new ValidationPipe());
    base = await listen(app);
  });
  afterAll(async () => {
    await app?.close();
  });
  const patch = (body: unknown) =>
    fetch(`${base}/cats/7`, {
      method: 'PATCH',
      headers: {'content-type': 'application/json'},
      body: JSON.stringify(body),
    });

  claim(
    `${page}#partial`,
    'missing fields pass validation (IsOptional applied), present fields keep their rules',
    async () => {
      const partial = await patch({age: 4});
      expect(partial.status).toBe(200);
      expect(await partial.json()).toEqual({id: '7', age: 4});
      const invalid = await patch({age: -1});
      expect(invalid.status).toBe(400);
      expect((await invalid.json()).message).toEqual(['age must not be less than 0']);
    },
  );

  claim.abuse(
    `${page}#partial`,
    'null passes the derived DTO\'s validation (IsOptional skips it, whitelist or not); the page\'s handler refuses {"name": null, "age": null} with 400 and updates {"age": 4} alone',
    async () => {
      const {UpdateCatDto} = dto('update-cat.dto', 1);
      for (const pipe of [
        new ValidationPipe(),
        new ValidationPipe({whitelist: true, forbidNonWhitelisted: true}),
      ]) {
        const passed = await pipe.transform(
          {name: null, age: null},
          {type: 'body', metatype: UpdateCatDto},
        );
        expect({...passed}).toEqual({name: null, age: null});
      }
      const refused = await patch({name: null, age: null});
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({
        statusCode: 400,
        message: 'name, age cannot be null',
        error: 'Bad Request',
      });
      const partial = await patch({age: 4});
      expect(await partial.json()).toEqual({id: '7', age: 4});
    },
  );
});

claim(`${page}#pick`, 'PickType keeps only the listed properties', async () => {
  const {RenameCatDto} = dto('rename-cat.dto');
  const {RenameCatDto: schema} = await schemasOf(RenameCatDto);
  expect(Object.keys(schema.properties)).toEqual(['name']);
  expect(schema.required).toEqual(['name']);
});

claim(`${page}#omit`, 'OmitType keeps every property except the listed ones', async () => {
  const {RegisterKittenDto} = dto('register-kitten.dto');
  const {RegisterKittenDto: schema} = await schemasOf(RegisterKittenDto);
  expect(Object.keys(schema.properties)).toEqual(['name', 'breed']);
});

claim(
  `${page}#intersection`,
  'IntersectionType merges the properties (and the validation rules) of two classes',
  async () => {
    const {AdoptionRequestDto} = dto('adoption-request.dto');
    const {AdoptionRequestDto: schema} = await schemasOf(AdoptionRequestDto);
    expect(Object.keys(schema.properties).sort()).toEqual([
      'age',
      'breed',
      'email',
      'name',
      'ownerName',
    ]);
    const {validateSync} = nest('class-validator');
    const {plainToInstance} = nest('class-transformer');
    const errors = validateSync(
      plainToInstance(AdoptionRequestDto, {
        name: 'Tom',
        age: 1,
        breed: 'x',
        ownerName: 'Ann',
        email: 'nope',
      }),
    );
    expect(errors.map((e: any) => e.property)).toEqual(['email']);
  },
);

claim(
  `${page}#composition`,
  'PartialType(OmitType(...)) drops breed and makes the rest optional',
  async () => {
    const {UpdateCatDto} = dto('update-cat.dto', 2);
    const {UpdateCatDto: schema} = await schemasOf(UpdateCatDto);
    expect(Object.keys(schema.properties)).toEqual(['name', 'age']);
    expect(schema.required ?? []).toEqual([]);
  },
);

claim(
  `${page}#composition`,
  'PartialType from @nestjs/mapped-types loses the OpenAPI metadata: the derived schema is empty',
  async () => {
    const {CreateCatDto} = dto('create-cat.dto');
    const {PartialType} = nest('@nestjs/mapped-types');
    class UpdateCatDto extends PartialType(CreateCatDto) {}
    const {UpdateCatDto: schema} = await schemasOf(UpdateCatDto);
    expect(schema).toEqual({type: 'object', properties: {}});
    void documentFor;
  },
);

claim.abuse(
  `${page}#composition`,
  'a PATCH with the omitted "breed" passes a plain ValidationPipe and reaches the handler; whitelist strips it, forbidNonWhitelisted refuses it',
  async () => {
    // The composed UpdateCatDto (the last update-cat.dto of the page) behind the page's controller.
    const {CatsController} = samples(page).require('cats.controller');
    const patchWith = async (pipe: any) => {
      @Module({controllers: [CatsController]})
      class AppModule {}
      const app = await NestFactory.create(AppModule, {logger: false});
      app.useGlobalPipes(pipe);
      const base = await listen(app);
      try {
        const response = await fetch(`${base}/cats/7`, {
          method: 'PATCH',
          headers: {'content-type': 'application/json'},
          body: JSON.stringify({age: 4, breed: 'Persian'}),
        });
        return [response.status, await response.json()];
      } finally {
        await app.close();
      }
    };
    expect(await patchWith(new ValidationPipe())).toEqual([
      200,
      {id: '7', age: 4, breed: 'Persian'},
    ]);
    expect(await patchWith(new ValidationPipe({whitelist: true}))).toEqual([
      200,
      {id: '7', age: 4},
    ]);
    expect(
      await patchWith(new ValidationPipe({whitelist: true, forbidNonWhitelisted: true})),
    ).toEqual([
      400,
      {statusCode: 400, message: ['property breed should not exist'], error: 'Bad Request'},
    ]);
  },
);

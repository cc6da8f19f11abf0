import {afterAll, beforeAll, describe, expect} from 'vitest';
import {claim, samples, expectOutput, compileModule, nest, fragment} from '../../lib';
import {documentFor, schemasOf, compileProgram, serve, call} from './_support';

const page = 'docs/openapi/types-and-parameters.md';

claim(
  `${page}#types-and-parameters`,
  'a @Body() typed with a DTO class becomes a requestBody that references its schema',
  async () => {
    const set = samples(page, {pick: {'cats.controller': 1, 'create-cat.dto': 2}});
    const document = await documentFor([set.require('cats.controller').CatsController]);
    const body = document.paths['/cats'].post.requestBody;
    expect(body.required).toBe(true);
    expect(body.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/CreateCatDto',
    });
  },
);

claim(
  `${page}#types-and-parameters`,
  'the schema of a DTO without decorators is empty',
  async () => {
    const set = samples(page, {pick: {'cats.controller': 1, 'create-cat.dto': 1}});
    const document = await documentFor([set.require('cats.controller').CatsController]);
    expect(document.components.schemas.CreateCatDto).toEqual({type: 'object', properties: {}});
  },
);

claim(
  `${page}#types-and-parameters`,
  "a named @Headers('x-shelter-id') parameter is scanned as a required header parameter; a bare @Headers() is not",
  async () => {
    const {CatsController} = compileModule(`
    import { Controller, Get, Headers } from '@nestjs/common';
    @Controller('cats')
    export class CatsController {
      @Get('a')
      a(@Headers('x-shelter-id') id: string) { return id; }
      @Get('b')
      b(@Headers() headers: Record<string, string>) { return headers; }
    }`);
    const document = await documentFor([CatsController]);
    expect(document.paths['/cats/a'].get.parameters).toEqual([
      {name: 'x-shelter-id', required: true, in: 'header', schema: {type: 'string'}},
    ]);
    expect(document.paths['/cats/b'].get.parameters).toEqual([]);
  },
);

claim(
  `${page}#apiproperty`,
  'with @ApiProperty() the properties get their types from design:type and are all required',
  async () => {
    const {CreateCatDto} = samples(page, {pick: {'create-cat.dto': 2}}).require('create-cat.dto');
    const {CreateCatDto: schema} = await schemasOf(CreateCatDto);
    expect(schema.properties).toEqual({
      name: {type: 'string'},
      age: {type: 'number'},
      breed: {type: 'string'},
    });
    expect(schema.required).toEqual(['name', 'age', 'breed']);
  },
);

claim(
  `${page}#apipropertyoptional`,
  'the generated schema of the described CreateCatDto is the one shown',
  async () => {
    const {CreateCatDto} = samples(page, {pick: {'create-cat.dto': 3}}).require('create-cat.dto');
    const {CreateCatDto: schema} = await schemasOf(CreateCatDto);
    expectOutput(page, 'create-cat-schema', schema);
  },
);

claim(
  `${page}#apiproperty`,
  'required: false leaves a property out of the required list; type and format override the inferred type',
  async () => {
    const {UpdateCatDto} = samples(page, {pick: {'update-cat.dto': 1}}).require('update-cat.dto');
    const {UpdateCatDto: schema} = await schemasOf(UpdateCatDto);
    expect(schema.required ?? []).toEqual([]);
    expect(schema.properties.vaccinatedAt).toEqual({type: 'string', format: 'date-time'});
  },
);

claim(
  `${page}#apipropertyoptional`,
  '@ApiPropertyOptional() is @ApiProperty() with required: false',
  async () => {
    const {UpdateCatDto} = samples(page, {pick: {'update-cat.dto': 2}}).require('update-cat.dto');
    const {UpdateCatDto: schema} = await schemasOf(UpdateCatDto);
    expect(schema.required ?? []).toEqual([]);
    expect(schema.properties.name).toEqual({type: 'string', description: 'New name'});
    expect(schema.properties.breed).toEqual({type: 'string', description: 'New breed'});
  },
);

claim(
  `${page}#arrays`,
  'type: [String] and type: String with isArray: true give the same array schema',
  async () => {
    const a = (
      await schemasOf(
        samples(page, {pick: {'create-cat.dto': 4}}).require('create-cat.dto').CreateCatDto,
      )
    ).CreateCatDto;
    const b = (
      await schemasOf(
        samples(page, {pick: {'create-cat.dto': 5}}).require('create-cat.dto').CreateCatDto,
      )
    ).CreateCatDto;
    expect(a.properties.nicknames).toEqual({type: 'array', items: {type: 'string'}});
    expect(b).toEqual(a);
  },
);

claim(`${page}#arrays`, '@ApiBody({ type: [CreateCatDto] }) documents an array body', async () => {
  const set = samples(page, {pick: {'cats.controller': 2, 'create-cat.dto': 3}});
  const document = await documentFor([set.require('cats.controller').CatsController]);
  expect(document.paths['/cats/bulk'].post.requestBody.content['application/json'].schema).toEqual({
    type: 'array',
    items: {$ref: '#/components/schemas/CreateCatDto'},
  });
});

claim(
  `${page}#circular-dependencies`,
  'a class that refers to itself needs no lazy function: the schema points at itself',
  async () => {
    const {Category} = compileModule(`
    import { ApiProperty } from '@nestjs/swagger';
    export class Category {
      @ApiProperty() name: string;
      @ApiProperty({ required: false }) parent?: Category;
    }`);
    const {Category: schema} = await schemasOf(Category);
    expect(schema.properties.parent).toEqual({$ref: '#/components/schemas/Category'});
  },
);

claim(
  `${page}#circular-dependencies`,
  'the lazy form of the page works for the self reference too',
  async () => {
    const {Category} = samples(page).require('category.entity');
    const {Category: schema} = await schemasOf(Category);
    expect(schema.properties.parent).toEqual({$ref: '#/components/schemas/Category'});
    expect(schema.required).toEqual(['name']);
  },
);

claim(
  `${page}#circular-dependencies`,
  'two files importing each other work with lazy types on both sides (array and single)',
  async () => {
    const set = samples(page, {files: {'dog.entity': 'export class Dog {}'}});
    const {Owner} = set.require('owner.entity');
    const schemas = await schemasOf(Owner);
    expect(schemas.Owner.properties.cats).toEqual({
      type: 'array',
      items: {$ref: '#/components/schemas/Cat'},
    });
    expect(schemas.Cat.properties.owner).toEqual({$ref: '#/components/schemas/Owner'});
  },
);

claim(
  `${page}#circular-dependencies`,
  'without the lazy form across two files, document generation fails with the error shown',
  async () => {
    const set = samples(page, {
      files: {'dog.entity': 'export class Dog {}'},
      edit: {
        'owner.entity': [['@ApiProperty({ type: () => [Cat] })', '@ApiProperty({ type: [Cat] })']],
        'cat.entity': [['@ApiProperty({ type: () => Owner })', '@ApiProperty()']],
      },
    });
    // Compiled as one program, as nest build does: design:type then refers to the class directly.
    const load = compileProgram({
      'owner.entity': set.sources.get('owner.entity')!,
      'cat.entity': set.sources.get('cat.entity')!,
    });
    const {Owner} = load('owner.entity');
    let message = '';
    try {
      await schemasOf(Owner);
    } catch (error) {
      message = (error as Error).message;
    }
    expectOutput(page, 'circular-error', message);
  },
);

claim(
  `${page}#generics-and-interfaces`,
  'type: Address and type: [Address] give a $ref and an array of $ref',
  async () => {
    const {AdoptionDto} = samples(page).require('adoption.dto');
    const schemas = await schemasOf(AdoptionDto);
    expect(schemas.AdoptionDto.properties.address).toEqual({$ref: '#/components/schemas/Address'});
    expect(schemas.AdoptionDto.properties.previousAddresses).toEqual({
      type: 'array',
      items: {$ref: '#/components/schemas/Address'},
    });
    expect(schemas.Address.required).toEqual(['street', 'city']);
  },
);

claim(
  `${page}#enums`,
  'enum takes an array of values or a TypeScript enum; with isArray the property is an array of enum values',
  async () => {
    const a = (
      await schemasOf(
        samples(page, {pick: {'create-cat.dto': 6}}).require('create-cat.dto').CreateCatDto,
      )
    ).CreateCatDto;
    expect(a.properties.lifestyle).toEqual({type: 'string', enum: ['indoor', 'outdoor', 'mixed']});
    const b = (
      await schemasOf(
        samples(page, {pick: {'create-cat.dto': 7}}).require('create-cat.dto').CreateCatDto,
      )
    ).CreateCatDto;
    expect(b.properties.size).toEqual({type: 'string', enum: ['small', 'medium', 'large']});
    const enumFile = {
      'cat-size.enum':
        "export enum CatSize { Small = 'small', Medium = 'medium', Large = 'large' }",
    };
    const c = (
      await schemasOf(
        samples(page, {pick: {'create-cat.dto': 8}, files: enumFile}).require('create-cat.dto')
          .CreateCatDto,
      )
    ).CreateCatDto;
    expect(c.properties.acceptedCrateSizes).toEqual({
      type: 'array',
      items: {type: 'string', enum: ['small', 'medium', 'large']},
    });
  },
);

claim(
  `${page}#enums`,
  '@ApiQuery with an enum documents the query parameter with its values',
  async () => {
    const enumFile = {
      'cat-size.enum':
        "export enum CatSize { Small = 'small', Medium = 'medium', Large = 'large' }",
    };
    const set = samples(page, {pick: {'cats.controller': 3}, files: enumFile});
    const document = await documentFor([set.require('cats.controller').CatsController]);
    const [size] = document.paths['/cats'].get.parameters;
    expect(size).toMatchObject({
      name: 'size',
      in: 'query',
      required: false,
      schema: {type: 'string', enum: ['small', 'medium', 'large']},
    });
  },
);

claim(
  `${page}#enum-schemas`,
  'enumName registers the enum once and the property becomes a $ref',
  async () => {
    const enumFile = {
      'cat-size.enum':
        "export enum CatSize { Small = 'small', Medium = 'medium', Large = 'large' }",
    };
    const {CreateCatDto} = samples(page, {pick: {'create-cat.dto': 9}, files: enumFile}).require(
      'create-cat.dto',
    );
    const schemas = await schemasOf(CreateCatDto);
    expectOutput(page, 'enum-schema', schemas);
  },
);

claim(
  `${page}#raw-definitions`,
  'a string type switches @ApiProperty() to raw mode (nested arrays, objects with known keys)',
  async () => {
    const a = (
      await schemasOf(samples(page, {pick: {'litter.dto': 1}}).require('litter.dto').LitterDto)
    ).LitterDto;
    expect(a.properties.weightsByWeek).toEqual({
      type: 'array',
      items: {type: 'array', items: {type: 'number'}},
    });
    const b = (
      await schemasOf(samples(page, {pick: {'litter.dto': 2}}).require('litter.dto').LitterDto)
    ).LitterDto;
    expect(b.properties.summary).toEqual({
      type: 'object',
      properties: {born: {type: 'string', format: 'date'}, kittens: {type: 'integer', minimum: 1}},
    });
  },
);

claim(
  `${page}#raw-definitions`,
  "@ApiBody's schema option writes a raw request body schema",
  async () => {
    const set = samples(page, {pick: {'cats.controller': 5}});
    const document = await documentFor([set.require('cats.controller').CatsController]);
    expect(
      document.paths['/cats/tags'].post.requestBody.content['application/json'].schema,
    ).toEqual({
      type: 'array',
      items: {type: 'string'},
      example: ['friendly', 'playful'],
    });
  },
);

const entities = {
  'cat.entity':
    "import { ApiProperty } from '@nestjs/swagger';\nexport class Cat { @ApiProperty() name: string; }",
  'dog.entity':
    "import { ApiProperty } from '@nestjs/swagger';\nexport class Dog { @ApiProperty() name: string; }",
};

claim(
  `${page}#extra-models`,
  '@ApiExtraModels() on a controller adds schemas that no route references',
  async () => {
    const set = samples(page, {pick: {'pets.controller': 1}, files: entities});
    const document = await documentFor([set.require('pets.controller').PetsController]);
    expect(Object.keys(document.components.schemas).sort()).toEqual(['Cat', 'Dog']);
  },
);

claim(
  `${page}#extra-models`,
  'getSchemaPath(Cat) is #/components/schemas/Cat and the response references it',
  async () => {
    const set = samples(page, {pick: {'pets.controller': 2}, files: entities});
    const {getSchemaPath} = nest('@nestjs/swagger');
    expect(getSchemaPath(set.require('cat.entity').Cat)).toBe('#/components/schemas/Cat');
    const document = await documentFor([set.require('pets.controller').PetsController]);
    expect(
      document.paths['/pets/favorite'].get.responses['200'].content['application/json'].schema,
    ).toEqual({$ref: '#/components/schemas/Cat'});
    expect(document.components.schemas.Cat).toBeDefined();
  },
);

claim(
  `${page}#oneof-anyof-allof`,
  '@ApiExtraModels() on a model class registers the referenced classes; oneOf and anyOf of refs are written',
  async () => {
    const set = samples(page, {files: entities});
    const schemas = await schemasOf(
      set.require('adoption-request.dto').AdoptionRequestDto,
      set.require('household.dto').HouseholdDto,
    );
    expect(schemas.Cat).toBeDefined();
    expect(schemas.Dog).toBeDefined();
    expect(schemas.AdoptionRequestDto.properties.pet).toEqual({
      oneOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}],
    });
    expect(schemas.HouseholdDto.properties.pets).toEqual({
      type: 'array',
      items: {anyOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}]},
    });
  },
);

claim(
  `${page}#oneof-anyof-allof`,
  'allOf in a response schema merges the model with extra fields',
  async () => {
    const set = samples(page, {pick: {'cats.controller': 6}, files: entities});
    const document = await documentFor([set.require('cats.controller').CatsController]);
    expect(
      document.paths['/cats/{id}/with-score'].get.responses['200'].content['application/json']
        .schema,
    ).toEqual({
      allOf: [{$ref: '#/components/schemas/Cat'}, {properties: {adoptionScore: {type: 'number'}}}],
    });
  },
);

claim(
  `${page}#apibody-apiquery-and-apiparam`,
  '@ApiParam/@ApiQuery with the name of an inferred parameter refine it instead of adding a duplicate',
  async () => {
    const set = samples(page, {pick: {'cats.controller': 7}});
    const document = await documentFor([set.require('cats.controller').OwnerCatsController]);
    const parameters = document.paths['/owners/{ownerId}/cats'].get.parameters;
    expect(parameters.map((p: any) => `${p.in}:${p.name}`).sort()).toEqual([
      'path:ownerId',
      'query:breeds',
      'query:page',
    ]);
    const byName = Object.fromEntries(parameters.map((p: any) => [p.name, p]));
    expect(byName.ownerId).toMatchObject({
      required: true,
      description: 'Numeric id of the owner',
      schema: {type: 'number'},
    });
    expect(byName.page).toMatchObject({required: false, schema: {type: 'number'}});
    expect(byName.breeds).toMatchObject({
      required: false,
      schema: {type: 'array', items: {type: 'string'}},
    });
  },
);

claim(
  `${page}#apibody-apiquery-and-apiparam`,
  '@ApiBody() documents a body that the handler reads from the raw request',
  async () => {
    const set = samples(page, {pick: {'cats.controller': 8, 'create-cat.dto': 3}});
    const document = await documentFor([set.require('cats.controller').CatsController]);
    const body = document.paths['/cats/import'].post.requestBody;
    expect(body.description).toBe('A single cat in the shelter format');
    expect(body.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/CreateCatDto',
    });
  },
);

// ---- Review 4 and the abuse cases: what the document promises is not what the handler enforces ----

const {ValidationPipe} = nest('@nestjs/common');
const catSizeEnum = {
  'cat-size.enum': "export enum CatSize { Small = 'small', Medium = 'medium', Large = 'large' }",
};

claim(
  `${page}#enum-schemas`,
  "@ApiQuery's enumName is dropped when the handler reads @Query('size'): the values are inlined again",
  async () => {
    // The page's @ApiQuery controller, with enumName added as the text describes.
    const set = samples(page, {
      pick: {'cats.controller': 3},
      files: catSizeEnum,
      edit: {
        'cats.controller': [
          [
            "@ApiQuery({ name: 'size', enum: CatSize, required: false })",
            "@ApiQuery({ name: 'size', enum: CatSize, enumName: 'CatSize', required: false })",
          ],
        ],
      },
    });
    // Compiled as one program, as nest build does: design:type of `size?: CatSize` is then String
    // (file-by-file transpiling, as samples() does, would emit Object and hide the merge).
    const load = compileProgram({
      'cat-size.enum': catSizeEnum['cat-size.enum'],
      'cats.controller': set.sources.get('cats.controller')!,
    });
    const {CatsController} = load('cats.controller');
    expect(Reflect.getMetadata('design:paramtypes', CatsController.prototype, 'findAll')).toEqual([
      String,
    ]);
    const document = await documentFor([CatsController]);
    expectOutput(page, 'enum-query-inline', document.paths['/cats'].get.parameters[0]);
    expect(document.components.schemas.CatSize).toBeUndefined();
  },
);

claim(
  `${page}#enum-schemas`,
  'a FindCatsQuery class read with @Query() keeps the $ref: the parameter refers to the one CatSize schema',
  async () => {
    const set = samples(page, {pick: {'cats.controller': 4}, files: catSizeEnum});
    const load = compileProgram({
      'cat-size.enum': catSizeEnum['cat-size.enum'],
      'find-cats.query': set.sources
        .get('dto/find-cats.query')!
        .replace('../cat-size.enum', './cat-size.enum'),
      'cats.controller': set.sources
        .get('cats.controller')!
        .replace('./dto/find-cats.query', './find-cats.query'),
    });
    const document = await documentFor([load('cats.controller').CatsController]);
    expect(document.paths['/cats'].get.parameters).toHaveLength(1);
    expectOutput(page, 'enum-query-ref', document.paths['/cats'].get.parameters[0]);
    expect(document.components.schemas.CatSize).toEqual({
      type: 'string',
      enum: ['small', 'medium', 'large'],
    });
  },
);

claim(
  `${page}#circular-dependencies`,
  'without lazy types and with cat.entity loaded first, nothing fails: cats is documented as an array of arrays',
  async () => {
    const set = samples(page, {
      files: {'dog.entity': 'export class Dog {}'},
      edit: {
        'owner.entity': [['@ApiProperty({ type: () => [Cat] })', '@ApiProperty({ type: [Cat] })']],
        'cat.entity': [['@ApiProperty({ type: () => Owner })', '@ApiProperty()']],
      },
    });
    const load = compileProgram({
      'owner.entity': set.sources.get('owner.entity')!,
      'cat.entity': set.sources.get('cat.entity')!,
    });
    // cat.entity first: Owner's decorator runs while Cat is still undefined.
    const {Cat} = load('cat.entity');
    const {Owner} = load('owner.entity');
    const schemas = await schemasOf(Owner, Cat);
    expectOutput(page, 'circular-silent-schema', schemas.Owner.properties.cats);
    expect(schemas.Cat.properties.owner).toEqual({$ref: '#/components/schemas/Owner'});
  },
);

claim.abuse(
  `${page}#apiproperty`,
  'minimum/maximum in @ApiProperty() check nothing: age -5 and name 42 reach the handler behind a global ValidationPipe; the class-validator fragment refuses -5',
  async () => {
    const set = samples(page, {pick: {'cats.controller': 1, 'create-cat.dto': 3}});
    const served = await serve([set.require('cats.controller').CatsController], {
      pipes: [new ValidationPipe()],
    });
    try {
      const sent = {name: 42, age: -5, breed: 'Tabby'};
      const response = await call(`${served.base}/cats`, sent);
      expect(response.status).toBe(201);
      expect(JSON.parse(response.text)).toEqual(sent);
    } finally {
      await served.close();
    }
    // The callout's fragment: the same options plus the class-validator rules.
    const age = fragment(page, 'apiproperty', '@IsInt()').value;
    const {CreateCatDto} = compileModule(`
import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
export class CreateCatDto {
${age}
}`);
    const {Body, Controller, Post} = nest('@nestjs/common');
    @Controller('cats')
    class CatsController {
      @Post()
      create(@Body() dto: unknown) {
        return dto;
      }
    }
    Reflect.defineMetadata('design:paramtypes', [CreateCatDto], CatsController.prototype, 'create');
    const validated = await serve([CatsController], {pipes: [new ValidationPipe()]});
    try {
      const refused = await call(`${validated.base}/cats`, {age: -5});
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.text).message).toEqual(['age must not be less than 0']);
    } finally {
      await validated.close();
    }
  },
);

claim.abuse(
  `${page}#arrays`,
  'an object in place of the array body ({ "length": 3 }) is refused by the page’s ParseArrayPipe; a global ValidationPipe alone lets it through',
  async () => {
    const set = samples(page, {pick: {'cats.controller': 2, 'create-cat.dto': 3}});
    const served = await serve([set.require('cats.controller').CatsController]);
    try {
      const refused = await call(`${served.base}/cats/bulk`, {length: 3});
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.text).message).toBe('Validation failed (parsable array expected)');
      expect(
        (await call(`${served.base}/cats/bulk`, [{name: 'Tom', age: 3, breed: 'x'}])).text,
      ).toBe('1');
    } finally {
      await served.close();
    }
    // The same handler with a plain @Body() and a global ValidationPipe: the type Array hides the items.
    const plain = samples(page, {
      pick: {'cats.controller': 2, 'create-cat.dto': 3},
      edit: {
        'cats.controller': [['@Body(new ParseArrayPipe({ items: CreateCatDto }))', '@Body()']],
      },
    });
    const unchecked = await serve([plain.require('cats.controller').CatsController], {
      pipes: [new ValidationPipe()],
    });
    try {
      const passed = await call(`${unchecked.base}/cats/bulk`, {length: 3});
      expect([passed.status, passed.text]).toEqual([201, '3']);
    } finally {
      await unchecked.close();
    }
  },
);

claim.abuse(
  `${page}#raw-definitions`,
  'the raw-schema tags endpoint behind a global ValidationPipe: its ParseArrayPipe refuses { "length": 3 } with 400 and hands the handler strings only',
  async () => {
    const set = samples(page, {pick: {'cats.controller': 5}});
    const served = await serve([set.require('cats.controller').CatsController], {
      pipes: [new ValidationPipe()],
    });
    try {
      const refused = await call(`${served.base}/cats/tags`, {length: 3});
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.text).message).toBe('Validation failed (parsable array expected)');
      const mixed = await call(`${served.base}/cats/tags`, ['friendly', 3, {a: 1}]);
      expect([mixed.status, JSON.parse(mixed.text)]).toEqual([
        201,
        ['friendly', '3', '[object Object]'],
      ]);
    } finally {
      await served.close();
    }
  },
);

describe('the enum query parameter: the plain @ApiQuery controller and FindCatsQuery, behind a global ValidationPipe', () => {
  let plain: {base: string; close: () => Promise<void>};
  let validated: {base: string; close: () => Promise<void>};
  beforeAll(async () => {
    const first = samples(page, {pick: {'cats.controller': 3}, files: catSizeEnum});
    plain = await serve([first.require('cats.controller').CatsController], {
      pipes: [new ValidationPipe()],
    });
    const second = samples(page, {pick: {'cats.controller': 4}, files: catSizeEnum});
    validated = await serve([second.require('cats.controller').CatsController], {
      pipes: [new ValidationPipe()],
    });
  });
  afterAll(async () => {
    await plain?.close();
    await validated?.close();
  });
  const refusal = {
    statusCode: 400,
    message: ['size must be a valid enum value'],
    error: 'Bad Request',
  };

  claim.abuse(
    `${page}#enums`,
    'a value outside the enum (?size=huge) reaches the @ApiQuery handler; FindCatsQuery refuses it with 400',
    async () => {
      expect((await call(`${plain.base}/cats?size=huge`)).text).toBe('cats of size huge');
      const refused = await call(`${validated.base}/cats?size=huge`);
      expect([refused.status, JSON.parse(refused.text)]).toEqual([400, refusal]);
      expect((await call(`${validated.base}/cats?size=small`)).text).toBe('cats of size small');
      expect((await call(`${validated.base}/cats`)).text).toBe('all cats');
    },
  );

  claim.abuse(
    `${page}#enums`,
    'a repeated parameter (?size=small&size=large) arrives as an array in the @ApiQuery handler; FindCatsQuery refuses it',
    async () => {
      expect((await call(`${plain.base}/cats?size=small&size=large`)).text).toBe(
        'cats of size small,large',
      );
      const refused = await call(`${validated.base}/cats?size=small&size=large`);
      expect([refused.status, JSON.parse(refused.text)]).toEqual([400, refusal]);
    },
  );

  claim.abuse(
    `${page}#enums`,
    'a bracketed parameter (?size[gt]=) arrives as an object in the @ApiQuery handler; FindCatsQuery refuses it',
    async () => {
      expect((await call(`${plain.base}/cats?size[gt]=`)).text).toBe(
        'cats of size [object Object]',
      );
      const refused = await call(`${validated.base}/cats?size[gt]=`);
      expect([refused.status, JSON.parse(refused.text)]).toEqual([400, refusal]);
    },
  );
});

claim.abuse(
  `${page}#apibody-apiquery-and-apiparam`,
  'strings where the document says Number (/owners/abc/cats, ?page=abc) are refused by ParseIntPipe; breeds is a string or an array',
  async () => {
    const set = samples(page, {pick: {'cats.controller': 7}});
    const served = await serve([set.require('cats.controller').OwnerCatsController]);
    try {
      const numeric = {
        statusCode: 400,
        message: 'Validation failed (numeric string is expected)',
        error: 'Bad Request',
      };
      const path = await call(`${served.base}/owners/abc/cats`);
      expect([path.status, JSON.parse(path.text)]).toEqual([400, numeric]);
      const query = await call(`${served.base}/owners/7/cats?page=abc`);
      expect([query.status, JSON.parse(query.text)]).toEqual([400, numeric]);
      expect(JSON.parse((await call(`${served.base}/owners/7/cats?breeds=a`)).text)).toEqual({
        ownerId: 7,
        page: 1,
        breeds: 'a',
      });
      expect(
        JSON.parse((await call(`${served.base}/owners/7/cats?page=2&breeds=a&breeds=b`)).text),
      ).toEqual({ownerId: 7, page: 2, breeds: ['a', 'b']});
    } finally {
      await served.close();
    }
  },
);

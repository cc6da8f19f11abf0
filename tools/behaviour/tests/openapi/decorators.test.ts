import {expect} from 'vitest';
import {claim, compileModule, nest, readPage} from '../../lib';
import {documentFor, schemasOf} from './_support';

const page = 'docs/openapi/decorators.md';
const swagger = nest('@nestjs/swagger');

claim(
  `${page}#decorators`,
  'every decorator of the table is exported by @nestjs/swagger 5.2',
  () => {
    const {readFileSync} = require('node:fs');
    const {join} = require('node:path');
    const text = readFileSync(join(__dirname, '../../../../', page), 'utf8') as string;
    const names = [...text.matchAll(/^\| `@(Api\w+)\(\)`/gm)].map((m) => m[1]);
    expect(names.length).toBe(23);
    for (const name of names) expect(typeof swagger[name], name).toBe('function');
    void readPage;
  },
);

claim(
  `${page}#decorators`,
  'decorators marked Method / Controller apply to every route when placed on the class',
  async () => {
    const {CatsController} = compileModule(`
    import { Controller, Get, Post } from '@nestjs/common';
    import { ApiBearerAuth, ApiHeader, ApiResponse, ApiTags } from '@nestjs/swagger';
    @ApiTags('cats') @ApiBearerAuth() @ApiHeader({ name: 'X-Shelter-Id' }) @ApiResponse({ status: 401, description: 'Unauthorized' })
    @Controller('cats')
    export class CatsController { @Get() list() { return []; } @Post() create() { return 1; } }`);
    const paths = (await documentFor([CatsController])).paths['/cats'];
    for (const operation of [paths.get, paths.post]) {
      expect(operation.tags).toEqual(['cats']);
      expect(operation.security).toEqual([{bearer: []}]);
      expect(operation.parameters.map((p: any) => p.name)).toEqual(['X-Shelter-Id']);
      expect(operation.responses['401']).toEqual({description: 'Unauthorized'});
    }
  },
);

claim(
  `${page}#decorators`,
  '@ApiConsumes(), @ApiProduces() and @ApiExtension() on a class are ignored; on the handler they apply',
  async () => {
    const {OnClass, OnMethod} = compileModule(`
    import { Body, Controller, Post } from '@nestjs/common';
    import { ApiConsumes, ApiExtension } from '@nestjs/swagger';
    @ApiConsumes('text/plain') @ApiExtension('x-owner', 'team-a')
    @Controller('a')
    export class OnClass { @Post() create(@Body() body: string) { return body; } }
    @Controller('b')
    export class OnMethod { @Post() @ApiConsumes('text/plain') @ApiExtension('x-owner', 'team-a') create(@Body() body: string) { return body; } }`);
    const paths = (await documentFor([OnClass, OnMethod])).paths;
    expect(Object.keys(paths['/a'].post.requestBody.content)).toEqual(['application/json']);
    expect(paths['/a'].post['x-owner']).toBeUndefined();
    expect(Object.keys(paths['/b'].post.requestBody.content)).toEqual(['text/plain']);
    expect(paths['/b'].post['x-owner']).toBe('team-a');
  },
);

claim(
  `${page}#decorators`,
  '@ApiExtraModels() on a model class registers the classes it names; @ApiHideProperty() leaves a property out; @ApiResponseProperty() is readOnly',
  async () => {
    const {Household} = compileModule(`
    import { ApiExtraModels, ApiHideProperty, ApiProperty, ApiResponseProperty } from '@nestjs/swagger';
    export class Dog { @ApiProperty() name: string; }
    @ApiExtraModels(Dog)
    export class Household {
      @ApiProperty() address: string;
      @ApiHideProperty() secret: string;
      @ApiResponseProperty() id: string;
    }`);
    const schemas = await schemasOf(Household);
    expect(schemas.Dog).toBeDefined();
    expect(Object.keys(schemas.Household.properties)).toEqual(['address', 'id']);
    expect(schemas.Household.properties.id).toEqual({type: 'string', readOnly: true});
  },
);

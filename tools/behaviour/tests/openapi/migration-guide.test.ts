import {afterAll, expect} from 'vitest';
import {claim, fragment, compileModule, nest, listen} from '../../lib';
import {documentFor} from './_support';

const page = 'docs/openapi/migration-guide.md';
const swagger = nest('@nestjs/swagger');
const {NestFactory} = nest('@nestjs/core');
const {Module} = nest('@nestjs/common');
const {FastifyAdapter} = nest('@nestjs/platform-fastify');

const apps: any[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
});

claim(
  `${page}#updating-the-packages`,
  '5.x declares @nestjs/common and @nestjs/core ^8.0.0, and both UI packages as optional peers with the range *',
  () => {
    const pkg = require('@nestjs/swagger/package.json');
    expect(pkg.peerDependencies).toMatchObject({
      '@nestjs/common': '^8.0.0',
      '@nestjs/core': '^8.0.0',
      'fastify-swagger': '*',
      'swagger-ui-express': '*',
    });
    expect(pkg.peerDependenciesMeta).toEqual({
      'fastify-swagger': {optional: true},
      'swagger-ui-express': {optional: true},
    });
  },
);

claim(
  `${page}#setup-options`,
  "on Fastify, the setup options' uiConfig reaches fastify-swagger",
  async () => {
    @Module({})
    class AppModule {}
    const app = await NestFactory.create(AppModule, new FastifyAdapter(), {logger: false});
    apps.push(app);
    const source = fragment(page, 'setup-options', 'uiConfig').value;
    const {setup} = compileModule(
      `import { SwaggerModule } from '@nestjs/swagger';\nexport function setup(app: any, document: any) {\n${source}\n}`,
    );
    setup(app, swagger.SwaggerModule.createDocument(app, new swagger.DocumentBuilder().build()));
    const base = await listen(app);
    expect(await (await fetch(`${base}/api/uiConfig`)).json()).toEqual({
      docExpansion: 'none',
      deepLinking: true,
    });
  },
);

claim(
  `${page}#other-changes-in-5x`,
  '@ApiExcludeController() hides every route of the controller',
  async () => {
    const {InternalController} = compileModule(
      fragment(page, 'other-changes-in-5x', '@ApiExcludeController()').value,
    );
    const {CatsController} = compileModule(`
    import { Controller, Get } from '@nestjs/common';
    @Controller('cats') export class CatsController { @Get() list() { return []; } }`);
    const document = await documentFor([InternalController, CatsController]);
    expect(Object.keys(document.paths)).toEqual(['/cats']);
  },
);

claim(
  `${page}#other-changes-in-5x`,
  'schemas added under components.schemas in the configuration are kept next to the generated ones',
  async () => {
    const {CatsController} = compileModule(`
    import { Body, Controller, Post } from '@nestjs/common';
    import { ApiProperty } from '@nestjs/swagger';
    export class CreateCatDto { @ApiProperty() name: string; }
    @Controller('cats') export class CatsController { @Post() create(@Body() dto: CreateCatDto) { return dto; } }`);
    const config = new swagger.DocumentBuilder().build();
    config.components = {
      ...config.components,
      schemas: {Legacy: {type: 'object', properties: {id: {type: 'string'}}}},
    };
    const document = await documentFor([CatsController], {config});
    expect(Object.keys(document.components.schemas).sort()).toEqual(['CreateCatDto', 'Legacy']);
  },
);

claim(
  `${page}#if-youre-coming-from-3x`,
  'the 3.x names are gone from the public API and their replacements exist',
  () => {
    for (const old of [
      'ApiModelProperty',
      'ApiModelPropertyOptional',
      'ApiResponseModelProperty',
      'ApiImplicitQuery',
      'ApiImplicitParam',
      'ApiImplicitBody',
      'ApiImplicitHeader',
      'ApiUseTags',
      'ApiImplicitFile',
    ]) {
      expect(swagger[old], old).toBeUndefined();
    }
    for (const name of [
      'ApiProperty',
      'ApiPropertyOptional',
      'ApiResponseProperty',
      'ApiQuery',
      'ApiParam',
      'ApiBody',
      'ApiHeader',
      'ApiTags',
      'ApiConsumes',
    ]) {
      expect(typeof swagger[name], name).toBe('function');
    }
    const builder = new swagger.DocumentBuilder();
    for (const gone of ['setHost', 'setSchemes', 'setContactEmail'])
      expect(builder[gone], gone).toBeUndefined();
    expect(
      builder.setContact('Shelter', 'https://example.com', 'staff@example.com').build().info
        .contact,
    ).toEqual({name: 'Shelter', url: 'https://example.com', email: 'staff@example.com'});
  },
);

claim(
  `${page}#if-youre-coming-from-3x`,
  'the 4.x/5.x version of the handler documents summary, the path parameter and the optional query',
  async () => {
    const handler = fragment(
      page,
      'if-youre-coming-from-3x',
      "@ApiOperation({ summary: 'Find one cat' })",
    ).value;
    const {CatsController} = compileModule(`
    import { Controller, Get, Param, Query } from '@nestjs/common';
    import { ApiOperation, ApiParam, ApiQuery } from '@nestjs/swagger';
    @Controller('cats')
    export class CatsController {
    ${handler}
    }`);
    const get = (await documentFor([CatsController])).paths['/cats/{id}'].get;
    expect(get.summary).toBe('Find one cat');
    expect(get.parameters.map((p: any) => [p.in, p.name, p.required])).toEqual([
      ['path', 'id', true],
      ['query', 'expand', false],
    ]);
  },
);

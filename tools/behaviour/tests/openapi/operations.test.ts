import {expect} from 'vitest';
import {claim, samples, expectOutput, compileModule} from '../../lib';
import {documentFor, serve} from './_support';

const page = 'docs/openapi/operations.md';
const catEntity = (n = 1) => samples(page, {pick: {'cat.entity': n}}).sources.get('cat.entity')!;

async function docOf(
  file: string,
  pick: number,
  exportName: string,
  files: Record<string, string> = {},
) {
  const set = samples(page, {pick: {[file]: pick}, files});
  return documentFor([set.require(file)[exportName]]);
}

claim(
  `${page}#summary-and-description`,
  '@ApiOperation() writes summary and description into the operation',
  async () => {
    const document = await docOf('cats.controller', 1, 'CatsController');
    expect(document.paths['/cats'].get).toMatchObject({
      summary: 'List cats',
      description: 'Returns every cat currently living in the shelter, oldest arrivals first.',
    });
  },
);

claim(
  `${page}#tags`,
  '@ApiTags() on the controller tags every handler; on a method it adds tags to that operation',
  async () => {
    const cats = await docOf('cats.controller', 2, 'CatsController');
    expect(cats.paths['/cats'].get.tags).toEqual(['cats']);
    const adoptions = await docOf('adoptions.controller', 1, 'AdoptionsController');
    expect(adoptions.paths['/adoptions/{catId}'].post.tags.sort()).toEqual(['adoptions', 'cats']);
  },
);

claim(
  `${page}#headers`,
  '@ApiHeader() on the controller documents a required header on its operations',
  async () => {
    const document = await docOf('cats.controller', 3, 'CatsController');
    expect(document.paths['/cats'].get.parameters).toEqual([
      {
        name: 'X-Shelter-Id',
        in: 'header',
        description: 'Identifies the shelter whose data is requested',
        required: true,
        schema: {type: 'string'},
      },
    ]);
  },
);

claim(
  `${page}#headers`,
  "a named @Headers('x-shelter-id') parameter is documented without @ApiHeader(); a bare @Headers() is not",
  async () => {
    const {CatsController} = compileModule(`
    import { Controller, Get, Headers } from '@nestjs/common';
    @Controller('cats')
    export class CatsController {
      @Get('a')
      a(@Headers('x-shelter-id') shelterId: string) { return shelterId; }
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

claim(`${page}#headers`, '@ApiHeaders() documents several headers at once', async () => {
  const document = await docOf('reports.controller', 1, 'ReportsController');
  const parameters = document.paths['/reports'].get.parameters;
  expect(parameters.map((p: any) => [p.name, p.in, p.required])).toEqual([
    ['X-Shelter-Id', 'header', true],
    ['Accept-Language', 'header', false],
  ]);
});

const dto = {
  'create-cat.dto':
    "import { ApiProperty } from '@nestjs/swagger';\nexport class CreateCatDto { @ApiProperty() name: string; }",
};

claim(
  `${page}#responses`,
  '@ApiResponse() and the shorthand decorators produce the same responses',
  async () => {
    const long = await docOf('cats.controller', 4, 'CatsController', dto);
    const short = await docOf('cats.controller', 5, 'CatsController', dto);
    const expected = {
      '201': {description: 'The cat has been registered.'},
      '403': {description: 'Only staff members may register cats.'},
    };
    expect(long.paths['/cats'].post.responses).toEqual(expected);
    expect(short.paths['/cats'].post.responses).toEqual(expected);
  },
);

claim(
  `${page}#responses`,
  'every shorthand decorator of the list exists and sets the status it names',
  async () => {
    const swagger = require('@nestjs/swagger');
    const list: Record<string, string> = {
      ApiOkResponse: '200',
      ApiCreatedResponse: '201',
      ApiAcceptedResponse: '202',
      ApiNoContentResponse: '204',
      ApiMovedPermanentlyResponse: '301',
      ApiFoundResponse: '302',
      ApiBadRequestResponse: '400',
      ApiUnauthorizedResponse: '401',
      ApiForbiddenResponse: '403',
      ApiNotFoundResponse: '404',
      ApiMethodNotAllowedResponse: '405',
      ApiNotAcceptableResponse: '406',
      ApiRequestTimeoutResponse: '408',
      ApiConflictResponse: '409',
      ApiGoneResponse: '410',
      ApiPreconditionFailedResponse: '412',
      ApiPayloadTooLargeResponse: '413',
      ApiUnsupportedMediaTypeResponse: '415',
      ApiUnprocessableEntityResponse: '422',
      ApiTooManyRequestsResponse: '429',
      ApiInternalServerErrorResponse: '500',
      ApiNotImplementedResponse: '501',
      ApiBadGatewayResponse: '502',
      ApiServiceUnavailableResponse: '503',
      ApiGatewayTimeoutResponse: '504',
      ApiDefaultResponse: 'default',
    };
    const {DECORATORS} = require('@nestjs/swagger/dist/constants');
    for (const [name, status] of Object.entries(list)) {
      class Probe {
        handler() {}
      }
      const descriptor = Object.getOwnPropertyDescriptor(Probe.prototype, 'handler')!;
      swagger[name]({description: name})(Probe.prototype, 'handler', descriptor);
      const metadata = (Reflect as any).getMetadata(DECORATORS.API_RESPONSE, descriptor.value);
      expect(Object.keys(metadata), name).toEqual([status]);
    }
  },
);

claim(
  `${page}#response-types`,
  'type with isArray gives an array of $ref; type alone a $ref; the model gets its schema with examples',
  async () => {
    const document = await docOf('cats.controller', 6, 'CatsController', {
      'cat.entity': catEntity(),
    });
    const list = document.paths['/cats'].get.responses['200'];
    expect(list.description).toBe('All cats of the shelter.');
    expect(list.content['application/json'].schema).toEqual({
      type: 'array',
      items: {$ref: '#/components/schemas/Cat'},
    });
    const one = document.paths['/cats/{id}'].get.responses;
    expect(one['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Cat',
    });
    expect(one['404']).toEqual({description: 'No cat has this id.'});
    expect(document.components.schemas.Cat.properties.age).toEqual({
      type: 'number',
      example: 3,
      description: 'Age in whole years',
    });
  },
);

claim(
  `${page}#response-types`,
  'a response declared on the controller applies to every operation',
  async () => {
    const document = await docOf('cats.controller', 7, 'CatsController');
    expect(document.paths['/cats'].get.responses['401']).toEqual({
      description: 'The access token is missing or expired.',
    });
  },
);

claim(
  `${page}#file-upload`,
  '@ApiConsumes + @ApiBody with the DTO describe a multipart body with a binary field',
  async () => {
    const set = samples(page, {pick: {'cats.controller': 8}});
    const document = await documentFor([set.require('cats.controller').CatsController]);
    const body = document.paths['/cats/{id}/photo'].post.requestBody;
    expect(Object.keys(body.content)).toEqual(['multipart/form-data']);
    expect(body.content['multipart/form-data'].schema).toEqual({
      $ref: '#/components/schemas/PhotoUploadDto',
    });
    expect(document.components.schemas.PhotoUploadDto.properties.photo).toEqual({
      type: 'string',
      format: 'binary',
    });
    expect(document.components.schemas.PhotoUploadDto.required).toEqual(['photo']);
  },
);

claim(
  `${page}#file-upload`,
  'the inline raw schema describes an array of binary strings under multipart/form-data',
  async () => {
    const set = samples(page, {pick: {'cats.controller': 9}});
    const document = await documentFor([set.require('cats.controller').CatsController]);
    expect(
      document.paths['/cats/photos'].post.requestBody.content['multipart/form-data'].schema,
    ).toEqual({
      type: 'object',
      properties: {photos: {type: 'array', items: {type: 'string', format: 'binary'}}},
    });
  },
);

claim(
  `${page}#file-upload`,
  '@ApiConsumes() on the controller class is ignored in 5.2; on the handler it sets the body content type',
  async () => {
    const {OnClass, OnMethod} = compileModule(`
    import { Body, Controller, Post } from '@nestjs/common';
    import { ApiConsumes } from '@nestjs/swagger';
    @ApiConsumes('multipart/form-data')
    @Controller('a')
    export class OnClass {
      @Post() create(@Body() body: string) { return body; }
    }
    @Controller('b')
    export class OnMethod {
      @Post() @ApiConsumes('multipart/form-data') create(@Body() body: string) { return body; }
    }`);
    const document = await documentFor([OnClass, OnMethod]);
    expect(Object.keys(document.paths['/a'].post.requestBody.content)).toEqual([
      'application/json',
    ]);
    expect(Object.keys(document.paths['/b'].post.requestBody.content)).toEqual([
      'multipart/form-data',
    ]);
  },
);

claim(`${page}#extensions`, 'the extension is copied into the operation as shown', async () => {
  const document = await docOf('cats.controller', 10, 'CatsController');
  const get = document.paths['/cats'].get;
  expectOutput(page, 'extension-path-item', {
    get: {
      operationId: get.operationId,
      'x-rate-limit': get['x-rate-limit'],
      responses: get.responses,
    },
  });
});

claim(
  `${page}#extensions`,
  'a key without the x- prefix throws when the class is loaded, with "Extension key is not prefixed."',
  async () => {
    expect(() =>
      compileModule(`
      import { Controller, Get } from '@nestjs/common';
      import { ApiExtension } from '@nestjs/swagger';
      @Controller('cats')
      export class CatsController {
        @Get() @ApiExtension('rate-limit', { n: 1 }) findAll() { return []; }
      }`),
    ).toThrow(/^Extension key is not prefixed\./);
  },
);

claim(
  `${page}#excluding-operations`,
  '@ApiExcludeController() hides a controller and @ApiExcludeEndpoint() one handler',
  async () => {
    const set = samples(page);
    const {InternalController, HealthController} = set.require('health.controller');
    const document = await documentFor([InternalController, HealthController]);
    expect(Object.keys(document.paths)).toEqual(['/health']);
  },
);

claim(
  `${page}#advanced-generic-apiresponse`,
  'the allOf envelope references PaginatedDto and Cat, both registered',
  async () => {
    const set = samples(page, {pick: {'cats.controller': 11}, files: {'cat.entity': catEntity()}});
    const document = await documentFor([set.require('cats.controller').CatsController]);
    expect(
      document.paths['/cats'].get.responses['200'].content['application/json'].schema.allOf[0],
    ).toEqual({$ref: '#/components/schemas/PaginatedDto'});
    expect(Object.keys(document.components.schemas).sort()).toEqual(['Cat', 'PaginatedDto']);
    expect(document.components.schemas.PaginatedDto.properties.results).toBeUndefined();
  },
);

claim(
  `${page}#advanced-generic-apiresponse`,
  'ApiPaginatedResponse(Cat) produces the response schema shown and registers the models itself',
  async () => {
    const set = samples(page, {files: {'cat.entity': catEntity()}});
    const document = await documentFor([set.require('cats.controller').CatsController]);
    expectOutput(
      page,
      'paginated-response-schema',
      document.paths['/cats'].get.responses['200'].content['application/json'].schema,
    );
    expect(Object.keys(document.components.schemas).sort()).toEqual(['Cat', 'PaginatedDto']);
  },
);

/** A multipart form with `count` files of `size` bytes in `field`. */
function form(field: string, count: number, size: number): FormData {
  const data = new FormData();
  data.append('caption', 'Tom on the sofa');
  for (let i = 0; i < count; i += 1) {
    data.append(field, new Blob([Buffer.alloc(size)]), `photo-${i}.jpg`);
  }
  return data;
}

async function post(url: string, body: FormData | string): Promise<[number, any]> {
  const response = await fetch(url, {
    method: 'POST',
    body,
    headers: typeof body === 'string' ? {'content-type': 'application/json'} : undefined,
  });
  return [response.status, await response.json()];
}

claim.abuse(
  `${page}#file-upload`,
  'a request without the photo field, or with a JSON body, gets 400 "photo is required" (reading photo.size would answer 500)',
  async () => {
    const set = samples(page, {pick: {'cats.controller': 8}});
    const served = await serve([set.require('cats.controller').CatsController]);
    try {
      const expected = [400, {statusCode: 400, message: 'photo is required', error: 'Bad Request'}];
      expect(await post(`${served.base}/cats/1/photo`, form('photo', 0, 0))).toEqual(expected);
      expect(await post(`${served.base}/cats/1/photo`, '{}')).toEqual(expected);
      expect(await post(`${served.base}/cats/1/photo`, form('photo', 1, 1000))).toEqual([
        201,
        {id: '1', size: 1000},
      ]);
    } finally {
      await served.close();
    }
  },
);

claim.abuse(
  `${page}#file-upload`,
  'text fields the document never mentions: forty 1 MB fields next to a small photo pass without fields/fieldSize; with the page\'s limits a long caption gets 400 "Field value too long" and a sixth field "Too many fields"',
  async () => {
    const bulky = () => {
      const data = form('photo', 1, 1000);
      for (let i = 0; i < 40; i += 1) data.append(`note${i}`, 'x'.repeat(1000 * 1000));
      return data;
    };
    const set = samples(page, {pick: {'cats.controller': 8}});
    const served = await serve([set.require('cats.controller').CatsController]);
    try {
      expect(await post(`${served.base}/cats/1/photo`, bulky())).toEqual([
        400,
        {statusCode: 400, message: 'Field value too long', error: 'Bad Request'},
      ]);
      const many = form('photo', 1, 1000);
      for (let i = 0; i < 5; i += 1) many.append(`note${i}`, 'short');
      expect(await post(`${served.base}/cats/1/photo`, many)).toEqual([
        400,
        {statusCode: 400, message: 'Too many fields', error: 'Bad Request'},
      ]);
      expect(await post(`${served.base}/cats/1/photo`, form('photo', 1, 1000))).toEqual([
        201,
        {id: '1', size: 1000},
      ]);
    } finally {
      await served.close();
    }
    const fileSizeOnly = samples(page, {
      pick: {'cats.controller': 8},
      edit: {'cats.controller': [[', fields: 5, fieldSize: 10 * 1024', '']]},
    });
    const open = await serve([fileSizeOnly.require('cats.controller').CatsController]);
    try {
      expect(await post(`${open.base}/cats/1/photo`, bulky())).toEqual([
        201,
        {id: '1', size: 1000},
      ]);
    } finally {
      await open.close();
    }
  },
);

claim.abuse(
  `${page}#file-upload`,
  'a 6 MB photo is refused with 413 "File too large" by the limits option (Multer has no limit of its own)',
  async () => {
    const set = samples(page, {pick: {'cats.controller': 8}});
    const served = await serve([set.require('cats.controller').CatsController]);
    try {
      expect(await post(`${served.base}/cats/1/photo`, form('photo', 1, 6 * 1024 * 1024))).toEqual([
        413,
        {statusCode: 413, message: 'File too large', error: 'Payload Too Large'},
      ]);
    } finally {
      await served.close();
    }
    const unlimited = samples(page, {
      pick: {'cats.controller': 8},
      edit: {
        'cats.controller': [
          ['limits: { fileSize: 5 * 1024 * 1024, fields: 5, fieldSize: 10 * 1024 },', ''],
        ],
      },
    });
    const open = await serve([unlimited.require('cats.controller').CatsController]);
    try {
      expect(await post(`${open.base}/cats/1/photo`, form('photo', 1, 6 * 1024 * 1024))).toEqual([
        201,
        {id: '1', size: 6 * 1024 * 1024},
      ]);
    } finally {
      await open.close();
    }
  },
);

claim.abuse(
  `${page}#file-upload`,
  'an eleventh file in the photos field is refused with 400 "Unexpected field"; ten pass; none, or a JSON body, gets 400 "photos are required"',
  async () => {
    const set = samples(page, {pick: {'cats.controller': 9}});
    const served = await serve([set.require('cats.controller').CatsController]);
    try {
      expect(await post(`${served.base}/cats/photos`, form('photos', 11, 10))).toEqual([
        400,
        {statusCode: 400, message: 'Unexpected field', error: 'Bad Request'},
      ]);
      const [status, names] = await post(`${served.base}/cats/photos`, form('photos', 10, 10));
      expect([status, names.length]).toEqual([201, 10]);
      const required = [
        400,
        {statusCode: 400, message: 'photos are required', error: 'Bad Request'},
      ];
      expect(await post(`${served.base}/cats/photos`, form('photos', 0, 0))).toEqual(required);
      expect(await post(`${served.base}/cats/photos`, '{}')).toEqual(required);
    } finally {
      await served.close();
    }
  },
);

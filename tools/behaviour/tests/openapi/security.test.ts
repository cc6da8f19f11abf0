import {expect} from 'vitest';
import {claim, samples, fragment, compileModule, nest} from '../../lib';
import {documentFor, serve, call} from './_support';

const page = 'docs/openapi/security.md';
const swagger = nest('@nestjs/swagger');
const {DocumentBuilder} = swagger;

/** Runs a `const config = new DocumentBuilder()...build();` fragment of the page and returns `config`. */
function configFrom(section: string, contains: string): any {
  const source = fragment(page, section, contains).value;
  const {config} = compileModule(
    `import { DocumentBuilder } from '@nestjs/swagger';\n${source.replace('const config', 'export const config')}`,
  );
  return config;
}

async function controllerDoc(pick: number, config: any) {
  const {CatsController} = samples(page, {pick: {'cats.controller': pick}}).require(
    'cats.controller',
  );
  return documentFor([CatsController], {config});
}

claim(
  `${page}#generic-security-requirement`,
  "@ApiSecurity('basic') and addSecurity('basic', ...) link the operation to the scheme by name",
  async () => {
    const document = await controllerDoc(
      1,
      configFrom('generic-security-requirement', ".addSecurity('basic'"),
    );
    expect(document.components.securitySchemes).toEqual({basic: {type: 'http', scheme: 'basic'}});
    expect(document.paths['/cats'].get.security).toEqual([{basic: []}]);
  },
);

claim(
  `${page}#generic-security-requirement`,
  "addApiKey(..., 'api-key') declares a header API key that @ApiSecurity('api-key') requires",
  async () => {
    const config = configFrom('generic-security-requirement', '.addApiKey(');
    expect(config.components.securitySchemes).toEqual({
      'api-key': {type: 'apiKey', in: 'header', name: 'X-API-KEY'},
    });
  },
);

claim(
  `${page}#basic-authentication`,
  '@ApiBasicAuth() and addBasicAuth() both default to the name basic',
  async () => {
    const document = await controllerDoc(2, configFrom('basic-authentication', '.addBasicAuth()'));
    expect(document.components.securitySchemes).toEqual({basic: {type: 'http', scheme: 'basic'}});
    expect(document.paths['/cats'].get.security).toEqual([{basic: []}]);
  },
);

claim(
  `${page}#bearer-authentication`,
  "the bearer default name is bearer and the scheme has bearerFormat: 'JWT'",
  async () => {
    const document = await controllerDoc(
      3,
      configFrom('bearer-authentication', '.addBearerAuth()'),
    );
    expect(document.components.securitySchemes).toEqual({
      bearer: {type: 'http', scheme: 'bearer', bearerFormat: 'JWT'},
    });
    expect(document.paths['/cats'].get.security).toEqual([{bearer: []}]);
  },
);

claim(
  `${page}#bearer-authentication`,
  "a custom name links addBearerAuth(undefined, 'staff-token') with @ApiBearerAuth('staff-token')",
  async () => {
    const {CatsController} = compileModule(`
    import { Controller, Get } from '@nestjs/common';
    import { ApiBearerAuth } from '@nestjs/swagger';
    @ApiBearerAuth('staff-token')
    @Controller('cats')
    export class CatsController { @Get() findAll() { return []; } }`);
    const config = new DocumentBuilder().addBearerAuth(undefined, 'staff-token').build();
    const document = await documentFor([CatsController], {config});
    expect(Object.keys(document.components.securitySchemes)).toEqual(['staff-token']);
    expect(document.paths['/cats'].get.security).toEqual([{'staff-token': []}]);
  },
);

claim(
  `${page}#bearer-authentication`,
  'addApiKey() defaults to the name api_key and there is no API-key decorator: @ApiSecurity names it',
  async () => {
    const config = new DocumentBuilder().addApiKey().build();
    expect(config.components.securitySchemes).toEqual({
      api_key: {type: 'apiKey', in: 'header', name: 'api_key'},
    });
    expect(Object.keys(swagger).filter((name) => /^Api.*Key/i.test(name))).toEqual([]);
  },
);

claim(
  `${page}#oauth2`,
  "@ApiOAuth2(['cats:write']) requires the oauth2 scheme with that scope; addOAuth2() keeps the flows",
  async () => {
    const document = await controllerDoc(4, configFrom('oauth2', '.addOAuth2('));
    expect(document.paths['/cats'].post.security).toEqual([{oauth2: ['cats:write']}]);
    expect(document.components.securitySchemes.oauth2.type).toBe('oauth2');
    expect(
      Object.keys(document.components.securitySchemes.oauth2.flows.authorizationCode.scopes),
    ).toEqual(['cats:read', 'cats:write']);
  },
);

claim(
  `${page}#cookie-authentication`,
  "addCookieAuth('shelter-session') declares a cookie API key named cookie; the default cookie is connect.sid",
  async () => {
    const document = await controllerDoc(
      5,
      configFrom('cookie-authentication', ".addCookieAuth('shelter-session')"),
    );
    expect(document.components.securitySchemes).toEqual({
      cookie: {type: 'apiKey', in: 'cookie', name: 'shelter-session'},
    });
    expect(document.paths['/cats'].get.security).toEqual([{cookie: []}]);
    expect(
      new DocumentBuilder().addCookieAuth().build().components.securitySchemes.cookie.name,
    ).toBe('connect.sid');
  },
);

claim(
  `${page}#requiring-a-scheme-everywhere`,
  "addSecurityRequirements('bearer') writes a root security entry; a decorated operation keeps its own",
  async () => {
    const {CatsController} = compileModule(`
    import { Controller, Get } from '@nestjs/common';
    import { ApiBasicAuth } from '@nestjs/swagger';
    @Controller('cats')
    export class CatsController {
      @Get() findAll() { return []; }
      @Get('admin') @ApiBasicAuth() admin() { return []; }
    }`);
    const config = configFrom('requiring-a-scheme-everywhere', '.addSecurityRequirements(');
    const document = await documentFor([CatsController], {config});
    expect(document.security).toEqual([{bearer: []}]);
    expect(document.paths['/cats'].get.security).toBeUndefined();
    expect(document.paths['/cats/admin'].get.security).toEqual([{basic: []}]);
  },
);

claim.abuse(
  `${page}#bearer-authentication`,
  'the page’s @ApiBearerAuth() controller answers 200 to a request without a token and to "Bearer anything": nothing checks it',
  async () => {
    const {CatsController} = samples(page, {pick: {'cats.controller': 3}}).require(
      'cats.controller',
    );
    const served = await serve([CatsController]);
    try {
      for (const headers of [{}, {authorization: 'Bearer anything'}] as Record<string, string>[]) {
        const response = await call(`${served.base}/cats`, undefined, headers);
        expect([response.status, response.text]).toEqual([200, '[]']);
      }
    } finally {
      await served.close();
    }
  },
);

claim.abuse(
  `${page}#bearer-authentication`,
  'the page’s @ApiOAuth2(["cats:write"]) handler creates a cat for a request without any token: scopes are not checked either',
  async () => {
    const {CatsController} = samples(page, {pick: {'cats.controller': 4}}).require(
      'cats.controller',
    );
    const served = await serve([CatsController]);
    try {
      const response = await call(`${served.base}/cats`, {});
      expect([response.status, JSON.parse(response.text)]).toEqual([201, {created: true}]);
    } finally {
      await served.close();
    }
  },
);

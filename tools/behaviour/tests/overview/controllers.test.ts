import {expect, vi} from 'vitest';
import {spawnSync} from 'node:child_process';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, resolve} from 'node:path';
import {claim, samples, nest, expectOutput, fragment} from '../../lib';
import {start, call, answersWithin, platforms, pageSamples, onClose} from './_support';

const common = nest('@nestjs/common');
const {
  Controller,
  Get,
  Post,
  All,
  Param,
  Query,
  Headers,
  Res,
  HttpCode,
  NotFoundException,
  Redirect,
  Module,
  UseInterceptors,
} = common;
const page = 'docs/controllers.md';

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#routing`,
    `GET /cats answers the handler's string unchanged with 200 (${lang})`,
    async () => {
      const {CatsController} = samples(page, {under: 'routing', lang}).require('cats.controller');
      const {base} = await start([CatsController]);
      const response = await fetch(`${base}/cats`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await response.text()).toBe('This action returns all cats');
    },
  );

  claim(
    `${page}#status-code`,
    `@HttpCode(HttpStatus.NO_CONTENT) makes DELETE answer 204 (${lang})`,
    async () => {
      const {CatsController} = samples(page, {under: 'status-code', lang}).require(
        'cats.controller',
      );
      const {base} = await start([CatsController]);
      const response = await fetch(`${base}/cats/1`, {method: 'DELETE'});
      expect(response.status).toBe(204);
    },
  );

  claim(
    `${page}#request-object`,
    `@Req() hands the platform request: the sample answers with request.ip (${lang})`,
    async () => {
      const {CatsController} = samples(page, {under: 'request-object', lang}).require(
        'cats.controller',
      );
      const {base} = await start([CatsController]);
      const reply = await call(base, 'GET', '/cats');
      expect(reply.json()).toEqual({requestedFrom: '127.0.0.1'});
    },
  );

  claim(
    `${page}#resources`,
    `GET /cats and POST /cats are separate routes; POST answers 201 (${lang})`,
    async () => {
      const {CatsController} = samples(page, {under: 'resources', lang}).require('cats.controller');
      const {base} = await start([CatsController]);
      const created = await call(base, 'POST', '/cats');
      expect([created.status, created.text]).toEqual([201, 'This action adds a new cat']);
      const listed = await call(base, 'GET', '/cats');
      expect([listed.status, listed.text]).toEqual([200, 'This action returns all cats']);
    },
  );

  claim(
    `${page}#headers`,
    `@Header('Cache-Control', 'no-store') sets the response header (${lang})`,
    async () => {
      const {CatsController} = samples(page, {under: 'headers', lang}).require('cats.controller');
      const {base} = await start([CatsController]);
      const reply = await call(base, 'GET', '/cats');
      expect(reply.headers['cache-control']).toBe('no-store');
      expect(reply.text).toBe('This action returns all cats');
    },
  );

  claim(
    `${page}#redirection`,
    `@Redirect(url, 301) answers 301 with that Location; the returned { url } overrides it, keeping the status (${lang})`,
    async () => {
      const {CatsController} = pageSamples(page, {lang, pick: {'cats.controller': 7}}).require(
        'cats.controller',
      );
      const {CatsController: Guide} = pageSamples(page, {
        lang,
        pick: {'cats.controller': 8},
      }).require('cats.controller');
      const {base} = await start([CatsController]);
      const adopt = await call(base, 'GET', '/cats/adopt');
      expect([adopt.status, adopt.headers.location]).toEqual([
        301,
        'https://example.com/adoption-center',
      ]);
      const {base: guideBase} = await start([Guide]);
      const v1 = await call(guideBase, 'GET', '/cats/guide?version=1');
      expect([v1.status, v1.headers.location]).toEqual([302, 'https://example.com/guides/v1']);
      const other = await call(guideBase, 'GET', '/cats/guide?version=2');
      expect([other.status, other.headers.location]).toEqual([
        302,
        'https://example.com/guides/latest',
      ]);
    },
  );

  claim(
    `${page}#route-parameters`,
    `@Param() and @Param('id') both give { "id": "1" } for GET /cats/1 (${lang})`,
    async () => {
      for (const n of [9, 10]) {
        const {CatsController} = pageSamples(page, {lang, pick: {'cats.controller': n}}).require(
          'cats.controller',
        );
        const {base} = await start([CatsController]);
        expect((await call(base, 'GET', '/cats/1')).json()).toEqual({id: '1'});
      }
    },
  );

  claim(
    `${page}#sub-domain-routing`,
    `host: ':account.example.com' captures the first label for @HostParam('account') (${lang})`,
    async () => {
      const set = samples(page, {under: 'sub-domain-routing', lang});
      const {AccountsController} = set.require('accounts.controller');
      const {AdminController} = set.require('admin.controller');
      const {base} = await start([AdminController, AccountsController]);
      const acme = await call(base, 'GET', '/', {headers: {host: 'acme.example.com'}});
      expect([acme.status, acme.text]).toEqual([200, 'Welcome to the acme account']);
      const admin = await call(base, 'GET', '/', {headers: {host: 'admin.example.com'}});
      expect([admin.status, admin.text]).toEqual([200, 'Admin page']);
    },
  );

  claim(
    `${page}#asynchronicity`,
    `an async handler and an Observable handler both answer the JSON array (${lang})`,
    async () => {
      for (const n of [11, 12]) {
        const {CatsController} = pageSamples(page, {lang, pick: {'cats.controller': n}}).require(
          'cats.controller',
        );
        const {base} = await start([CatsController]);
        const reply = await call(base, 'GET', '/cats');
        expect([reply.status, reply.headers['content-type'], reply.json()]).toEqual([
          200,
          'application/json; charset=utf-8',
          ['Tom', 'Felix'],
        ]);
      }
    },
  );

  claim(
    `${page}#full-resource-sample`,
    `the curl lines of the full sample get the handlers' strings (${lang})`,
    async () => {
      const {CatsController} = samples(page, {under: 'full-resource-sample', lang}).require(
        'cats.controller',
      );
      const {base} = await start([CatsController]);
      expect((await call(base, 'GET', '/cats?limit=10')).json()).toEqual({limit: 10});
      expect((await call(base, 'GET', '/cats/1')).json()).toEqual({id: '1'});
      expect((await call(base, 'PUT', '/cats/1', {body: {age: 4}})).json()).toEqual({
        updated: '1',
      });
      expect((await call(base, 'DELETE', '/cats/1')).json()).toEqual({removed: '1'});
      const created = await call(base, 'POST', '/cats', {
        body: {name: 'Tom', age: 3, breed: 'Maine Coon'},
      });
      expect([created.status, created.json()]).toEqual([201, {name: 'Tom'}]);
    },
  );

  claim(
    `${page}#getting-up-and-running`,
    `AppModule with controllers: [CatsController] mounts its routes (${lang})`,
    async () => {
      const set = samples(page, {under: 'getting-up-and-running', lang});
      const {AppModule} = set.require('app.module');
      const {base} = await start(AppModule);
      expect((await call(base, 'GET', '/cats/7')).json()).toEqual({id: '7'});
    },
  );

  claim(
    `${page}#library-specific-approach`,
    `with @Res(), POST answers 201 with an empty body and GET answers [] (${lang})`,
    async () => {
      const {CatsController} = pageSamples(page, {lang, pick: {'cats.controller': 15}}).require(
        'cats.controller',
      );
      const {base} = await start([CatsController]);
      const created = await call(base, 'POST', '/cats');
      expect([created.status, created.text]).toEqual([201, '']);
      const listed = await call(base, 'GET', '/cats');
      expect([listed.status, listed.json()]).toEqual([200, []]);
    },
  );

  claim(
    `${page}#library-specific-approach`,
    `with @Res({ passthrough: true }), the handler sets a cookie and Nest still sends the returned [] (${lang})`,
    async () => {
      const {CatsController} = pageSamples(page, {lang, pick: {'cats.controller': 16}}).require(
        'cats.controller',
      );
      const {base} = await start([CatsController]);
      const reply = await call(base, 'GET', '/cats');
      expect(reply.status).toBe(200);
      expect(reply.json()).toEqual([]);
      expect(String(reply.headers['set-cookie'])).toMatch(/^last-visit=\d{4}-\d\d-\d\dT/);
    },
  );

  claim(`${page}#request-payloads`, `@Body() receives the parsed JSON body (${lang})`, async () => {
    const {CatsController} = pageSamples(page, {lang, pick: {'cats.controller': 13}}).require(
      'cats.controller',
    );
    const {base} = await start([CatsController]);
    const reply = await call(base, 'POST', '/cats', {
      body: {name: 'Tom', age: 3, breed: 'Maine Coon'},
    });
    expect([reply.status, reply.json()]).toEqual([201, {name: 'Tom'}]);
  });
}

// Claims of the prose, checked with small controllers written here (on both platforms where the page speaks of both).
const {Body, Delete, Header, Ip, Next, Req, Request: RequestDecorator, Put, Patch} = common;
void Ip;
void RequestDecorator;

@Controller('cats')
class PathsController {
  @Get('breeds')
  breeds() {
    return 'breeds';
  }

  @Get(['all', 'list'])
  several() {
    return 'several';
  }

  @Get('object')
  object() {
    return {name: 'Tom'};
  }

  @Get('number')
  number() {
    return 42;
  }

  @Get('boolean')
  boolean() {
    return true;
  }

  @Post('made')
  made() {
    return {ok: true};
  }

  @All('any')
  any() {
    return 'any';
  }

  @Get('headers')
  headers(@Headers('Authorization') upper: string, @Headers('authorization') lower: string) {
    return {upper, lower};
  }

  @Get('missing')
  @HttpCode(204)
  missing() {
    throw new NotFoundException();
  }

  @Get('default-redirect')
  @Redirect('https://example.com/elsewhere')
  defaultRedirect() {}

  @Get(':catId/toys/:toyId')
  toys(
    @Param('catId') catId: string,
    @Param('toyId') toyId: string,
    @Param() all: Record<string, string>,
  ) {
    return {catId, toyId, all, types: [typeof catId, typeof toyId]};
  }

  @Get(':id')
  one(@Param('id') id: string) {
    return {id, type: typeof id};
  }

  @Get()
  query(@Query('breed') breed: string, @Query() query: Record<string, string>) {
    return {breed, query};
  }

  @Get('after-param')
  afterParam() {
    return 'never reached';
  }
}

for (const platform of platforms) {
  claim(
    `${page}#routing`,
    `@Get('breeds') answers GET /cats/breeds; @Get(['all', 'list']) answers both paths (${platform})`,
    async () => {
      const {base} = await start([PathsController], {platform});
      expect((await call(base, 'GET', '/cats/breeds')).text).toBe('breeds');
      expect((await call(base, 'GET', '/cats/all')).text).toBe('several');
      expect((await call(base, 'GET', '/cats/list')).text).toBe('several');
    },
  );

  claim(
    `${page}#routing`,
    `an object goes out as JSON; a number or a boolean goes out unchanged; POST answers 201 (${platform})`,
    async () => {
      const {base} = await start([PathsController], {platform});
      const object = await call(base, 'GET', '/cats/object');
      expect([object.status, object.headers['content-type'], object.text]).toEqual([
        200,
        'application/json; charset=utf-8',
        '{"name":"Tom"}',
      ]);
      expect((await call(base, 'GET', '/cats/number')).text).toBe('42');
      expect((await call(base, 'GET', '/cats/boolean')).text).toBe('true');
      expect((await call(base, 'POST', '/cats/made')).status).toBe(201);
    },
  );

  claim(`${page}#resources`, `@All() answers every method on its path (${platform})`, async () => {
    const {base} = await start([PathsController], {platform});
    for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH']) {
      expect((await call(base, method, '/cats/any')).text).toBe('any');
    }
  });

  claim(
    `${page}#request-object`,
    `@Headers('Authorization') and @Headers('authorization') return the same value (${platform})`,
    async () => {
      const {base} = await start([PathsController], {platform});
      const reply = await call(base, 'GET', '/cats/headers', {
        headers: {Authorization: 'Bearer abc'},
      });
      expect(reply.json()).toEqual({upper: 'Bearer abc', lower: 'Bearer abc'});
    },
  );

  claim(
    `${page}#status-code`,
    `a NotFoundException answers 404 whatever @HttpCode() says (${platform})`,
    async () => {
      const {base} = await start([PathsController], {platform});
      const reply = await call(base, 'GET', '/cats/missing');
      expect(reply.status).toBe(404);
      expect(reply.json()).toEqual({statusCode: 404, message: 'Not Found'});
    },
  );

  claim(
    `${page}#redirection`,
    `@Redirect(url) without a status code answers 302 Found (${platform})`,
    async () => {
      const {base} = await start([PathsController], {platform});
      const reply = await call(base, 'GET', '/cats/default-redirect');
      expect([reply.status, reply.headers.location]).toEqual([
        302,
        'https://example.com/elsewhere',
      ]);
    },
  );

  claim(
    `${page}#route-parameters`,
    `route parameters arrive as strings; several tokens are read one by one or together with @Param() (${platform})`,
    async () => {
      const {base} = await start([PathsController], {platform});
      expect((await call(base, 'GET', '/cats/1')).json()).toEqual({id: '1', type: 'string'});
      expect((await call(base, 'GET', '/cats/3/toys/9')).json()).toEqual({
        catId: '3',
        toyId: '9',
        all: {catId: '3', toyId: '9'},
        types: ['string', 'string'],
      });
    },
  );

  claim(
    `${page}#route-parameters`,
    `@Query('breed') receives Persian for /cats?breed=Persian, @Query() the whole object of strings (${platform})`,
    async () => {
      const {base} = await start([PathsController], {platform});
      expect((await call(base, 'GET', '/cats?breed=Persian&limit=10')).json()).toEqual({
        breed: 'Persian',
        query: {breed: 'Persian', limit: '10'},
      });
    },
  );
}

claim(
  `${page}#route-parameters`,
  `on Express, @Get(':id') declared before a static route captures it (the static handler never runs)`,
  async () => {
    const {base} = await start([PathsController]);
    expect((await call(base, 'GET', '/cats/after-param')).json()).toEqual({
      id: 'after-param',
      type: 'string',
    });
  },
);

@Controller('cats')
class WildcardController {
  @Get('ab*cd')
  wildcard() {
    return 'This route uses a wildcard';
  }

  @Get('a-b.c')
  literal() {
    return 'literal';
  }
}

claim(
  `${page}#route-wildcards`,
  `on Express, 'ab*cd' matches abcd, ab_cd and abecd but not abxyz; the hyphen and the dot are literal`,
  async () => {
    const {base} = await start([WildcardController]);
    for (const path of ['abcd', 'ab_cd', 'abecd', 'ab123cd']) {
      expect((await call(base, 'GET', `/cats/${path}`)).text).toBe('This route uses a wildcard');
    }
    expect((await call(base, 'GET', '/cats/abxyz')).status).toBe(404);
    expect((await call(base, 'GET', '/cats/a-b.c')).text).toBe('literal');
    expect((await call(base, 'GET', '/cats/aXbYc')).status).toBe(404);
  },
);

claim(
  `${page}#route-wildcards`,
  `on Fastify, 'ab*cd' matches any path that starts with ab, including cats/abxyz`,
  async () => {
    const {base} = await start([WildcardController], {platform: 'fastify'});
    for (const path of ['abcd', 'ab_cd', 'abxyz']) {
      expect((await call(base, 'GET', `/cats/${path}`)).text).toBe('This route uses a wildcard');
    }
  },
);

claim(
  `${page}#sub-domain-routing`,
  `on Express, a request for another host gets a 404, and a controller without host answers any host`,
  async () => {
    const {AdminController} = samples(page, {under: 'sub-domain-routing'}).require(
      'admin.controller',
    );
    @Controller('cats')
    class AnyHost {
      @Get()
      list() {
        return 'any host';
      }
    }
    const {base} = await start([AdminController, AnyHost]);
    expect((await call(base, 'GET', '/', {headers: {host: 'www.example.com'}})).status).toBe(404);
    expect((await call(base, 'GET', '/cats', {headers: {host: 'admin.example.com'}})).text).toBe(
      'any host',
    );
    expect((await call(base, 'GET', '/cats', {headers: {host: 'www.example.com'}})).text).toBe(
      'any host',
    );
  },
);

claim(
  `${page}#sub-domain-routing`,
  `host also takes a regular expression or an array (Express)`,
  async () => {
    @Controller({host: [/^api\.example\.com$/, 'admin.example.org']})
    class Several {
      @Get('several')
      several() {
        return 'several hosts';
      }
    }
    const {base} = await start([Several]);
    expect((await call(base, 'GET', '/several', {headers: {host: 'api.example.com'}})).text).toBe(
      'several hosts',
    );
    expect((await call(base, 'GET', '/several', {headers: {host: 'admin.example.org'}})).text).toBe(
      'several hosts',
    );
    expect((await call(base, 'GET', '/several', {headers: {host: 'www.example.com'}})).status).toBe(
      404,
    );
  },
);

claim(
  `${page}#sub-domain-routing`,
  `on Fastify, a request whose host does not match fails with a 500 (HTTP adapter does not support filtering on host)`,
  async () => {
    const {AdminController} = samples(page, {under: 'sub-domain-routing'}).require(
      'admin.controller',
    );
    const {base} = await start([AdminController], {platform: 'fastify'});
    expect((await call(base, 'GET', '/', {headers: {host: 'admin.example.com'}})).text).toBe(
      'Admin page',
    );
    const other = await call(base, 'GET', '/', {headers: {host: 'www.example.com'}});
    expect(other.status).toBe(500);
    expect(other.text).toContain('HTTP adapter does not support filtering on host');
  },
);

claim(
  `${page}#routing`,
  `a handler that injects @Res() and only returns a value never answers (the request hangs)`,
  async () => {
    @Controller('cats')
    class Hanging {
      @Get()
      findAll(@Res() res: unknown) {
        void res;
        return 'ignored';
      }
    }
    const {base} = await start([Hanging]);
    expect(await answersWithin(base, 'GET', '/cats', 400)).toBe('hung');
  },
);

claim(
  `${page}#asynchronicity`,
  `a rejected promise becomes the standard 500 error response`,
  async () => {
    @Controller('cats')
    class Failing {
      @Get()
      async findAll() {
        throw new Error('database down');
      }
    }
    const {base} = await start([Failing]);
    const reply = await call(base, 'GET', '/cats');
    expect([reply.status, reply.json()]).toEqual([
      500,
      {statusCode: 500, message: 'Internal server error'},
    ]);
  },
);

claim(
  `${page}#request-payloads`,
  `on Express, URL-encoded bodies are parsed out of the box too`,
  async () => {
    @Controller('cats')
    class Form {
      @Post()
      create(@Body('name') name: string) {
        return `named ${name}`;
      }
    }
    const {base} = await start([Form]);
    const reply = await call(base, 'POST', '/cats', {
      body: 'name=Tom&age=3',
      headers: {'content-type': 'application/x-www-form-urlencoded'},
    });
    expect(reply.text).toBe('named Tom');
  },
);

claim(
  `${page}#library-specific-approach`,
  `with @Res(), the @HttpCode() status and @Header() headers are still set before the handler, which can override them`,
  async () => {
    @Controller('cats')
    class Native {
      @Get('kept')
      @HttpCode(202)
      @Header('X-Kind', 'declared')
      kept(@Res() res: any) {
        res.send('kept');
      }

      @Get('overridden')
      @HttpCode(202)
      @Header('X-Kind', 'declared')
      overridden(@Res() res: any) {
        res.status(200).set('X-Kind', 'handler').send('overridden');
      }
    }
    const {base} = await start([Native]);
    const kept = await call(base, 'GET', '/cats/kept');
    expect([kept.status, kept.headers['x-kind'], kept.text]).toEqual([202, 'declared', 'kept']);
    const overridden = await call(base, 'GET', '/cats/overridden');
    expect([overridden.status, overridden.headers['x-kind']]).toEqual([200, 'handler']);
  },
);

claim(
  `${page}#library-specific-approach`,
  `an interceptor that maps the result has no effect on a @Res() handler, and does with passthrough`,
  async () => {
    const {map} = nest('rxjs');
    class Wrap {
      intercept(_context: unknown, next: any) {
        return next.handle().pipe(map((data: unknown) => ({data})));
      }
    }
    @Controller('cats')
    @UseInterceptors(Wrap)
    class Native {
      @Get('native')
      native(@Res() res: any) {
        res.json([]);
      }

      @Get('passthrough')
      passthrough(@Res({passthrough: true}) res: any) {
        res.status(200);
        return [];
      }
    }
    @Module({controllers: [Native], providers: [Wrap]})
    class AppModule {}
    const {base} = await start(AppModule);
    expect((await call(base, 'GET', '/cats/native')).json()).toEqual([]);
    expect((await call(base, 'GET', '/cats/passthrough')).json()).toEqual({data: []});
  },
);

@Controller('cats')
class PatternsController {
  @Get('ab?cd')
  optional() {
    return 'optional';
  }

  @Get('xy+z')
  repeated() {
    return 'repeated';
  }

  @Get('mn(op)?q')
  group() {
    return 'group';
  }
}

claim(
  `${page}#route-wildcards`,
  `on Express, ? + and parentheses act like limited regular expressions: ab?cd, xy+z, mn(op)?q`,
  async () => {
    const {base} = await start([PatternsController]);
    for (const [path, text] of [
      ['acd', 'optional'],
      ['abcd', 'optional'],
      ['xyz', 'repeated'],
      ['xyyyz', 'repeated'],
      ['mnq', 'group'],
      ['mnopq', 'group'],
    ]) {
      expect((await call(base, 'GET', `/cats/${path}`)).text, path).toBe(text);
    }
    expect((await call(base, 'GET', '/cats/xy+z')).status).toBe(404);
  },
);

claim(
  `${page}#route-wildcards`,
  `on Fastify, the Express meanings of ? + and parentheses do not carry over ('xy+z' only matches itself)`,
  async () => {
    const {base} = await start([PatternsController], {platform: 'fastify'});
    for (const path of ['acd', 'abcd', 'xyz', 'xyyz', 'mnq', 'mnopq']) {
      expect((await call(base, 'GET', `/cats/${path}`)).status, path).toBe(404);
    }
    expect((await call(base, 'GET', '/cats/xy+z')).text).toBe('repeated');
  },
);

claim(
  `${page}#routing`,
  `without a prefix in @Controller(), the handler paths are used as they are`,
  async () => {
    @Controller()
    class NoPrefix {
      @Get('cats')
      cats() {
        return 'no prefix';
      }
    }
    const {base} = await start([NoPrefix]);
    expect((await call(base, 'GET', '/cats')).text).toBe('no prefix');
  },
);

for (const platform of platforms) {
  claim(
    `${page}#routing`,
    `without @HttpCode(), PUT, PATCH and DELETE answer 200 like GET (${platform})`,
    async () => {
      @Controller('cats')
      class Verbs {
        @Put(':id')
        put() {
          return 'put';
        }

        @Patch(':id')
        patch() {
          return 'patch';
        }

        @Delete(':id')
        remove() {
          return 'delete';
        }
      }
      const {base} = await start([Verbs], {platform});
      for (const method of ['PUT', 'PATCH', 'DELETE']) {
        const reply = await call(base, method, '/cats/1');
        expect([reply.status, reply.text]).toEqual([
          200,
          method === 'DELETE' ? 'delete' : method.toLowerCase(),
        ]);
      }
    },
  );

  claim(
    `${page}#request-object`,
    `@Req() gives the platform's own request object: Fastify's wraps the Node.js request in .raw, Express's is it (${platform})`,
    async () => {
      @Controller('cats')
      class Raw {
        @Get()
        findAll(@Req() request: any) {
          return {hasRaw: request.raw !== undefined, expressGet: typeof request.get === 'function'};
        }
      }
      const {base} = await start([Raw], {platform});
      expect((await call(base, 'GET', '/cats')).json()).toEqual(
        platform === 'fastify'
          ? {hasRaw: true, expressGet: false}
          : {hasRaw: false, expressGet: true},
      );
    },
  );
}

claim(
  `${page}#routing`,
  `a handler that injects @Next() is switched to the library-specific mode too: its return value is not sent`,
  async () => {
    @Controller('cats')
    class WithNext {
      @Get()
      findAll(@Next() next: unknown) {
        void next;
        return 'ignored';
      }
    }
    const {base} = await start([WithNext]);
    expect(await answersWithin(base, 'GET', '/cats', 400)).toBe('hung');
  },
);

claim(`${page}#headers`, `several @Header() decorators set several headers`, async () => {
  @Controller('cats')
  class Several {
    @Get()
    @Header('Cache-Control', 'no-store')
    @Header('X-Cats', 'many')
    findAll() {
      return 'cats';
    }
  }
  const {base} = await start([Several]);
  const reply = await call(base, 'GET', '/cats');
  expect([reply.headers['cache-control'], reply.headers['x-cats']]).toEqual(['no-store', 'many']);
});

claim(
  `${page}#redirection`,
  `a returned { url, statusCode } overrides both arguments of @Redirect()`,
  async () => {
    @Controller('cats')
    class Dynamic {
      @Get('guide')
      @Redirect('https://example.com/guides/latest', 302)
      guide() {
        return {url: 'https://example.com/guides/v2', statusCode: 301};
      }
    }
    const {base} = await start([Dynamic]);
    const reply = await call(base, 'GET', '/cats/guide');
    expect([reply.status, reply.headers.location]).toEqual([301, 'https://example.com/guides/v2']);
  },
);

claim(
  `${page}#asynchronicity`,
  `Nest sends the last value an observable emitted once it completes; an erroring observable becomes the 500 error response`,
  async () => {
    const {of, throwError} = nest('rxjs');
    @Controller('cats')
    class Streams {
      @Get('last')
      last() {
        return of('Tom', 'Felix', 'Garfield');
      }

      @Get('failing')
      failing() {
        return throwError(() => new Error('stream broke'));
      }
    }
    const {base} = await start([Streams]);
    expect((await call(base, 'GET', '/cats/last')).text).toBe('Garfield');
    const failing = await call(base, 'GET', '/cats/failing');
    expect([failing.status, failing.json()]).toEqual([
      500,
      {statusCode: 500, message: 'Internal server error'},
    ]);
  },
);

claim(
  `${page}#getting-up-and-running`,
  `the startup log lists every mapped route with its path and method`,
  async () => {
    const {memoryLogger} = await import('../../lib');
    const {AppModule} = samples(page, {under: 'getting-up-and-running'}).require('app.module');
    const memory = memoryLogger();
    await start(AppModule, {logger: memory.logger});
    const mapped = memory.lines
      .filter((line) => line.context === 'RouterExplorer')
      .map((line) => line.message);
    expect(mapped).toEqual([
      'Mapped {/cats, POST} route',
      'Mapped {/cats, GET} route',
      'Mapped {/cats/:id, GET} route',
      'Mapped {/cats/:id, PUT} route',
      'Mapped {/cats/:id, DELETE} route',
    ]);
  },
);

// Review 4: what the generator writes, query values that are not strings, redirects, hosts chosen by the
// client, broken and oversized bodies, and files sent without @Res().

claim(
  `${page}#controllers`,
  `nest g resource cats (@nestjs/schematics 8.0.11, REST, CRUD) writes an empty CreateCatDto and no validation anywhere`,
  async () => {
    const {SchematicTestRunner} = nest('@angular-devkit/schematics/testing');
    const runner = new SchematicTestRunner(
      '@nestjs/schematics',
      require.resolve('@nestjs/schematics/dist/collection.json', {
        paths: [resolve(__dirname, '..', '..')],
      }),
    );
    const tree = await runner
      .runSchematicAsync('resource', {name: 'cats', type: 'rest', crud: true, skipImport: true})
      .toPromise();
    expectOutput(page, 'generated-create-dto', tree.readContent('/cats/dto/create-cat.dto.ts'));
    expect(tree.readContent('/cats/cats.controller.ts')).toContain(
      '@Body() createCatDto: CreateCatDto',
    );
    for (const file of tree.files) {
      expect(tree.readContent(file), file).not.toMatch(/ValidationPipe|class-validator/);
    }
  },
);

claim(
  `${page}#redirection`,
  `@Redirect() without a url, on a handler that returns nothing, answers 302 with an empty Location header`,
  async () => {
    @Controller('cats')
    class Nowhere {
      @Get('nowhere')
      @Redirect()
      nowhere() {}
    }
    const {base} = await start([Nowhere]);
    const reply = await call(base, 'GET', '/cats/nowhere');
    expect([reply.status, reply.headers.location]).toEqual([302, '']);
  },
);

claim.abuse(
  `${page}#redirection`,
  `the guide handler only ever redirects to its two known URLs, whatever the client sends as version (repeated, bracketed, a URL)`,
  async () => {
    const {CatsController} = samples(page, {pick: {'cats.controller': 8}}).require(
      'cats.controller',
    );
    const {base} = await start([CatsController]);
    const known = ['https://example.com/guides/v1', 'https://example.com/guides/latest'];
    for (const query of [
      'version=1&version=1',
      'version[$ne]=2',
      'version=https://evil.example/',
      'version=%2F%2Fevil.example',
      'version= 1',
    ]) {
      const reply = await call(base, 'GET', `/cats/guide?${query}`);
      expect([reply.status, known.includes(String(reply.headers.location))], query).toEqual([
        302,
        true,
      ]);
    }
  },
);

claim.abuse(
  `${page}#redirection`,
  `a handler that returns the url of a ?next= parameter redirects to any site the link names (the open redirect the page warns about)`,
  async () => {
    @Controller('auth')
    class Open {
      @Get('done')
      @Redirect('/')
      done(@Query('next') next: string) {
        return {url: next};
      }
    }
    const {base} = await start([Open]);
    const reply = await call(base, 'GET', '/auth/done?next=https://evil.example/login');
    expect([reply.status, reply.headers.location]).toEqual([302, 'https://evil.example/login']);
  },
);

@Controller('cats')
class QueryController {
  @Get()
  findAll(@Query() query: Record<string, unknown>) {
    return query;
  }

  @Get('breed')
  breed(@Query('breed') breed: string) {
    return breed.toLowerCase();
  }
}

claim(
  `${page}#query-values-are-not-always-strings`,
  `on Express a repeated key arrives as an array and brackets build objects; Fastify gives the array but keeps the bracketed key as its name`,
  async () => {
    const path = '/cats?breed=Persian&breed=Siamese&age[$gt]=1';
    const express = await start([QueryController]);
    expectOutput(page, 'query-shapes', (await call(express.base, 'GET', path)).json());
    const fastify = await start([QueryController], {platform: 'fastify'});
    expect((await call(fastify.base, 'GET', path)).json()).toEqual({
      breed: ['Persian', 'Siamese'],
      'age[$gt]': '1',
    });
    expect((await call(express.base, 'GET', '/cats?a[b][c]=1')).json()).toEqual({
      a: {b: {c: '1'}},
    });
  },
);

claim.abuse(
  `${page}#query-values-are-not-always-strings`,
  `a handler that calls a string method on @Query('breed') answers 500 to ?breed=a&breed=b and to ?breed[$ne]=x`,
  async () => {
    const {base} = await start([QueryController]);
    expect((await call(base, 'GET', '/cats/breed?breed=Persian')).text).toBe('persian');
    for (const query of ['breed=a&breed=b', 'breed[$ne]=x']) {
      const reply = await call(base, 'GET', `/cats/breed?${query}`);
      expect([reply.status, reply.json()], query).toEqual([
        500,
        {statusCode: 500, message: 'Internal server error'},
      ]);
    }
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim.abuse(
    `${page}#full-resource-sample`,
    `GET /cats?breed[$ne]=x is refused with 400 "breed must be a string" before findAll() runs (${lang})`,
    async () => {
      const {CatsController} = pageSamples(page, {under: 'full-resource-sample', lang}).require(
        'cats.controller',
      );
      const {base} = await start([CatsController]);
      const reply = await call(base, 'GET', '/cats?breed[$ne]=x');
      expect(reply.status).toBe(400);
      expectOutput(page, 'query-validation-error', reply.text);
      expect((await call(base, 'GET', '/cats?breed=Persian')).json()).toEqual({limit: 10});
    },
  );
}

claim.abuse(
  `${page}#full-resource-sample`,
  `a repeated limit (?limit=10&limit=20) is refused with 400`,
  async () => {
    const {CatsController} = samples(page, {under: 'full-resource-sample'}).require(
      'cats.controller',
    );
    const {base} = await start([CatsController]);
    const reply = await call(base, 'GET', '/cats?limit=10&limit=20');
    expect([reply.status, reply.json().message]).toEqual([
      400,
      [
        'limit must not be greater than 100',
        'limit must not be less than 1',
        'limit must be an integer number',
      ],
    ]);
  },
);

claim.abuse(
  `${page}#full-resource-sample`,
  `a limit that is not a whole number between 1 and 100 (abc, 2.5, 0, 1000) is refused with 400; ?limit=20 reaches the handler as a number`,
  async () => {
    const {CatsController} = samples(page, {under: 'full-resource-sample'}).require(
      'cats.controller',
    );
    const {base} = await start([CatsController]);
    for (const limit of ['abc', '2.5', '0', '1000']) {
      expect((await call(base, 'GET', `/cats?limit=${limit}`)).status, limit).toBe(400);
    }
    expect((await call(base, 'GET', '/cats?limit=20')).json()).toEqual({limit: 20});
  },
);

claim.abuse(
  `${page}#full-resource-sample`,
  `keys the query DTO does not declare (?owner[$ne]=x) are dropped by whitelist: true before the handler sees the query`,
  async () => {
    const set = samples(page, {
      under: 'full-resource-sample',
      edit: {
        'cats.controller': [['return { limit: query.limit ?? 10 };', 'return query;']],
      },
    });
    const {CatsController} = set.require('cats.controller');
    const {base} = await start([CatsController]);
    expect((await call(base, 'GET', '/cats?limit=5&owner[$ne]=x&isAdmin=true')).json()).toEqual({
      limit: 5,
    });
  },
);

claim(
  `${page}#full-resource-sample`,
  `without expectedType, the JavaScript half's ValidationPipe has no class and lets ?breed[$ne]=x through (js)`,
  async () => {
    const {CatsController} = pageSamples(page, {
      under: 'full-resource-sample',
      lang: 'js',
      edit: {'cats.controller': [[', expectedType: ListAllEntities', '']]},
    }).require('cats.controller');
    const {base} = await start([CatsController]);
    expect((await call(base, 'GET', '/cats?breed[$ne]=x&limit=abc')).json()).toEqual({
      limit: 'abc',
    });
  },
);

claim.abuse(
  `${page}#sub-domain-routing`,
  `any client reaches the admin.example.com controller by sending that Host header: host routing is not access control`,
  async () => {
    const {AdminController} = samples(page, {under: 'sub-domain-routing'}).require(
      'admin.controller',
    );
    const {base} = await start([AdminController]);
    // The request goes to 127.0.0.1; only the Host header names the admin site.
    expect((await call(base, 'GET', '/', {headers: {host: 'admin.example.com'}})).text).toBe(
      'Admin page',
    );
  },
);

claim.abuse(
  `${page}#sub-domain-routing`,
  `:account captures everything before .example.com (a.b), keeps the client's letter case (ACME), and ignores the port`,
  async () => {
    const {AccountsController} = samples(page, {under: 'sub-domain-routing'}).require(
      'accounts.controller',
    );
    const {base} = await start([AccountsController]);
    const account = async (host: string) => (await call(base, 'GET', '/', {headers: {host}})).text;
    expect(await account('a.b.example.com')).toBe('Welcome to the a.b account');
    expect(await account('ACME.example.com')).toBe('Welcome to the ACME account');
    expect(await account('acme.example.com:8443')).toBe('Welcome to the acme account');
    expect(
      (await call(base, 'GET', '/', {headers: {host: 'acme.example.com.evil.test'}})).status,
    ).toBe(404);
  },
);

claim.failure(
  `${page}#sub-domain-routing`,
  `on Fastify, a host-bound controller next to an ordinary one with the same method and path cannot start: listen() rejects`,
  async () => {
    const {AdminController} = samples(page, {under: 'sub-domain-routing'}).require(
      'admin.controller',
    );
    @Controller()
    class Home {
      @Get()
      index() {
        return 'home';
      }
    }
    @Module({controllers: [AdminController, Home]})
    class AppModule {}
    const {NestFactory} = nest('@nestjs/core');
    const {FastifyAdapter} = nest('@nestjs/platform-fastify');
    const app = await NestFactory.create(AppModule, new FastifyAdapter(), {logger: false});
    onClose(() => app.close());
    await expect(app.listen(0, '127.0.0.1')).rejects.toThrow(
      "Method 'GET' already declared for route '/' with constraints '{}'",
    );
  },
);

claim.abuse(
  `${page}#request-object`,
  `a forged X-Forwarded-For header does not change request.ip in the sample (Express trusts no proxy by default)`,
  async () => {
    const {CatsController} = samples(page, {under: 'request-object'}).require('cats.controller');
    const {base} = await start([CatsController]);
    const reply = await call(base, 'GET', '/cats', {headers: {'x-forwarded-for': '203.0.113.9'}});
    expect(reply.json()).toEqual({requestedFrom: '127.0.0.1'});
  },
);

claim.abuse(
  `${page}#request-payloads`,
  `a body that is not valid JSON is answered 400 Bad Request with the parser's message (Express)`,
  async () => {
    const {CatsController} = samples(page, {pick: {'cats.controller': 13}}).require(
      'cats.controller',
    );
    const {base} = await start([CatsController]);
    const reply = await call(base, 'POST', '/cats', {body: '{"name": "Tom",}'});
    expect(reply.status).toBe(400);
    expect(reply.json()).toMatchObject({statusCode: 400, error: 'Bad Request'});
    expect(reply.json().message).toMatch(/JSON/);
  },
);

claim.abuse(
  `${page}#request-payloads`,
  `on Express, a JSON body over 100 kb is answered 413 "request entity too large"`,
  async () => {
    const {CatsController} = samples(page, {pick: {'cats.controller': 13}}).require(
      'cats.controller',
    );
    const {base} = await start([CatsController]);
    const under = await call(base, 'POST', '/cats', {body: {name: 'x'.repeat(90 * 1024)}});
    expect(under.status).toBe(201);
    const over = await call(base, 'POST', '/cats', {body: {name: 'x'.repeat(101 * 1024)}});
    expect(over.status).toBe(413);
    expectOutput(page, 'body-too-large', over.text);
  },
);

claim.abuse(
  `${page}#request-payloads`,
  `on Fastify, the same 101 kb body is accepted and a body over 1 MiB is answered 413`,
  async () => {
    const {CatsController} = samples(page, {pick: {'cats.controller': 13}}).require(
      'cats.controller',
    );
    const {base} = await start([CatsController], {platform: 'fastify'});
    expect((await call(base, 'POST', '/cats', {body: {name: 'x'.repeat(101 * 1024)}})).status).toBe(
      201,
    );
    const over = await call(base, 'POST', '/cats', {body: {name: 'x'.repeat(1100 * 1024)}});
    expect([over.status, over.json().statusCode]).toEqual([413, 413]);
  },
);

claim(
  `${page}#request-payloads`,
  `with bodyParser: false and Express's json({ limit: '1mb' }), a 200 kb body is accepted and a 1.1 MB body is refused with 413`,
  async () => {
    const set = samples(page, {
      pick: {'cats.controller': 13},
      files: {
        main: fragment(page, 'request-payloads', 'bodyParser: false').value,
        'app.module': `import { Module } from '@nestjs/common';\nimport { CatsController } from './cats.controller';\n@Module({ controllers: [CatsController] })\nexport class AppModule {}\n`,
      },
      edit: {
        main: [
          [
            'await app.listen(3000);',
            'await app.listen(0, "127.0.0.1"); (globalThis as any).__bodyLimitApp = app;',
          ],
          [
            'NestFactory.create(AppModule, { bodyParser: false })',
            'NestFactory.create(AppModule, { bodyParser: false, logger: false })',
          ],
        ],
      },
    });
    set.require('main');
    const app = await vi.waitFor(
      () => {
        const started = (globalThis as any).__bodyLimitApp;
        if (!started) throw new Error('not listening yet');
        return started;
      },
      {timeout: 5000},
    );
    delete (globalThis as any).__bodyLimitApp;
    onClose(() => app.close());
    const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    const ok = await call(base, 'POST', '/cats', {body: {name: 'x'.repeat(200 * 1024)}});
    expect(ok.status).toBe(201);
    const over = await call(base, 'POST', '/cats', {body: {name: 'x'.repeat(1100 * 1024)}});
    expect(over.status).toBe(413);
  },
);

claim.abuse(
  `${page}#request-payloads`,
  `without validation, a string age and an array body reach the handler as sent`,
  async () => {
    @Controller('cats')
    class Echo {
      @Post()
      create(@Body() body: unknown) {
        return {body, isArray: Array.isArray(body)};
      }
    }
    const {base} = await start([Echo]);
    expect((await call(base, 'POST', '/cats', {body: {name: 'Tom', age: 'three'}})).json()).toEqual(
      {body: {name: 'Tom', age: 'three'}, isArray: false},
    );
    expect(
      (await call(base, 'POST', '/cats', {body: [{name: 'Tom'}, {name: 'Felix'}]})).json(),
    ).toEqual({body: [{name: 'Tom'}, {name: 'Felix'}], isArray: true});
  },
);

/** The catalog sample with the file looked up in a temporary folder instead of the working directory. */
function catalogController(lang: 'ts' | 'js', dir: string) {
  return pageSamples(page, {
    lang,
    pick: {'cats.controller': 17},
    edit: {
      'cats.controller': [
        ["join(process.cwd(), 'catalog.pdf')", `join(${JSON.stringify(dir)}, 'catalog.pdf')`],
      ],
    },
  }).require('cats.controller').CatsController;
}

for (const lang of ['ts', 'js'] as const) {
  claim(
    `${page}#library-specific-approach`,
    `returning a StreamableFile sends the file's bytes with Content-Type application/pdf, without @Res() (${lang})`,
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'catalog-'));
      onClose(async () => rmSync(dir, {recursive: true, force: true}));
      writeFileSync(join(dir, 'catalog.pdf'), '%PDF-1.4 cats');
      const {base} = await start([catalogController(lang, dir)]);
      const reply = await call(base, 'GET', '/cats/catalog');
      expect([reply.status, reply.headers['content-type'], reply.text]).toEqual([
        200,
        'application/pdf',
        '%PDF-1.4 cats',
      ]);
    },
  );
}

claim.failure(
  `${page}#library-specific-approach`,
  `when catalog.pdf is missing, the sample answers the standard 500 and the application keeps serving`,
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'catalog-'));
    onClose(async () => rmSync(dir, {recursive: true, force: true}));
    const {base} = await start([catalogController('ts', dir)]);
    const missing = await call(base, 'GET', '/cats/catalog');
    expect([missing.status, missing.json()]).toEqual([
      500,
      {statusCode: 500, message: 'Internal server error'},
    ]);
    writeFileSync(join(dir, 'catalog.pdf'), '%PDF-1.4 cats');
    expect((await call(base, 'GET', '/cats/catalog')).status).toBe(200);
  },
);

claim.failure(
  `${page}#library-specific-approach`,
  `a StreamableFile of a read stream whose file does not exist ends the whole process (an unhandled 'error' event), observed in a child process`,
  async () => {
    const script = `
      require('reflect-metadata');
      const { Controller, Get, Module, StreamableFile } = require('@nestjs/common');
      const { NestFactory } = require('@nestjs/core');
      const { createReadStream } = require('fs');
      class CatsController { catalog() { return new StreamableFile(createReadStream('/nonexistent/catalog.pdf')); } }
      Get('catalog')(CatsController.prototype, 'catalog', Object.getOwnPropertyDescriptor(CatsController.prototype, 'catalog'));
      Controller('cats')(CatsController);
      class AppModule {}
      Module({ controllers: [CatsController] })(AppModule);
      (async () => {
        const app = await NestFactory.create(AppModule, { logger: false });
        await app.listen(0, '127.0.0.1');
        const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
        fetch(url + '/cats/catalog').catch(() => undefined);
        setTimeout(() => { console.log('STILL RUNNING'); process.exit(0); }, 2000);
      })();
    `;
    const run = spawnSync(process.execPath, ['-e', script], {
      cwd: resolve(__dirname, '..', '..'),
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stdout).not.toContain('STILL RUNNING');
    expect(run.stderr).toContain("Unhandled 'error' event");
    expect(run.stderr).toContain('ENOENT');
  },
);

// Review 5: request input in the answer (reflected into text/html on Express), nest g resource in a Nest 8
// project, an observable that completes empty, and the route order on Fastify.

for (const lang of ['ts', 'js'] as const) {
  claim.abuse(
    `${page}#routing`,
    `a script in the route parameter (GET /cats/%3Cscript%3E...) or in a cross-site form post comes back as JSON (application/json), never as an HTML page (${lang})`,
    async () => {
      const script = '<script>alert(document.cookie)</script>';
      for (const n of [9, 10]) {
        const {CatsController} = pageSamples(page, {lang, pick: {'cats.controller': n}}).require(
          'cats.controller',
        );
        const {base} = await start([CatsController]);
        const reply = await call(base, 'GET', `/cats/${encodeURIComponent(script)}`);
        expect([n, reply.headers['content-type']]).toEqual([n, 'application/json; charset=utf-8']);
        expect(reply.json()).toEqual({id: script});
      }
      const {CatsController} = pageSamples(page, {lang, pick: {'cats.controller': 13}}).require(
        'cats.controller',
      );
      const {base} = await start([CatsController]);
      // What an HTML form on another site posts: no preflight, urlencoded body.
      const form = await call(base, 'POST', '/cats', {
        headers: {'content-type': 'application/x-www-form-urlencoded'},
        body: `name=${encodeURIComponent(script)}`,
      });
      expect([form.status, form.headers['content-type']]).toEqual([
        201,
        'application/json; charset=utf-8',
      ]);
      expect(form.json()).toEqual({name: script});
    },
  );
}

claim(
  `${page}#controllers`,
  `nest g resource adds "@nestjs/mapped-types": "*" and an npm install to a project without the package, and leaves the page's ^1 (which admits 1.0.1, peer of Nest 8) alone with no install`,
  async () => {
    const semver = require(resolve(__dirname, '..', '..', 'node_modules', 'semver'));
    const {SchematicTestRunner, UnitTestTree} = nest('@angular-devkit/schematics/testing');
    const {HostTree} = nest('@angular-devkit/schematics');
    const collection = require.resolve('@nestjs/schematics/dist/collection.json', {
      paths: [resolve(__dirname, '..', '..')],
    });
    const line = fragment(page, 'controllers', 'npm i @nestjs/mapped-types')
      .value.split('\n')
      .find((l) => l.startsWith('npm i '))!;
    const range = line.split('@nestjs/mapped-types@')[1].trim();
    const generate = async (dependencies: Record<string, string>) => {
      const runner = new SchematicTestRunner('@nestjs/schematics', collection);
      const tree = new UnitTestTree(new HostTree());
      tree.create('/package.json', JSON.stringify({name: 'cats-app', dependencies}, null, 2));
      const out = await runner
        .runSchematicAsync(
          'resource',
          {name: 'cats', type: 'rest', crud: true, skipImport: true},
          tree,
        )
        .toPromise();
      return {
        dependencies: JSON.parse(out.readContent('/package.json')).dependencies,
        tasks: runner.tasks.map((task: {name: string}) => task.name),
        updateDto: out.readContent('/src/cats/dto/update-cat.dto.ts'),
      };
    };
    const bare = await generate({'@nestjs/common': '^8.0.0'});
    expect(bare.dependencies['@nestjs/mapped-types']).toBe('*');
    expect(bare.tasks).toEqual(['node-package']);
    expect(bare.updateDto).toContain("from '@nestjs/mapped-types'");
    // '*' admits every later major; 12.x peers on @nestjs/common ^10 || ^11 || ^12 (npm: ERESOLVE).
    expect(semver.satisfies('12.0.0', '*')).toBe(true);
    const pinned = await generate({'@nestjs/common': '^8.0.0', '@nestjs/mapped-types': range});
    expect(pinned.dependencies['@nestjs/mapped-types']).toBe('^1');
    expect(pinned.tasks).toEqual([]);
    const installed = require(
      resolve(__dirname, '..', '..', 'node_modules', '@nestjs/mapped-types', 'package.json'),
    );
    expect(semver.satisfies(installed.version, range)).toBe(true);
    expect(semver.satisfies('8.4.7', installed.peerDependencies['@nestjs/common'])).toBe(true);
    expect(semver.satisfies('2.0.0', range)).toBe(false);
  },
);

for (const platform of platforms) {
  claim.failure(
    `${page}#asynchronicity`,
    `a handler whose observable completes without a value answers 500 and logs "no elements in sequence" (${platform})`,
    async () => {
      const {memoryLogger} = await import('../../lib');
      const {EMPTY, of} = nest('rxjs');
      const {filter} = nest('rxjs/operators');
      @Controller('cats')
      class CatsController {
        @Get('empty')
        empty() {
          return EMPTY;
        }

        @Get('filtered')
        filtered() {
          return of(['Tom']).pipe(filter(() => false));
        }
      }
      const memory = memoryLogger();
      const {base} = await start([CatsController], {platform, logger: memory.logger});
      for (const path of ['/cats/empty', '/cats/filtered']) {
        const reply = await call(base, 'GET', path);
        expect([path, reply.status]).toEqual([path, 500]);
        expectOutput(page, 'empty-observable', reply.text);
      }
      const errors = memory.lines.filter((line) => line.level === 'error');
      expect(errors.map((line) => line.message)).toEqual([
        'no elements in sequence',
        'no elements in sequence',
      ]);
    },
  );
}

claim(
  `${page}#route-parameters`,
  `with @Get(':id') declared before @Get('breeds'), Express sends GET /cats/breeds to findOne() and Fastify to breeds()`,
  async () => {
    @Controller('cats')
    class CatsController {
      @Get(':id')
      findOne(@Param('id') id: string) {
        return {id};
      }

      @Get('breeds')
      breeds() {
        return {breeds: true};
      }
    }
    const answers: Record<string, unknown> = {};
    for (const platform of platforms) {
      const {base} = await start([CatsController], {platform});
      answers[platform] = (await call(base, 'GET', '/cats/breeds')).json();
    }
    expect(answers).toEqual({express: {id: 'breeds'}, fastify: {breeds: true}});
  },
);

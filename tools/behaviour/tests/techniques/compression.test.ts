import {afterEach, describe, expect} from 'vitest';
import {request} from 'node:http';
import {gzipSync} from 'node:zlib';
import {claim, fragment, compileModule, nest, listen} from '../../lib';

const {Module, Controller, Get, Header, Post, Body, Query, Sse, StreamableFile} =
  nest('@nestjs/common');
const {interval} = nest('rxjs');
const {map} = nest('rxjs/operators');

/** A token that a page embeds next to the reflected query (the BREACH setting). */
const token = '8f2b9c41d7e05a63';
const {NestFactory} = nest('@nestjs/core');
const {FastifyAdapter} = nest('@nestjs/platform-fastify');
const page = 'docs/techniques/compression.md';

let toClose: any[] = [];
afterEach(async () => {
  for (const app of toClose) await app.close();
  toClose = [];
});

@Controller()
class TextController {
  @Get('text')
  text(@Query('size') size: string) {
    return 'x'.repeat(Number(size));
  }

  @Get('search')
  @Header('Content-Type', 'text/html')
  search(@Query('q') q: string) {
    return `<form><input type="hidden" name="csrf" value="${token}"></form>${'<p>lorem ipsum</p>'.repeat(80)}<p>You searched for ${q}</p>`;
  }

  @Get('png')
  png() {
    return new StreamableFile(Buffer.alloc(5000, 1), {type: 'image/png'});
  }

  @Get('download')
  download() {
    return new StreamableFile(Buffer.alloc(5000, 1));
  }

  @Get('encoded')
  @Header('Content-Encoding', 'gzip')
  encoded() {
    return new StreamableFile(gzipSync(Buffer.alloc(5000, 65)), {type: 'text/plain'});
  }

  @Sse('events')
  events() {
    return interval(50).pipe(map((i: number) => ({data: 'x'.repeat(200) + i})));
  }

  @Post('body')
  body(@Body() body: unknown) {
    return {length: JSON.stringify(body).length};
  }
}

@Module({controllers: [TextController]})
class AppModule {}

/** A raw GET (fetch would decode the body and hide the encoding). */
function get(
  base: string,
  path: string,
  acceptEncoding: string,
): Promise<{encoding: string | undefined; length: number}> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, {headers: {'accept-encoding': acceptEncoding}}, (res) => {
      let length = 0;
      res.on('data', (chunk: Buffer) => (length += chunk.length));
      res.on('end', () =>
        resolve({encoding: res.headers['content-encoding'] as string | undefined, length}),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** A bootstrap fragment of the page (`app.use(...)` or `await app.register(...)`), run against `app`. */
function configure(
  section: string,
  contains: string,
  imports: string,
): (app: any) => Promise<void> {
  const code = fragment(page, section, contains).value.replace(/^import .*$/m, '');
  return compileModule<{apply: (app: any) => Promise<void>}>(
    `${imports}\nexport async function apply(app: any) {\n${code}\n}`,
    `compression-${section}-${Math.random().toString(36).slice(2)}`,
  ).apply;
}

describe('Express', () => {
  const start = async (section: string, contains: string) => {
    const app = await NestFactory.create(AppModule, {logger: false});
    toClose.push(app);
    // The page's `import * as compression from 'compression'` under a Nest CLI tsconfig (no esModuleInterop)
    // is a plain require(); the suite compiles with esModuleInterop, so the test spells it that way.
    expect(fragment(page, 'use-with-express-default', 'app.use(compression());').value).toContain(
      "import * as compression from 'compression';",
    );
    await configure(section, contains, "import compression = require('compression');")(app);
    return listen(app);
  };

  claim(
    `${page}#use-with-express-default`,
    'compression() gzips a large response for a gzip client, deflates for a deflate-only client, and leaves a response under 1 KB alone',
    async () => {
      const base = await start('use-with-express-default', 'app.use(compression());');
      const big = await get(base, '/text?size=5000', 'gzip, deflate');
      expect(big.encoding).toBe('gzip');
      expect(big.length).toBeLessThan(500);
      expect((await get(base, '/text?size=5000', 'deflate')).encoding).toBe('deflate');
      expect((await get(base, '/text?size=5000', 'identity')).encoding).toBeUndefined();
      const small = await get(base, '/text?size=900', 'gzip');
      expect(small.encoding).toBeUndefined();
      expect(small.length).toBe(900);
    },
  );

  claim(
    `${page}#use-with-express-default`,
    'threshold: 2048 leaves a 1.5 KB response uncompressed and still compresses a larger one',
    async () => {
      const base = await start('use-with-express-default', 'threshold: 2048');
      expect((await get(base, '/text?size=1500', 'gzip')).encoding).toBeUndefined();
      expect((await get(base, '/text?size=3000', 'gzip')).encoding).toBe('gzip');
    },
  );
});

describe('Fastify', () => {
  const start = async (contains: string) => {
    const app = await NestFactory.create(AppModule, new FastifyAdapter(), {logger: false});
    toClose.push(app);
    await configure(
      'use-with-fastify',
      contains,
      "import compression from 'fastify-compress';",
    )(app);
    return listen(app);
  };

  claim(
    `${page}#use-with-fastify`,
    'fastify-compress picks Brotli for a client that accepts it, gzip otherwise, and leaves small responses alone',
    async () => {
      const base = await start(
        "await app.register(compression, { requestEncodings: ['identity'] });",
      );
      expect((await get(base, '/text?size=5000', 'gzip, deflate, br')).encoding).toBe('br');
      expect((await get(base, '/text?size=5000', 'gzip, deflate')).encoding).toBe('gzip');
      expect((await get(base, '/text?size=5000', 'deflate')).encoding).toBe('deflate');
      expect((await get(base, '/text?size=500', 'gzip')).encoding).toBeUndefined();
    },
  );

  claim(
    `${page}#use-with-fastify`,
    "encodings: ['gzip', 'deflate'] never uses Brotli, and still compresses for gzip and deflate clients",
    async () => {
      const base = await start("encodings: ['gzip', 'deflate'],");
      expect((await get(base, '/text?size=5000', 'br, gzip, deflate')).encoding).toBe('gzip');
      expect((await get(base, '/text?size=5000', 'br')).encoding).toBeUndefined();
      expect((await get(base, '/text?size=5000', 'deflate')).encoding).toBe('deflate');
    },
  );
});

/** The first events of an SSE route read for `ms` with Accept-Encoding: gzip: the encoding and the number of events. */
function sse(base: string, ms: number): Promise<{encoding: string | undefined; events: number}> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}/events`, {headers: {'accept-encoding': 'gzip'}}, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
      setTimeout(() => {
        req.destroy();
        resolve({
          encoding: res.headers['content-encoding'] as string | undefined,
          events: (text.match(/^data:/gm) ?? []).length,
        });
      }, ms);
    });
    req.on('error', (error) => (error.message === 'socket hang up' ? undefined : reject(error)));
    req.end();
  });
}

/** The compressed size of the search page for a right and a wrong guess of the token (same length). */
async function guesses(base: string): Promise<{right: number; wrong: number}> {
  const size = async (guess: string) =>
    (await get(base, `/search?q=${encodeURIComponent(`csrf" value="${guess}`)}`, 'gzip')).length;
  const right = await size(token);
  const wrong = await size('x7yq2wzkm0vbnrtp');
  return {right, wrong};
}

const bomb = () => gzipSync(Buffer.from(JSON.stringify({a: '0'.repeat(20 * 1024 * 1024)})));

describe('Abuse cases', () => {
  const express = async (contains: string) => {
    const app = await NestFactory.create(AppModule, {logger: false});
    toClose.push(app);
    await configure(
      'use-with-express-default',
      contains,
      "import compression = require('compression');",
    )(app);
    return listen(app);
  };
  const fastify = async (contains: string) => {
    const app = await NestFactory.create(AppModule, new FastifyAdapter(), {logger: false});
    toClose.push(app);
    await configure(
      'use-with-fastify',
      contains,
      "import compression from 'fastify-compress';",
    )(app);
    return listen(app);
  };

  claim.abuse(
    `${page}#use-with-express-default`,
    'BREACH: with compression(), a reflected query that repeats the secret token compresses smaller than a wrong guess',
    async () => {
      const base = await express('app.use(compression());');
      const {right, wrong} = await guesses(base);
      expect(right).toBeLessThan(wrong);
    },
  );

  claim.abuse(
    `${page}#use-with-fastify`,
    'BREACH: with fastify-compress, a reflected query that repeats the secret token compresses smaller than a wrong guess',
    async () => {
      const base = await fastify(
        "await app.register(compression, { requestEncodings: ['identity'] });",
      );
      const {right, wrong} = await guesses(base);
      expect(right).toBeLessThan(wrong);
    },
  );

  claim.abuse(
    `${page}#use-with-fastify`,
    "a 20 KB gzip body that expands to 20 MB: refused with 415 by the page's requestEncodings; without it, it passes Fastify's 1 MiB bodyLimit",
    async () => {
      const body = bomb();
      expect(body.length).toBeLessThan(64 * 1024);
      const post = (base: string, data: Uint8Array | string, encoding?: string) =>
        fetch(`${base}/body`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(encoding ? {'content-encoding': encoding} : {}),
          },
          body: typeof data === 'string' ? data : new Blob([new Uint8Array(data)]),
        });
      const guarded = await fastify(
        "await app.register(compression, { requestEncodings: ['identity'] });",
      );
      const refused = await post(guarded, body, 'gzip');
      expect(refused.status).toBe(415);
      expect((await refused.json()).message).toBe('Unsupported Content-Encoding: gzip');
      expect(await (await post(guarded, '{"a":1}')).json()).toEqual({length: 7});
      // What the option prevents: the plugin's default decompresses, and the limit counts compressed bytes.
      const app = await NestFactory.create(AppModule, new FastifyAdapter(), {logger: false});
      toClose.push(app);
      await app.register(nest('fastify-compress'));
      const open = await listen(app);
      const accepted = await post(open, body, 'gzip');
      expect(accepted.status).toBe(201);
      expect((await accepted.json()).length).toBeGreaterThan(20 * 1024 * 1024);
      expect((await post(open, JSON.stringify({a: '0'.repeat(2 * 1024 * 1024)}))).status).toBe(413);
    },
  );
});

describe('What is left alone', () => {
  claim(
    `${page}#use-with-fastify`,
    'both leave image/png and an already encoded response alone, compress application/octet-stream, and never compress SSE',
    async () => {
      for (const platform of ['express', 'fastify'] as const) {
        const app =
          platform === 'express'
            ? await NestFactory.create(AppModule, {logger: false})
            : await NestFactory.create(AppModule, new FastifyAdapter(), {logger: false});
        toClose.push(app);
        if (platform === 'express') app.use(nest('compression')());
        else await app.register(nest('fastify-compress'));
        const base = await listen(app);
        expect((await get(base, '/png', 'gzip')).encoding).toBeUndefined();
        const encoded = await get(base, '/encoded', 'gzip');
        expect(encoded.encoding).toBe('gzip');
        expect(encoded.length).toBe(gzipSync(Buffer.alloc(5000, 65)).length);
        expect((await get(base, '/download', 'gzip')).encoding).toBe('gzip');
        const stream = await sse(base, 600);
        expect(stream.encoding).toBeUndefined();
        expect(stream.events).toBeGreaterThanOrEqual(5);
      }
    },
  );
});

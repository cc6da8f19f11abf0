import {afterEach, describe, expect} from 'vitest';
import {request} from 'node:http';
import {claim, fragment, compileModule, nest, listen} from '../../lib';

const {Module, Controller, Get, Query} = nest('@nestjs/common');
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
      const base = await start('await app.register(compression);');
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
      const base = await start("encodings: ['gzip', 'deflate']");
      expect((await get(base, '/text?size=5000', 'br, gzip, deflate')).encoding).toBe('gzip');
      expect((await get(base, '/text?size=5000', 'br')).encoding).toBeUndefined();
      expect((await get(base, '/text?size=5000', 'deflate')).encoding).toBe('deflate');
    },
  );
});

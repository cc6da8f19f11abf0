// @ts-check
/** The bench's server: the build, gzip-compressed on a loopback port, its bytes counted. */
import {readFileSync} from 'node:fs';
import {createServer} from 'node:http';
import {createRequire} from 'node:module';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {benchDir} from './paths.mjs';

/**
 * Serves `dir` gzip-compressed on a free loopback port, the way a production host would.
 * @param {string} dir
 */
export async function serve(dir) {
  const load = createRequire(join(benchDir, 'package.json'));
  /** @type {() => (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, next: () => void) => void} */
  const compression = load('compression');
  const {default: sirv} = await import(pathToFileURL(load.resolve('sirv')).href);
  const compress = compression();
  const assets = sirv(dir, {extensions: ['html'], etag: true, maxAge: 31536000, immutable: false});
  const notFound = readFileSync(join(dir, '404.html'));
  /** @type {import('../search-bench.mjs').ByteCounter} */
  const counter = {bytes: 0, urls: [], sizes: new Map()};
  const server = createServer((req, res) => {
    // Count what reaches the socket: wrapped before `compression` wraps these in turn.
    const {write, end} = res;
    /** @param {unknown} chunk */
    const count = (chunk) => {
      let bytes = 0;
      if (typeof chunk === 'string') bytes = Buffer.byteLength(chunk);
      else if (chunk instanceof Uint8Array) bytes = chunk.byteLength;
      counter.bytes += bytes;
      const url = req.url ?? '';
      counter.sizes.set(url, (counter.sizes.get(url) ?? 0) + bytes);
    };
    res.write = /** @type {typeof res.write} */ (
      /** @type {unknown} */ (
        function (/** @type {unknown} */ chunk) {
          count(chunk);
          return Reflect.apply(write, res, arguments);
        }
      )
    );
    res.end = /** @type {typeof res.end} */ (
      /** @type {unknown} */ (
        function (/** @type {unknown} */ chunk) {
          if (typeof chunk !== 'function') count(chunk);
          return Reflect.apply(end, res, arguments);
        }
      )
    );
    counter.urls.push(req.url ?? '');
    compress(req, res, () =>
      assets(req, res, () => {
        res.writeHead(404, {'content-type': 'text/html; charset=utf-8'});
        res.end(notFound);
      }),
    );
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('server has no port');
  return {origin: `http://127.0.0.1:${address.port}`, counter, close: () => server.close()};
}

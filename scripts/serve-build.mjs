// @ts-check
/**
 * Serves the production build the way Netlify or Cloudflare Pages would, for the browser tests
 * (playwright.config.ts `webServer`): the generated `_redirects` and `_headers` applied, so the
 * whole suite runs under the production Content-Security-Policy.
 *
 *   node scripts/serve-build.mjs [--dir build] [--port 4173] [--host 127.0.0.1]
 *
 * - `_redirects`: `from to [status][!]` lines; `*` in `from` is `:splat` in `to`, `:name`
 *   matches one segment. Rules answer before files (as on Cloudflare Pages, and on Netlify with
 *   `!`): the build keeps HTML fallback pages at the legacy URLs. A trailing slash is ignored
 *   (as Netlify ignores it); letter case is not; the query string is kept.
 * - A page's URL with a trailing slash (`/controllers/`) answers with a 301 to the page, as both
 *   hosts do themselves (Cloudflare Pages always, Netlify with its pretty URLs); `_redirects`
 *   has no rule for it.
 * - `_headers`: a path line, then indented `Name: value` lines. Every rule whose path matches
 *   applies, and a header set by several is joined with ", " as both hosts do, so an overlap in
 *   the generated file shows in the tests.
 * - Files: `/controllers` is `controllers.html` (`trailingSlash: false`), then `index.html` of
 *   a directory; anything else is `/404.html` with status 404.
 *
 * No compression: the tests do not need it (the benchmark serves its own way).
 */
import {createReadStream, existsSync, readFileSync, statSync} from 'node:fs';
import {createServer} from 'node:http';
import {extname, join, resolve, sep} from 'node:path';
import {parseArgs} from 'node:util';

const {values} = parseArgs({
  options: {
    dir: {type: 'string', default: 'build'},
    port: {type: 'string', default: '4173'},
    host: {type: 'string', default: '127.0.0.1'},
  },
});
const root = resolve(values.dir ?? 'build');

const types = /** @type {Record<string, string>} */ ({
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.wasm': 'application/wasm',
});

/**
 * A path pattern as a regular expression: `*` matches anything (captured as `splat`), `:name`
 * one segment.
 * @param {string} pattern
 */
function patternRegExp(pattern) {
  let source = '';
  let splat = false;
  for (const part of pattern.split(/(\*|:[A-Za-z_]\w*)/)) {
    if (part === '*') {
      source += splat ? '.*' : '(?<splat>.*)';
      splat = true;
    } else if (part.startsWith(':') && part.length > 1) {
      source += `(?<${part.slice(1)}>[^/]+)`;
    } else {
      source += part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    }
  }
  return new RegExp(`^${source}$`);
}

/**
 * @typedef {{from: RegExp, to: string, status: number}} RedirectRule
 * @typedef {{path: RegExp, headers: [string, string][]}} HeaderRule
 */

/** @param {string} text @returns {RedirectRule[]} */
function parseRedirects(text) {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [from = '', to = '', status = '301'] = line.split(/\s+/);
      return {from: patternRegExp(from), to, status: Number(status.replace(/!$/, ''))};
    });
}

/** @param {string} text @returns {HeaderRule[]} */
function parseHeaders(text) {
  /** @type {HeaderRule[]} */
  const rules = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      rules.push({path: patternRegExp(line.trim()), headers: []});
      continue;
    }
    const colon = line.indexOf(':');
    const rule = rules.at(-1);
    if (!rule || colon < 0) throw new Error(`_headers: cannot read "${line}"`);
    rule.headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return rules;
}

/** @param {string} name */
function readRules(name) {
  const file = join(root, name);
  if (!existsSync(file)) {
    throw new Error(`${file} is missing: build the site (the hosting plugin writes it)`);
  }
  return readFileSync(file, 'utf8');
}

const redirects = parseRedirects(readRules('_redirects'));
const headerRules = parseHeaders(readRules('_headers'));

/** @param {string} pathname @returns {Record<string, string>} */
function headersFor(pathname) {
  /** @type {Record<string, string>} */
  const headers = {};
  for (const rule of headerRules) {
    if (!rule.path.test(pathname)) continue;
    for (const [name, value] of rule.headers) {
      const key = name.toLowerCase();
      headers[key] = headers[key] === undefined ? value : `${headers[key]}, ${value}`;
    }
  }
  return headers;
}

/** @param {string} pathname @returns {{location: string, status: number} | undefined} */
function redirectFor(pathname) {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  for (const rule of redirects) {
    const match = rule.from.exec(path);
    if (!match) continue;
    const groups = match.groups ?? {};
    const location = rule.to.replace(/:([A-Za-z_]\w*)/g, (text, name) =>
      name in groups ? (groups[name] ?? '') : text,
    );
    return {location, status: rule.status};
  }
  return undefined;
}

/**
 * The page a path with a trailing slash names (`/controllers/` is `/controllers` when
 * `controllers.html` exists), as the hosts send it there themselves.
 * @param {string} pathname
 */
function pageWithoutSlash(pathname) {
  if (pathname.length <= 1 || !pathname.endsWith('/')) return undefined;
  const page = pathname.replace(/\/+$/, '') || '/';
  const file = join(root, `${page}.html`);
  if (!file.startsWith(root + sep)) return undefined;
  return existsSync(file) && statSync(file).isFile() ? page : undefined;
}

/** The file a path is served from, if any (never outside the build). @param {string} pathname */
function fileFor(pathname) {
  const base = join(root, pathname);
  if (base !== root && !base.startsWith(root + sep)) return undefined;
  const candidates = pathname.endsWith('/')
    ? [join(base, 'index.html')]
    : [base, `${base}.html`, join(base, 'index.html')];
  return candidates.find((file) => existsSync(file) && statSync(file).isFile());
}

const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://localhost');
  let pathname;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    response.writeHead(400).end();
    return;
  }
  const headers = headersFor(url.pathname);
  const redirect = redirectFor(url.pathname);
  if (redirect && redirect.status >= 300 && redirect.status < 400) {
    const target = redirect.location.includes('?')
      ? redirect.location
      : redirect.location + url.search;
    response.writeHead(redirect.status, {...headers, location: target}).end();
    return;
  }
  const page = redirect ? undefined : pageWithoutSlash(pathname);
  if (page !== undefined) {
    response.writeHead(301, {...headersFor(page), location: page + url.search}).end();
    return;
  }
  let status = 200;
  let file = fileFor(redirect ? redirect.location : pathname);
  if (redirect && redirect.status !== 200) status = redirect.status;
  if (!file) {
    status = 404;
    file = join(root, '404.html');
  }
  const stats = statSync(file);
  const etag = `W/"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`;
  const fileHeaders = {
    ...headers,
    // A `Content-Type` from `_headers` wins, as on both hosts (the Markdown twins, llms.txt).
    'content-type':
      (status === 200 ? headers['content-type'] : undefined) ??
      types[extname(file)] ??
      'application/octet-stream',
    etag,
  };
  if (status === 200 && request.headers['if-none-match'] === etag) {
    response.writeHead(304, fileHeaders).end();
    return;
  }
  response.writeHead(status, {...fileHeaders, 'content-length': stats.size});
  if (request.method === 'HEAD') {
    response.end();
    return;
  }
  createReadStream(file).pipe(response);
});

const port = Number(values.port);
server.listen(port, values.host, () => {
  console.log(`Serving ${root} on http://${values.host}:${port} with _headers and _redirects`);
});

// @ts-check
// Checks the Markdown side of a production build (src/features/markdown-twins/node/step.ts):
// - every page of the sitemap has its twin (`/controllers` -> `controllers.md`, `/` ->
//   `index.md`), which starts with `# ` and holds no MDX, `:::` or `@@` left over;
// - `llms.txt` lists every sitemap page exactly once, and nothing else; `llms-full.txt` holds
//   every page once (its `Source:` line);
// - no `.md` or `.txt` URL is in the sitemap or in Pagefind's page list;
// - `_headers` gives each generated file its content type.
//   node scripts/check-markdown-build.mjs [build-dir]    (default: build/)
// Prints a summary (sizes) and exits 1 on a failure.
import {existsSync, readFileSync, realpathSync, statSync} from 'node:fs';
import {join, resolve} from 'node:path';
import {pathToFileURL} from 'node:url';

/** The twin of a route (`trailingSlash: false`). @param {string} route */
export function twinOf(route) {
  return route === '/' ? '/index.md' : `${route.replace(/\/+$/, '')}.md`;
}

/** @param {string} dir @returns {string[]} */
function sitemapUrls(dir) {
  const xml = readFileSync(join(dir, 'sitemap.xml'), 'utf8');
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1] ?? '');
}

/** Fences and inline code removed: what is left must be plain Markdown. @param {string} text */
export function prose(text) {
  let fenced = false;
  return text
    .split('\n')
    .filter((line) => {
      const fence = /^(?:> ?)*```/.test(line);
      if (fence) fenced = !fenced;
      return !fence && !fenced;
    })
    .join('\n')
    .replace(/`[^`\n]*`/g, '');
}

/**
 * @param {string} dir
 * @returns {{failures: string[], pages: number, bytes: Record<string, number>}}
 */
export function inspectMarkdownBuild(dir) {
  /** @type {string[]} */
  const failures = [];
  const urls = sitemapUrls(dir);
  const routes = urls.map((url) => new URL(url).pathname);
  const origin = urls[0] ? new URL(urls[0]).origin : '';
  let twinBytes = 0;
  for (const route of routes) {
    if (/\.(md|txt)$/.test(route)) failures.push(`the sitemap lists ${route}`);
    const file = join(dir, twinOf(route));
    if (!existsSync(file)) {
      failures.push(`${route} has no Markdown twin (${twinOf(route)})`);
      continue;
    }
    const text = readFileSync(file, 'utf8');
    twinBytes += statSync(file).size;
    if (!text.startsWith('# ')) failures.push(`${twinOf(route)} does not start with "# "`);
    const left = /^(@@|:::)|\{\/\*|^import .+ from ['"]|<[A-Z][A-Za-z]*[\s/>]/m.exec(prose(text));
    if (left) failures.push(`${twinOf(route)} still holds "${left[0]}"`);
  }

  const llms = readFileSync(join(dir, 'llms.txt'), 'utf8');
  if (!llms.startsWith('# ')) failures.push('llms.txt does not start with "# "');
  if (!/^> \S/m.test(llms)) failures.push('llms.txt has no "> " summary');
  const listed = [...llms.matchAll(/^- \[[^\n]+?\]\(([^)\s]+)\)/gm)].map((match) => match[1]);
  const expected = new Set(routes.map((route) => `${origin}${twinOf(route)}`));
  /** @type {Map<string, number>} */
  const counts = new Map();
  for (const url of listed) counts.set(url ?? '', (counts.get(url ?? '') ?? 0) + 1);
  for (const url of expected) {
    const count = counts.get(url) ?? 0;
    if (count !== 1) failures.push(`llms.txt lists ${url} ${count} times`);
  }
  for (const url of counts.keys()) {
    if (!expected.has(url)) failures.push(`llms.txt lists ${url}, which is not in the sitemap`);
  }

  const full = readFileSync(join(dir, 'llms-full.txt'), 'utf8');
  for (const url of urls) {
    const count = full.split(`\nSource: ${url}\n`).length - 1;
    if (count !== 1) failures.push(`llms-full.txt holds ${url} ${count} times`);
  }

  const pageList = join(dir, 'pagefind', 'pages.json');
  if (existsSync(pageList)) {
    const {pages} = /** @type {{pages: [string, string][]}} */ (
      JSON.parse(readFileSync(pageList, 'utf8'))
    );
    for (const [, url] of pages) {
      if (/\.(md|txt)$/.test(url)) failures.push(`Pagefind indexed ${url}`);
    }
  }

  const headers = readFileSync(join(dir, '_headers'), 'utf8');
  for (const [path, type] of [
    ...routes.map((route) => [twinOf(route), 'text/markdown; charset=utf-8']),
    ['/llms.txt', 'text/plain; charset=utf-8'],
    ['/llms-full.txt', 'text/plain; charset=utf-8'],
  ]) {
    if (!headers.includes(`\n${path}\n  Content-Type: ${type}\n`)) {
      failures.push(`_headers gives ${path} no Content-Type: ${type}`);
    }
  }
  return {
    failures,
    pages: routes.length,
    bytes: {
      twins: twinBytes,
      'llms.txt': Buffer.byteLength(llms),
      'llms-full.txt': Buffer.byteLength(full),
    },
  };
}

/** @param {string[]} args */
export function main(args) {
  const dir = resolve(args[0] ?? 'build');
  const {failures, pages, bytes} = inspectMarkdownBuild(dir);
  const kib = (/** @type {number} */ n) => `${(n / 1024).toFixed(0)} KiB`;
  console.log(
    `${pages} pages: twins ${kib(bytes.twins ?? 0)}, llms.txt ${kib(bytes['llms.txt'] ?? 0)}, ` +
      `llms-full.txt ${kib(bytes['llms-full.txt'] ?? 0)}`,
  );
  for (const failure of failures) console.error(`FAIL ${failure}`);
  return failures.length === 0 ? 0 : 1;
}

if (process.argv[1] && pathToFileURL(realpathSync(process.argv[1])).href === import.meta.url) {
  process.exitCode = main(process.argv.slice(2));
}

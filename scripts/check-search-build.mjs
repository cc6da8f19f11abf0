// @ts-check
// Tells which search a production build carries, and fails unless it is exactly one of:
// - local: the Pagefind bundle `pagefind/` (its script, and `pages.json` listing every page of
//   the sitemap) and the header combobox `input#search`, and nothing of DocSearch;
// - algolia: the DocSearch button, its bundle and the preconnect to `<appId>-dsn.algolia.net`,
//   and no local index.
//   node scripts/check-search-build.mjs [--expect local|algolia] [build-dir]    (default: build/)
// The choice itself is made by src/features/search/node/searchConfig.ts (Algolia when ALGOLIA_APP_ID and
// ALGOLIA_API_KEY are set); this only reads the output. Prints a summary (with the index size,
// raw and gzip) and exits 1 on a failure, 2 on a usage error.
import {existsSync, readFileSync, readdirSync, realpathSync, statSync} from 'node:fs';
import {join, resolve} from 'node:path';
import {pathToFileURL} from 'node:url';
import {gzipSync} from 'node:zlib';

/**
 * @typedef {object} IndexFile
 * @property {string} file
 * @property {number} bytes
 * @property {number} gzipBytes
 * @property {string[]} pages routes of the indexed pages
 */

/**
 * @typedef {object} SearchBuild
 * @property {'local' | 'algolia' | 'both' | 'none'} mode
 * @property {IndexFile[]} indexFiles
 * @property {boolean} localBundle the build has Pagefind's script
 * @property {boolean} localInput the home page has the search combobox
 * @property {boolean} docSearchButton the home page has the DocSearch button
 * @property {boolean} docSearchBundle a script carries DocSearch
 * @property {string | null} algoliaAppId from the preconnect link of the home page
 * @property {string[]} unindexedPages sitemap routes missing from the local index
 */

/** @param {string} dir @returns {string[]} */
function scripts(dir) {
  const js = join(dir, 'assets', 'js');
  if (!existsSync(js)) {
    return [];
  }
  return readdirSync(js)
    .filter((name) => name.endsWith('.js'))
    .map((name) => readFileSync(join(js, name), 'utf8'));
}

/** @param {string} dir @returns {string[]} */
function sitemapRoutes(dir) {
  const sitemap = join(dir, 'sitemap.xml');
  if (!existsSync(sitemap)) {
    return [];
  }
  const xml = readFileSync(sitemap, 'utf8');
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]).pathname);
}

/**
 * The Pagefind bundle: its size on disk (its index files are gzip already) and the pages its
 * page list names.
 * @param {string} dir @returns {IndexFile}
 */
function readPagefind(dir) {
  const bundle = join(dir, 'pagefind');
  let bytes = 0;
  let gzipBytes = 0;
  for (const entry of readdirSync(bundle, {recursive: true, withFileTypes: true})) {
    if (!entry.isFile()) continue;
    const raw = readFileSync(join(entry.parentPath, entry.name));
    bytes += raw.length;
    gzipBytes += /\.(js|json|css)$/.test(entry.name)
      ? gzipSync(raw, {level: 9}).length
      : raw.length;
  }
  const listFile = join(bundle, 'pages.json');
  /** @type {{pages: [string, string, string, string][]}} */
  const list = existsSync(listFile) ? JSON.parse(readFileSync(listFile, 'utf8')) : {pages: []};
  return {file: 'pagefind/', bytes, gzipBytes, pages: list.pages.map((page) => page[1])};
}

/**
 * Reads a build directory.
 * @param {string} dir
 * @returns {SearchBuild}
 */
export function inspectSearchBuild(dir) {
  const home = join(dir, 'index.html');
  const html = existsSync(home) ? readFileSync(home, 'utf8') : '';
  const js = scripts(dir);
  const indexFiles = existsSync(join(dir, 'pagefind', 'pages.json')) ? [readPagefind(dir)] : [];
  const localBundle = existsSync(join(dir, 'pagefind', 'pagefind.js'));
  const localInput = /<input\b[^>]*\bid="?search"?[\s>][^>]*\brole="?combobox\b/.test(html);
  const docSearchButton = /\bDocSearch-Button\b/.test(html);
  const docSearchBundle = js.some((code) => code.includes('DocSearch-Modal'));
  const algoliaAppId = /https:\/\/([\w-]+)-dsn\.algolia\.net/.exec(html)?.[1] ?? null;
  const local = indexFiles.length > 0 || localBundle || localInput;
  const algolia = docSearchButton || docSearchBundle || algoliaAppId !== null;
  const complete = {
    local: indexFiles.length > 0 && localBundle && localInput,
    algolia: docSearchButton && docSearchBundle && algoliaAppId !== null,
  };
  /** @type {SearchBuild['mode']} */
  let mode = 'none';
  if (local && algolia) {
    mode = 'both';
  } else if (complete.local && !algolia) {
    mode = 'local';
  } else if (complete.algolia && !local) {
    mode = 'algolia';
  }
  const indexed = new Set(indexFiles.flatMap((index) => index.pages));
  const unindexedPages =
    indexFiles.length > 0 ? sitemapRoutes(dir).filter((route) => !indexed.has(route)) : [];
  return {
    mode,
    indexFiles,
    localBundle,
    localInput,
    docSearchButton,
    docSearchBundle,
    algoliaAppId,
    unindexedPages,
  };
}

/** @param {number} bytes */
function size(bytes) {
  return bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(2)} MiB`
    : `${(bytes / 1024).toFixed(1)} KiB`;
}

/**
 * Runs the check; returns the exit code.
 * @param {readonly string[]} args `[--expect local|algolia] [build-dir]`
 * @param {{log: (line: string) => void, error: (line: string) => void}} out
 * @returns {number}
 */
export function main(args, out = {log: console.log, error: console.error}) {
  /** @type {string | undefined} */
  let expect;
  /** @type {string[]} */
  const rest = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (arg === '--expect') {
      expect = args[(i += 1)];
    } else if (arg.startsWith('--expect=')) {
      expect = arg.slice('--expect='.length);
    } else {
      rest.push(arg);
    }
  }
  const dir = resolve(rest[0] ?? 'build');
  if (
    (expect !== undefined && expect !== 'local' && expect !== 'algolia') ||
    rest.length > 1 ||
    !existsSync(dir) ||
    !statSync(dir).isDirectory()
  ) {
    out.error('usage: node scripts/check-search-build.mjs [--expect local|algolia] [build-dir]');
    return 2;
  }
  const build = inspectSearchBuild(dir);
  const failures = [];
  if (build.mode === 'local') {
    for (const index of build.indexFiles) {
      out.log(
        `local search (Pagefind): ${index.file}, ${size(index.bytes)} (${size(index.gzipBytes)} as served gzip), ` +
          `${index.pages.length} pages`,
      );
    }
    if (build.unindexedPages.length > 0) {
      failures.push(`pages missing from the index: ${build.unindexedPages.join(', ')}`);
    }
  } else if (build.mode === 'algolia') {
    out.log(`Algolia DocSearch: app ${build.algoliaAppId}, no local index`);
  } else {
    const found = Object.entries(build)
      .filter(([key, value]) => key !== 'mode' && (Array.isArray(value) ? value.length : value))
      .map(([key]) => key);
    failures.push(
      `${build.mode === 'both' ? 'both searches' : 'no complete search'} in the build ` +
        `(found: ${found.join(', ') || 'nothing'})`,
    );
  }
  if (expect !== undefined && build.mode !== expect) {
    failures.push(`expected ${expect}, the build carries ${build.mode}`);
  }
  for (const failure of failures) {
    out.error(`check-search-build: ${failure}`);
  }
  return failures.length > 0 ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  process.exitCode = main(process.argv.slice(2));
}

/**
 * The embedded search's index: a chunked static index built by Pagefind from the generated HTML,
 * in the build pipeline's search step (./step.ts).
 *
 * It indexes the generated HTML. Only the article of a docs page is indexed: the
 * element marked `data-pagefind-body` (src/features/shell/client/DocItemContent.tsx), which also carries the page's
 * menu group as the `section` filter and metadata. Pages without it (the results page, the 404
 * page, redirects) are left out; so are the menu, header, footer, banners, newsletter and ad
 * slot, which sit outside the article. Headings with an id become sub-results, so one result
 * can point at `/pipes#binding-pipes`.
 *
 * The browser fetches `/pagefind/pagefind.js`, its WebAssembly search and the entry file when the
 * reader turns to the search box, then only the index chunks and page fragments a query needs
 * (src/features/search/client/pagefind.ts).
 */
import {existsSync} from 'node:fs';
import {readdir, readFile, writeFile} from 'node:fs/promises';
import {createRequire} from 'node:module';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {gunzipSync} from 'node:zlib';
import {htmlFiles} from '../../pipeline/node/pages';
import type {SearchDocument} from '../../pipeline/node/steps';

type PagefindApi = typeof import('pagefind');

/** Where the index is written, under the build directory, and served from. */
export const pagefindDir = 'pagefind';

/**
 * What is left out of the article when indexing: the code-pair chrome (the TS/JS switch and the
 * `.js` twin of the file name), the heading self-links (a zero-width space and an aria-label),
 * the copy buttons of code blocks.
 */
export const excludeSelectors = [
  '[data-code-pair-switch]',
  '[data-code-pair-filename="js"]',
  '.hash-link',
  'button',
];

/** A page of the index as the search box lists it before its fragment arrives. */
export type PageListEntry = [id: string, url: string, title: string, section: string];

/** Reads a Pagefind fragment file (gzip, behind a signature) as its JSON. */
export function readFragment(file: Buffer): {url: string; meta: Record<string, string>} {
  const text = gunzipSync(file).toString('utf8');
  const start = text.indexOf('{');
  if (start < 0) throw new Error('not a Pagefind fragment');
  return JSON.parse(text.slice(start)) as {url: string; meta: Record<string, string>};
}

/**
 * `pages.json`: every indexed page's fragment id, URL, title and section (about 2.5 KB gzip).
 * Pagefind's answer to a query is a list of fragment ids; with this list the box shows the
 * matching titles at once, and fetches the fragments (section headings and excerpts, 3 to 12 KB
 * each) only for the query the reader settles on.
 */
export interface PageList {
  meta: string | null;
  pages: PageListEntry[];
}

export async function writePageList(bundleDir: string): Promise<PageList> {
  const fragments = join(bundleDir, 'fragment');
  const entries: PageListEntry[] = [];
  for (const name of (await readdir(fragments)).sort()) {
    if (!name.endsWith('.pf_fragment')) continue;
    const {url, meta} = readFragment(await readFile(join(fragments, name)));
    entries.push([name.replace(/\.pf_fragment$/, ''), url, meta.title ?? url, meta.section ?? '']);
  }
  // The language index's metadata file, which Pagefind fetches only after its entry file: the
  // search box requests it early (src/features/search/client/pagefind.ts).
  const entry = JSON.parse(await readFile(join(bundleDir, 'pagefind-entry.json'), 'utf8')) as {
    languages: Record<string, {hash: string}>;
  };
  const hash = entry.languages.en?.hash;
  const list: PageList = {meta: hash ? `pagefind.${hash}.pf_meta` : null, pages: entries};
  await writeFile(join(bundleDir, 'pages.json'), JSON.stringify(list));
  return list;
}

/**
 * Pagefind's Node API. The package is an ES module whose exports map offers only `import`; the
 * site config is loaded as CommonJS (by jiti), where `import('pagefind')` becomes a `require` that
 * the exports map refuses. So the entry file is imported by its path.
 */
async function loadPagefind(siteDir: string): Promise<PagefindApi> {
  const paths = createRequire(join(siteDir, 'package.json')).resolve.paths('pagefind') ?? [];
  const dir = paths
    .map((modules) => join(modules, 'pagefind'))
    .find((candidate) => existsSync(candidate));
  if (!dir) {
    throw new Error('The pagefind package is not installed: run npm ci');
  }
  return (await import(pathToFileURL(join(dir, 'lib', 'index.js')).href)) as PagefindApi;
}

/**
 * Indexes the HTML files of `outDir` into `outDir/pagefind`, and the `extra` documents (the
 * pipeline steps' `searchDocuments`); a document whose URL is a built page's route is indexed
 * instead of that page's HTML. Returns the number of records.
 */
export async function buildIndex(
  siteDir: string,
  outDir: string,
  baseUrl = '/',
  extra: readonly SearchDocument[] = [],
): Promise<number> {
  const pagefind = await loadPagefind(siteDir);
  try {
    const {errors, index} = await pagefind.createIndex({
      forceLanguage: 'en',
      excludeSelectors,
    });
    if (!index || errors.length > 0) {
      throw new Error(`Pagefind could not start: ${errors.join('; ')}`);
    }
    const documents = new Map(extra.map((document) => [document.url, document]));
    let pages = 0;
    for (const {file, route} of await htmlFiles(outDir, baseUrl)) {
      const replaced = documents.get(route);
      documents.delete(route);
      const content = replaced?.content ?? (await readFile(join(outDir, file), 'utf8'));
      // Only docs pages carry the marker; skip the rest without parsing them.
      if (!content.includes('data-pagefind-body')) continue;
      const added = await index.addHTMLFile({url: route, content});
      if (added.errors.length > 0) {
        throw new Error(`Pagefind could not index ${file}: ${added.errors.join('; ')}`);
      }
      pages += 1;
    }
    if (pages === 0) {
      throw new Error(`Pagefind found no page marked data-pagefind-body in ${outDir}`);
    }
    for (const document of documents.values()) {
      const added = await index.addHTMLFile(document);
      if (added.errors.length > 0) {
        throw new Error(`Pagefind could not index ${document.url}: ${added.errors.join('; ')}`);
      }
      pages += 1;
    }
    const written = await index.writeFiles({outputPath: join(outDir, pagefindDir)});
    if (written.errors.length > 0) {
      throw new Error(`Pagefind could not write its files: ${written.errors.join('; ')}`);
    }
    await writePageList(join(outDir, pagefindDir));
    return pages;
  } finally {
    await pagefind.close();
  }
}

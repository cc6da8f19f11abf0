/**
 * The embedded search: a chunked static index built by Pagefind after the build, and the
 * `/search` results page.
 *
 * `postBuild` indexes the generated HTML. Only the article of a docs page is indexed: the
 * element marked `data-pagefind-body` (src/theme/DocItem/Content), which also carries the page's
 * menu group as the `section` filter and metadata. Pages without it (the results page, the 404
 * page, redirects) are left out; so are the menu, header, footer, banners, newsletter and ad
 * slot, which sit outside the article. Headings with an id become sub-results, so one result
 * can point at `/pipes#binding-pipes`.
 *
 * The browser fetches `/pagefind/pagefind.js`, its WebAssembly search and the entry file when the
 * reader turns to the search box, then only the index chunks and page fragments a query needs
 * (src/components/Search/pagefind.ts).
 */
import {existsSync} from 'node:fs';
import {readdir, readFile, writeFile} from 'node:fs/promises';
import {createRequire} from 'node:module';
import {join, sep} from 'node:path';
import {pathToFileURL} from 'node:url';
import {gunzipSync} from 'node:zlib';
import type {LoadContext, Plugin} from '@docusaurus/types';

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

/**
 * The route a built HTML file is served at (`trailingSlash: false`): `controllers.html` is
 * `/controllers`, `index.html` is `/`, `a/index.html` is `/a`.
 */
export function routeOf(file: string, baseUrl = '/'): string {
  const path = file
    .split(sep)
    .join('/')
    .replace(/\.html$/, '');
  const route = path === 'index' ? '' : path.replace(/\/index$/, '');
  return `${baseUrl}${route}`;
}

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
  // search box requests it early (src/components/Search/pagefind.ts).
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

/** A document added to the index besides the built pages (an API entry: src/features/api-reference). */
export interface ExtraDocument {
  readonly url: string;
  readonly content: string;
}

/**
 * Where extra documents come from: a post-build step given the build. A document whose URL is a
 * built page's route is indexed instead of that page's HTML.
 */
export type ExtraDocuments = (build: {
  outDir: string;
  baseUrl: string;
}) => Promise<readonly ExtraDocument[]>;

/**
 * Indexes the HTML files of `outDir` into `outDir/pagefind`, and the `extra` documents; returns
 * the number of records.
 */
export async function buildIndex(
  siteDir: string,
  outDir: string,
  baseUrl = '/',
  extra?: ExtraDocuments,
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
    // Documents of the build's steps; one with the URL of a built page replaces that page's HTML.
    const documents = new Map((extra ? await extra({outDir, baseUrl}) : []).map((d) => [d.url, d]));
    let pages = 0;
    for (const file of await readdir(outDir, {recursive: true})) {
      if (!file.endsWith('.html')) continue;
      const url = routeOf(file, baseUrl);
      const replaced = documents.get(url);
      documents.delete(url);
      const content = replaced?.content ?? (await readFile(join(outDir, file), 'utf8'));
      // Only docs pages carry the marker; skip the rest without parsing them.
      if (!content.includes('data-pagefind-body')) continue;
      const added = await index.addHTMLFile({url, content});
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

/** The plugin's options (a type, not an interface: Docusaurus' plugin options are a record). */
export type PagefindOptions = {
  /** Documents to index besides the built pages (see ExtraDocuments). */
  readonly extraDocuments?: ExtraDocuments;
};

export default function pagefindPlugin(
  context: LoadContext,
  options: PagefindOptions = {},
): Plugin {
  return {
    name: 'pagefind-search',
    getClientModules() {
      return [join(context.siteDir, 'src/components/Search/highlight.ts')];
    },
    async contentLoaded({actions}) {
      actions.addRoute({
        path: `${context.baseUrl}search`,
        component: '@site/src/components/Search/SearchPage',
        exact: true,
      });
    },
    async postBuild({outDir}) {
      const pages = await buildIndex(
        context.siteDir,
        outDir,
        context.baseUrl,
        options.extraDocuments,
      );
      console.log(`[pagefind-search] indexed ${pages} pages and entries into ${pagefindDir}/`);
    },
  };
}

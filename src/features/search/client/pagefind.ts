/**
 * Pagefind in the browser: the part of its API the search box and page use, and one shared,
 * lazily started instance.
 *
 * Nothing is fetched until `loadPagefind()` is called (the reader turned to the search box, or
 * opened /search). It imports `/pagefind/pagefind.js`, which starts a worker with the WebAssembly
 * search and reads the small entry file; each query then fetches only the index chunks holding
 * its words and the fragments of the pages it shows (src/features/search/plugin.ts builds them).
 */
import {ranking} from './ranking';

export interface PagefindLocation {
  weight: number;
  balanced_score: number;
  location: number;
}

export interface PagefindSubResult {
  title: string;
  url: string;
  excerpt: string;
  anchor?: {element: string; id: string; text: string; location: number};
  weighted_locations: PagefindLocation[];
  locations: number[];
}

export interface PagefindResultData {
  url: string;
  excerpt: string;
  meta: {title?: string; section?: string};
  filters: Record<string, string[]>;
  sub_results: PagefindSubResult[];
  word_count: number;
}

export interface PagefindResult {
  id: string;
  score: number;
  words: number[];
  data(): Promise<PagefindResultData>;
}

export type PagefindFilters = Record<string, Record<string, number>>;

export interface PagefindSearch {
  results: PagefindResult[];
  unfilteredResultCount: number;
  /** Counts of each filter value among the results. */
  filters: PagefindFilters;
  totalFilters: PagefindFilters;
}

export interface PagefindOptions {
  basePath?: string;
  noWorker?: boolean;
  baseUrl?: string;
  excerptLength?: number;
  highlightParam?: string;
  ranking?: {
    termFrequency?: number;
    pageLength?: number;
    termSaturation?: number;
    termSimilarity?: number;
  };
}

export interface Pagefind {
  options(options: PagefindOptions): Promise<void>;
  init(): Promise<void>;
  search(
    term: string | null,
    options?: {filters?: Record<string, string | string[]>},
  ): Promise<PagefindSearch | null>;
  filters(): Promise<PagefindFilters>;
  preload(term: string): Promise<void>;
}

/** The query parameter that carries the searched words to the page opened from a result. */
export const highlightParam = 'highlight';

/** Retries a failed load on the next call (offline, say), shares a pending or finished one. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () => {
    if (!pending) {
      const current = load();
      pending = current;
      current.catch(() => {
        if (pending === current) pending = null;
      });
    }
    return pending;
  };
}

/** `pagefind/pages.json` (src/features/search/plugin.ts): id, URL, title and section of every page. */
export type PageList = Map<string, {url: string; title: string; section: string}>;

const pageLists = new Map<string, () => Promise<PageList>>();
/** The lists that have arrived, for an answer before Pagefind has started. */
const loadedPageLists = new Map<string, PageList>();

/** The page list, if it has arrived (`loadPageList` asks for it). */
export function pageListIfLoaded(baseUrl: string): PageList | undefined {
  return loadedPageLists.get(baseUrl);
}

export function loadPageList(baseUrl: string): Promise<PageList> {
  let load = pageLists.get(baseUrl);
  if (!load) {
    load = once(async () => {
      const response = await fetch(`${baseUrl}pagefind/pages.json`);
      if (!response.ok) throw new Error(`pages.json: HTTP ${response.status}`);
      const list = (await response.json()) as {
        meta: string | null;
        pages: [string, string, string, string][];
      };
      // Pagefind asks for this file only after its entry file: ask now, into the HTTP cache.
      if (list.meta) fetch(`${baseUrl}pagefind/${list.meta}`).catch(() => undefined);
      const pages: PageList = new Map(
        list.pages.map(([id, url, title, section]) => [id, {url, title, section}]),
      );
      loadedPageLists.set(baseUrl, pages);
      return pages;
    });
    pageLists.set(baseUrl, load);
  }
  return load();
}

let instance: Promise<Pagefind> | null = null;

/**
 * Files Pagefind fetches one after the other (its script, then the entry file, then the
 * WebAssembly and the metadata): requested together first, so that its own requests find them in
 * the HTTP cache, which saves round trips on a slow connection. The entry file is fetched with a
 * cache-busting parameter, so it is not among them.
 */
const warmFiles = ['wasm.en.pagefind'];

/**
 * Starts everything a first query needs, in parallel: Pagefind and the page list. Called from
 * the search box as the reader turns to it, before the rest of the search code arrives.
 */
export function prepare(baseUrl: string): Promise<unknown> {
  // The page list first: it is small, and it answers the first keys while Pagefind loads.
  const list = loadPageList(baseUrl);
  return Promise.all([list, loadPagefind(baseUrl)]);
}

/** Imports and starts Pagefind once; a failed start (offline, say) is retried on the next call. */
export function loadPagefind(baseUrl: string): Promise<Pagefind> {
  if (!instance) {
    for (const file of warmFiles) {
      fetch(`${baseUrl}pagefind/${file}`).catch(() => undefined);
    }
    const starting = (async () => {
      const url = `${baseUrl}pagefind/pagefind.js`;
      const pagefind = (await import(/* webpackIgnore: true */ url)) as Pagefind;
      await pagefind.options({
        basePath: `${baseUrl}pagefind/`,
        // On the main thread: a worker costs a request and a start-up before the first query,
        // and a query takes a few milliseconds.
        noWorker: true,
        excerptLength: 16,
        highlightParam,
        // The weights of the results' order (./ranking.ts).
        ranking,
      });
      await pagefind.init();
      return pagefind;
    })();
    instance = starting;
    starting.catch(() => {
      if (instance === starting) instance = null;
    });
  }
  return instance;
}

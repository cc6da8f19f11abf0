/**
 * The search itself, in its own chunk: loaded when the reader turns to the search box or opens
 * /search, never with a page.
 */
import {
  highlightParam,
  loadPageList,
  loadPagefind,
  type PagefindResult,
  type PagefindResultData,
} from './pagefind';
import {toPageResult, toSuggestion, type PageResult, type Suggestion} from './results';

/** A page URL that asks the page to mark the searched words (./highlight.ts). */
export function withHighlight(url: string, query: string): string {
  const [path, hash] = url.split('#', 2);
  const params = new URLSearchParams();
  for (const word of query.toLowerCase().split(/\s+/).filter(Boolean)) {
    params.append(highlightParam, word);
  }
  return `${path}?${params.toString()}${hash ? `#${hash}` : ''}`;
}

export interface SearchOutcome<T> {
  items: T[];
  /** How many pages matched in all (before `limit`). */
  total: number;
  /** Pages per section among the matches (for the results page's filter). */
  sections: Record<string, number>;
}

interface Options {
  limit: number;
  /** Only pages of this menu group. */
  section?: string;
}

async function run(baseUrl: string, query: string, {section}: Options, counts = false) {
  const pagefind = await loadPagefind(baseUrl);
  // Pagefind counts pages per section only once its filter index is loaded (one small file).
  if (counts) await pagefind.filters();
  const found = await pagefind.search(query, section ? {filters: {section}} : undefined);
  return {
    results: found?.results ?? [],
    sections: {...(section ? found?.totalFilters : found?.filters)?.section},
  };
}

/** The pages' fragments (their text, headings and excerpts): 3 to 12 KB each. */
function details(results: PagefindResult[], limit: number): Promise<PagefindResultData[]> {
  return Promise.all(results.slice(0, limit).map((result) => result.data()));
}

export interface Suggestions extends SearchOutcome<Suggestion> {
  /** The same pages, each at its best-matching section with an excerpt (fetches fragments). */
  detailed(): Promise<Suggestion[]>;
}

/**
 * The header box. The pages come at once, named from the page list; their best sections and
 * excerpts follow from `detailed()`, which the box calls once the reader stops typing, so a word
 * typed letter by letter fetches the fragments of the final word's pages only.
 */
export async function suggest(
  baseUrl: string,
  query: string,
  options: Options,
): Promise<Suggestions> {
  const [{results, sections}, list] = await Promise.all([
    run(baseUrl, query, options),
    loadPageList(baseUrl),
  ]);
  const shown = results.slice(0, options.limit);
  const named = shown.map((result) => list.get(result.id));
  const items = named.every(Boolean)
    ? named.map((page) => ({
        url: withHighlight(page!.url, query),
        title: page!.title,
        section: page!.section,
        excerpt: '',
      }))
    : // A page list out of step with the index (a half-deployed build): ask the fragments.
      (await details(shown, options.limit)).map(toSuggestion);
  return {
    items,
    total: results.length,
    sections,
    detailed: async () => (await details(shown, options.limit)).map(toSuggestion),
  };
}

/** The results page: the best pages with up to three matching sections each. */
export async function searchPages(
  baseUrl: string,
  query: string,
  options: Options,
): Promise<SearchOutcome<PageResult>> {
  const {results, sections} = await run(baseUrl, query, options, true);
  return {
    items: (await details(results, options.limit)).map(toPageResult),
    total: results.length,
    sections,
  };
}

/**
 * The search itself, in its own chunk: loaded when the reader turns to the search box or opens
 * /search, never with a page.
 */
import {loadPageList, loadPagefind, type PagefindResult, type PagefindResultData} from './pagefind';
import {hasMatchedWords, readersOrder} from './ranking';
import {
  toPageResult,
  toSuggestion,
  withHighlight,
  type PageResult,
  type Suggestion,
} from './results';

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
  if (!counts) {
    const [found, list] = await Promise.all([
      pagefind.search(query, section ? {filters: {section}} : undefined),
      loadPageList(baseUrl),
    ]);
    const matched = (found?.results ?? []).filter(hasMatchedWords);
    return {results: readersOrder(matched, (result) => list.get(result.id), query), sections: {}};
  }
  // The results page counts pages per section among the real matches, then filters by section
  // itself (Pagefind's own counts include the wordless results).
  const [found, list] = await Promise.all([pagefind.search(query), loadPageList(baseUrl)]);
  const matched = readersOrder(
    (found?.results ?? []).filter(hasMatchedWords),
    (result) => list.get(result.id),
    query,
  );
  const sectionOf = (result: PagefindResult) => list.get(result.id)?.section ?? '';
  const sections: Record<string, number> = {};
  for (const result of matched) {
    const name = sectionOf(result);
    if (name) sections[name] = (sections[name] ?? 0) + 1;
  }
  return {
    results: section ? matched.filter((result) => sectionOf(result) === section) : matched,
    sections,
  };
}

/** The pages' fragments (their text, headings and excerpts): 3 to 12 KB each. */
function details(results: PagefindResult[], limit: number): Promise<PagefindResultData[]> {
  return Promise.all(results.slice(0, limit).map((result) => result.data()));
}

export interface Suggestions extends SearchOutcome<Suggestion> {
  /**
   * The suggestion at `index`, at its page's best-matching section with an excerpt (fetches that
   * page's fragment, 1 to 12 KB).
   */
  detailed(index: number): Promise<Suggestion>;
}

/**
 * The header box. The pages come at once, named from the page list; their best sections and
 * excerpts follow from `detailed()`, which the box calls once the reader stops typing, so a word
 * typed letter by letter fetches the fragments of the final word's pages only (and of the first
 * few of them, until the reader moves to the others: ./SearchBox.tsx).
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
    detailed: async (index) => toSuggestion(await shown[index].data()),
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

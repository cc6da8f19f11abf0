/**
 * The order of search results: everything that decides it, and nothing else. The relevance set
 * in tests/e2e/search.spec.ts (what a learner types, the page that must be among the first five
 * suggestions) is the measure: tune here, against that set, never the set.
 *
 * 1. Pagefind scores each page for the query with the weights of `ranking` (passed by
 *    ./pagefind.ts), over the index's weighting of titles and headings above body text.
 * 2. `hasMatchedWords` keeps the results that hold a word of the query (./engine.ts).
 * 3. `readersOrder` puts the guide pages before the API reference's entries, except the entry
 *    the query names (./engine.ts).
 * 4. Within a page, `rankedSubResults` orders its sections, best first: the suggestion's section
 *    and the results page's three (./results.ts).
 * 5. Before Pagefind has loaded, `titleOrder` ranks the page list's titles (./results.ts,
 *    `titleMatches`).
 */
import {apiSection} from '../../api-reference/packages';
import type {PagefindResult, PagefindSubResult, PagefindResultData} from './pagefind';

/**
 * Pagefind's ranking weights: its own defaults, written out so that a tuning shows here.
 * Pagefind already weighs the title and headings above body text (h1 7, h2 6, h3 5, text 1).
 * With these values the relevance set passes whole (81 of 81).
 */
export const ranking = {
  termFrequency: 1.0,
  pageLength: 0.75,
  termSaturation: 1.4,
  termSimilarity: 1.0,
} as const;

/**
 * Pagefind answers every query, and a query none of whose words occurs anywhere ("zzqxj") gets
 * pages whose match holds no word at all, ranked by length alone. Only results with matched words
 * count: a close typo ("interceptr") still matches its word, nonsense matches nothing.
 */
export function hasMatchedWords(result: Pick<PagefindResult, 'words'>): boolean {
  return result.words.length > 0;
}

/** What the page list says of a result (pages.json). */
interface Listed {
  readonly title: string;
  readonly section: string;
}

/** Whether `query` names the API entry `title`: the symbol's name starts with what was typed. */
function namesEntry(title: string, query: string): boolean {
  const typed = query.toLowerCase().replace(/[^a-z0-9_$]/g, '');
  return typed !== '' && title.toLowerCase().startsWith(typed);
}

/**
 * The order readers expect: the guide pages before the API reference's entries, except the entry
 * of the symbol the query names (`useguards`, `@UseGuards()`), which keeps its place. An entry is
 * short and Pagefind favours short records for any word they hold ("interceptr" found the
 * NestInterceptor entry before the Interceptors chapter); a reader who types a word looks for
 * its chapter, one who types a symbol for its entry. Otherwise Pagefind's order, unchanged.
 */
export function readersOrder<T>(
  results: readonly T[],
  listed: (result: T) => Listed | undefined,
  query: string,
): T[] {
  const first: T[] = [];
  const entries: T[] = [];
  for (const result of results) {
    const page = listed(result);
    if (page?.section === apiSection && !namesEntry(page.title, query)) entries.push(result);
    else first.push(result);
  }
  return [...first, ...entries];
}

/** How strongly a part of a page matched: the sum of its words' weighted scores. */
export function subResultScore(sub: PagefindSubResult): number {
  return sub.weighted_locations.reduce((sum, location) => sum + location.balanced_score, 0);
}

/** A page's parts that matched, best first (ties keep the page's order). */
export function rankedSubResults(data: PagefindResultData): PagefindSubResult[] {
  return data.sub_results
    .map((sub, position) => ({sub, position, score: subResultScore(sub)}))
    .sort((a, b) => b.score - a.score || a.position - b.position)
    .map(({sub}) => sub);
}

const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * The pages whose titles hold every word of the query, the last one as a prefix (the reader is
 * still typing it), best first: a title that starts with the query first, the API reference's
 * entries after the guides, then shorter titles. Empty when no title matches.
 */
export function titleOrder<Page extends {readonly title: string; readonly section: string}>(
  pages: Iterable<Page>,
  query: string,
  limit: number,
): Page[] {
  const typed = words(query);
  if (typed.length === 0) return [];
  const last = typed[typed.length - 1];
  const whole = typed.slice(0, -1);
  const found: {page: Page; rank: number}[] = [];
  for (const page of pages) {
    const title = words(page.title);
    if (!whole.every((word) => title.includes(word))) continue;
    if (!title.some((word) => word.startsWith(last))) continue;
    const rank =
      (page.title.toLowerCase().startsWith(typed.join(' ')) ? 0 : 1) +
      (page.section === apiSection ? 2 : 0);
    found.push({page, rank});
  }
  return found
    .sort(
      (a, b) =>
        a.rank - b.rank ||
        a.page.title.length - b.page.title.length ||
        // By code unit: the first localeCompare() of a page sets up ICU's collator (~20 ms).
        (a.page.title < b.page.title ? -1 : a.page.title > b.page.title ? 1 : 0),
    )
    .slice(0, limit)
    .map(({page}) => page);
}

/**
 * What the search box and the results page show of a Pagefind result: the page, its best
 * section, and an excerpt with the matched words marked.
 */
import {apiSection} from '../../api-reference/packages';
import {highlightParam, type PagefindResultData, type PagefindSubResult} from './pagefind';

export interface Suggestion {
  /** The page, or its section (`/pipes#binding-pipes`), with the searched words to highlight. */
  url: string;
  /** The page title. */
  title: string;
  /** The menu group ("Fundamentals"). */
  section: string;
  /** The section heading, when the best match is under one. */
  heading?: string;
  /** Plain text with the matched words wrapped in `<mark>` (Pagefind escapes the rest). */
  excerpt: string;
}

/**
 * Pagefind cuts excerpts to a number of words, mid-sentence: "…" says where text was left out
 * (at the end unless the excerpt ends a sentence, at the start unless it starts one).
 */
export function withEllipses(excerpt: string): string {
  const text = excerpt.replace(/<[^>]*>/g, '').trim();
  if (!text) return excerpt;
  const trimmed = excerpt.trim();
  const start = /^[\p{Lu}\p{N}`@'"(]/u.test(text) ? '' : '…';
  const end = /[.!?:)"'`]$/.test(text) ? '' : '…';
  return `${start}${trimmed}${end}`;
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

export function toSuggestion(data: PagefindResultData): Suggestion {
  const title = data.meta.title ?? data.url;
  const best = rankedSubResults(data)[0];
  const heading = best && best.anchor && best.title !== title ? best.title : undefined;
  return {
    url: best?.url ?? data.url,
    title,
    section: data.meta.section ?? '',
    ...(heading && {heading}),
    excerpt: withEllipses(best?.excerpt || data.excerpt),
  };
}

export interface PageResult {
  /** The page, with the searched words to highlight. */
  url: string;
  title: string;
  section: string;
  /** The excerpt of the page's opening text, when that is where it matches best (else empty). */
  excerpt: string;
  /** Its best-matching sections (up to three). */
  parts: {url: string; heading: string; excerpt: string}[];
}

export function toPageResult(data: PagefindResultData): PageResult {
  const title = data.meta.title ?? data.url;
  const ranked = rankedSubResults(data);
  const best = ranked[0];
  return {
    url: data.url,
    title,
    section: data.meta.section ?? '',
    // A best match under a heading shows as the first part, not twice.
    excerpt: withEllipses(
      !best ? data.excerpt : best.anchor && best.title !== title ? '' : best.excerpt,
    ),
    parts: ranked
      .filter((sub) => sub.anchor && sub.title !== title)
      .slice(0, 3)
      .map((sub) => ({url: sub.url, heading: sub.title, excerpt: withEllipses(sub.excerpt)})),
  };
}

/** The results page's address for a query (and, optionally, one section). */
export function searchPageUrl(baseUrl: string, query: string, section?: string): string {
  const params = new URLSearchParams({q: query});
  if (section) params.set('section', section);
  return `${baseUrl}search?${params.toString()}`;
}

/** A page URL that asks the page to mark the searched words (./highlight.ts). */
export function withHighlight(url: string, query: string): string {
  const [path, hash] = url.split('#', 2);
  const params = new URLSearchParams();
  for (const word of query.toLowerCase().split(/\s+/).filter(Boolean)) {
    params.append(highlightParam, word);
  }
  return `${path}?${params.toString()}${hash ? `#${hash}` : ''}`;
}

const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * The pages whose titles hold every word of the query, the last one as a prefix (the reader is
 * still typing it): a title that starts with the query first, then shorter titles. What the
 * search box shows before Pagefind has loaded; empty when no title matches.
 */
export function titleMatches(
  pages: Iterable<{url: string; title: string; section: string}>,
  query: string,
  limit: number,
): Suggestion[] {
  const typed = words(query);
  if (typed.length === 0) return [];
  const last = typed[typed.length - 1];
  const whole = typed.slice(0, -1);
  const found: {page: {url: string; title: string; section: string}; rank: number}[] = [];
  for (const page of pages) {
    const title = words(page.title);
    if (!whole.every((word) => title.includes(word))) continue;
    if (!title.some((word) => word.startsWith(last))) continue;
    // A title that starts with the query first; the API reference's entries after the guides.
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
    .map(({page}) => ({
      url: withHighlight(page.url, query),
      title: page.title,
      section: page.section,
      excerpt: '',
    }));
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

/**
 * What the search box and the results page show of a Pagefind result: the page, its best
 * section, and an excerpt with the matched words marked.
 */
import {highlightParam, type PagefindResultData} from './pagefind';
import {rankedSubResults, titleOrder} from './ranking';

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

/**
 * The suggestions the search box shows before Pagefind has loaded: the pages whose titles match
 * the query, in `titleOrder` (./ranking.ts).
 */
export function titleMatches(
  pages: Iterable<{url: string; title: string; section: string}>,
  query: string,
  limit: number,
): Suggestion[] {
  return titleOrder(pages, query, limit).map((page) => ({
    url: withHighlight(page.url, query),
    title: page.title,
    section: page.section,
    excerpt: '',
  }));
}

/**
 * What the search box and the results page show of a Pagefind result: the page, its best
 * section, and an excerpt with the matched words marked.
 */
import type {PagefindResultData, PagefindSubResult} from './pagefind';

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

/** What the 404 page and the notice share, and the notice's search queries (unit-tested). */

/** The state the 404 page leaves in the history entry it replaces itself with. */
export interface NotFoundState {
  notFound: string;
}

/** The search queries for an unknown path, most specific first. */
export function queriesFor(path: string): string[] {
  const segments = path
    .split(/[?#]/)[0]
    .split('/')
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    })
    .map((segment) =>
      segment
        .replace(/\.html?$/, '')
        .replace(/[-_.+]+/g, ' ')
        .trim(),
    )
    .filter(Boolean);
  if (segments.length === 0) return [];
  const last = segments[segments.length - 1];
  const all = segments.join(' ');
  return all === last ? [last] : [last, all];
}

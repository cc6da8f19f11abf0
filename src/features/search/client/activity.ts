/**
 * "The reader is searching": one signal for the work that must not compete with a search on a
 * slow connection. The search box reports the reader's focus and keys here; the idle-time
 * prefetching of linked pages (./prefetchHold.ts) waits while it holds, and the
 * offline worker (src/features/offline/client/register.ts) neither registers nor, once installing, fetches its files
 * (it is asked to yield: `NEST_YIELD`, src/features/offline/client/sw.js). Browser code, in the main bundle (a few
 * hundred bytes).
 */

/** Dispatched on `window` when the reader uses the search box (focus, a key). */
export const searchActivityEvent = 'nest-docs:search-activity';

/** How long after the reader's last key a search still counts as in use. */
export const searchGraceMs = 2000;

let lastActivity = Number.NEGATIVE_INFINITY;

/** Called by the search box on focus and on every key. */
export function noteSearchActivity(): void {
  lastActivity = performance.now();
  window.dispatchEvent(new Event(searchActivityEvent));
}

/**
 * Whether a search is in progress: the box has the focus, typing or not, or the reader typed in
 * it less than `searchGraceMs` ago (the suggestions' excerpts are still on their way then).
 */
export function searchInUse(now: number = performance.now()): boolean {
  return (
    !!document.activeElement?.closest('[data-search-box]') || now - lastActivity < searchGraceMs
  );
}

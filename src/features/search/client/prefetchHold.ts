/**
 * Nothing competes with a search: while the reader uses the search box (./activity.ts), the
 * prefetching of linked pages waits (Docusaurus' `Link`s that scroll into view, the static
 * article's links: both call `window.docusaurus.prefetch` at the time), and runs once the search
 * is over. On a phone-class link, route chunks still arriving for links in view shared the
 * connection with the search's index (`npm run bench`, search cold at 1.5 s and 4 s after load).
 * Preloading on hover or touch, which the reader asks for, is not held. Installed on the first
 * route render, before any link reports its visibility.
 */
import type {ClientModule} from '@docusaurus/types';
import {searchInUse} from './activity';

type Prefetch = (routePath: string) => false | Promise<void[]>;

/** How long the held prefetches wait before the search is asked about again. */
export const HOLD_CHECK_MS = 1000;

/**
 * `prefetch`, except that while `held()` calls are kept, in order, and made once it no longer
 * holds (looked at every `HOLD_CHECK_MS`, through `later`).
 */
export function heldWhileSearching(
  prefetch: Prefetch,
  held: () => boolean = searchInUse,
  later: (run: () => void, ms: number) => void = (run, ms) => void window.setTimeout(run, ms),
): Prefetch {
  const waiting: string[] = [];
  let scheduled = false;
  const drain = () => {
    if (held()) {
      later(drain, HOLD_CHECK_MS);
      return;
    }
    scheduled = false;
    for (const routePath of waiting.splice(0)) void prefetch(routePath);
  };
  return (routePath) => {
    if (waiting.length === 0 && !held()) return prefetch(routePath);
    waiting.push(routePath);
    if (!scheduled) {
      scheduled = true;
      later(drain, HOLD_CHECK_MS);
    }
    return Promise.resolve([]);
  };
}

let installed = false;

const clientModule: ClientModule = {
  onRouteDidUpdate() {
    if (installed) return;
    installed = true;
    // The object is frozen; callers read `window.docusaurus` on each call, so replace it.
    const original = window.docusaurus;
    window.docusaurus = {...original, prefetch: heldWhileSearching(original.prefetch)};
  },
};

export default clientModule;

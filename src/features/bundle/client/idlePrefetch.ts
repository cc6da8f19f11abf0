/**
 * Docusaurus prefetches the pages of every internal link that scrolls into view. Each
 * prefetch matches the route table and adds `<link rel="prefetch">` tags; with the menu,
 * the table of contents and the page's own links that is a few hundred milliseconds of
 * main-thread work on a phone, right while the page becomes interactive. This queues those prefetches and runs them in idle time, a few at a
 * time, so the page stays responsive; hover and touch (which preload at once) are
 * untouched. While the reader searches, the queue waits (src/features/search/client/activity.ts).
 * Installed on the first route render, before any link reports its visibility.
 * Links read `window.docusaurus.prefetch` at call time (@docusaurus/core Link), which is
 * what this relies on; tests/e2e/foundation.spec.ts checks that prefetching still happens.
 */
import type {ClientModule} from '@docusaurus/types';
import {searchInUse} from '../../search/client/activity';

type Prefetch = (routePath: string) => false | Promise<void[]>;

let installed = false;

/**
 * The longest stretch of prefetching in one idle callback, in milliseconds. An idle period can
 * last 50 ms, and the links in view make many prefetches (some 280 `<link>` tags on
 * /controllers at 412px: each route adds its chunks, shared ones again): unsliced, one idle
 * callback blocked the page for tens of milliseconds (PERFORMANCE.md, 2026-11-22).
 */
export const SLICE_MS = 8;

/** How long the queue waits before it looks again while the reader searches. */
export const SEARCH_WAIT_MS = 1000;

/**
 * Wraps `prefetch` so that calls are queued and run while the browser is idle, in slices of
 * at most `SLICE_MS` (by the clock `now`). While `held()` (the reader is searching: on a slow
 * connection the search's own files must not share it), nothing runs; the queue looks again
 * `SEARCH_WAIT_MS` later (through `later`).
 */
export function idleQueue(
  prefetch: Prefetch,
  idle: (run: (deadline: {timeRemaining: () => number}) => void) => void,
  now: () => number = () => performance.now(),
  held: () => boolean = () => false,
  later: (run: () => void, ms: number) => void = (run, ms) => void window.setTimeout(run, ms),
): Prefetch {
  const queue: string[] = [];
  let scheduled = false;
  const drain = (deadline: {timeRemaining: () => number}) => {
    if (held()) {
      later(() => idle(drain), SEARCH_WAIT_MS);
      return;
    }
    const start = now();
    while (queue.length > 0 && deadline.timeRemaining() > 4 && now() - start < SLICE_MS) {
      void prefetch(queue.shift() as string);
    }
    scheduled = queue.length > 0;
    if (scheduled) idle(drain);
  };
  return (routePath) => {
    queue.push(routePath);
    if (!scheduled) {
      scheduled = true;
      idle(drain);
    }
    return Promise.resolve([]);
  };
}

const clientModule: ClientModule = {
  onRouteDidUpdate() {
    if (installed || !('requestIdleCallback' in window)) return;
    installed = true;
    // The object is frozen; links read `window.docusaurus` on each call, so replace it.
    const original = window.docusaurus;
    window.docusaurus = {
      ...original,
      prefetch: idleQueue(
        original.prefetch,
        (run) => window.requestIdleCallback(run, {timeout: 5000}),
        undefined,
        searchInUse,
      ),
    };
  },
};

export default clientModule;

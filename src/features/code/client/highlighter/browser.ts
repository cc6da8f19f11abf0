/**
 * `@nest/code-highlighter` in the browser bundle: the highlighter as a lazy component,
 * in its own chunk (see ../../plugins/deferLibraries.ts).
 */
import {lazy} from 'react';

const preload = () => import('./Highlighted');

export default lazy(preload);

let armed = false;
const intents = ['pointerover', 'touchstart', 'keydown'] as const;

/**
 * Loads the highlighter once the reader first moves the pointer, touches or types, in
 * idle time, so that the blocks of the next page highlight at once. A reader who only
 * reads the page never downloads it. Safe to call many times.
 *
 * Not while the reader turns to the search box (`data-search-box`): its index loads then, and
 * on a slow connection the highlighter's 31 KB would delay the first suggestion. Nor when the
 * reader's first move is to the "New version available" prompt (`#pwa-popup-container`): the page
 * reloads then, and a request through the outgoing service worker while Chromium stops it to
 * activate the new one restarts it, which holds the new one back until the old one idles out
 * (~30 s).
 */
export function preloadOnIntent(): void {
  if (armed) return;
  armed = true;
  const start = (event: Event) => {
    if (
      event.target instanceof Element &&
      event.target.closest('[data-search-box], #pwa-popup-container')
    )
      return;
    for (const type of intents) window.removeEventListener(type, start, true);
    const idle =
      window.requestIdleCallback ?? ((callback: () => void) => setTimeout(callback, 200));
    idle(() => void preload());
  };
  for (const type of intents) window.addEventListener(type, start, {capture: true, passive: true});
}

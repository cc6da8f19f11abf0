/**
 * Registers the service worker (src/features/offline/client/sw.js) in idle time: our replacement for the
 * `swRegister` module of @docusaurus/plugin-pwa, which registers as soon as the main bundle
 * runs. Here the main bundle only carries this file (a few hundred bytes): once the page has
 * loaded (the bundles themselves are requested after the first paint, src/features/bundle/node/ssrTemplate.ts),
 * its requests have settled and the browser is idle, `./registration` (Workbox's window library,
 * the update prompt) is fetched as a chunk of its own and registers. Nothing of it is on the
 * critical path, nor competes with what the page loads.
 *
 * On a client-side navigation the page's HTML is never requested, so the worker is asked to
 * fetch and keep it: a page read this way opens offline too.
 */
import type {ClientModule} from '@docusaurus/types';
import ExecutionEnvironment from '@docusaurus/ExecutionEnvironment';
import {registrationDue} from '../logic';

function registerWhenQuiet(): void {
  // Not at the first idle moment after `load`: see `registrationDue`. The reader's input counts
  // as activity too, and so does a focused search box: a search loads its index then, and
  // installing the worker fetches ~70 KiB that a slow connection would carry in the same seconds.
  const loaded = performance.now();
  let count = performance.getEntriesByType('resource').length;
  let quietSince = loaded;
  let inputSince = loaded;
  const inputs = ['pointerdown', 'keydown', 'input'] as const;
  const active = () => {
    inputSince = performance.now();
  };
  for (const type of inputs) window.addEventListener(type, active, {capture: true, passive: true});
  const due = () => {
    const now = performance.now();
    const current = performance.getEntriesByType('resource').length;
    if (current !== count) {
      count = current;
      quietSince = now;
    }
    // A focused search box is a search in progress, typing or not.
    if (document.activeElement?.closest('[data-search-box]')) inputSince = now;
    return registrationDue(now - loaded, now - quietSince, undefined, now - inputSince);
  };
  const readerActive = () =>
    !!document.activeElement?.closest('[data-search-box]') || performance.now() - inputSince < 2000;
  const whenIdle = (callback: () => void) => {
    if ('requestIdleCallback' in window) window.requestIdleCallback(callback, {timeout: 10_000});
    else callback();
  };
  const register = () => {
    import('./registration')
      .then(({registerServiceWorker}) => {
        // The reader may have turned to search while this chunk was on its way: wait again.
        // (Only the reader counts here: the chunk's own request is not the page being busy.)
        if (readerActive()) {
          window.setTimeout(check, 1000);
          return undefined;
        }
        for (const type of inputs) window.removeEventListener(type, active, {capture: true});
        return registerServiceWorker();
      })
      // Offline reading is an extra: a browser that refuses workers (private modes, policies)
      // reads the site as before, with no error in its console.
      .catch((error: unknown) => console.debug('Offline reading unavailable:', error));
  };
  const check = () => {
    if (!due()) {
      window.setTimeout(check, 1000);
      return;
    }
    // Asked again once the browser is idle: the reader may have started something meanwhile.
    whenIdle(() => {
      if (!due()) {
        window.setTimeout(check, 1000);
        return;
      }
      register();
    });
  };
  window.setTimeout(check, 1000);
}

if (ExecutionEnvironment.canUseDOM && 'serviceWorker' in navigator) {
  if (document.readyState === 'complete') registerWhenQuiet();
  else window.addEventListener('load', registerWhenQuiet, {once: true});
}

const clientModule: ClientModule = {
  onRouteDidUpdate({location, previousLocation}) {
    if (!previousLocation || previousLocation.pathname === location.pathname) return;
    navigator.serviceWorker?.controller?.postMessage({
      type: 'NEST_SAVE',
      urls: [location.pathname],
    });
  },
};

export default clientModule;

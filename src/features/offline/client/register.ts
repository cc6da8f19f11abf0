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
import {searchActivityEvent, searchInUse} from '../../search/client/activity';
import {registrationDue, yieldEveryMs} from '../logic';
import {askToYield} from './yield';

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
    // A search in progress (the box focused, typing or not) is the reader's activity too.
    if (searchInUse(now)) inputSince = now;
    return registrationDue(now - loaded, now - quietSince, undefined, now - inputSince);
  };
  const readerActive = () => searchInUse() || performance.now() - inputSince < 2000;
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

/**
 * A worker that is installing (this page's first, or a new build's) when the reader searches
 * holds its downloads until the search is over (./sw.js). Asked again as the reader types
 * (a message that reaches the worker before its listener is attached is lost).
 */
function yieldInstallsToSearch(): void {
  let asked = Number.NEGATIVE_INFINITY;
  window.addEventListener(searchActivityEvent, () => {
    const now = performance.now();
    if (now - asked < yieldEveryMs) return;
    asked = now;
    navigator.serviceWorker
      .getRegistration()
      .then((registration) => askToYield(registration?.installing))
      .catch(() => undefined);
  });
}

if (ExecutionEnvironment.canUseDOM && 'serviceWorker' in navigator) {
  yieldInstallsToSearch();
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

/**
 * Registers the service worker (src/pwa/sw.js) in idle time: our replacement for the
 * `swRegister` module of @docusaurus/plugin-pwa, which registers as soon as the main bundle
 * runs. Here the main bundle only carries this file (a few hundred bytes): once the page has
 * loaded (the bundles themselves are requested after the first paint, src/node/ssrTemplate.ts)
 * and the browser is idle, `./registration` (Workbox's window library, the update prompt) is
 * fetched as a chunk of its own and registers. Nothing of it is on the critical path.
 *
 * On a client-side navigation the page's HTML is never requested, so the worker is asked to
 * fetch and keep it: a page read this way opens offline too.
 */
import type {ClientModule} from '@docusaurus/types';
import ExecutionEnvironment from '@docusaurus/ExecutionEnvironment';

function registerWhenIdle(): void {
  const register = () => {
    import('./registration')
      .then(({registerServiceWorker}) => registerServiceWorker())
      // Offline reading is an extra: a browser that refuses workers (private modes, policies)
      // reads the site as before, with no error in its console.
      .catch((error: unknown) => console.debug('Offline reading unavailable:', error));
  };
  const idle = () => {
    if ('requestIdleCallback' in window) window.requestIdleCallback(register, {timeout: 10_000});
    else setTimeout(register, 2000);
  };
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, {once: true});
}

if (ExecutionEnvironment.canUseDOM && 'serviceWorker' in navigator) {
  registerWhenIdle();
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

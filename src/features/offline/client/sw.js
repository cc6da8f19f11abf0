// Service-worker code (not type-checked): compiled by @docusaurus/plugin-pwa with Babel only.
/**
 * Our part of the service worker (`swCustom` of @docusaurus/plugin-pwa, imported by its sw.js
 * before it adds its own listeners). The plugin precaches the app shell (see `isShellFile` in
 * ../logic.js) and handles `SKIP_WAITING` (the "New version available — Reload" prompt); this
 * answers every same-origin GET, so the plugin's own fetch listener never runs:
 *
 * - pages: network first, with a 3 s patience when a cached copy exists; cached as read;
 *   offline with no copy: the offline page (src/features/offline/client/OfflinePage), its list of saved pages
 *   written in here;
 * - files named by content (`/assets/`, Pagefind's index): cache first, kept once fetched;
 * - other files (Pagefind's entry files, images, the manifest): network first, cached copy
 *   offline. Queries are ignored for the cache (`?ts=` of Pagefind, `?lang=` of pages).
 *
 * The "Save all docs" panel writes to the same cache itself; its requests carry `saveHeader`
 * and go straight to the network.
 */
import {cacheNames} from 'workbox-core';
import {
  cacheKey,
  fillOfflinePage,
  installPause,
  offlineLinks,
  offlineRoute,
  pageTitle,
  precachedFile,
  requestKind,
  runtimeCache,
  saveHeader,
  yieldGraceMs,
  yieldMessage,
} from '../logic';

/** How long a page may take from the network before its cached copy is shown instead. */
const patienceMs = 3000;

function isCacheable(response) {
  return response && response.ok && response.type === 'basic' && !response.redirected;
}

/** A precached file (the app shell), whatever its `__WB_REVISION__` query. */
async function fromPrecache(pathname) {
  const cache = await caches.open(cacheNames.precache);
  const url = new URL(precachedFile(pathname), self.location.origin).href;
  return cache.match(url, {ignoreSearch: true});
}

async function fromCache(url) {
  const cache = await caches.open(runtimeCache);
  const hit = await cache.match(cacheKey(url));
  return hit || fromPrecache(new URL(url).pathname);
}

async function store(url, response) {
  if (!isCacheable(response)) return;
  const cache = await caches.open(runtimeCache);
  await cache.put(cacheKey(url), response);
}

/** The saved pages, with their titles, for the offline page. */
async function savedPages() {
  const cache = await caches.open(runtimeCache);
  const pages = [];
  for (const request of await cache.keys()) {
    const {pathname} = new URL(request.url);
    if (requestKind(pathname, 'cors') !== 'page') continue;
    const response = await cache.match(request);
    const type = response?.headers.get('content-type') || '';
    if (!type.includes('text/html')) continue;
    pages.push({route: pathname, title: pageTitle(await response.text(), pathname)});
  }
  if (!pages.some(({route}) => route === '/') && (await fromPrecache('/'))) {
    const home = await fromPrecache('/');
    pages.push({route: '/', title: pageTitle(await home.text(), '/')});
  }
  return offlineLinks(pages);
}

async function offlinePage(pathname) {
  const page =
    (await caches
      .open(runtimeCache)
      .then((c) => c.match(cacheKey(new URL(offlineRoute, self.location.origin).href)))) ||
    (await fromPrecache(offlineRoute));
  if (!page) return Response.error();
  const html = fillOfflinePage(await page.text(), pathname, await savedPages());
  const headers = new Headers(page.headers);
  headers.delete('content-length');
  headers.set('cache-control', 'no-store');
  return new Response(html, {status: 503, statusText: 'Offline', headers});
}

async function networkFirst(event, url, page) {
  const network = fetch(event.request).then(async (response) => {
    await store(url, response.clone());
    return response;
  });
  const cached = fromCache(url);
  // A slow network: the cached copy after `patienceMs`, the network's answer still stored.
  const patience = new Promise((resolve) => {
    setTimeout(() => cached.then((hit) => hit && resolve(hit)), patienceMs);
  });
  event.waitUntil(network.catch(() => undefined));
  try {
    return await Promise.race([network, patience]);
  } catch {
    const hit = await cached;
    if (hit) return hit;
    if (page) return offlinePage(new URL(url).pathname);
    return Response.error();
  }
}

async function cacheFirst(event, url) {
  const hit = await fromCache(url);
  if (hit) return hit;
  const response = await fetch(event.request);
  event.waitUntil(store(url, response.clone()));
  return response;
}

/**
 * Fetches and stores what a page asks for (`NEST_SAVE`): the HTML of a page read through a
 * client-side navigation (never requested as a document), and on the first visit, the page and
 * files loaded before this worker existed (the browser's HTTP cache answers most).
 */
async function saveUrls(urls) {
  for (const href of urls) {
    const url = new URL(href, self.location.origin);
    if (url.origin !== self.location.origin) continue;
    if (requestKind(url.pathname, 'cors') === 'bypass') continue;
    if (await fromCache(url.href)) continue;
    try {
      await store(url.href, await fetch(url.href, {credentials: 'same-origin'}));
    } catch {
      // Offline or gone: it is fetched again the next time it is read.
    }
  }
}

/**
 * While installing, the worker's fetches (plugin-pwa's precache, one file at a time) wait as long
 * as a search in the page asks it to yield (`yieldMessage`, see `installPause` in ../logic.js): on
 * a slow connection the app shell would otherwise share it with the search's index.
 * workbox-precaching calls the global `fetch`, replaced here before the plugin adds its install
 * listener. Only while installing: the first install (no active worker yet), or a new build's
 * worker (`self.serviceWorker.state`, where the browser has it); an active worker restarted by
 * the browser never waits.
 */
function yieldingInstall() {
  const installing = () => !self.registration.active || self.serviceWorker?.state === 'installing';
  let until = Date.now() + yieldGraceMs;
  let waited = 0;
  const networkFetch = self.fetch.bind(self);
  self.fetch = async (input, init) => {
    if (installing()) {
      let pause = installPause(Date.now(), until, waited);
      while (pause > 0) {
        waited += pause;
        await new Promise((resolve) => setTimeout(resolve, pause));
        pause = installPause(Date.now(), until, waited);
      }
    }
    return networkFetch(input, init);
  };
  self.addEventListener('message', (event) => {
    if (event.data?.type === yieldMessage && typeof event.data.ms === 'number') {
      until = Math.max(until, Date.now() + Math.min(event.data.ms, 10_000));
    }
  });
}

export default function offlineWorker() {
  yieldingInstall();
  self.addEventListener('fetch', (event) => {
    const {request} = event;
    if (request.method !== 'GET' || request.headers.has(saveHeader)) return;
    const url = new URL(request.url);
    if (url.origin !== self.location.origin) return;
    const kind = requestKind(url.pathname, request.mode);
    if (kind === 'bypass') return;
    // Ours alone: the plugin's listener (added after this one) would answer precached files.
    event.stopImmediatePropagation();
    event.respondWith(
      kind === 'immutable'
        ? cacheFirst(event, request.url)
        : networkFirst(event, request.url, kind === 'page'),
    );
  });

  self.addEventListener('message', (event) => {
    // "Reload" in the update prompt (plugin-pwa's listener does the same, once it is added).
    if (event.data?.type === 'SKIP_WAITING') self.skipWaiting();
    if (event.data?.type === 'NEST_SAVE' && Array.isArray(event.data.urls)) {
      event.waitUntil(saveUrls(event.data.urls.filter((url) => typeof url === 'string')));
    }
  });

  self.addEventListener('activate', (event) => {
    // Control the pages open since the first install at once (no reload needed to read offline).
    event.waitUntil(self.clients.claim());
  });
}

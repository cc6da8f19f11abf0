// @ts-check
/**
 * Offline reading: the pure rules shared by the service worker (src/features/offline/client/sw.js, compiled by
 * @docusaurus/plugin-pwa with Babel only, hence plain JavaScript), the "Save all docs" panel
 * (src/features/offline/client/OfflineSave), the build step that lists what to save (src/features/offline/node/step.ts)
 * and the unit tests (src/features/offline/offline.test.ts). No browser or Node API in here.
 */
import {escapeHtml} from '../../data/html';

/** The cache of everything read or saved at run time (pages, bundles, images, search). */
export const runtimeCache = 'nest-docs-offline-v1';
/** The page shown for a page that was never saved, served by the worker (src/features/offline/client/OfflinePage). */
export const offlineRoute = '/offline';
/** The build-time list of what "Save all docs" fetches (written by src/features/offline/node/step.ts). */
export const saveListPath = '/offline.json';
/** Requests of the "Save all docs" panel carry this header: the worker lets them through. */
export const saveHeader = 'x-nest-offline-save';
/** localStorage key of the last completed save (`SavedState`). */
export const savedStateKey = 'nest-docs.offline-saved';

/**
 * How the worker answers a same-origin GET:
 * - `page`: an HTML page: network first (the newest build), the cached copy when the network
 *   fails or is slow, the offline page when there is none.
 * - `immutable`: a file named by its content (`/assets/`, Pagefind's index, fragments, filters,
 *   metadata): from the cache when present, else fetched once and kept.
 * - `revalidate`: any other file (Pagefind's entry files, images, the manifest): network first,
 *   the cached copy offline.
 * - `bypass`: left to the browser (the worker script, the save list's own requests).
 *
 * @param {string} pathname
 * @param {string} mode the request's `mode` (`navigate` for a page load)
 * @returns {'page' | 'immutable' | 'revalidate' | 'bypass'}
 */
export function requestKind(pathname, mode) {
  if (pathname === '/sw.js' || pathname === saveListPath) return 'bypass';
  if (mode === 'navigate') return 'page';
  if (pathname.startsWith('/assets/')) return 'immutable';
  if (/^\/pagefind\/((index|fragment|filter)\/|pagefind\.[^/]+\.pf_meta$)/.test(pathname)) {
    return 'immutable';
  }
  // Pages have no extension (`trailingSlash: false`), files always do.
  if (!/\.[a-z0-9]+$/i.test(pathname)) return 'page';
  return 'revalidate';
}

/**
 * The key a response is cached under: the URL without its query and fragment. Pagefind asks
 * for its entry files with a `?ts=` cache-buster, pages come with `?lang=` or `?highlight=`;
 * none changes the file served. A trailing slash is dropped (`trailingSlash: false`).
 *
 * @param {string} url an absolute URL
 * @returns {string}
 */
export function cacheKey(url) {
  const parsed = new URL(url);
  const path = parsed.pathname.length > 1 ? parsed.pathname.replace(/\/+$/, '') : parsed.pathname;
  return `${parsed.origin}${path}`;
}

/**
 * The built file a route is precached as (plugin-pwa precaches files: `/` is `/index.html`,
 * `/offline` is `/offline.html`), for a lookup in the precache.
 *
 * @param {string} pathname
 * @returns {string}
 */
export function precachedFile(pathname) {
  if (pathname === '/') return '/index.html';
  return /\.[a-z0-9]+$/i.test(pathname) ? pathname : `${pathname}.html`;
}

/**
 * Which built files the service worker precaches, out of everything plugin-pwa globs: the app
 * shell only (the home page, the offline page, the style sheet, the runtime and main bundles,
 * the fonts, the manifest, the logo). Pages, route chunks, images and search are cached as the
 * reader opens them, or all at once by "Save all docs". Not the manifest's PNG icons (42 KB):
 * reading offline does not need them, and the browser fetches them itself when it offers to
 * install the site; every byte of the install competes with a reader's first search.
 *
 * @param {string} file a path relative to the build directory (`assets/js/main.1a2b.js`)
 * @returns {boolean}
 */
export function isShellFile(file) {
  return (
    file === 'index.html' ||
    file === 'offline.html' ||
    file === 'manifest.json' ||
    /^assets\/css\/[^/]+\.css$/.test(file) ||
    /^assets\/js\/(runtime~main|main)\.[0-9a-f]+\.js$/.test(file) ||
    /^assets\/fonts\/[^/]+\.woff2$/.test(file) ||
    /^img\/(logo|favicon)\.svg$/.test(file)
  );
}

/**
 * The routes "Save all docs" fetches, out of the site's routes: every page but the 404 page,
 * the offline page (precached) and `/consulting` (it sends the reader to another site).
 *
 * @param {readonly string[]} routes
 * @returns {string[]}
 */
export function pagesToSave(routes) {
  const skip = new Set(['/404.html', offlineRoute, '/consulting']);
  return [...new Set(routes)].filter((route) => !skip.has(route) && !route.includes('*')).sort();
}

/**
 * The files "Save all docs" fetches besides the pages, out of the build's files (paths relative
 * to the build directory, `/`-separated): the bundles, style sheets and fonts under `assets/`,
 * the images, and the search index Pagefind reads (not its UI kits or worker, which the site
 * does not use).
 *
 * @param {readonly string[]} files
 * @returns {string[]}
 */
export function filesToSave(files) {
  return files
    .filter(
      (file) =>
        /^assets\//.test(file) ||
        /^img\/.+\.(svg|png|jpe?g|gif|webp|avif)$/.test(file) ||
        (/^pagefind\//.test(file) &&
          !/^pagefind\/(pagefind-(ui|modular-ui|component-ui|worker)\.(js|css))$/.test(file)),
    )
    .map((file) => `/${file}`)
    .sort();
}

/**
 * @typedef {{pages: string[], files: string[], bytes?: number}} SaveList
 * @typedef {{savedAt: number, bytes: number, pages: number, build: string}} SavedState
 */

/**
 * Every URL "Save all docs" stores, pages first (the reader can read them while the rest
 * arrives), then the files.
 *
 * @param {SaveList} list
 * @returns {string[]}
 */
export function urlsToSave(list) {
  return [...list.pages, ...list.files];
}

/**
 * A size for people: `812 KB`, `19.6 MB` (decimal units, as the browsers' site settings show).
 *
 * @param {number} bytes
 * @returns {string}
 */
export function formatBytes(bytes) {
  if (!Number.isFinite(bytes) || bytes < 0) return '0 KB';
  if (bytes === 0) return '0 KB';
  if (bytes < 1_000_000) return `${Math.max(1, Math.round(bytes / 1000))} KB`;
  const mb = bytes / 1_000_000;
  return `${mb < 10 ? mb.toFixed(1) : Math.round(mb)} MB`;
}

/**
 * The title of a page from its HTML (`<title>Controllers | NestJS - ...</title>` gives
 * `Controllers`), or its route when it has none.
 *
 * @param {string} html
 * @param {string} route
 * @returns {string}
 */
export function pageTitle(html, route) {
  const match = /<title[^>]*>([^<]*)<\/title>/i.exec(html);
  const title = (match?.[1] ?? '')
    .split(' | ')[0]
    ?.replace(/&amp;/g, '&')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .trim();
  return title || route;
}

/**
 * The offline page's list of saved pages: the cached page routes with their titles, the home
 * page first, then by title; never the offline page itself or a file.
 *
 * @param {readonly {route: string, title: string}[]} pages
 * @returns {{route: string, title: string}[]}
 */
export function offlineLinks(pages) {
  const seen = new Set();
  return pages
    .filter(({route}) => {
      if (route === offlineRoute || /\.[a-z0-9]+$/i.test(route) || seen.has(route)) return false;
      seen.add(route);
      return true;
    })
    .sort((a, b) =>
      a.route === '/' ? -1 : b.route === '/' ? 1 : a.title.localeCompare(b.title, 'en'),
    );
}

/**
 * The `<li>` items of that list, as HTML (the worker writes them into the cached offline page).
 *
 * @param {readonly {route: string, title: string}[]} links
 * @returns {string}
 */
export function renderLinks(links) {
  return links
    .map(({route, title}) => `<li><a href="${escapeHtml(route)}">${escapeHtml(title)}</a></li>`)
    .join('');
}

/** The empty list in the offline page's HTML (src/features/offline/client/OfflinePage; minified: quotes vary). */
const listPattern = /(<ul[^>]*\sdata-offline-links(?:=["']?true["']?)?[^>]*>)(<\/ul>)/;
/** The placeholder for the address the reader asked for. */
const pathPattern = /(<code[^>]*\sdata-offline-path(?:=["']?true["']?)?[^>]*>)[^<]*(<\/code>)/;

/**
 * The offline page's HTML for a request of `pathname`, with the list of saved pages filled in,
 * and without the inline script that loads the bundles (src/features/bundle/node/ssrTemplate.ts): React would
 * route the page by its address, the unsaved page, whose chunks are not cached either, and
 * show "This page crashed". Served as plain HTML, styled by the cached style sheet; removing a
 * script keeps the Content-Security-Policy's hashes valid.
 *
 * @param {string} html the offline page as built
 * @param {string} pathname what the reader asked for
 * @param {readonly {route: string, title: string}[]} links
 * @returns {string}
 */
export function fillOfflinePage(html, pathname, links) {
  return html
    .replace(/<script>((?:(?!<\/script>)[\s\S])*)<\/script>/g, (script, body) =>
      body.includes('__bundles') ? '' : script,
    )
    .replace(listPattern, (_, open, close) => `${open}${renderLinks(links)}${close}`)
    .replace(pathPattern, (_, open, close) => `${open}${escapeHtml(pathname)}${close}`);
}

/**
 * When the page registers the worker (src/features/offline/client/register.ts): once it has loaded at least
 * `earliest` ms ago and neither the page requested anything (the idle prefetches of linked pages,
 * images) nor the reader tapped, typed or used the search box for `quiet` ms. A page whose
 * requests never settle (a third-party script polling) still registers `latest` ms after `load`,
 * but never while the reader is active: the reader's input always holds it back. Installing the
 * worker fetches the app shell again and starts a thread, which would compete with what the page
 * still loads, and with a search (its index chunks and fragments) on a slow connection.
 *
 * @param {number} sinceLoad ms since the `load` event
 * @param {number} quietFor ms since the page's last new request (or since `load`)
 * @param {{earliest: number, quiet: number, latest: number}} [limits]
 * @param {number} [inputQuietFor] ms since the reader's last input or search (default `quietFor`)
 * @returns {boolean}
 */
export function registrationDue(
  sinceLoad,
  quietFor,
  limits = {earliest: 3000, quiet: 2000, latest: 20_000},
  inputQuietFor = quietFor,
) {
  if (sinceLoad < limits.earliest || inputQuietFor < limits.quiet) return false;
  return quietFor >= limits.quiet || sinceLoad >= limits.latest;
}

/**
 * A search in the page asks an installing worker to hold its file fetches: the page sends
 * `{type: yieldMessage, ms}` as the reader focuses the box and types (src/features/offline/client/register.ts, at
 * most every `yieldEveryMs`), and the install fetches nothing more until `ms` after the last one
 * (the file in flight finishes). The worker's listener is attached with our code, a moment after
 * its script starts, so its first fetch waits `yieldGraceMs` for a message that may be on its
 * way. At most `yieldCapMs` in all per install, so an install always ends.
 */
export const yieldMessage = 'NEST_YIELD';
export const yieldMs = 3000;
export const yieldEveryMs = 250;
export const yieldGraceMs = 500;
export const yieldCapMs = 30_000;

/**
 * How long an installing worker waits before its next fetch.
 *
 * @param {number} now
 * @param {number} until the end of the last yield asked for, or of the grace period
 * @param {number} waited how long this install has waited so far
 * @param {number} [cap]
 * @returns {number} milliseconds (0: fetch now)
 */
export function installPause(now, until, waited, cap = yieldCapMs) {
  if (now >= until || waited >= cap) return 0;
  return Math.min(until - now, cap - waited);
}

/**
 * Offline reading's pure rules (src/features/offline/logic.js): what the worker does with each request,
 * what it precaches, what "Save all docs" fetches, the offline page's list, sizes; and the
 * hosting of the worker's files (src/features/hosting/node/hosting.ts).
 */
import {describe, expect, it} from 'vitest';
import {
  cacheKey,
  filesToSave,
  fillOfflinePage,
  formatBytes,
  installPause,
  isShellFile,
  offlineLinks,
  pageTitle,
  pagesToSave,
  precachedFile,
  registrationDue,
  requestKind,
  urlsToSave,
  yieldCapMs,
} from './logic';
import {
  cachingRules,
  contentSecurityPolicy,
  offlineFiles,
  renderHtaccess,
  hostingModel,
} from '../hosting/node/hosting';

describe('installPause (an installing worker yields to a search)', () => {
  it('fetches at once when no search asked it to wait', () => {
    expect(installPause(1000, 0, 0)).toBe(0);
  });
  it('waits until the yield asked for is over', () => {
    expect(installPause(1000, 4000, 0)).toBe(3000);
    expect(installPause(4000, 4000, 3000)).toBe(0);
  });
  it('never waits more than the cap in one install, so it always ends', () => {
    expect(installPause(1000, 100_000, yieldCapMs - 500)).toBe(500);
    expect(installPause(1000, 100_000, yieldCapMs)).toBe(0);
  });
});

describe('registrationDue', () => {
  it('waits until the page has loaded a while and requested nothing for a while', () => {
    expect(registrationDue(1000, 1000)).toBe(false);
    // Quiet, but too soon after load.
    expect(registrationDue(2000, 2000)).toBe(false);
    expect(registrationDue(3000, 2000)).toBe(true);
    // Still loading (a request 1.5 s ago).
    expect(registrationDue(8000, 1500)).toBe(false);
    expect(registrationDue(8000, 2000)).toBe(true);
  });

  it('registers at the latest 20 s after load while requests go on, but never while the reader is active', () => {
    const limits = {earliest: 3000, quiet: 2000, latest: 20_000};
    expect(registrationDue(19_999, 0)).toBe(false);
    expect(registrationDue(20_000, 0, limits, 5000)).toBe(true);
    // A reader typing in the search box (input 500 ms ago) holds it back, even late.
    expect(registrationDue(20_000, 0, limits, 500)).toBe(false);
    expect(registrationDue(8000, 5000, limits, 1500)).toBe(false);
    expect(registrationDue(8000, 5000, limits, 2000)).toBe(true);
  });
});

describe('requestKind', () => {
  it('answers pages network first, content-named files from the cache', () => {
    expect(requestKind('/controllers', 'navigate')).toBe('page');
    expect(requestKind('/techniques/caching', 'cors')).toBe('page');
    expect(requestKind('/', 'same-origin')).toBe('page');
    expect(requestKind('/assets/js/main.1a2b3c4d.js', 'no-cors')).toBe('immutable');
    expect(requestKind('/assets/fonts/a.woff2', 'cors')).toBe('immutable');
    expect(requestKind('/pagefind/index/en_1a2b.pf_index', 'cors')).toBe('immutable');
    expect(requestKind('/pagefind/fragment/en_1a2b.pf_fragment', 'cors')).toBe('immutable');
    expect(requestKind('/pagefind/pagefind.en_24b16eb208.pf_meta', 'cors')).toBe('immutable');
    expect(requestKind('/pagefind/pagefind.js', 'cors')).toBe('revalidate');
    expect(requestKind('/pagefind/pagefind-entry.json', 'cors')).toBe('revalidate');
    expect(requestKind('/img/logo.svg', 'no-cors')).toBe('revalidate');
  });

  it('leaves the worker script and the save list to the browser', () => {
    expect(requestKind('/sw.js', 'same-origin')).toBe('bypass');
    expect(requestKind('/offline.json', 'cors')).toBe('bypass');
  });
});

describe('cacheKey', () => {
  it("ignores the query (Pagefind's ?ts= cache-buster, ?lang=) and the fragment", () => {
    expect(cacheKey('https://docs.nestjs.com/pagefind/pagefind-entry.json?ts=1700000000')).toBe(
      'https://docs.nestjs.com/pagefind/pagefind-entry.json',
    );
    expect(cacheKey('https://docs.nestjs.com/pipes?lang=js#binding-pipes')).toBe(
      'https://docs.nestjs.com/pipes',
    );
    expect(cacheKey('https://docs.nestjs.com/pipes/')).toBe('https://docs.nestjs.com/pipes');
    expect(cacheKey('https://docs.nestjs.com/')).toBe('https://docs.nestjs.com/');
  });

  it('maps routes to the precached files', () => {
    expect(precachedFile('/')).toBe('/index.html');
    expect(precachedFile('/offline')).toBe('/offline.html');
    expect(precachedFile('/manifest.json')).toBe('/manifest.json');
  });
});

describe('the precached app shell', () => {
  it('keeps the home and offline pages, the CSS, the runtime and main bundles, fonts, logo', () => {
    const shell = [
      'index.html',
      'offline.html',
      'manifest.json',
      'assets/css/styles.c47a7658.css',
      'assets/js/runtime~main.e75afb55.js',
      'assets/js/main.ef7c47f8.js',
      'assets/fonts/source-sans-3-latin-400-normal-5e0fb0b88bcf03ab466ca8120097aae6.woff2',
      'img/logo.svg',
      'img/favicon.svg',
    ];
    for (const file of shell) expect(isShellFile(file), file).toBe(true);
    // The manifest's icons are for installing the site, not for reading offline.
    expect(isShellFile('img/icons/icon-192.png')).toBe(false);
  });

  it('leaves out pages, route chunks, images and search', () => {
    const rest = [
      'controllers.html',
      'techniques/caching.html',
      '404.html',
      'assets/js/17896441.2f9a1b3c.js',
      'img/overview/pipe.png',
      'pagefind/pagefind.js',
      'sitemap.xml',
    ];
    for (const file of rest) expect(isShellFile(file), file).toBe(false);
  });
});

describe('what "Save all docs" fetches', () => {
  it('every page but the 404 page, the offline page and /consulting', () => {
    expect(
      pagesToSave([
        '/',
        '/pipes',
        '/404.html',
        '/offline',
        '/consulting',
        '/controllers',
        '/pipes',
      ]),
    ).toEqual(['/', '/controllers', '/pipes']);
  });

  it('bundles, images and the search index, not the Pagefind UI kits or other files', () => {
    const files = [
      'assets/js/main.ef7c47f8.js',
      'assets/css/styles.c47a7658.css',
      'img/overview/pipe.png',
      'pagefind/pagefind.js',
      'pagefind/pagefind-entry.json',
      'pagefind/wasm.en.pagefind',
      'pagefind/index/en_1.pf_index',
      'pagefind/pagefind-ui.js',
      'pagefind/pagefind-worker.js',
      'pagefind/pagefind-modular-ui.css',
      'controllers.html',
      'controllers.md',
      'sitemap.xml',
      'sw.js',
    ];
    expect(filesToSave(files)).toEqual([
      '/assets/css/styles.c47a7658.css',
      '/assets/js/main.ef7c47f8.js',
      '/img/overview/pipe.png',
      '/pagefind/index/en_1.pf_index',
      '/pagefind/pagefind-entry.json',
      '/pagefind/pagefind.js',
      '/pagefind/wasm.en.pagefind',
    ]);
    expect(urlsToSave({pages: ['/', '/pipes'], files: ['/assets/x.js']})).toEqual([
      '/',
      '/pipes',
      '/assets/x.js',
    ]);
  });
});

describe('formatBytes', () => {
  it('says KB under a megabyte, MB with one decimal under ten', () => {
    expect(formatBytes(0)).toBe('0 KB');
    expect(formatBytes(300)).toBe('1 KB');
    expect(formatBytes(812_400)).toBe('812 KB');
    expect(formatBytes(1_250_000)).toBe('1.3 MB');
    expect(formatBytes(19_640_000)).toBe('20 MB');
    expect(formatBytes(Number.NaN)).toBe('0 KB');
  });
});

describe('the offline page', () => {
  it('reads page titles', () => {
    expect(pageTitle('<title>Controllers | NestJS - A progressive</title>', '/controllers')).toBe(
      'Controllers',
    );
    expect(pageTitle('<title>Guards &amp; roles | NestJS</title>', '/x')).toBe('Guards & roles');
    expect(pageTitle('<p>no title</p>', '/pipes')).toBe('/pipes');
  });

  it('lists the saved pages, home first, then by title, never itself or a file', () => {
    expect(
      offlineLinks([
        {route: '/pipes', title: 'Pipes'},
        {route: '/offline', title: 'Offline'},
        {route: '/controllers', title: 'Controllers'},
        {route: '/', title: 'Introduction'},
        {route: '/manifest.json', title: 'x'},
        {route: '/pipes', title: 'Pipes'},
      ]),
    ).toEqual([
      {route: '/', title: 'Introduction'},
      {route: '/controllers', title: 'Controllers'},
      {route: '/pipes', title: 'Pipes'},
    ]);
  });

  it('fills the built page: the links, the address, no bundle loader', () => {
    // As the minifier writes it (unquoted attributes).
    const html =
      '<head><script>!function(){var t="nest-docs.code-lang"}()</script></head><body>' +
      '<p>You are offline, and <code data-offline-path=true>This page</code> was never opened' +
      '</p><ul class=links_j88N data-offline-links=true></ul>' +
      '<script>!function(e,t,n){n.__bundles="waiting"}(["/assets/js/main.js"],document,window)' +
      '</script></body>';
    const filled = fillOfflinePage(html, '/pipes<x>', [
      {route: '/', title: 'Introduction'},
      {route: '/controllers', title: 'Controllers & co'},
    ]);
    expect(filled).toContain('<code data-offline-path=true>/pipes&lt;x&gt;</code>');
    expect(filled).toContain(
      '<ul class=links_j88N data-offline-links=true><li><a href="/">Introduction</a></li>' +
        '<li><a href="/controllers">Controllers &amp; co</a></li></ul>',
    );
    expect(filled).not.toContain('__bundles');
    expect(filled).toContain('nest-docs.code-lang');
    // As React writes it in development (quoted).
    expect(fillOfflinePage('<ul data-offline-links="true"></ul>', '/', [])).toBe(
      '<ul data-offline-links="true"></ul>',
    );
  });
});

describe('hosting the worker', () => {
  it('revalidates the worker, its chunk, the manifest and the save list', () => {
    const rules = cachingRules(['/', '/offline', '/controllers', '/techniques/caching']);
    for (const file of offlineFiles) {
      expect(rules.find((rule) => rule.path === file)?.headers['Cache-Control']).toBe('no-cache');
    }
    const htaccess = renderHtaccess(
      hostingModel({
        features: {ads: false, pagefind: true},
        hashes: {scripts: [], styles: [], styleAttributes: []},
        redirects: [],
        enterpriseUrl: 'https://enterprise.nestjs.com',
        htmlRoutes: ['/'],
      }),
    );
    const rule = /m#(\^\/\(\(\[\^\/\]\+\\\.\)\?sw[^#]+)#/.exec(htaccess)?.[1] ?? '';
    const pattern = new RegExp(rule);
    for (const path of ['/sw.js', '/550.sw.js', '/manifest.json', '/offline.json']) {
      expect(pattern.test(path), path).toBe(true);
    }
    expect(pattern.test('/assets/js/main.js')).toBe(false);
  });

  it('allows a worker and a manifest from the site only', () => {
    const csp = contentSecurityPolicy(
      {ads: false, pagefind: true},
      {scripts: [], styles: [], styleAttributes: []},
    );
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("manifest-src 'self'");
  });
});

describe('the size "Save all docs" announces', () => {
  it('adds up the pages (route.html or route/index.html) and the files on disk', async () => {
    const {mkdtempSync, mkdirSync, writeFileSync} = await import('node:fs');
    const {tmpdir} = await import('node:os');
    const {join} = await import('node:path');
    const {saveListBytes} = await import('./node/step');
    const dir = mkdtempSync(join(tmpdir(), 'offline-bytes-'));
    writeFileSync(join(dir, 'index.html'), 'x'.repeat(10));
    writeFileSync(join(dir, 'pipes.html'), 'x'.repeat(20));
    mkdirSync(join(dir, 'faq'));
    writeFileSync(join(dir, 'faq', 'index.html'), 'x'.repeat(40));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'assets', 'a b.js'), 'x'.repeat(5));
    expect(await saveListBytes(dir, ['/', '/pipes', '/faq', '/gone'], ['/assets/a%20b.js'])).toBe(
      75,
    );
  });
});

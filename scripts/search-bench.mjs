// @ts-check
/**
 * Search cold, for `npm run bench` (scripts/bench.mjs): on a phone-class connection (150 ms round
 * trip, 1.6 Mbit/s down, 750 kbit/s up, 4x CPU slowdown, Lighthouse's mobile figures) with a cold
 * cache, a reader on /controllers taps the header search box and types a query, letter by letter.
 *
 * When: `atMs` after the page's `load` event (a reader who searches while the page still
 * settles: 1.5 s, 4 s; or long after: 15 s), or, without `atMs`, once the page's own requests
 * have been quiet for 3.5 s.
 *
 * - `firstMs`: from the first keystroke to the first visible suggestion.
 * - `wordMs`: from the last keystroke to the suggestions of the whole query (the list says which
 *   query it answers: `data-search-query`).
 * - `settledMs`: from the last keystroke to those suggestions with their excerpts.
 * - `firstKiB`, `settledKiB`: what the server sent (gzip, as written to the socket, so every request
 *   made in that time counts, the search's and anything else's) from the tap until the first
 *   suggestion, and until the settled ones. Of `settledKiB`, `searchKiB` is the search's own
 *   (Pagefind's script, WebAssembly, index chunks and fragments, the page list) and `otherKiB` the
 *   rest: the page's own prefetches still on their way, an offline worker's script or install.
 *
 * `leadMs` is the time between the tap (which starts loading the search) and the first key: on a
 * phone, the on-screen keyboard takes about that long to open. Both figures are printed for a lead
 * of 0 too (the box focused and the key pressed at the same instant), the worst case.
 */
import {chromium} from '@playwright/test';
import {chromePath, chromiumArgs} from './chromium.mjs';

export const network = {latencyMs: 150, downloadKbps: 1600, uploadKbps: 750, cpuSlowdown: 4};

/**
 * @typedef {{bytes: number, urls: string[], sizes: Map<string, number>}} ByteCounter what the
 *   server wrote since the last reset, in all and per URL
 * @param {string} origin
 * @param {ByteCounter} counter
 * @param {{query: string, leadMs: number, atMs?: number, keyMs?: number}} options
 */
export async function searchCold(origin, counter, {query, leadMs, atMs, keyMs = 120}) {
  const browser = await chromium.launch({executablePath: chromePath, args: chromiumArgs});
  try {
    const context = await browser.newContext({
      viewport: {width: 412, height: 823},
      deviceScaleFactor: 1.75,
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', {cacheDisabled: false});
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: network.latencyMs,
      downloadThroughput: (network.downloadKbps * 1000) / 8,
      uploadThroughput: (network.uploadKbps * 1000) / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', {rate: network.cpuSlowdown});
    const box = page.locator('nav.navbar input#search');
    if (atMs === undefined) {
      await page.goto(`${origin}/controllers`, {waitUntil: 'networkidle'});
      // Hydrated (Docusaurus marks the root element).
      await page.locator('html[data-has-hydrated="true"]').waitFor({state: 'attached'});
      // Wait until the page's own requests are over: the idle prefetching of linked pages, then
      // the offline worker's install, which registers after 2 s without a request.
      let seen = -1;
      while (seen !== counter.urls.length) {
        seen = counter.urls.length;
        await page.waitForTimeout(3500);
      }
    } else {
      await page.goto(`${origin}/controllers`, {waitUntil: 'load'});
      const sinceLoad = await page.evaluate(() => {
        const [navigation] = /** @type {PerformanceNavigationTiming[]} */ (
          performance.getEntriesByType('navigation')
        );
        return performance.now() - navigation.loadEventStart;
      });
      if (atMs > sinceLoad) await page.waitForTimeout(atMs - sinceLoad);
    }
    counter.bytes = 0;
    counter.urls = [];
    counter.sizes.clear();
    // Timed in the page: each key from its event's own time stamp (when the key was pressed,
    // so a busy main thread's delay counts), each state of the list when React commits it.
    await page.evaluate((text) => {
      /** @type {{keys: number[], first?: number, word?: number, excerpt?: number, firstBytes?: number}} */
      const marks = {keys: []};
      Object.assign(window, {searchBenchMarks: marks});
      document.addEventListener('keydown', (event) => marks.keys.push(event.timeStamp), true);
      new MutationObserver(() => {
        const now = performance.now();
        const list = document.querySelector('#search-suggestions');
        if (marks.first === undefined && list?.querySelector('[data-search-page]')) {
          marks.first = now;
        }
        if (marks.word === undefined && list?.getAttribute('data-search-query') === text) {
          marks.word = now;
        }
        if (
          marks.word !== undefined &&
          marks.excerpt === undefined &&
          list?.getAttribute('data-search-query') === text &&
          list.querySelector('[class*="excerpt"]')
        ) {
          marks.excerpt = now;
        }
      }).observe(document.body, {subtree: true, childList: true, attributes: true});
    }, query);
    await box.tap();
    if (leadMs > 0) await page.waitForTimeout(leadMs);
    // The first letter, then the others at the typing pace; the bytes sent by the time the first
    // suggestion shows.
    await page.keyboard.type(query[0]);
    let firstBytes = -1;
    const first = page
      .waitForFunction(() => Reflect.get(window, 'searchBenchMarks').first !== undefined, null, {
        timeout: 30_000,
        polling: 'raf',
      })
      .then(() => {
        firstBytes = counter.bytes;
      });
    for (const letter of query.slice(1)) {
      await page.waitForTimeout(keyMs);
      await page.keyboard.type(letter);
    }
    await first;
    await page.waitForFunction(
      () => Reflect.get(window, 'searchBenchMarks').excerpt !== undefined,
      null,
      {timeout: 30_000},
    );
    /** @type {{keys: number[], first: number, word: number, excerpt: number}} */
    const marks = await page.evaluate(() => Reflect.get(window, 'searchBenchMarks'));
    const firstMs = marks.first - marks.keys[0];
    const firstKiB = firstBytes / 1024;
    const lastKey = marks.keys[marks.keys.length - 1];
    const wordMs = marks.word - lastKey;
    const settledMs = marks.excerpt - lastKey;
    let searchBytes = 0;
    for (const [url, bytes] of counter.sizes) {
      if (url.startsWith('/pagefind/')) searchBytes += bytes;
    }
    if (process.env.SEARCH_BENCH_DEBUG) {
      for (const [url, bytes] of counter.sizes)
        console.log(`${(bytes / 1024).toFixed(1)} KiB ${url}`);
    }
    return {
      firstMs,
      firstKiB,
      wordMs,
      settledMs,
      settledKiB: counter.bytes / 1024,
      searchKiB: searchBytes / 1024,
      otherKiB: (counter.bytes - searchBytes) / 1024,
      requests: counter.urls.length,
    };
  } finally {
    await browser.close();
  }
}

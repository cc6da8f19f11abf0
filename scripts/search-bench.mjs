// @ts-check
/**
 * Search cold, for `npm run bench` (scripts/bench.mjs): on a phone-class connection (150 ms round
 * trip, 1.6 Mbit/s down, 750 kbit/s up, 4x CPU slowdown, Lighthouse's mobile figures) with a cold
 * cache, a reader on /controllers taps the header search box and types a query, letter by letter.
 *
 * - `firstMs`: from the first keystroke to the first visible suggestion.
 * - `settledMs`: from the last keystroke to the suggestions of the whole query with their
 *   excerpts.
 * - `firstKiB`, `settledKiB`: what the server sent (gzip, as written to the socket, so every request
 *   the search makes counts) from the tap until the first suggestion, and until the settled ones.
 *
 * `leadMs` is the time between the tap (which starts loading the search) and the first key: on a
 * phone, the on-screen keyboard takes about that long to open. Both figures are printed for a lead
 * of 0 too (the box focused and the key pressed at the same instant), the worst case.
 */
import {chromium} from '@playwright/test';
import {chromePath, chromiumArgs} from './chromium.mjs';

export const network = {latencyMs: 150, downloadKbps: 1600, uploadKbps: 750, cpuSlowdown: 4};

/**
 * @typedef {{bytes: number, urls: string[]}} ByteCounter what the server wrote since the last reset
 * @param {string} origin
 * @param {ByteCounter} counter
 * @param {{query: string, leadMs: number, keyMs?: number}} options
 */
export async function searchCold(origin, counter, {query, leadMs, keyMs = 120}) {
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
    await page.goto(`${origin}/controllers`, {waitUntil: 'networkidle'});
    // Hydrated: the shortcut hint appears only then.
    await page.locator('nav.navbar kbd').waitFor();
    const box = page.locator('nav.navbar input#search');
    // Wait until the page's own requests are over: the idle prefetching of linked pages, then the
    // offline worker's install, which src/features/offline/client/register.ts starts after 2 s without a request
    // (checked every second), hence a quiet window longer than 3 s. Measured with a 1.5 s window,
    // the install often began just before the tap: 182 KiB and ~1.8 s to the first suggestion
    // instead of 108 KiB and ~0.7 s, which is what a reader who searches at that moment gets.
    let seen = -1;
    while (seen !== counter.urls.length) {
      seen = counter.urls.length;
      await page.waitForTimeout(3500);
    }
    counter.bytes = 0;
    counter.urls = [];
    await box.tap();
    if (leadMs > 0) await page.waitForTimeout(leadMs);
    const options = page.locator('#search-suggestions [data-search-page]');
    const started = Date.now();
    // The first letter, then wait for its suggestions while typing on.
    await page.keyboard.type(query[0]);
    let firstBytes = 0;
    const first = options
      .first()
      .waitFor({timeout: 30_000})
      .then(() => {
        firstBytes = counter.bytes;
        return Date.now() - started;
      });
    let lastKey = Date.now();
    for (const letter of query.slice(1)) {
      await page.waitForTimeout(keyMs);
      await page.keyboard.type(letter);
      lastKey = Date.now();
    }
    const firstMs = await first;
    const firstKiB = firstBytes / 1024;
    // The suggestions of the whole query, with excerpts.
    await page.waitForFunction(
      (text) => {
        const input = /** @type {HTMLInputElement | null} */ (document.querySelector('#search'));
        const excerpt = document.querySelector('#search-suggestions [class*="excerpt"]');
        return input?.value === text && excerpt !== null;
      },
      query,
      {timeout: 30_000},
    );
    const settledMs = Date.now() - lastKey;
    if (process.env.SEARCH_BENCH_DEBUG) console.log(counter.urls.join('\n'));
    return {
      firstMs,
      firstKiB,
      settledMs,
      settledKiB: counter.bytes / 1024,
      requests: counter.urls.length,
    };
  } finally {
    await browser.close();
  }
}

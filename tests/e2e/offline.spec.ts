/**
 * Offline reading (src/features/offline, src/features/offline/client/OfflineSave, README "Offline reading"): the service
 * worker installs and controls the page, pages read are there offline, a page never opened
 * shows the offline page listing the saved ones, "Save all docs" makes every page and search
 * work offline (and "Remove saved docs" undoes it), and a new build's worker waits for the
 * reader's "Reload".
 *
 * Chromium applies `context.setOffline(true)` to the service worker's own fetches too (checked
 * here: offline, an unsaved page gets the worker's offline page, which only a failed fetch in
 * the worker produces), so no request routing is needed to go offline. It does not route the
 * browser's update check of the worker script (`context.route` never sees it), so the update
 * test appends a comment to the built `sw.js` itself, as a new deploy would change it, and puts
 * it back after; the other specs run with service workers blocked (playwright.config.ts).
 */
import {readFile, stat, utimes, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import type {BrowserContext, Page} from '@playwright/test';
import {axeViolations, useAxe} from './axe';
import {expect, settleOnLoad, test} from './fixtures';
import {collectPageErrors, sitemapPaths} from './helpers';
import {watchPolicy} from './policy';

test.use({serviceWorkers: 'allow'});
// One context for the whole story (the worker and its cache are the state under test).
test.describe.configure({mode: 'serial'});

/** The worker script of the build under test (playwright.config.ts serves E2E_BUILD_DIR). */
const workerFile = join(process.env.E2E_BUILD_DIR ?? 'build', 'sw.js');

/** Waits until a service worker controls `page`; returns its script's path. */
async function controlled(page: Page): Promise<string> {
  return page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((resolve) =>
        navigator.serviceWorker.addEventListener('controllerchange', resolve, {once: true}),
      );
    }
    return new URL(navigator.serviceWorker.controller?.scriptURL ?? '').pathname;
  });
}

/** Resolves once the page has started no request for a second. */
async function requestsSettled(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      new Promise<boolean>((resolve) => {
        const before = performance.getEntriesByType('resource').length;
        setTimeout(() => resolve(performance.getEntriesByType('resource').length === before), 1000);
      }),
  );
}

const title = (page: Page) => page.locator('article h1, main h1').first();

test.describe('offline reading', () => {
  // "Save all docs" stores some 400 files: ~8 s on a quiet 2-core machine, 20 s under load.
  test.describe.configure({timeout: 60_000});
  let context: BrowserContext;
  let page: Page;
  /** CSP violations and console errors of the whole story (the worker, the offline page). */
  let problems: string[] = [];

  test.beforeAll(async ({browser}) => {
    context = await browser.newContext({serviceWorkers: 'allow'});
    await useAxe(context);
    page = settleOnLoad(await context.newPage());
    problems = await watchPolicy(page);
    page.on('console', (message) => {
      // Offline, the browser reports the failed requests itself (the ad slot's script).
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
        problems.push(`console: ${message.text()}`);
      }
    });
  });
  test.afterAll(async () => {
    await context.close();
  });

  test('the worker installs, and a page read opens offline', async () => {
    const errors = collectPageErrors(page);
    await page.goto('/');
    expect(await controlled(page)).toBe('/sw.js');
    expect(errors()).toEqual([]);
    // The manifest is linked and parses as the app's.
    const manifest = await page.evaluate(async () => {
      const href = document.querySelector('link[rel="manifest"]')?.getAttribute('href') ?? '';
      return (await fetch(href)).json();
    });
    expect(manifest).toMatchObject({name: 'NestJS Documentation', short_name: 'NestJS'});

    await page.goto('/controllers');
    await expect(title(page)).toHaveText('Controllers');
    await context.setOffline(true);
    await page.reload();
    await expect(title(page)).toHaveText('Controllers');
    await expect(page.locator('.theme-doc-markdown p').first()).toBeVisible();
  });

  test('offline, a page never opened shows the offline page with the saved pages', async () => {
    const response = await page.goto('/pipes');
    expect(response?.status()).toBe(503);
    await expect(page.getByRole('heading', {level: 1})).toHaveText(
      'This page is not saved for offline reading',
    );
    await expect(page.locator('[data-offline-path]')).toHaveText('/pipes');
    const links = page.locator('[data-offline-links] a');
    await expect(links.first()).toHaveAttribute('href', '/');
    await expect(page.locator('[data-offline-links] a[href="/controllers"]')).toHaveText(
      'Controllers',
    );
    // Plain HTML (no bundles): styled by the cached style sheet, in both colour modes.
    expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toContain(
      'Source Sans 3',
    );
    expect(await axeViolations(page)).toEqual([]);
    await page.emulateMedia({colorScheme: 'dark'});
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    expect(await axeViolations(page)).toEqual([]);
    await page.emulateMedia({colorScheme: 'light'});
    await context.setOffline(false);
    expect(problems).toEqual([]);
  });

  test('"Save all docs", then offline: every page and search work', async () => {
    // The build's list holds every page of the sitemap; the test saves two of them (and every
    // bundle, image and search file) to stay fast: the pages are 3/4 of the 21 MB.
    const sitemap = await sitemapPaths(page);
    let listed: {pages: string[]; files: string[]} = {pages: [], files: []};
    await context.route('**/offline.json', async (route) => {
      const response = await route.fetch();
      listed = (await response.json()) as typeof listed;
      await route.fulfill({response, json: {...listed, pages: ['/pipes', '/guards']}});
    });
    await page.goto('/controllers');
    await page.getByRole('button', {name: 'Save all docs for offline reading'}).click();
    // Nothing is downloaded before the reader knows how much it is.
    await expect(page.locator('[data-offline-phase="confirm"] [role="status"]')).toContainText(
      /Saving downloads up to \d+(\.\d)? MB: the 2 pages/,
    );
    await page.getByRole('button', {name: 'Save for offline reading'}).click();
    await expect(page.getByRole('progressbar')).toBeVisible();
    const status = page.locator('[data-offline-phase="saved"] [role="status"]');
    await expect(status).toContainText(/saved for offline reading: \d+(\.\d)? MB/, {
      timeout: 30_000,
    });
    const megabytes = Number(/: ([\d.]+) MB/.exec((await status.textContent()) ?? '')?.[1]);
    expect(megabytes).toBeGreaterThan(3);
    expect(sitemap.filter((path) => !listed.pages.includes(path))).toEqual([]);
    expect(listed.files).toContain('/pagefind/pagefind-entry.json');
    expect(await axeViolations(page, {include: ['footer.footer']})).toEqual([]);

    await context.setOffline(true);
    await page.goto('/pipes');
    await expect(title(page)).toHaveText('Pipes');
    await page.locator('nav.navbar input#search').fill('guard');
    await expect(
      page.locator('#search-suggestions[data-search-query="guard"] [data-search-page]').first(),
    ).toBeAttached();
  });

  test('"Remove saved docs" removes them', async () => {
    await context.setOffline(false);
    await page.goto('/controllers');
    // After a reload the footer still knows the docs are saved.
    await page
      .getByRole('button', {name: /^Docs saved for offline reading \([\d.]+ MB\): manage$/})
      .click();
    await page.getByRole('button', {name: 'Remove saved docs'}).click();
    await expect(page.locator('[data-offline-phase="removed"] [role="status"]')).toContainText(
      'Saved docs removed',
    );
    await context.setOffline(true);
    const response = await page.goto('/guards');
    expect(response?.status()).toBe(503);
    await context.setOffline(false);
  });

  test('a new build: "New version available — Reload" activates it', async () => {
    await context.setOffline(false);
    await page.goto('/');
    await controlled(page);
    // The next build's worker: the same script, byte-different, under the same URL.
    const original = await readFile(workerFile);
    const {atime, mtime} = await stat(workerFile);
    await writeFile(workerFile, Buffer.concat([original, Buffer.from('\n// next build\n')]));
    try {
      await page.evaluate(async () => {
        (window as {beforeReload?: boolean}).beforeReload = true;
        const registration = await navigator.serviceWorker.getRegistration();
        await registration?.update();
      });
      const popup = page.getByRole('status').filter({hasText: 'New version available'});
      await expect(popup).toBeVisible();
      const waiting = await page.evaluate(
        async () => (await navigator.serviceWorker.getRegistration())?.waiting?.state,
      );
      expect(waiting).toBe('installed');
      // Nothing reloads by itself.
      expect(await page.evaluate(() => (window as {beforeReload?: boolean}).beforeReload)).toBe(
        true,
      );
      // The page at rest first. To activate the new worker Chromium stops the old one; a request
      // of the page in that window (a chunk loaded on the first pointer move) starts the old one
      // again, and the new one then waits until the old one idles out, which a worker under
      // DevTools (Playwright) never does.
      await page.mouse.move(200, 300);
      await requestsSettled(page);
      await popup.getByRole('button', {name: 'Reload'}).click();
      await page.waitForFunction(
        () => (window as {beforeReload?: boolean}).beforeReload === undefined,
      );
      const state = await page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        return {waiting: registration?.waiting ?? null, active: registration?.active?.state};
      });
      expect(state).toEqual({waiting: null, active: 'activated'});
    } finally {
      await writeFile(workerFile, original);
      await utimes(workerFile, atime, mtime);
    }
  });
});

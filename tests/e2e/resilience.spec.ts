import {expect, settleOnLoad, test, type Page} from './fixtures';
import {sitemapPaths} from './helpers';

const isLoopback = (url: string) =>
  ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname);

/** Checks that the page's own content and shell are there. */
async function expectContent(page: Page, path: string): Promise<void> {
  await expect(page.locator('article h1').first(), path).toBeVisible();
  await expect(page.locator('nav[aria-label="Docs sidebar"]'), path).toBeVisible();
  if ((await page.locator('.theme-doc-markdown h2').count()) > 0) {
    await expect(page.locator('.theme-doc-toc-desktop'), path).toBeVisible();
  }
}

test('every page works with all third-party hosts unreachable', async ({browser}) => {
  test.setTimeout(10 * 60_000);
  const context = await browser.newContext({viewport: {width: 1280, height: 900}});
  await context.route(
    (url) => !isLoopback(url.href),
    (route) => route.abort('connectionrefused'),
  );
  const page = settleOnLoad(await context.newPage());
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    // A blocked third-party request is reported by the browser itself, not by our code.
    if (message.text().startsWith('Failed to load resource')) return;
    problems.push(`console error on ${page.url()}: ${message.text()}`);
  });
  for (const path of await sitemapPaths(page)) {
    await page.goto(path);
    await expectContent(page, path);
  }
  expect(problems).toEqual([]);
  await context.close();
});

test('content shows before slow third parties answer', async ({browser}) => {
  test.setTimeout(10 * 60_000);
  const context = await browser.newContext({viewport: {width: 1280, height: 900}});
  await context.route(
    (url) => !isLoopback(url.href),
    async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      await route.abort('timedout').catch(() => undefined);
    },
  );
  const page = await context.newPage();
  const paths = await sitemapPaths(page);
  for (const path of paths) {
    const started = Date.now();
    await page.goto(path, {waitUntil: 'domcontentloaded'});
    await expectContent(page, path);
    expect(Date.now() - started, `${path} waited for a third party`).toBeLessThan(4_000);
  }
  await context.close();
});

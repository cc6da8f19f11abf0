/**
 * Third parties that do not answer at all are covered on every page by the sweep (pages.spec.ts,
 * dark mode: their hosts refuse the connection). Here they hang: the content must not wait for them.
 */
import {expect, test, type Page} from './fixtures';

const isLoopback = (url: string) =>
  ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname);

/** One page of each kind: with the ad slot, the sponsors and newsletter, the standalone pages. */
const samplePaths = [
  '/',
  '/controllers',
  '/techniques/caching',
  '/graphql/quick-start',
  '/faq/errors',
  '/discover/companies',
  '/support',
  '/enterprise',
];

/** Checks that the page's own content and shell are there. */
async function expectContent(page: Page, path: string): Promise<void> {
  await expect(page.locator('article h1').first(), path).toBeVisible();
  await expect(page.locator('nav[aria-label="Docs sidebar"]'), path).toBeVisible();
  if ((await page.locator('.theme-doc-markdown h2').count()) > 0) {
    await expect(page.locator('.theme-doc-toc-desktop'), path).toBeVisible();
  }
}

test('content shows before hanging third parties answer', async ({browser}) => {
  test.setTimeout(3 * 60_000);
  const hang = 10_000;
  const context = await browser.newContext({viewport: {width: 1280, height: 900}});
  await context.route(
    (url) => !isLoopback(url.href),
    async (route) => {
      await new Promise((resolve) => setTimeout(resolve, hang));
      await route.abort('timedout').catch(() => undefined);
    },
  );
  const page = await context.newPage();
  for (const path of samplePaths) {
    const started = Date.now();
    await page.goto(path, {waitUntil: 'domcontentloaded'});
    await expectContent(page, path);
    // Well before the third parties give up: the page never waited for them.
    expect(Date.now() - started, `${path} waited for a third party`).toBeLessThan(hang / 2);
  }
  await context.close();
});

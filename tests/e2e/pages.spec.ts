/**
 * Every page of the sitemap, in one sweep per colour mode (each page is opened once per mode; the
 * checks share the visit, which keeps the suite lean):
 * - it loads with status 200, its h1, menu and table of contents, a proper title, no noindex;
 * - no uncaught error and no console error from the site's code;
 * - it breaks nothing of its production Content-Security-Policy (the build is served with its
 *   generated `_headers`, scripts/serve-build.mjs);
 * - its content has zero axe violations.
 * In light mode the third parties answer (with empty bodies); in dark mode their hosts refuse the
 * connection, so every page is also shown to work with them unreachable.
 */
import {axeViolations, colourRules, useAxe} from './axe';
import {expect, settleOnLoad, test, type Page} from './fixtures';
import {siteTitle, sitemapPaths} from './helpers';
import {settleLateWork, thirdParties, watchPolicy} from './policy';

const chunks = 4;
const title = new RegExp(` \\| ${siteTitle.replace(/[.]/g, '\\.')}$`);

/**
 * The content's axe violations. Code blocks are left out here: their token colours are the same
 * on every page and are scanned, with everything else, on the sample of whole pages
 * (a11y.spec.ts); they hold most of a page's nodes and would triple the time. In dark mode only
 * the rules that depend on colour run: the markup is the same in both modes.
 */
async function contentViolations(page: Page, colorOnly: boolean): Promise<string[]> {
  return axeViolations(page, {
    include: ['.theme-doc-markdown'],
    exclude: ['.theme-doc-markdown pre'],
    ...(colorOnly && {rules: colourRules}),
  });
}

for (const colorScheme of ['light', 'dark'] as const) {
  const parties = colorScheme === 'light' ? 'answering' : 'down';
  for (let chunk = 0; chunk < chunks; chunk += 1) {
    test(`every page, ${colorScheme}, third parties ${parties}, part ${chunk + 1}/${chunks}: content, title, no error, no CSP violation, no axe violation`, async ({
      browser,
    }) => {
      test.setTimeout(10 * 60_000);
      const context = await browser.newContext({
        viewport: {width: 1280, height: 900},
        colorScheme,
        reducedMotion: 'reduce',
      });
      await useAxe(context);
      const page = settleOnLoad(await context.newPage());
      const policy = await watchPolicy(page);
      await thirdParties(page, parties);
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`${page.url()}: page error: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() !== 'error') return;
        // A refused third-party request is reported by the browser itself, not by the site's code.
        if (message.text().startsWith('Failed to load resource')) return;
        problems.push(`${page.url()}: console error: ${message.text()}`);
      });
      const all = await sitemapPaths(page);
      expect(all.length).toBeGreaterThan(100);
      expect(all).toContain('/');
      const paths = all.filter((_, index) => index % chunks === chunk);
      const violations: string[] = [];
      for (const [index, path] of paths.entries()) {
        const response = await page.goto(path);
        expect(response?.status(), path).toBe(200);
        if (index === 0) {
          expect(response?.headers()['content-security-policy'], path).toBeTruthy();
          await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
        }
        await expect(page.locator('article h1').first(), path).toBeVisible();
        await expect(page, path).toHaveTitle(title);
        await expect(page.locator('meta[name="robots"][content*="noindex"]'), path).toHaveCount(0);
        await expect(page.locator('nav[aria-label="Docs sidebar"]'), path).toBeVisible();
        if ((await page.locator('.theme-doc-markdown h2').count()) > 0) {
          await expect(page.locator('.theme-doc-toc-desktop'), path).toBeVisible();
        }
        await settleLateWork(page);
        violations.push(
          ...(await contentViolations(page, colorScheme === 'dark')).map(
            (line) => `${path}: ${line}`,
          ),
        );
      }
      expect(problems).toEqual([]);
      expect(policy).toEqual([]);
      expect(violations).toEqual([]);
      await context.close();
    });
  }
}

import AxeBuilder from '@axe-core/playwright';
import {expect, settleOnLoad, test, type Page} from './fixtures';
import {sitemapPaths} from './helpers';

/** Every violation of any impact, as readable lines; `include` narrows the scan to a region. */
async function violations(page: Page, include?: string): Promise<string[]> {
  const builder = new AxeBuilder({page});
  if (include) builder.include(include);
  const results = await builder.analyze();
  return results.violations.flatMap((violation) =>
    violation.nodes.map(
      (node) => `${violation.id} (${violation.impact}): ${node.target.join(' ')}`,
    ),
  );
}

// The shell (header, menu, TOC, footer, newsletter) is the same on every page: it is scanned whole on
// a sample of pages at both widths. Every page's own content is scanned in both colour modes.
const sample = [
  '/',
  '/controllers',
  '/pipes',
  '/techniques/database',
  '/graphql/resolvers',
  '/cli/usages',
  '/discover/companies',
  '/support',
  '/enterprise',
];
const chunks = 4;

for (const colorScheme of ['light', 'dark'] as const) {
  for (const width of [1280, 375]) {
    test(`whole pages of a sample have zero axe violations at ${width}px, ${colorScheme}`, async ({
      browser,
    }) => {
      test.setTimeout(10 * 60_000);
      const context = await browser.newContext({
        viewport: {width, height: 900},
        colorScheme,
        reducedMotion: 'reduce',
      });
      const page = settleOnLoad(await context.newPage());
      const found: string[] = [];
      for (const path of sample) {
        await page.goto(path);
        found.push(...(await violations(page)).map((line) => `${path}: ${line}`));
        if (width === 375 && (path === '/' || path === '/techniques/database')) {
          // The navigation drawer, open, over the page.
          await page.getByRole('button', {name: 'Toggle side navigation'}).click();
          await expect(page.locator('.navbar-sidebar')).toBeVisible();
          found.push(...(await violations(page)).map((line) => `${path} (drawer): ${line}`));
        }
      }
      expect(found).toEqual([]);
      await context.close();
    });
  }

  for (let chunk = 0; chunk < chunks; chunk += 1) {
    test(`the content of every page has zero axe violations, ${colorScheme}, part ${chunk + 1}/${chunks}`, async ({
      browser,
    }) => {
      test.setTimeout(15 * 60_000);
      const context = await browser.newContext({
        viewport: {width: 1280, height: 900},
        colorScheme,
        reducedMotion: 'reduce',
      });
      const page = settleOnLoad(await context.newPage());
      const paths = (await sitemapPaths(page)).filter((_, index) => index % chunks === chunk);
      const found: string[] = [];
      for (const path of paths) {
        await page.goto(path);
        found.push(
          ...(await violations(page, '.theme-doc-markdown')).map((line) => `${path}: ${line}`),
        );
      }
      expect(found).toEqual([]);
      await context.close();
    });
  }
}

import {axeViolations, colourRules, useAxe} from './axe';
import {expect, settleOnLoad, test} from './fixtures';

// The shell (header, menu, TOC, footer, newsletter) is the same on every page: it is scanned whole,
// code blocks included, on a sample of pages; at 375px (the drawer, the narrow layout) on a few of
// them. Every page's own content is scanned in both colour modes by the sweep of every page
// (pages.spec.ts). Dark mode runs the colour rules.
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
  // A page of the API reference (src/features/api-reference): its entries' code holds links.
  '/api/testing',
];
const narrowSample = ['/', '/techniques/database', '/discover/companies'];

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
      await useAxe(context);
      const page = settleOnLoad(await context.newPage());
      const found: string[] = [];
      const scan = colorScheme === 'dark' ? {rules: colourRules} : {};
      for (const path of width === 375 ? narrowSample : sample) {
        await page.goto(path);
        found.push(...(await axeViolations(page, scan)).map((line) => `${path}: ${line}`));
        if (width === 375 && (path === '/' || path === '/techniques/database')) {
          // The navigation drawer, open, over the page.
          await page.getByRole('button', {name: 'Toggle side navigation'}).click();
          await expect(page.locator('.navbar-sidebar')).toBeVisible();
          found.push(
            ...(await axeViolations(page, scan)).map((line) => `${path} (drawer): ${line}`),
          );
        }
      }
      expect(found).toEqual([]);
      await context.close();
    });
  }
}

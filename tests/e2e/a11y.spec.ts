import AxeBuilder from '@axe-core/playwright';
import {expect, test, type Page} from '@playwright/test';
import {sitemapPaths} from './helpers';

/** Every violation of any impact, as readable lines. */
async function violations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({page}).analyze();
  return results.violations.flatMap((violation) =>
    violation.nodes.map(
      (node) => `${violation.id} (${violation.impact}): ${node.target.join(' ')}`,
    ),
  );
}

for (const colorScheme of ['light', 'dark'] as const) {
  test(`every page has zero axe violations at 1280px, ${colorScheme}`, async ({browser}) => {
    test.setTimeout(15 * 60_000);
    const context = await browser.newContext({
      viewport: {width: 1280, height: 900},
      colorScheme,
      reducedMotion: 'reduce',
    });
    const page = await context.newPage();
    const found: string[] = [];
    for (const path of await sitemapPaths(page)) {
      await page.goto(path);
      found.push(...(await violations(page)).map((line) => `${path}: ${line}`));
    }
    expect(found).toEqual([]);
    await context.close();
  });
}

const mobileSample = [
  '/',
  '/controllers',
  '/pipes',
  '/techniques/database',
  '/graphql/resolvers',
  '/cli/usages',
  '/support',
];

for (const colorScheme of ['light', 'dark'] as const) {
  test(`a sample of pages has zero axe violations at 375px, ${colorScheme}`, async ({browser}) => {
    const context = await browser.newContext({
      viewport: {width: 375, height: 800},
      colorScheme,
      reducedMotion: 'reduce',
    });
    const page = await context.newPage();
    const found: string[] = [];
    for (const path of mobileSample) {
      await page.goto(path);
      found.push(...(await violations(page)).map((line) => `${path}: ${line}`));
    }
    // The drawer open, too.
    await page.getByRole('button', {name: 'Toggle side navigation'}).click();
    found.push(...(await violations(page)).map((line) => `drawer: ${line}`));
    expect(found).toEqual([]);
    await context.close();
  });
}

import {expect, settleOnLoad, test, type Page} from './fixtures';
import {collectPageErrors} from './helpers';

/**
 * Code blocks (src/features/code/client/CodeBlock.tsx): highlighted by the server; blocks present at page
 * load keep that markup without Prism in the browser; blocks of pages reached by
 * client-side navigation are highlighted by the lazily loaded highlighter. Token
 * colours are CSS variables per colour mode (src/features/code/node/prismVariables.ts).
 */

async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
}

/** The JavaScript the page has loaded, by URL. */
function scripts(page: Page): () => string[] {
  const urls: string[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') urls.push(response.url());
  });
  return () => urls;
}

test('a loaded page keeps the server-highlighted blocks without loading Prism', async ({page}) => {
  const loaded = scripts(page);
  const errors = collectPageErrors(page);
  await open(page, '/pipes');
  const pre = page.locator('.theme-doc-markdown pre').first();
  await expect(pre.locator('.token.keyword').first()).toBeVisible();
  // The highlighter chunk may be prefetched (a download), but never runs on page load.
  expect(await page.evaluate(() => typeof (window as {Prism?: unknown}).Prism)).toBe('undefined');
  const hasPrismSource = await Promise.all(
    loaded().map(async (url) =>
      (await (await page.request.get(url)).text()).includes('Prism.languages'),
    ),
  );
  expect(hasPrismSource.filter(Boolean).length).toBeLessThanOrEqual(1);
  expect(errors()).toEqual([]);
});

test('the copy button copies the sample of a server-rendered block', async ({page, context}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await open(page, '/pipes');
  const block = page.locator('.theme-doc-markdown .theme-code-block:visible').first();
  // innerText shows each line's <br> as an extra line break.
  const lines = (text: string) => text.split('\n').filter((line) => line.trim() !== '');
  const code = lines(await block.locator('pre').innerText());
  await block.hover();
  await block.getByRole('button', {name: /copy/i}).click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(lines(copied)).toEqual(code);
  expect(copied).toContain('import');
});

test('the word-wrap button wraps a server-rendered block', async ({page}) => {
  await page.setViewportSize({width: 600, height: 900});
  await open(page, '/pipes');
  const wrap = page.getByRole('button', {name: 'Toggle word wrap'}).first();
  const block = page.locator('.theme-code-block').filter({has: wrap}).first();
  await block.hover();
  await wrap.click();
  await expect(block.locator('code')).toHaveCSS('white-space', 'pre-wrap');
});

test('blocks of a page reached by client-side navigation are highlighted', async ({page}) => {
  const errors = collectPageErrors(page);
  await open(page, '/pipes');
  await page.locator('nav[aria-label="Docs sidebar"] a.menu__link[href="/guards"]').click();
  await expect(page).toHaveURL(/\/guards$/);
  const pre = page.locator('.theme-doc-markdown pre:visible').first();
  await expect(pre.locator('.token.keyword').first()).toBeVisible();
  expect(errors()).toEqual([]);
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`token colours follow the ${colorScheme} colour mode`, async ({browser}) => {
    const context = await browser.newContext({colorScheme});
    // A page of its own context waits for React on load like the fixture's (a plain `newPage`
    // left that to `open`'s 5 s assertion, which a loaded CI machine once overran).
    const page = settleOnLoad(await context.newPage());
    await open(page, '/pipes');
    // Polled: under load the first read can come while the page's styles still settle.
    const colours = () =>
      page.evaluate(() => {
        const keyword = document.querySelector('.theme-doc-markdown pre .token.keyword');
        const pre = keyword?.closest('pre');
        // Numbers are coloured by the light theme only: in dark mode they take the plain colour.
        const number = document.querySelector('.theme-doc-markdown pre .token.number');
        return keyword && pre && number
          ? {
              keyword: getComputedStyle(keyword).color,
              number: getComputedStyle(number).color,
              plain: getComputedStyle(pre).color,
              background: getComputedStyle(pre).backgroundColor,
            }
          : null;
      });
    // github (light) and dracula (dark), as adjusted by src/features/code/node/prismContrast.ts.
    await expect.poll(colours).toEqual(
      colorScheme === 'light'
        ? {
            keyword: 'rgb(0, 0, 159)',
            number: 'rgb(39, 124, 122)',
            plain: 'rgb(57, 58, 52)',
            background: 'rgb(246, 248, 250)',
          }
        : {
            keyword: 'rgb(189, 147, 249)',
            number: 'rgb(248, 248, 242)',
            plain: 'rgb(248, 248, 242)',
            background: 'rgb(40, 42, 54)',
          },
    );
    await context.close();
  });
}

import {axeViolations, useAxe} from './axe';
import {expect, settleOnLoad, test, type Page} from './fixtures';
import {collectPageErrors} from './helpers';

/**
 * The API reference (src/features/api-reference): links from the samples to the entries, the
 * entries themselves on a sample of the API pages, and the search for symbols. The sweep of every
 * page (pages.spec.ts) opens all API pages too.
 */

/** The JavaScript files a page loads, by path. */
function scripts(page: Page): () => string[] {
  const urls: string[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') urls.push(new URL(response.url()).pathname);
  });
  return () => urls;
}

const half = (page: Page, lang: 'ts' | 'js') =>
  page.locator(`.theme-doc-markdown [data-code-pair-half="${lang}"]`);

test.describe('samples link to the reference', () => {
  for (const lang of ['ts', 'js'] as const) {
    test(`on /controllers, Controller, Get, Post, Body and Param link to their entries (${lang})`, async ({
      page,
    }) => {
      await page.goto(`/controllers?lang=${lang}`);
      for (const name of ['Controller', 'Get', 'Post', 'Body', 'Param']) {
        // The first sample that uses the name links it, on its import line and where it is used.
        const first = half(page, lang)
          .filter({hasText: new RegExp(`\\b${name}\\b`)})
          .first();
        const links = first.locator(`pre a[href="/api/common#${name}"]`);
        expect(await links.count(), name).toBeGreaterThanOrEqual(2);
        await expect(links.first()).toHaveText(name);
      }
      // Only the imported names link: the page's own classes and the strings do not.
      const texts = await half(page, lang)
        .first()
        .locator('pre a')
        .evaluateAll((anchors) => anchors.map((anchor) => anchor.textContent));
      expect(new Set(texts)).toEqual(new Set(['Controller', 'Get']));
    });
  }

  test('a link leads to the entry, which shows the declaration', async ({page}) => {
    await page.goto('/controllers');
    await half(page, 'ts').first().locator('pre a[href="/api/common#Controller"]').first().click();
    await expect(page).toHaveURL(/\/api\/common#Controller$/);
    const entry = page.locator('section[data-api-entry="Controller"]');
    await expect(entry.locator('h3')).toHaveText(/Controller/);
    await expect(entry.locator('pre').first()).toContainText('function Controller(prefix: string');
    await expect(entry.getByRole('link', {name: 'Controllers', exact: true}).first()).toBeVisible();
  });

  test('links add nothing on hover or focus, take the focus ring, and copy stays plain text', async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/controllers');
    const block = half(page, 'ts').first().locator('.theme-code-block');
    const link = block.locator('pre a').first();
    await expect(link).not.toHaveAttribute('title');
    await link.hover();
    expect(await page.locator('[role="tooltip"]').count()).toBe(0);
    // Keyboard: the block, then its links, in order.
    await block.locator('pre').focus();
    await page.keyboard.press('Tab');
    await expect(link).toBeFocused();
    await expect(link).toHaveCSS('outline-style', 'solid');
    expect(await page.locator('[role="tooltip"]').count()).toBe(0);
    // The copy button copies the code as text (innerText shows each line's <br> as a blank line).
    const lines = (text: string) => text.split('\n').filter((line) => line.trim() !== '');
    const code = lines(await block.locator('pre').innerText());
    await block.hover();
    await block.getByRole('button', {name: /copy/i}).click();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(lines(copied)).toEqual(code);
    expect(copied).not.toContain('<a');
  });

  test('a drag that starts on a link selects code instead of dragging the link', async ({page}) => {
    await page.goto('/controllers');
    const link = half(page, 'ts').first().locator('pre a').first();
    await expect(link).toHaveAttribute('draggable', 'false');
    const box = (await link.boundingBox())!;
    await page.mouse.move(box.x + 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + 200, box.y + box.height / 2, {steps: 8});
    await page.mouse.up();
    expect(await page.evaluate(() => window.getSelection()?.toString() ?? '')).toContain(
      'Controller',
    );
    await expect(page).toHaveURL(/\/controllers$/);
  });

  test('samples on a page reached by client-side navigation link too', async ({page}) => {
    const errors = collectPageErrors(page);
    await page.goto('/first-steps');
    await page.locator('nav[aria-label="Docs sidebar"] a.menu__link[href="/controllers"]').click();
    await expect(page).toHaveURL(/\/controllers$/);
    await expect(
      half(page, 'ts').first().locator('pre a[href="/api/common#Controller"]').first(),
    ).toBeVisible();
    expect(errors()).toEqual([]);
  });
});

test.describe('API pages', () => {
  test('load no JavaScript a guide page does not, and report no error', async ({page}) => {
    const errors = collectPageErrors(page);
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      // A refused third-party request (the ad network) is the browser's report, not the site's.
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
        consoleErrors.push(message.text());
      }
    });
    const guide = scripts(page);
    await page.goto('/techniques/caching');
    const guideScripts = new Set(guide());
    const api = settleOnLoad(await page.context().newPage());
    const apiScripts = scripts(api);
    await api.goto('/api/testing');
    // Each page loads its own content chunk; nothing else differs.
    const extra = apiScripts().filter((url) => !guideScripts.has(url));
    expect(extra.length).toBeLessThanOrEqual(1);
    expect(apiScripts().length).toBeLessThanOrEqual(guideScripts.size);
    expect(errors()).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await api.close();
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    test(`a sample of entries has zero axe violations, code included (${colorScheme})`, async ({
      browser,
    }) => {
      test.setTimeout(120_000);
      const context = await browser.newContext({colorScheme, viewport: {width: 1280, height: 900}});
      await useAxe(context);
      const page = settleOnLoad(await context.newPage());
      const found: string[] = [];
      for (const [path, entries] of [
        ['/api/testing', ['Test', 'TestingModule']],
        ['/api/common', ['UseGuards', 'ValidationPipe', 'ValidationPipeOptions', 'Scope']],
        ['/api/microservices', ['ClientProxy', 'Transport']],
      ] as const) {
        await page.goto(path);
        const violations = await axeViolations(page, {
          include: entries.map((name) => `section[data-api-entry="${name}"]`),
        });
        found.push(...violations.map((line) => `${path}: ${line}`));
      }
      expect(found).toEqual([]);
      await context.close();
    });
  }

  test('the menu opens an API page as a full load, and Back returns', async ({page}) => {
    await page.goto('/first-steps');
    await page.evaluate(() => ((window as {beforeClick?: boolean}).beforeClick = true));
    const menu = page.locator('nav[aria-label="Docs sidebar"]');
    await menu.locator('.menu__list-item-collapsible', {hasText: 'API reference'}).click();
    await menu.locator('a.menu__link[href="/api/testing"]').click();
    await expect(page).toHaveURL(/\/api\/testing$/);
    await expect(page.locator('section[data-api-entry="Test"] pre a').first()).toBeVisible();
    // A new document: the old page's globals are gone.
    await expect
      .poll(() => page.evaluate(() => (window as {beforeClick?: boolean}).beforeClick ?? false))
      .toBe(false);
    await page.goBack();
    await expect(page).toHaveURL(/\/first-steps$/);
  });

  test('an entry links the types of its declaration to their entries', async ({page}) => {
    await page.goto('/api/common#UseGuards');
    const entry = page.locator('section[data-api-entry="UseGuards"]');
    await entry.locator('pre a[href="/api/common#CanActivate"]').click();
    await expect(page).toHaveURL(/\/api\/common#CanActivate$/);
    await expect(page.locator('section[data-api-entry="CanActivate"] h3')).toBeInViewport();
  });
});

test.describe('search finds the entries', () => {
  const searchBox = (page: Page) => page.locator('nav.navbar input#search');

  for (const [query, url] of [
    ['ValidationPipeOptions', '/api/common#ValidationPipeOptions'],
    ['UseGuards', '/api/common#UseGuards'],
    ['ClientProxy', '/api/microservices#ClientProxy'],
  ] as const) {
    test(`${query}: its entry is among the first three suggestions`, async ({page}) => {
      await page.goto('/controllers');
      await searchBox(page).fill(query);
      const listbox = page.locator(`#search-suggestions[data-search-query="${query}"]`);
      await expect(listbox).toBeAttached();
      const found = await listbox.locator('[data-search-page]').evaluateAll((options) =>
        options.map((option) => {
          const target = new URL(option.getAttribute('data-search-page') ?? '', location.href);
          return `${target.pathname}${target.hash}`;
        }),
      );
      expect(found.slice(0, 3)).toContain(url);
    });
  }

  test('the results page filters the entries by the API section', async ({page}) => {
    await page.goto('/search?q=UseGuards&section=API');
    const results = page.locator('main ol > li');
    await expect(results.first()).toBeVisible();
    await expect(results.first()).toContainText('UseGuards');
  });
});

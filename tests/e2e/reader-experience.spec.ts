/**
 * Reader-experience defects found by a hands-on review (issue #32), each checked where a reader
 * meets it. Every test here failed on the build before the fix.
 */
import {expect, test, type Page} from './fixtures';

async function typeInSearch(page: Page, text: string) {
  const box = page.getByRole('combobox', {name: 'Search the documentation'});
  await box.click();
  await box.fill(text);
  return box;
}

test.describe('search suggestions fit the viewport', () => {
  for (const width of [700, 768, 900, 996, 1024]) {
    test(`at ${width} px`, async ({page}) => {
      await page.setViewportSize({width, height: 800});
      await page.goto('/controllers');
      await typeInSearch(page, 'pipes');
      const list = page.getByRole('listbox', {name: 'Search suggestions'});
      await expect(list).toHaveAttribute('data-search-query', 'pipes');
      const box = await list.locator('..').boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(width);
    });
  }

  test('at 200% zoom of a 1280 px window (640 CSS px)', async ({browser}) => {
    const context = await browser.newContext({
      viewport: {width: 640, height: 400},
      deviceScaleFactor: 2,
    });
    const page = await context.newPage();
    await page.goto('/controllers');
    await page.waitForFunction(() => document.documentElement.dataset.hasHydrated === 'true');
    await typeInSearch(page, 'guards');
    const list = page.getByRole('listbox', {name: 'Search suggestions'});
    await expect(list).toHaveAttribute('data-search-query', 'guards');
    const box = await list.locator('..').boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(640);
    await context.close();
  });
});

test.describe('queries with no real match', () => {
  test('the box says so instead of suggesting pages', async ({page}) => {
    await page.goto('/controllers');
    await typeInSearch(page, 'zzqxj');
    await expect(page.locator('[data-search-box] [class*=status]')).toHaveText(
      'No results for “zzqxj”. Check the spelling, or try other words.',
    );
    await expect(page.getByRole('option')).toHaveCount(1); // "See all results" only
  });

  test('the results page says so, with a hint', async ({page}) => {
    for (const query of ['zzqxj', 'qwertyuiop', 'blorptastic']) {
      await page.goto(`/search?q=${query}`);
      await expect(page.locator('main').getByRole('status')).toHaveText(
        `No results for “${query}”.`,
      );
      await expect(
        page.getByRole('link', {name: 'Browse the sections of the documentation'}),
      ).toBeVisible();
      await expect(page.locator('ol li')).toHaveCount(0);
    }
  });

  test('a close typo still finds its page', async ({page}) => {
    await page.goto('/controllers');
    await typeInSearch(page, 'interceptr');
    const list = page.getByRole('listbox', {name: 'Search suggestions'});
    await expect(list).toHaveAttribute('data-search-query', 'interceptr');
    await expect(list.getByRole('option').first()).toContainText('Interceptors');
  });
});

test.describe('table of contents', () => {
  test('the active entry stays in view on a long page', async ({page}) => {
    await page.setViewportSize({width: 1280, height: 800});
    await page.goto('/techniques/database');
    const panel = page.locator('.theme-doc-toc-desktop');
    expect(await panel.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
    for (const share of [0.5, 0.8, 0.97]) {
      await page.evaluate((s) => window.scrollTo(0, document.body.scrollHeight * s), share);
      const active = panel.locator('.table-of-contents__link--active');
      await expect(active).toHaveCount(1);
      await expect
        .poll(async () => {
          const [p, a] = await Promise.all([panel.boundingBox(), active.boundingBox()]);
          return !!p && !!a && a.y >= p.y && a.y + a.height <= p.y + p.height;
        })
        .toBe(true);
    }
  });

  test('at the bottom the last article section is marked, not the newsletter', async ({page}) => {
    await page.setViewportSize({width: 1280, height: 800});
    await page.goto('/guards');
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    const last = page.locator('.theme-doc-toc-desktop .table-of-contents__link').last();
    await expect(last).toHaveClass(/table-of-contents__link--active/);
    await expect(page.locator('#newsletter-heading')).not.toHaveClass(/anchor/);
    await expect(page.getByRole('link', {name: /Direct link to .*newsletter/i})).toHaveCount(0);
  });
});

test('every header link is reachable between 997 and 1250 px', async ({page}) => {
  await page.setViewportSize({width: 1100, height: 800});
  await page.goto('/controllers');
  const more = page.getByRole('button', {name: 'More'});
  await more.click();
  await expect(more).toHaveAttribute('aria-expanded', 'true');
  for (const name of [
    'Our website',
    'Courses',
    'Sponsor us',
    'Enterprise support',
    'GitHub',
    'Discord',
    'X (Twitter)',
    'Stack Overflow',
  ]) {
    await expect(page.getByRole('link', {name, exact: true})).toBeVisible();
  }
  await page.keyboard.press('Escape');
  await expect(more).toHaveAttribute('aria-expanded', 'false');
  await expect(more).toBeFocused();
  await page.setViewportSize({width: 1280, height: 800});
  await expect(more).toBeHidden();
});

test('the phone menu keeps the keyboard and Escape closes it', async ({page}) => {
  await page.setViewportSize({width: 375, height: 740});
  await page.goto('/controllers');
  const toggle = page.getByRole('button', {name: 'Toggle side navigation'});
  await toggle.click();
  const drawer = page.locator('.navbar-sidebar');
  await expect.poll(() => drawer.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  for (let i = 0; i < 40; i += 1) {
    await page.keyboard.press('Tab');
    expect(await drawer.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press('Shift+Tab');
  expect(await drawer.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  await page.keyboard.press('Escape');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(toggle).toBeFocused();
});

test('/enterprise is linked from the site', async ({page}) => {
  await page.goto('/support');
  await expect(page.locator('article a[href="/enterprise"]')).toHaveCount(1);
});

test('the colour mode button changes what a reader with a light system sees on the first click', async ({
  browser,
}) => {
  const context = await browser.newContext({colorScheme: 'light'});
  const page = await context.newPage();
  await page.goto('/controllers');
  await page.waitForFunction(() => document.documentElement.dataset.hasHydrated === 'true');
  const toggle = page.locator('.navbar [class*=colorModeToggle] button');
  await toggle.click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await toggle.click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await context.close();
});

test('image alt texts keep their apostrophes', async ({page}) => {
  await page.goto('/microservices/basics');
  const alt = await page.locator('article img').first().getAttribute('alt');
  expect(alt).toContain("A client application's ClientProxy");
  expect(alt).not.toContain('&#39;');
});

test.describe('on a touch screen', () => {
  test.use({viewport: {width: 375, height: 740}, hasTouch: true, isMobile: true});

  test('the code copy button shows without a tap, and no keyboard shortcut is shown', async ({
    page,
  }) => {
    await page.goto('/controllers');
    const copy = page.getByRole('button', {name: 'Copy code to clipboard'}).first();
    expect(Number(await copy.evaluate((el) => getComputedStyle(el).opacity))).toBeGreaterThan(0.5);
    await expect(page.locator('[data-search-box] kbd')).toBeHidden();
  });
});

test('an unknown address lands on the introduction, saying which address and the closest pages', async ({
  page,
}) => {
  const response = await page.goto('/guide/custom-pipes');
  expect(response?.status()).toBe(404);
  await expect(page).toHaveURL((url) => url.pathname === '/');
  const notice = page.locator('aside[role=status]');
  await expect(notice).toContainText('There is no page at /guide/custom-pipes');
  await expect(notice.getByRole('link', {name: 'Pipes', exact: true})).toBeVisible();
  // The 404 page's own text never showed before the redirect.
  await expect(page.getByText('Page not found')).toHaveCount(0);
});

test.describe('diagrams', () => {
  test.use({viewport: {width: 375, height: 740}, hasTouch: true});

  test('open full-screen on tap, zoom in, and close with Escape back to the diagram', async ({
    page,
  }) => {
    await page.goto('/controllers');
    const diagram = page.getByRole('button', {name: /Three HTTP requests .* \(open full-screen\)/});
    await diagram.tap();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    const image = dialog.locator('img');
    const fitted = (await image.boundingBox())!.width;
    await dialog.getByRole('button', {name: 'Zoom in'}).tap();
    await expect(dialog.getByRole('button', {name: 'Zoom in'})).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect((await image.boundingBox())!.width).toBeGreaterThan(fitted * 1.5);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(diagram).toBeFocused();
  });

  test('have a dark variant, and so do the logo tiles', async ({page}) => {
    await page.emulateMedia({colorScheme: 'dark'});
    await page.goto('/controllers');
    await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'dark'));
    const filter = await page
      .locator('article img')
      .first()
      .evaluate((el) => getComputedStyle(el).filter);
    expect(filter).toContain('invert');
    await page.goto('/discover/companies');
    await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'dark'));
    const tile = page.locator('article a:has(img)').first();
    const background = await tile.evaluate((el) => getComputedStyle(el).backgroundColor);
    const [r, g, b] = (background.match(/\d+/g) ?? []).map(Number);
    expect(r + g + b).toBeLessThan(3 * 100);
  });
});

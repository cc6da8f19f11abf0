import {expect, test, type Locator, type Page} from './fixtures';

/**
 * Every control of the shell is reachable with Tab, shows a visible focus ring,
 * and works from the keyboard alone. A skip link leads past the header and menu.
 */

/** Docusaurus marks `<html data-has-hydrated>` once React owns the page; tabbing before that races it. */
async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
}

/** A short description of the focused element, and whether its focus ring can be seen. */
async function focused(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return null;
    const style = getComputedStyle(element);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
    const rect = element.getBoundingClientRect();
    return {
      name:
        element.getAttribute('aria-label') ??
        element.getAttribute('placeholder') ??
        (element.textContent ?? '').trim().slice(0, 40),
      tag: element.tagName.toLowerCase(),
      ring: outline && element.matches(':focus-visible'),
      onScreen: rect.width > 0 && rect.height > 0,
    };
  });
}

/** Presses Tab until `want` is focused (or `limit` presses), checking the ring of everything on the way. */
async function tabTo(page: Page, want: Locator, limit = 400): Promise<string[]> {
  const withoutRing: string[] = [];
  for (let press = 0; press < limit; press += 1) {
    await page.keyboard.press('Tab');
    const current = await focused(page);
    if (current && !(current.ring && current.onScreen)) {
      withoutRing.push(`${current.tag} "${current.name}"`);
    }
    if (await want.evaluate((element) => element === document.activeElement)) {
      return withoutRing;
    }
  }
  throw new Error(`not reached with ${limit} presses of Tab: ${want.toString()}`);
}

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`desktop, ${colorScheme}`, () => {
    test.use({viewport: {width: 1280, height: 900}, colorScheme});

    test('the first Tab shows a skip link that moves focus to the content', async ({page}) => {
      await open(page, '/pipes');
      await page.keyboard.press('Tab');
      const skip = page.getByRole('link', {name: 'Skip to main content'});
      await expect(skip).toBeFocused();
      await expect(skip).toBeInViewport();
      expect((await focused(page))?.ring).toBe(true);
      await page.keyboard.press('Enter');
      // Docusaurus focuses <main> for a moment, which makes it the starting point of sequential
      // navigation: the next Tab lands in the article, past the header and the menu.
      await page.keyboard.press('Tab');
      expect(
        await page.evaluate(() => document.querySelector('main')?.contains(document.activeElement)),
      ).toBe(true);
    });

    test('every shell control is reached by Tab, in order, with a visible focus ring', async ({
      page,
    }) => {
      // Hundreds of key presses, each followed by a look at the focused element.
      test.setTimeout(120_000);
      await open(page, '/pipes');
      const header = page.locator('nav.navbar');
      const controls: Locator[] = [
        page.getByRole('button', {name: 'Toggle side navigation'}),
        header.getByRole('searchbox').or(header.locator('input#search')).first(),
        ...['GitHub', 'Discord', 'X (Twitter)', 'Stack Overflow', 'NestJS website'].map((name) =>
          page.getByRole('link', {name: `${name} (opens in a new tab)`}),
        ),
        ...['Our website', 'Courses', 'Sponsor us', 'Enterprise support'].map((name) =>
          header.locator('a.navbar__link', {hasText: name}),
        ),
        header.getByRole('button', {name: /dark and light mode/}),
        page.locator('nav[aria-label="Docs sidebar"] .menu__link', {hasText: /^Fundamentals$/}),
        page.getByRole('button', {name: 'Show JavaScript'}).first(),
        page.getByRole('textbox', {name: 'Email address'}),
        page.locator('aside[data-status] button[type="submit"]'),
      ];
      const withoutRing: string[] = [];
      for (const control of controls) {
        withoutRing.push(...(await tabTo(page, control)));
      }
      expect(withoutRing).toEqual([]);
    });

    test('the shell controls work from the keyboard', async ({page}) => {
      await open(page, '/pipes');

      // Sidebar toggle: Enter hides, Space shows.
      const toggle = page.getByRole('button', {name: 'Toggle side navigation'});
      await toggle.focus();
      await page.keyboard.press('Enter');
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      await expect(page.locator('nav[aria-label="Docs sidebar"]')).toHaveCount(0);
      await page.keyboard.press('Space');
      await expect(toggle).toHaveAttribute('aria-expanded', 'true');

      // A menu group opens on Enter and shows its entries.
      const fundamentals = page.locator('nav[aria-label="Docs sidebar"] .menu__link', {
        hasText: /^Fundamentals$/,
      });
      await fundamentals.focus();
      await expect(fundamentals).toHaveAttribute('aria-expanded', 'false');
      await page.keyboard.press('Enter');
      await expect(fundamentals).toHaveAttribute('aria-expanded', 'true');
      await expect(
        page.locator('nav[aria-label="Docs sidebar"] a.menu__link[href="/fundamentals/testing"]'),
      ).toBeVisible();

      // Colour mode: each Enter moves to the next choice: from the system choice to the other mode
      // (so the first press always changes the page), then the system's own mode, then system.
      const html = page.locator('html');
      const colorMode = page
        .locator('nav.navbar')
        .getByRole('button', {name: /dark and light mode/});
      const system = await page.evaluate(() =>
        window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light',
      );
      const other = system === 'dark' ? 'light' : 'dark';
      await expect(html).toHaveAttribute('data-theme', system);
      await colorMode.focus();
      await page.keyboard.press('Enter');
      await expect(html).toHaveAttribute('data-theme-choice', other);
      await expect(html).toHaveAttribute('data-theme', other);
      await page.keyboard.press('Enter');
      await expect(html).toHaveAttribute('data-theme-choice', system);
      await page.keyboard.press('Enter');
      await expect(html).toHaveAttribute('data-theme-choice', 'system');
      await page.keyboard.press('Enter');
      await expect(html).toHaveAttribute('data-theme', other);

      // TS/JS switch: Enter shows the JavaScript half.
      const pair = page.locator('[data-code-pair="pair"]').first();
      await pair.getByRole('button', {name: 'Show JavaScript'}).focus();
      await page.keyboard.press('Enter');
      await expect(pair.locator('[data-code-pair-half="js"] pre')).toBeVisible();

      // Search: typing into the focused box lists results; ArrowDown and Enter open one.
      await page.locator('input#search').focus();
      await page.keyboard.insertText('ValidationPipe');
      await expect(page.getByRole('listbox')).toBeVisible();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await expect(page).not.toHaveURL(/\/pipes$/);
    });

    test('the newsletter form works from the keyboard and refuses an invalid address', async ({
      page,
    }) => {
      const sent: string[] = [];
      await page.route('**/Stage/newsletter**', async (route) => {
        sent.push(route.request().postData() ?? '');
        await route.fulfill({status: 200, body: '{}', contentType: 'application/json'});
      });
      await open(page, '/pipes');
      const box = page.locator('aside[data-status]');
      const input = box.getByRole('textbox', {name: 'Email address'});
      await input.focus();
      await page.keyboard.insertText('not-an-email');
      await page.keyboard.press('Enter');
      await expect(box).toHaveAttribute('data-status', 'idle');
      expect(sent).toEqual([]);

      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.insertText('reader@example.com');
      await page.keyboard.press('Enter');
      await expect(box).toHaveAttribute('data-status', 'added');
      expect(sent).toEqual([JSON.stringify({email: 'reader@example.com'})]);
    });
  });
}

test.describe('narrow 375px', () => {
  test.use({viewport: {width: 375, height: 800}});

  test('the drawer opens from the keyboard and its links are reachable', async ({page}) => {
    await open(page, '/pipes');
    const toggle = page.getByRole('button', {name: 'Toggle side navigation'});
    const withoutRing = await tabTo(page, toggle, 10);
    await page.keyboard.press('Enter');
    await expect(page.locator('.navbar-sidebar')).toBeVisible();
    const guards = page.locator('.navbar-sidebar a.menu__link[href="/guards"]');
    withoutRing.push(...(await tabTo(page, guards, 60)));
    expect(withoutRing).toEqual([]);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/guards$/);
    await expect(page.locator('.navbar-sidebar')).not.toBeVisible();
  });
});

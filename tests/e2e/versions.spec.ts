/** The version menu, the version note and the footer's Version 7 (src/features/versions). */
import {expect, test, type Page} from './fixtures';
import {archivedVersion} from '../../src/features/versions/versions';

const menuButton = (page: Page) =>
  page.locator('.navbar').getByRole('button', {name: 'v8, documentation version'});
const menu = (page: Page) => page.getByRole('group', {name: 'Documentation versions'});

test.describe('header, 1280 px', () => {
  test.use({viewport: {width: 1280, height: 800}});

  test('lists v8 (this page), Latest (v11) on the same page, and the archived majors at their root', async ({
    page,
  }) => {
    await page.goto('/techniques/caching');
    const button = menuButton(page);
    await expect(button).toBeVisible();
    await expect(button).toHaveText('v8');
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await button.click();
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    const list = menu(page);
    await expect(list).toBeVisible();
    const current = list.getByRole('link', {name: /^v8/});
    await expect(current).toHaveAttribute('aria-current', 'page');
    await expect(current).toHaveAttribute('href', '/techniques/caching');
    const latest = list.getByRole('link', {name: /^Latest \(v11\)/});
    await expect(latest).toHaveAttribute('href', 'https://docs.nestjs.com/techniques/caching');
    await expect(latest).toHaveAttribute('target', '_blank');
    for (const id of ['v7', 'v6', 'v5']) {
      await expect(list.getByRole('link', {name: new RegExp(`^${id}`)})).toHaveAttribute(
        'href',
        `https://docs.nestjs.com/${id}/`,
      );
    }
    // Groups named for screen readers.
    await expect(list.getByRole('list', {name: 'Archived'})).toBeVisible();
    await expect(list.getByRole('list', {name: 'Current docs'})).toBeVisible();
    // A click elsewhere closes it.
    await page.locator('article h1').click();
    await expect(list).toBeHidden();
  });

  test('moved pages open where they live now', async ({page}) => {
    await page.goto('/recipes/swagger');
    await menuButton(page).click();
    await expect(menu(page).getByRole('link', {name: /^Latest/})).toHaveAttribute(
      'href',
      'https://docs.nestjs.com/openapi/introduction',
    );
  });

  test('works with the keyboard: arrows, Home/End, Tab, Escape back to the button', async ({
    page,
  }) => {
    await page.goto('/controllers');
    const button = menuButton(page);
    await button.focus();
    await page.keyboard.press('ArrowDown');
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    const links = menu(page).getByRole('link');
    await expect(links).toHaveCount(5);
    await expect(links.nth(0)).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(links.nth(1)).toBeFocused();
    await page.keyboard.press('End');
    await expect(links.nth(4)).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(links.nth(0)).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await expect(links.nth(4)).toBeFocused();
    await page.keyboard.press('Home');
    await expect(links.nth(0)).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(links.nth(1)).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(menu(page)).toBeHidden();
    await expect(button).toBeFocused();
    // Enter opens it too; Arrow Up from the button goes to the last link.
    await page.keyboard.press('Enter');
    await expect(menu(page)).toBeVisible();
    await page.keyboard.press('Escape');
    await page.keyboard.press('ArrowUp');
    await expect(links.nth(4)).toBeFocused();
    // Tabbing out of the menu closes it.
    for (let i = 0; i < 5 && (await menu(page).isVisible()); i += 1) {
      await page.keyboard.press('Tab');
    }
    await expect(menu(page)).toBeHidden();
  });

  test('the version note and the footer read the same data', async ({page}) => {
    await page.goto('/pipes');
    const note = page.locator('[data-version-note]');
    await expect(note).toContainText('You are reading the docs for NestJS 8');
    await expect(note.getByRole('link', {name: 'migration guide'})).toHaveAttribute(
      'href',
      '/migration-guide',
    );
    await expect(note.getByRole('link', {name: 'this page for v11'})).toHaveAttribute(
      'href',
      'https://docs.nestjs.com/pipes',
    );
    // Not part of what the search indexes.
    await expect(page.locator('[data-pagefind-body] [data-version-note]')).toHaveCount(0);
    await expect(
      page.locator('footer.footer').getByRole('link', {name: 'Version 7'}),
    ).toHaveAttribute('href', archivedVersion('v7').url);
  });
});

test('every header item fits from 997 to 1250 px with the version menu', async ({page}) => {
  for (const width of [997, 1050, 1100, 1150, 1151, 1200, 1250]) {
    await page.setViewportSize({width, height: 800});
    await page.goto('/controllers');
    const bar = await page.locator('.navbar__inner').boundingBox();
    const boxes = await page
      .locator('.navbar__inner .navbar__item, .navbar__inner .navbar__brand')
      .evaluateAll((items) =>
        items
          .filter((item) => (item as HTMLElement).offsetParent !== null)
          .map((item) => {
            const box = item.getBoundingClientRect();
            return {left: box.left, right: box.right, top: box.top, bottom: box.bottom};
          }),
      );
    expect(bar).not.toBeNull();
    for (const box of boxes) {
      expect(box.right, `${width}px`).toBeLessThanOrEqual((bar?.x ?? 0) + (bar?.width ?? 0) + 1);
      expect(box.top, `${width}px: one row`).toBeGreaterThanOrEqual(0);
      expect(box.bottom, `${width}px: one row`).toBeLessThanOrEqual(70);
    }
    await expect(menuButton(page)).toBeVisible();
  }
});

test('on a phone the versions are inside the menu', async ({page}) => {
  await page.setViewportSize({width: 375, height: 740});
  await page.goto('/guards');
  await expect(menuButton(page)).toBeHidden();
  await page.getByRole('button', {name: 'Toggle side navigation'}).click();
  const drawer = page.locator('.navbar-sidebar');
  await drawer.getByRole('button', {name: /Back to main menu/}).click();
  const group = drawer.getByRole('button', {name: 'Version: v8'});
  await expect(group).toBeVisible();
  await expect(group).toHaveAttribute('aria-expanded', 'false');
  await group.click();
  await expect(group).toHaveAttribute('aria-expanded', 'true');
  await expect(drawer.getByRole('link', {name: /^Latest \(v11\)/})).toHaveAttribute(
    'href',
    'https://docs.nestjs.com/guards',
  );
  await expect(drawer.getByRole('link', {name: /^v7/})).toHaveAttribute(
    'href',
    'https://docs.nestjs.com/v7/',
  );
  await expect(drawer.getByRole('link', {name: /^v8/})).toHaveAttribute('aria-current', 'page');
});

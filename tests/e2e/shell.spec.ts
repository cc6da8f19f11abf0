import {expect, settleOnLoad, test, type Page} from './fixtures';
import {links} from '../../src/data/links';
import {archivedVersion} from '../../src/features/versions/versions';

const sidebar = (page: Page) => page.locator('nav[aria-label="Docs sidebar"]');
const toggle = (page: Page) => page.getByRole('button', {name: 'Toggle side navigation'});
const group = (page: Page, label: string) =>
  sidebar(page)
    .locator('li.theme-doc-sidebar-item-category')
    .filter({has: page.locator('> div > .menu__link', {hasText: new RegExp(`^${label}$`)})});

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`desktop, ${colorScheme}`, () => {
    test.use({viewport: {width: 1280, height: 900}, colorScheme});

    test('fixed 70px header with toggle, logo, social icons and top links', async ({page}) => {
      await page.goto('/controllers');
      await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
      const navbar = page.locator('nav.navbar');
      expect((await navbar.boundingBox())?.height).toBe(70);
      // It stays at the top while the page scrolls.
      await page.mouse.wheel(0, 2000);
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
      expect((await navbar.boundingBox())?.y).toBe(0);
      await expect(page.locator('a.navbar__brand')).toHaveAttribute('href', '/');
      for (const name of ['GitHub', 'Discord', 'X (Twitter)', 'Stack Overflow', 'NestJS website']) {
        const icon = page.getByRole('link', {name: `${name} (opens in a new tab)`});
        await expect(icon).toBeVisible();
        await expect(icon).toHaveAttribute('target', '_blank');
        await expect(icon).toHaveAttribute('rel', 'noopener noreferrer');
      }
      await expect(page.getByRole('link', {name: 'Sponsor us'})).toHaveAttribute(
        'href',
        '/support',
      );
      for (const [name, href] of [
        ['Our website', links.website],
        ['Courses', links.courses],
        ['Enterprise support', links.enterprise],
      ]) {
        const link = navbar.locator('a.navbar__link', {hasText: name});
        await expect(link).toHaveAttribute('href', href);
        await expect(link).toHaveAttribute('target', '_blank');
        await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
      }
    });

    test('the toggle hides and shows the docs sidebar', async ({page}) => {
      await page.goto('/controllers');
      await expect(toggle(page)).toHaveAttribute('aria-expanded', 'true');
      await expect(sidebar(page)).toBeVisible();
      await toggle(page).click();
      await expect(toggle(page)).toHaveAttribute('aria-expanded', 'false');
      await expect(sidebar(page)).toHaveCount(0);
      await toggle(page).click();
      await expect(sidebar(page)).toBeVisible();
    });

    test('menu groups follow the route; the active entry is highlighted', async ({page}) => {
      await page.goto('/');
      await expect(group(page, 'Overview')).not.toHaveClass(/menu__list-item--collapsed/);
      await expect(group(page, 'Techniques')).toHaveClass(/menu__list-item--collapsed/);
      await group(page, 'Techniques').locator('> div > .menu__link--sublist').click();
      await expect(group(page, 'Techniques')).not.toHaveClass(/menu__list-item--collapsed/);
      await sidebar(page).locator('a.menu__link[href="/techniques/caching"]').click();
      await expect(page).toHaveURL(/\/techniques\/caching$/);
      await expect(group(page, 'Overview')).toHaveClass(/menu__list-item--collapsed/);
      await expect(group(page, 'Techniques')).not.toHaveClass(/menu__list-item--collapsed/);
      const active = sidebar(page).locator('a.menu__link--active:not(.menu__link--sublist)');
      await expect(active).toHaveCount(1);
      await expect(active).toHaveAttribute('href', '/techniques/caching');
      await page.goto('/security/cors');
      await expect(group(page, 'Techniques')).toHaveClass(/menu__list-item--collapsed/);
      await expect(group(page, 'Security')).not.toHaveClass(/menu__list-item--collapsed/);
    });

    test('table of contents lists sections and highlights the current one', async ({page}) => {
      await page.goto('/controllers');
      const toc = page.locator('.theme-doc-toc-desktop');
      await expect(toc.locator('a[href="#routing"]')).toBeVisible();
      await expect(toc.locator('a[href="#request-object"]')).toBeVisible();
      await page.evaluate(() => {
        const heading = document.getElementById('headers')!;
        window.scrollTo(0, heading.getBoundingClientRect().top + window.scrollY - 90);
      });
      await expect(toc.locator('a.table-of-contents__link--active')).toHaveAttribute(
        'href',
        '#headers',
      );
    });

    test('sponsors block, suggest-edits link, pagination and footer', async ({page}) => {
      await page.clock.setFixedTime(new Date('2031-06-15T12:00:00Z'));
      await page.goto('/providers');
      await expect(page.getByRole('link', {name: 'Become a sponsor'})).toHaveAttribute(
        'href',
        '/support',
      );
      await expect(page.getByRole('link', {name: 'Suggest edits'})).toHaveAttribute(
        'href',
        `${links.editBase}docs/providers.md`,
      );
      await expect(page.locator('.pagination-nav__link--prev')).toHaveAttribute(
        'href',
        '/controllers',
      );
      await expect(page.locator('.pagination-nav__link--next')).toHaveAttribute('href', '/modules');
      const footer = page.locator('footer.footer');
      await expect(footer).toContainText('© 2017-2031');
      await expect(footer).toContainText('MIT');
      await expect(footer.getByRole('link', {name: 'Version 7'})).toHaveAttribute(
        'href',
        archivedVersion('v7').url,
      );
    });

    test('fonts are self-hosted and loaded', async ({page}) => {
      // Only fonts and style sheets matter here: the ad script, loaded when the
      // browser is idle, is a third party by design (the resilience tests cover it).
      const external: string[] = [];
      const fonts: string[] = [];
      page.on('request', (request) => {
        const type = request.resourceType();
        if (type !== 'font' && type !== 'stylesheet') return;
        const {hostname} = new URL(request.url());
        if (type === 'font') fonts.push(request.url());
        if (!['127.0.0.1', 'localhost'].includes(hostname)) external.push(request.url());
      });
      await page.goto('/controllers');
      await page.evaluate(() => document.fonts.ready);
      expect(await page.evaluate(() => document.fonts.check('16px "Source Sans 3"'))).toBe(true);
      expect(fonts.length).toBeGreaterThan(0);
      expect(external).toEqual([]);
    });
  });
}

for (const width of [768, 375]) {
  test.describe(`narrow ${width}px`, () => {
    test.use({viewport: {width, height: 800}});

    test('the side navigation starts closed and the toggle opens the drawer', async ({page}) => {
      await page.goto('/controllers');
      await expect(toggle(page)).toHaveAttribute('aria-expanded', 'false');
      await expect(page.locator('.navbar-sidebar')).not.toBeVisible();
      await toggle(page).click();
      await expect(page.locator('.navbar-sidebar')).toBeVisible();
      // Navigating closes it again.
      await page.locator('.navbar-sidebar a.menu__link[href="/providers"]').click();
      await expect(page).toHaveURL(/\/providers$/);
      await expect(page.locator('.navbar-sidebar')).not.toBeVisible();
    });
  });
}

/** Runs the idle callbacks the init script below has held (`window.heldIdle`). */
const releaseIdle = (page: Page) =>
  page.evaluate(() => {
    const held = (window as unknown as {heldIdle: IdleRequestCallback[]}).heldIdle;
    for (const callback of held.splice(0)) callback({didTimeout: false, timeRemaining: () => 50});
  });

test("on a phone the drawer waits for the browser's idle time, and a tap before it renders it at once", async ({
  page,
}) => {
  // Idle callbacks are held until the test releases them: without the deferral
  // (src/features/shell/client/NavbarMobileSidebar.tsx) Docusaurus renders the drawer right
  // after hydration, and it would be in the page here. (On the context: the second page too.)
  await page.context().addInitScript(() => {
    const held: IdleRequestCallback[] = [];
    Object.assign(window, {
      heldIdle: held,
      requestIdleCallback: (callback: IdleRequestCallback) => held.push(callback),
      cancelIdleCallback: () => undefined,
    });
  });
  await page.setViewportSize({width: 412, height: 800});
  await page.goto('/controllers');
  await page.waitForTimeout(500);
  await expect(page.locator('.navbar-sidebar')).toHaveCount(0);
  await toggle(page).click();
  const drawer = page.locator('.navbar-sidebar');
  await expect(drawer).toBeVisible();
  await expect(drawer.locator('a.menu__link[href="/providers"]')).toBeVisible();

  // Released, the idle render changes nothing for a drawer already there.
  await releaseIdle(page);
  await expect(drawer).toBeVisible();

  // Without a tap, the drawer is in the page once the browser is idle, closed.
  const fresh = settleOnLoad(await page.context().newPage());
  await fresh.setViewportSize({width: 412, height: 800});
  await fresh.goto('/controllers');
  await expect(fresh.locator('.navbar-sidebar')).toHaveCount(0);
  await releaseIdle(fresh);
  await expect(fresh.locator('.navbar-sidebar')).toHaveCount(1);
  await expect(fresh.locator('.navbar-sidebar')).not.toBeVisible();
});

test('a wide window narrowed to 768px closes the side navigation', async ({page}) => {
  await page.setViewportSize({width: 1280, height: 800});
  await page.goto('/controllers');
  await expect(sidebar(page)).toBeVisible();
  await page.setViewportSize({width: 768, height: 800});
  await expect(page.locator('aside.theme-doc-sidebar-container')).not.toBeVisible();
  await expect(toggle(page)).toHaveAttribute('aria-expanded', 'false');
});

test('a page change fades the content in; the first load and reduced motion do not', async ({
  page,
}) => {
  const content = page.locator('.theme-doc-markdown');
  await page.goto('/controllers');
  // The first paint is not delayed by a fade.
  await expect(content).toHaveCSS('animation-name', 'none');
  await page.locator('nav[aria-label="Docs sidebar"] a.menu__link[href="/providers"]').click();
  await expect(page).toHaveURL(/\/providers$/);
  await expect(content).toHaveCSS('animation-name', 'page-fade-in');
  await page.emulateMedia({reducedMotion: 'reduce'});
  await expect(content).toHaveCSS('animation-name', 'none');
});

test('the header shows its items only once the parser has passed all of them', async ({page}) => {
  // src/features/shell/client/custom.css: a page painted while the parser is inside the header (a starved CPU)
  // must not show the items arriving one by one. Here the HTML ends inside the header, as a
  // paint at that moment would see it: the header's content stays hidden.
  const html = await (await page.request.get('/controllers')).text();
  const cutAt = html.search(/<div class="[^"]*navbar__items--right/);
  expect(cutAt).toBeGreaterThan(html.indexOf('navbar__brand'));
  await page.route('**/controllers?partial', (route) =>
    route.fulfill({contentType: 'text/html', body: html.slice(0, cutAt)}),
  );
  await page.goto('/controllers?partial');
  await expect(page.locator('.navbar__brand')).toHaveCount(1);
  await expect(page.locator('.navbar__inner')).toHaveCSS('visibility', 'hidden');
  await page.goto('/controllers');
  await expect(page.locator('.navbar__inner')).toHaveCSS('visibility', 'visible');
  await expect(page.locator('.navbar__brand')).toBeVisible();
});

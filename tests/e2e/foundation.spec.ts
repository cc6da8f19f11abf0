import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {expect, test} from './fixtures';
import {buildDir} from './hosts';
import sidebars from '../../sidebars';
import {links} from '../../src/data/links';
import {noindexMarker, redirects} from '../../src/features/redirects/redirects';
import {docExists} from '../../src/features/shell/node/docs';
import {emittedRedirects} from '../../src/features/redirects/node/emitted';
import {collectPageErrors, siteTitle} from './helpers';

// Every sitemap URL's h1, title and lack of page errors: the sweep of every page (pages.spec.ts).

test('the home page is the introduction', async ({page}) => {
  await page.goto('/');
  await expect(page.locator('h1')).toHaveText('Introduction');
  await expect(page).toHaveTitle(`Documentation | ${siteTitle}`);
});

test('the migration guide has its own title', async ({page}) => {
  await page.goto('/migration-guide');
  await expect(page).toHaveTitle(`Migration guide - FAQ | ${siteTitle}`);
});

for (const redirect of redirects) {
  test(`${redirect.from} redirects to ${redirect.to}`, async ({page}) => {
    await page.goto(redirect.from);
    // A redirect waits for its target page; until then the old URL is unknown and lands on `/`.
    const expected = docExists(redirect.to) ? redirect.to : '/';
    await expect(page).toHaveURL((url) => url.pathname === expected);
    await expect(page.locator('h1').first()).toBeVisible();
  });
}

/** The build's `/consulting` page, served where no hosting rule answers first. */
const consultingPage = () => readFileSync(join(buildDir, 'consulting.html'), 'utf8');

test('/consulting leaves for the external enterprise site', async ({page}) => {
  await page.route(`${links.enterprise}/**`, (route) =>
    route.fulfill({contentType: 'text/html', body: '<title>Enterprise</title><h1>Enterprise</h1>'}),
  );
  // The URL, and `/consulting.html`, answer with a 301 where the hosting rules apply
  // (tests/e2e/hosting.spec.ts). The page, for hosts without them, leaves too.
  await page.route('**/consulting', (route) =>
    route.fulfill({contentType: 'text/html', body: consultingPage()}),
  );
  await page.goto('/consulting');
  await expect(page).toHaveURL((url) => url.href.startsWith(links.enterprise));
});

test('/consulting keeps a meta refresh and a visible link for readers without JavaScript', () => {
  // The page's HTML, the fallback of hosts without the hosting rules: in a browser the refresh
  // would leave at once.
  const html = consultingPage();
  const url = links.enterprise.replace(/[.]/g, '\\.');
  expect(html).toMatch(new RegExp(`http-equiv="?refresh"? content="0; url=${url}"`));
  expect(html).toMatch(new RegExp(`<main[^>]*>.*<a href="?${url}"?[ >]`, 's'));
});

test('an unknown path sends the reader to the home page', async ({page}) => {
  const errors = collectPageErrors(page);
  await page.goto('/this/page/does-not-exist');
  await expect(page).toHaveURL((url) => url.pathname === '/');
  await expect(page.locator('h1')).toHaveText('Introduction');
  expect(errors()).toEqual([]);
});

test('the 404 page shows a link home without JavaScript', async ({browser}) => {
  const context = await browser.newContext({javaScriptEnabled: false});
  const page = await context.newPage();
  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(404);
  await expect(page.locator('main a[href="/"]')).toBeVisible();
  await context.close();
});

test('URLs containing the noindex marker carry robots noindex', async ({page}) => {
  const marked = emittedRedirects().filter((redirect) => redirect.from.includes(noindexMarker));
  expect(marked.length).toBeGreaterThan(0);
  for (const redirect of marked) {
    // The fallback page (the URL itself answers with a 301 where the hosting rules apply).
    const html = await (await page.request.get(`${redirect.from}/index.html`)).text();
    expect(html, redirect.from).toContain('<meta name="robots" content="noindex">');
  }
});

type Item = {
  type: string;
  label?: string;
  id?: string;
  items?: Item[];
  value?: string;
  href?: string;
};

function flatten(items: readonly Item[]): Item[] {
  return items.flatMap((item) => [item, ...(item.items ? flatten(item.items) : [])]);
}

test('the menu mirrors the tree; pending entries are greyed and are not links', async ({page}) => {
  await page.setViewportSize({width: 1280, height: 900});
  await page.goto('/');
  const menu = page.locator('nav[aria-label="Docs sidebar"]');
  // Open every collapsed group.
  for (;;) {
    const closed = menu.locator('.menu__list-item--collapsed > div > .menu__link--sublist');
    if ((await closed.count()) === 0) break;
    await closed.first().click();
  }
  const entries = flatten(sidebars.docs as Item[]);
  const expectedLabels = entries.map((item) =>
    item.type === 'html'
      ? (item.value ?? '')
          .replace(/<[^>]+>/g, '')
          .replace(/soon$/, '')
          .replace(/&amp;/g, '&')
      : item.label,
  );
  const shownLabels = await menu.locator('.menu__link').evaluateAll((nodes) =>
    nodes.map((node) =>
      (node.querySelector('.menu-pending__hint')
        ? Array.from(node.childNodes)
            .filter((child) => child.nodeType === Node.TEXT_NODE)
            .map((child) => child.textContent)
            .join('')
        : (node.textContent ?? '')
      ).trim(),
    ),
  );
  expect(shownLabels).toEqual(expectedLabels);

  const pending = menu.locator('.menu-pending .menu-pending__label');
  const pendingCount = entries.filter((item) => item.type === 'html').length;
  await expect(pending).toHaveCount(pendingCount);
  for (let index = 0; index < pendingCount; index += 1) {
    const item = pending.nth(index);
    await expect(item).toHaveAttribute('aria-disabled', 'true');
    await expect(item).not.toHaveAttribute('href');
    await expect(item.locator('a')).toHaveCount(0);
    await expect(item).toContainText('soon');
  }
  const docLinks = entries.filter((item) => item.type === 'doc');
  for (const item of docLinks) {
    const href = item.id === 'introduction' ? '/' : `/${item.id}`;
    await expect(menu.locator(`a.menu__link[href="${href}"]`)).toHaveCount(1);
  }
});

test('pages of links in view are prefetched; navigation still works', async ({page}) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto('/controllers');
  await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
  await expect.poll(() => page.locator('link[rel="prefetch"]').count()).toBeGreaterThan(10);
  await page.locator('.pagination-nav__link--next').hover();
  await page.locator('.pagination-nav__link--next').click();
  await expect(page).toHaveURL(/\/providers$/);
  await expect(page.locator('h1')).toHaveText('Providers');
  expect(errors).toEqual([]);
});

test('the first paint comes before the bundles are requested; then React takes over', async ({
  page,
}) => {
  const errors = collectPageErrors(page);
  await page.goto('/controllers');
  // src/features/bundle/node/ssrTemplate.ts: no script tag loads a bundle from the HTML itself.
  const html = await (await page.request.get('/controllers')).text();
  expect(html).not.toMatch(/<script[^>]*\bsrc=/);
  await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
  const timing = await page.evaluate(() => {
    const paint = performance.getEntriesByName('first-paint')[0]?.startTime;
    const bundles = performance
      .getEntriesByType('resource')
      .filter((entry) => /\/assets\/js\/(runtime~)?main\.[^/]+\.js$/.test(entry.name))
      .map((entry) => entry.startTime);
    return {paint, bundles, state: (window as {__bundles?: string}).__bundles};
  });
  expect(timing.bundles).toHaveLength(2);
  expect(timing.paint).toBeGreaterThan(0);
  for (const start of timing.bundles) expect(start).toBeGreaterThanOrEqual(timing.paint);
  expect(timing.state).toBe('loaded');
  expect(errors()).toEqual([]);
});

test('the bundles every page loads carry no data only the server or doc cards need', async ({
  page,
}) => {
  const scripts = new Set<string>();
  page.on('request', (request) => {
    if (request.resourceType() === 'script' && request.url().includes('/assets/js/')) {
      scripts.add(request.url());
    }
  });
  await page.goto('/controllers');
  await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
  const bodies = new Map(
    await Promise.all(
      [...scripts].map(async (url) => [url, await (await page.request.get(url)).text()] as const),
    ),
  );
  // src/features/bundle/node/slimDocsVersion.ts: the version metadata without the pages' descriptions.
  const version = [...bodies.values()].filter((body) => body.includes('"docsSidebars":'));
  expect(version).toHaveLength(1);
  expect(version[0]).toContain('"title":"Controllers"');
  expect(version[0]).not.toContain('description');
  // The page's own description is still there, in its head.
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /.{40,}/);
  // src/features/bundle/node/slimSiteConfig.ts and tslibHelpers.ts: the main bundle has the site config
  // without its server-only fields, and none of tslib's helpers but the one it calls.
  const main = [...bodies].find(([url]) => /\/main\.[^/]+\.js$/.test(url))?.[1] ?? '';
  expect(main).toContain('onBrokenLinks:"throw"');
  expect(main).not.toContain('ssrTemplate');
  expect(main).not.toContain('loadBundles');
  expect(main).not.toContain('Private accessor was defined without a getter');
  // src/features/bundle/node/compileHints.ts: V8's compile hint opens the main and runtime
  // bundles (a line of its own, first); the page's other chunks have none.
  for (const [url, body] of bodies) {
    const hinted = /\/(runtime~)?main\.[^/]+\.js$/.test(url);
    expect(body.startsWith('//# allFunctionsCalledOnLoad\n'), url).toBe(hinted);
  }
  expect([...bodies.keys()].filter((url) => /\/(runtime~)?main\./.test(url))).toHaveLength(2);
});

/**
 * The static article (src/features/static-article): on a first load React adopts the server's
 * article without hydrating it. No element inside it carries React's fiber key, the nodes taken
 * before hydration are the nodes after it, and the shell around it is hydrated. A client-side
 * navigation renders the next article with React. What the article's components did works
 * without them: in-article links (client-side navigation, preload on hover, prefetch in view),
 * heading anchors, tables' keyboard focus; the code pairs, code buttons, "Copy page", diagrams
 * and search highlight have their own specs, which run on static articles now.
 *
 * These tests fail if an upgrade of React or Docusaurus stops the mechanism from holding: a
 * hydrated article has fibers, a re-rendered or re-parsed one has other nodes.
 */
import {expect, test, type Page} from './fixtures';
import {collectPageErrors} from './helpers';

/** Whether the element (or each element under a root) carries React's fiber key. */
const fiberCount = (page: Page, selector: string) =>
  page.evaluate((selector) => {
    const root = document.querySelector(selector);
    if (!root) throw new Error(`no ${selector}`);
    const elements = Array.from(root.querySelectorAll('*'));
    const hasFiber = (element: Element) =>
      Object.keys(element).some((key) => key.startsWith('__reactFiber$'));
    return {
      root: hasFiber(root),
      elements: elements.length,
      withFiber: elements.filter(hasFiber).length,
    };
  }, selector);

/** Keeps, before React runs, the article and a sample of its nodes on `window.__before`. */
async function keepNodesBeforeHydration(page: Page): Promise<void> {
  await page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      const article = document.querySelector('[data-static-article]');
      const nodes = article ? Array.from(article.querySelectorAll('*')) : [];
      const step = Math.max(1, Math.floor(nodes.length / 50));
      Object.assign(window, {
        __before: {
          article,
          count: nodes.length,
          sample: nodes.filter((_, index) => index % step === 0),
          // Hydration must not have started: the bundles load after the first paint.
          reactStarted: 'docusaurusRoot' in window,
        },
      });
    });
  });
}

/** Console messages that report hydration problems (React logs them as errors or warnings). */
function collectHydrationMessages(page: Page): () => string[] {
  const messages: string[] = [];
  page.on('console', (message) => {
    if (
      ['error', 'warning'].includes(message.type()) &&
      /hydrat|did not match|onRecoverableError/i.test(message.text())
    ) {
      messages.push(message.text());
    }
  });
  return () => messages;
}

/**
 * Opens `path` and starts watching navigations: the returned check passes when every navigation
 * since was client-side (the same document, no document request).
 */
async function openWatchingNavigations(page: Page, path: string): Promise<() => Promise<void>> {
  const documents: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'document') documents.push(request.url());
  });
  await page.goto(path);
  await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
  await page.evaluate(() => Object.assign(window, {__sameDocument: true}));
  documents.length = 0;
  return async () => {
    expect(await page.evaluate(() => '__sameDocument' in window)).toBe(true);
    expect(documents).toEqual([]);
  };
}

for (const path of ['/', '/controllers', '/techniques/queues']) {
  test(`${path}: the article keeps the server's nodes and has no fibers; the shell hydrates`, async ({
    page,
  }) => {
    const errors = collectPageErrors(page);
    const hydration = collectHydrationMessages(page);
    await keepNodesBeforeHydration(page);
    await page.setViewportSize({width: 1280, height: 800});
    await page.goto(path);
    await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
    // Re-render the page around the article: across the layout's breakpoint, Docusaurus swaps
    // the desktop table of contents for the mobile one (useWindowSize) and back.
    await page.setViewportSize({width: 800, height: 800});
    await expect(page.locator('.theme-doc-toc-desktop')).toHaveCount(0);
    await page.setViewportSize({width: 1280, height: 800});
    await expect(page.locator('.theme-doc-toc-desktop')).toHaveCount(1);

    const article = await fiberCount(page, '[data-static-article]');
    expect(article.elements).toBeGreaterThan(50);
    // React owns the article's element (it is part of the tree) but nothing inside it.
    expect(article.root).toBe(true);
    expect(article.withFiber).toBe(0);
    // The shell around it is hydrated.
    const shell = await fiberCount(page, 'nav.navbar');
    expect(shell.root).toBe(true);
    expect(shell.withFiber).toBeGreaterThan(0);

    const same = await page.evaluate(() => {
      const before = (
        window as unknown as {
          __before?: {
            article: Element | null;
            count: number;
            sample: Element[];
            reactStarted: boolean;
          };
        }
      ).__before;
      const article = document.querySelector('[data-static-article]');
      if (!before || !article) return null;
      return {
        reactStarted: before.reactStarted,
        article: before.article === article,
        count: before.count === article.querySelectorAll('*').length,
        sampled: before.sample.length,
        kept: before.sample.filter((node) => node.isConnected && article.contains(node)).length,
      };
    });
    expect(same).not.toBeNull();
    expect(same?.reactStarted).toBe(false);
    expect(same?.article).toBe(true);
    expect(same?.count).toBe(true);
    expect(same?.sampled).toBeGreaterThan(40);
    expect(same?.kept).toBe(same?.sampled);
    expect(errors()).toEqual([]);
    expect(hydration()).toEqual([]);
  });
}

test('an in-article link navigates client-side; the next article is rendered by React', async ({
  page,
}) => {
  const errors = collectPageErrors(page);
  const onlyClientSide = await openWatchingNavigations(page, '/controllers');

  const link = page.locator('[data-static-article] a[href="/modules"]').first();
  await link.scrollIntoViewIfNeeded();
  await link.click();
  await expect(page).toHaveURL(/\/modules$/);
  await expect(page.locator('article h1')).toHaveText('Modules');
  await onlyClientSide();
  // Rendered by React this time: the article's elements are fibers.
  const next = await fiberCount(page, '[data-static-article]');
  expect(next.withFiber).toBe(next.elements);
  // ...and its code pairs work through the same delegated listener.
  const pair = page.locator('[data-code-pair="pair"]').first();
  await pair.getByRole('button', {name: 'Show JavaScript'}).click();
  await expect(pair.locator('[data-code-pair-half="js"]')).toBeVisible();
  await expect(pair.locator('[data-code-pair-half="ts"]')).toHaveAttribute('hidden', '');
  await pair.getByRole('button', {name: 'Show TypeScript'}).click();
  expect(errors()).toEqual([]);
});

test('links of the static article preload on hover and prefetch in view', async ({page}) => {
  await page.setViewportSize({width: 1280, height: 700});
  await page.goto('/controllers');
  await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
  // Record what the links ask Docusaurus for (they read `window.docusaurus` at each call).
  await page.evaluate(() => {
    const calls: string[] = [];
    const original = window.docusaurus;
    window.docusaurus = {
      prefetch: (url) => (calls.push(`prefetch ${url}`), original.prefetch(url)),
      preload: (url) => (calls.push(`preload ${url}`), original.preload(url)),
    };
    Object.assign(window, {__linkCalls: calls});
  });
  const calls = () => page.evaluate(() => (window as {__linkCalls?: string[]}).__linkCalls ?? []);

  // A link further down the page, not yet seen: prefetched once it scrolls into view.
  const links = page.locator('[data-static-article] a[href^="/"]:not([href$=".md"])');
  const last = links.last();
  const href = new URL((await last.getAttribute('href')) ?? '', 'http://x').pathname;
  expect(await calls()).not.toContain(`prefetch ${href}`);
  await last.scrollIntoViewIfNeeded();
  await expect.poll(calls).toContain(`prefetch ${href}`);
  await last.hover();
  await expect.poll(calls).toContain(`preload ${href}`);
  // Files and other sites are not the app's pages: neither.
  expect((await calls()).filter((call) => /\.md$|https?:/.test(call))).toEqual([]);
});

test('"View as Markdown" and external links are left to the browser', async ({page}) => {
  await page.goto('/controllers');
  await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
  const view = page.locator('[data-copy-page] a');
  const [response] = await Promise.all([page.waitForResponse(/\/controllers\.md$/), view.click()]);
  expect(response.status()).toBe(200);
  await expect(page).toHaveURL(/\/controllers\.md$/);
});

test('heading anchors and tables work in the static article', async ({page}) => {
  await page.goto('/controllers');
  await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
  const heading = page.locator('[data-static-article] h2').nth(1);
  const id = await heading.getAttribute('id');
  await heading.hover();
  await heading.locator('a.hash-link').click();
  await expect(page).toHaveURL(new RegExp(`#${id}$`));
  await expect(heading).toBeInViewport();

  // Tables scroll sideways on narrow screens, so each takes the keyboard focus.
  const table = page.locator('[data-static-article] table').first();
  await expect(table).toHaveAttribute('tabindex', '0');
  await table.focus();
  await expect(table).toBeFocused();
});

test('the word-wrap button shows on the blocks whose code is wider than the block only', async ({
  page,
}) => {
  await page.setViewportSize({width: 1280, height: 900});
  await page.goto('/pipes');
  await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
  const blocks = () =>
    page.evaluate(() =>
      Array.from(document.querySelectorAll('.theme-doc-markdown .theme-code-block'))
        .map((block) => ({
          pre: block.querySelector('pre'),
          wrap: block.querySelector<HTMLElement>('button[data-code-wrap]'),
        }))
        .filter(({pre}) => pre && pre.clientWidth > 0)
        .map(({pre, wrap}) => ({
          overflows: (pre?.scrollWidth ?? 0) > (pre?.clientWidth ?? 0),
          shown: !!wrap && getComputedStyle(wrap).display !== 'none',
        })),
    );
  // Measured in idle time after the route update.
  await expect
    .poll(async () => (await blocks()).filter((block) => block.shown !== block.overflows).length)
    .toBe(0);
  const measured = await blocks();
  expect(measured.filter((block) => block.overflows).length).toBeGreaterThan(0);
  expect(measured.filter((block) => !block.overflows).length).toBeGreaterThan(0);
});

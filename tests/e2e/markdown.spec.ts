/**
 * The Markdown side of the site (src/features/markdown-twins/node/step.ts, src/features/markdown-twins/client/CopyPage): "Copy
 * page" copies the page's twin, "View as Markdown" opens it, every page of the sitemap has one
 * served as `text/markdown`, and `/llms.txt` lists each page once. Requests only, but for the
 * button.
 */
import {execFileSync} from 'node:child_process';
import {expect, test, type Page} from './fixtures';
import {sitemapPaths} from './helpers';

const twinOf = (path: string) => (path === '/' ? '/index.md' : `${path}.md`);

/**
 * Stops the page's timers (the confirmation resets after 3 s), so that a busy machine cannot
 * let it go before it is read; `page.clock.runFor` moves them on.
 */
async function pauseTimers(page: Page): Promise<void> {
  await page.clock.install();
  await page.clock.pauseAt(Date.now() + 1000);
}

/** The copy controls of the page. */
function controls(page: Page) {
  const box = page.locator('[data-copy-page]');
  return {
    box,
    button: box.getByRole('button'),
    view: box.getByRole('link', {name: 'View as Markdown'}),
    status: box.getByRole('status'),
  };
}

test('Copy page copies the Markdown of the page, by keyboard, and says so', async ({
  page,
  context,
  baseURL,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], {origin: baseURL});
  await page.goto('/techniques/caching');
  await pauseTimers(page);
  const {button, view, status} = controls(page);
  await expect(button).toHaveText('Copy page');
  await expect(page.locator('h1 + [data-copy-page]')).toHaveCount(1);

  await button.focus();
  await page.keyboard.press('Enter');
  await expect(button).toHaveText('Copied');
  await expect(status).toHaveText('Copied');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const twin = await page.request.get('/techniques/caching.md');
  expect(copied).toBe(await twin.text());
  expect(copied.startsWith('# Caching\n')).toBe(true);
  expect(copied).not.toContain('Copy page');
  await page.clock.runFor(3000);
  await expect(button).toHaveText('Copy page');
  await expect(status).toHaveText('');

  // "View as Markdown" is the same file, served as Markdown.
  await expect(view).toHaveAttribute('href', '/techniques/caching.md');
  expect(twin.status()).toBe(200);
  expect(twin.headers()['content-type']).toBe('text/markdown; charset=utf-8');
  expect(twin.headers()['cache-control']).toBe('no-cache');
});

test('Copy page reports a failure', async ({page, context, baseURL}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], {origin: baseURL});
  await page.route('**/pipes.md', (route) => route.fulfill({status: 503, body: ''}));
  await page.goto('/pipes');
  await pauseTimers(page);
  const {button, status} = controls(page);
  await button.click();
  await expect(button).toHaveText('Copy failed');
  await expect(status).toHaveText('Copy failed');
});

test('the copy controls leave the title its width at 375 px', async ({page}) => {
  await page.setViewportSize({width: 375, height: 800});
  for (const path of ['/pipes', '/fundamentals/lazy-loading-modules']) {
    await page.goto(path);
    const h1 = page.locator('article h1');
    const {box, button} = controls(page);
    await expect(button).toBeVisible();
    const [title, actions] = [await h1.boundingBox(), await box.boundingBox()];
    if (!title || !actions) throw new Error(`${path}: no title or controls`);
    // No overlap: the controls are below the title.
    const apart = actions.y >= title.y + title.height - 1;
    expect(apart, path).toBe(true);
    expect(actions.x + actions.width, path).toBeLessThanOrEqual(375);
    // Not squeezed: the title keeps the lines it has without the controls.
    const alone = await h1.evaluate(
      (element, controlsBox) => {
        (controlsBox as HTMLElement).style.display = 'none';
        const height = element.getBoundingClientRect().height;
        (controlsBox as HTMLElement).style.display = '';
        return height;
      },
      await box.elementHandle(),
    );
    expect(title.height, path).toBe(alone);
  }
});

test('every page of the sitemap has its Markdown twin, and llms.txt lists each once', async ({
  page,
}) => {
  const paths = await sitemapPaths(page);
  expect(paths.length).toBeGreaterThan(100);
  const llms = await page.request.get('/llms.txt');
  expect(llms.status()).toBe(200);
  expect(llms.headers()['content-type']).toBe('text/plain; charset=utf-8');
  const text = await llms.text();
  const listed = [...text.matchAll(/^- \[.+?\]\(https:\/\/docs\.nestjs\.com(\/\S+?)\)/gm)].map(
    (match) => match[1],
  );
  expect([...listed].sort()).toEqual(paths.map(twinOf).sort());

  const full = await page.request.get('/llms-full.txt');
  expect(full.headers()['content-type']).toBe('text/plain; charset=utf-8');

  for (const path of paths) {
    const response = await page.request.get(twinOf(path));
    expect(response.status(), path).toBe(200);
    expect(response.headers()['content-type'], path).toBe('text/markdown; charset=utf-8');
    expect((await response.text()).startsWith('# '), path).toBe(true);
  }

  // The same build, checked on disk (no MDX left, _headers, Pagefind, llms-full.txt).
  const output = execFileSync(
    process.execPath,
    ['scripts/check-markdown-build.mjs', process.env.E2E_BUILD_DIR ?? 'build'],
    {encoding: 'utf8'},
  );
  expect(output).toMatch(/^\d+ pages: /);
});

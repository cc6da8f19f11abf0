/** "Report a problem with this page" (src/features/feedback). */
import {expect, test, type Page} from './fixtures';

const report = (page: Page) => page.getByRole('link', {name: 'Report a problem with this page'});

/** The decoded title and body of the link's new-issue URL. */
async function issue(page: Page): Promise<{url: URL; title: string; body: string}> {
  const href = await report(page).getAttribute('href');
  const url = new URL(href ?? '');
  return {
    url,
    title: url.searchParams.get('title') ?? '',
    body: url.searchParams.get('body') ?? '',
  };
}

test.use({viewport: {width: 1280, height: 800}});

test('sits beside Suggest edits and opens a new issue in the docs repository', async ({page}) => {
  await page.goto('/pipes');
  const link = report(page);
  await expect(link).toBeVisible();
  await expect(link).toHaveAttribute('target', '_blank');
  const row = page.locator('.theme-doc-footer-edit-meta-row');
  await expect(row.getByRole('link', {name: 'Suggest edits'})).toBeVisible();
  await expect(row.getByRole('link', {name: 'Report a problem with this page'})).toBeVisible();
  const {url, title, body} = await issue(page);
  expect(`${url.origin}${url.pathname}`).toBe(
    'https://github.com/nestjs/docs.nestjs.com/issues/new',
  );
  expect(title).toBe('Problem on "Pipes"');
  expect(body).toContain('- Page: [Pipes](https://docs.nestjs.com/pipes)');
  expect(body).toContain('- Docs version: v8 (NestJS 8.4.7)');
});

test('carries the selection, its section and the JavaScript choice', async ({page}) => {
  await page.goto('/pipes?lang=js');
  // Select the first paragraph after the "Binding pipes" heading.
  const paragraph = page.locator('h2#binding-pipes ~ p').first();
  const text = (await paragraph.innerText()).trim();
  await paragraph.evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    const selection = window.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
  });
  // Reach the link with the keyboard: focus leaves the selection as it is.
  await report(page).focus();
  const {title, body} = await issue(page);
  expect(title).toBe('Problem on "Pipes" (Binding pipes)');
  expect(body).toContain('- Section: [Binding pipes](https://docs.nestjs.com/pipes#binding-pipes)');
  expect(body).toContain('- Code samples shown in: JavaScript');
  expect(body).toContain(`### Selected text\n\n> ${text.split('\n')[0]}`);
});

test('without a selection, names the section the reader stayed on; a click keeps the selection it had', async ({
  page,
  context,
}) => {
  await page.goto('/guards');
  const link = report(page);
  // Read a section for a while, then go down to the link: the section read is the one named.
  await page.locator('h2#role-based-authorization').evaluate((heading) => {
    window.scrollTo(0, heading.getBoundingClientRect().top + window.scrollY - 80);
  });
  await page.waitForTimeout(2000);
  await link.scrollIntoViewIfNeeded();
  await link.hover();
  let {title, body} = await issue(page);
  expect(title).toBe('Problem on "Guards" (Role-based authorization)');
  expect(body).toContain(
    '- Section: [Role-based authorization](https://docs.nestjs.com/guards#role-based-authorization)',
  );
  expect(body).not.toContain('Selected text');

  // A mouse selection, then a click on the link: the new tab opens with the selection.
  const words = page.locator('h2#binding-guards ~ p').first();
  await words.scrollIntoViewIfNeeded();
  await words.selectText();
  const selected = await page.evaluate(() => window.getSelection()?.toString() ?? '');
  expect(selected.length).toBeGreaterThan(10);
  await link.scrollIntoViewIfNeeded();
  // No network here: GitHub is answered locally.
  await context.route('https://github.com/**', (route) =>
    route.fulfill({contentType: 'text/html', body: '<title>New issue</title>'}),
  );
  const [popup] = await Promise.all([context.waitForEvent('page'), link.click()]);
  await popup.waitForLoadState();
  const opened = new URL(popup.url());
  await popup.close();
  expect(opened.pathname).toBe('/nestjs/docs.nestjs.com/issues/new');
  body = opened.searchParams.get('body') ?? '';
  title = opened.searchParams.get('title') ?? '';
  // The selection's own section, not the one read before.
  expect(title).toBe('Problem on "Guards" (Binding guards)');
  expect(body).toContain(`> ${selected.trim().split('\n')[0]}`);
});

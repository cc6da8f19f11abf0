/**
 * Printing a docs page (src/features/print): /controllers printed to PDF by Chromium, its text
 * read back with Debian's pdftotext (poppler-utils).
 */
import {execFileSync} from 'node:child_process';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {expect, test} from './fixtures';

/** The text of a PDF, in reading order. */
function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'print-'));
  try {
    writeFileSync(join(dir, 'page.pdf'), pdf);
    return execFileSync('pdftotext', ['-layout', join(dir, 'page.pdf'), '-'], {
      encoding: 'utf8',
    });
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
}

test('printing /controllers gives the article with both halves of its samples, and no site around it', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({width: 1280, height: 800});
  await page.goto('/controllers');
  // The reader's language choice does not matter on paper: both halves print.
  await page.evaluate(() => {
    document.documentElement.dataset.codeLang = 'js';
  });
  // The first external link of the prose (not one of a banner, which does not print).
  const externalLink = await page
    .locator('.theme-doc-markdown p a[href^="http"]:not([href^="https://docs.nestjs.com"])')
    .first()
    .getAttribute('href');
  expect(externalLink).toBeTruthy();
  const text = pdfText(await page.pdf({format: 'A4', printBackground: false}));
  // The title and the article.
  expect(text).toMatch(/^\s*Controllers\s*$/m);
  expect(text).toContain('A controller is the part of your application');
  // Both halves of a pair, labelled: TypeScript and JavaScript, with their file names.
  expect(text).toContain('TypeScript cats.controller.ts');
  expect(text).toContain('JavaScript cats.controller.js');
  // The TypeScript and the Babel-style JavaScript of the same handler.
  expect(text).toContain('findAll(@Res({ passthrough: true }) res: Response)');
  expect(text).toContain('@Bind(Res({ passthrough: true }))');
  // Where an external link leads, after its text.
  expect(text.replace(/\s+/g, '')).toContain(`(${externalLink})`);
  // None of the site around the article.
  for (const chrome of [
    'Our website',
    'Sponsor us',
    'Toggle side navigation',
    'Search...',
    'On this page',
    'Join our newsletter',
    'Subscribe',
    'Support Nest',
    'Suggest edits',
    'Report a problem',
    'You are reading the docs',
    'Documentation content released under the MIT license',
    'Version 7',
    'Official enterprise support',
    'Copy page',
    'Circular dependency',
  ]) {
    expect(text, chrome).not.toContain(chrome);
  }
  // The samples' links to the API reference cannot be followed on paper: not underlined.
  await page.emulateMedia({media: 'print'});
  const codeLink = page.locator('pre a[href^="/api/"]').first();
  await expect(codeLink).toHaveCSS('text-decoration-line', 'none');
  await page.emulateMedia({media: 'screen'});
  await expect(codeLink).toHaveCSS('text-decoration-line', 'underline');
});

test('a short code block is never cut by a page break', async ({page}) => {
  test.setTimeout(60_000);
  await page.goto('/controllers');
  await page.emulateMedia({media: 'print'});
  const styles = await page
    .locator('.theme-code-block')
    .first()
    .evaluate((block) => getComputedStyle(block).breakInside);
  expect(styles).toBe('avoid');
  // Both halves show, each with its label.
  const halves = page.locator('[data-code-pair="pair"]').first().locator('[data-code-pair-half]');
  await expect(halves.nth(0)).toBeVisible();
  await expect(halves.nth(1)).toBeVisible();
  const label = await halves.nth(1).evaluate((half) => getComputedStyle(half, '::before').content);
  expect(label).toBe('"JavaScript cats.controller.js"');
});

test('a page printed from dark mode prints in light colours, and dark mode comes back', async ({
  browser,
}) => {
  const context = await browser.newContext({colorScheme: 'dark'});
  const page = await context.newPage();
  await page.goto('/controllers');
  await page.waitForFunction(() => document.documentElement.dataset.hasHydrated === 'true');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await page.evaluate(() => window.dispatchEvent(new Event('afterprint')));
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await context.close();
});

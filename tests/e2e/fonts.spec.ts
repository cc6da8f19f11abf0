/**
 * The brand fonts on a reader's first visit: the browser is asked which platform font rendered
 * the text (DevTools' CSS.getPlatformFontsForNode), not only whether `document.fonts` loaded it.
 */
import {expect, settleOnLoad, test, type Page} from './fixtures';

/** The fonts that rendered the first node matching `selector`, most glyphs first. */
async function renderedFonts(page: Page, selector: string): Promise<string[]> {
  const client = await page.context().newCDPSession(page);
  try {
    await client.send('DOM.enable');
    await client.send('CSS.enable');
    const {root} = await client.send('DOM.getDocument', {depth: -1});
    const {nodeId} = await client.send('DOM.querySelector', {nodeId: root.nodeId, selector});
    expect(nodeId, selector).toBeGreaterThan(0);
    const {fonts} = await client.send('CSS.getPlatformFontsForNode', {nodeId});
    return [...fonts].sort((a, b) => b.glyphCount - a.glyphCount).map((font) => font.familyName);
  } finally {
    await client.detach();
  }
}

/** The font files the server-rendered page at `path` preloads, sorted. */
async function preloadedFonts(page: Page, path: string): Promise<string[]> {
  const html = await (await page.request.get(path)).text();
  return [...html.matchAll(/<link\b[^>]*\brel=["']?preload\b[^>]*>/g)]
    .filter((match) => /\bas=["']?font\b/.test(match[0]))
    .map((match) => /\bhref=["']?([^"' >]+)/.exec(match[0])?.[1] ?? '')
    .sort();
}

/**
 * The font files' own family names (fontsource's files call the Source Sans 3 cut "Source Sans 3
 * ExtraLight", the variable font's default instance, whatever the weight).
 */
const sourceSans = /^Source Sans 3\b/;
const inconsolata = /^Inconsolata\b/;

/**
 * Waits until the brand fonts drew the article's first paragraph (its inline code, if any, in
 * Inconsolata) and its first code block: no system font in either.
 */
async function expectBrandFonts(page: Page, where: string): Promise<void> {
  await page.evaluate(() => document.fonts.ready);
  await expect
    .poll(
      async () => {
        const fonts = await renderedFonts(page, 'article .theme-doc-markdown > p');
        return sourceSans.test(fonts[0] ?? '') &&
          fonts.every((f) => sourceSans.test(f) || inconsolata.test(f))
          ? 'brand'
          : fonts.join(', ');
      },
      {message: `${where}: article text`},
    )
    .toBe('brand');
  await expect
    .poll(
      async () => {
        const fonts = await renderedFonts(page, 'article pre code');
        return fonts.length > 0 && fonts.every((f) => inconsolata.test(f))
          ? 'brand'
          : fonts.join(', ');
      },
      {message: `${where}: code`},
    )
    .toBe('brand');
}

test('a first visit shows the brand fonts, and so does the next page opened in the app', async ({
  browser,
}) => {
  // A fresh context: nothing cached, as for a new reader.
  const context = await browser.newContext({viewport: {width: 1280, height: 900}});
  const page = settleOnLoad(await context.newPage());
  const fontRequests: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'font') fontRequests.push(new URL(request.url()).pathname);
  });
  await page.goto('/controllers');
  await expectBrandFonts(page, '/controllers');
  // The faces the page uses are preloaded from its head (src/features/fonts/client/FontPreload.tsx), and each
  // preload is the download the style sheet's @font-face uses: one request per file, no other.
  const preloads = await preloadedFonts(page, '/controllers');
  expect(preloads.map((path) => path.replace(/-normal-.*$/, ''))).toEqual([
    '/assets/fonts/inconsolata-latin-400',
    '/assets/fonts/source-sans-3-latin-400',
    '/assets/fonts/source-sans-3-latin-600',
    '/assets/fonts/source-sans-3-latin-700',
  ]);
  expect([...fontRequests].sort()).toEqual(preloads);
  // A page without code does not preload the code font (src/features/code/node/remarkMonospaceFontPreload.ts).
  expect(
    (await preloadedFonts(page, '/support')).some((path) => path.includes('inconsolata')),
  ).toBe(false);

  // Client-side navigation through the menu.
  await page.locator('nav[aria-label="Docs sidebar"] a[href="/providers"]').click();
  await expect(page.locator('article h1')).toHaveText('Providers');
  await expectBrandFonts(page, '/providers after a client-side navigation');
  await context.close();
});

test('before the fonts arrive, the text is painted in a metric-matched fallback face', async ({
  browser,
}) => {
  const context = await browser.newContext({viewport: {width: 1280, height: 900}});
  // The font files never arrive: what the first paint shows until they do.
  await context.route(/\.woff2$/, (route) => route.abort());
  const page = settleOnLoad(await context.newPage());
  await page.goto('/controllers');
  const family = await page.evaluate(
    () => getComputedStyle(document.querySelector('article p')!).fontFamily,
  );
  expect(family).toMatch(/^"Source Sans 3", "Source Sans 3 Fallback: Arial"/);
  // The platform font behind the fallback face: Arial or a font with Arial's widths
  // (Liberation Sans on Debian, where this runs).
  expect((await renderedFonts(page, 'article .theme-doc-markdown > p'))[0]).toMatch(
    /^(Arial|Liberation Sans|Arimo)$/,
  );
  const code = await page.evaluate(
    () => getComputedStyle(document.querySelector('article pre code')!).fontFamily,
  );
  expect(code).toMatch(/^Inconsolata, "Inconsolata Fallback: Courier New"/);
  expect((await renderedFonts(page, 'article pre code'))[0]).toMatch(
    /^(Courier New|Liberation Mono|Cousine)$/,
  );
  await context.close();
});

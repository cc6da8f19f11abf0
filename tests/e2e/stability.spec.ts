import {expect, settleOnLoad, test} from './fixtures';

/**
 * Nothing moves while a page loads: no layout shift from fonts (swapped in over metric-matched
 * fallback faces, src/features/fonts/node/fallbacks.ts), images (sized by the build), the search box (sized
 * before and after hydration) or hydration itself.
 *
 * Every page is a reader's first visit (a fresh context, nothing cached), and the font files are
 * held back until after the first paint, so the swap from the fallback face to the brand font
 * always happens in view: the case the fallback metrics are for. Those match the brand fonts'
 * average widths and line boxes, not every glyph: a line can still end one word earlier, which
 * moves what follows it, so the swap is allowed `fontSwapBudget` of layout shift per page (seen:
 * 0.006 at most, a text run 1px to the side; a paragraph gaining a line in view would be ~0.05).
 * Anything else that moves fails as before.
 */
const pages = ['/', '/controllers', '/techniques/queues', '/discover/companies'];
/** How long the font files are held back. */
const fontDelay = 400;
/** The layout shift a late font swap may cause on a page (CLS is counted per page). */
const fontSwapBudget = 0.01;

// One at a time, after the rest of the suite (the `stability` project): a starved CPU makes the
// browser paint pages half-parsed. The header, where that once showed as a 0.0001 shift of the
// logo, now stays hidden until it is parsed (src/features/shell/client/custom.css), but the test keeps the CPU to
// itself rather than rely on that alone.
test.describe.configure({mode: 'default'});

for (const width of [412, 1350]) {
  test(`no layout shift while pages load, fonts arriving late, at ${width}px`, async ({
    browser,
  }) => {
    test.setTimeout(2 * 60_000);
    const found: string[] = [];
    for (const path of pages) {
      const context = await browser.newContext({viewport: {width, height: 900}});
      await context.route(/\.woff2$/, async (route) => {
        await new Promise((resolve) => setTimeout(resolve, fontDelay));
        await route.continue();
      });
      const page = settleOnLoad(await context.newPage());
      await page.addInitScript(() => {
        const shifts: string[] = [];
        (window as unknown as {__shifts: string[]}).__shifts = shifts;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & {
            value: number;
            hadRecentInput: boolean;
            sources: {node?: Node | null}[];
          })[]) {
            if (entry.hadRecentInput) continue;
            const nodes = entry.sources.map((source) =>
              source.node instanceof Element
                ? `${source.node.tagName.toLowerCase()}.${source.node.className}`
                : String(source.node?.nodeName),
            );
            shifts.push(`${entry.value.toFixed(4)} ${nodes.join(', ')}`);
          }
        }).observe({type: 'layout-shift', buffered: true});
      });
      await page.goto(path);
      await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
      // The fonts are in, and were swapped in after the first paint.
      await page.evaluate(() => document.fonts.ready);
      expect(await page.evaluate(() => document.fonts.check('16px "Source Sans 3"')), path).toBe(
        true,
      );
      await page.waitForTimeout(500);
      const shifts = await page.evaluate(
        () => (window as unknown as {__shifts: string[]}).__shifts,
      );
      const total = shifts.reduce((sum, shift) => sum + Number.parseFloat(shift), 0);
      if (total > fontSwapBudget) found.push(...shifts.map((shift) => `${path}: ${shift}`));
      await context.close();
    }
    expect(found).toEqual([]);
  });
}

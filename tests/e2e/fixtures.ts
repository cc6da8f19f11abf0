import {test as base, type Page} from '@playwright/test';

export {expect} from '@playwright/test';
export type {Locator, Page, Request, Route} from '@playwright/test';

/**
 * The pages request their bundles after the first paint (src/features/bundle/node/ssrTemplate.ts), so the
 * browser's `load` event, where `page.goto` returns, can come before React runs. A test that
 * clicks a button or records page errors must wait for React: this resolves once the page has
 * hydrated, or its bundles failed to load, or it has none (a redirect page, an external page).
 */
export async function reactSettled(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const state = (window as {__bundles?: string}).__bundles;
    return (
      state === undefined ||
      state === 'failed' ||
      document.documentElement.dataset.hasHydrated === 'true'
    );
  });
}

type LoadOptions = {waitUntil?: 'load' | 'domcontentloaded' | 'networkidle' | 'commit'};

/** Only the default (`load`) and `networkidle` loads wait; `commit`/`domcontentloaded` ask not to. */
const waitsForLoad = (options?: LoadOptions) =>
  options?.waitUntil === undefined ||
  options.waitUntil === 'load' ||
  options.waitUntil === 'networkidle';

/** Makes `goto` and `reload` on this page also wait for `reactSettled`. */
export function settleOnLoad(page: Page): Page {
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    if (waitsForLoad(options)) await reactSettled(page);
    return response;
  };
  page.reload = async (options) => {
    const response = await reload(options);
    if (waitsForLoad(options)) await reactSettled(page);
    return response;
  };
  return page;
}

/** Playwright's `test`, its `page` fixture settling on load (pages from `newPage` call `settleOnLoad`). */
export const test = base.extend({
  page: async ({page}, use) => {
    await use(settleOnLoad(page));
  },
});

import {expect, test, type Locator, type Page} from './fixtures';
import {collectPageErrors} from './helpers';

/**
 * The TypeScript/JavaScript code pairs (src/features/code/client/CodePair): markup is
 * `[data-code-pair="pair"]` holding a bar (`[data-code-pair-filename=ts|js]`,
 * buttons "Show JavaScript" / "Show TypeScript") and two halves
 * `[data-code-pair-half=ts|js]`. The choice lives in `html[data-code-lang]`,
 * set before first paint by the inline head script, and in localStorage.
 */

const storageKey = 'nest-docs.code-lang';

function pairs(page: Page): Locator {
  return page.locator('[data-code-pair="pair"]');
}

/** The first pair of the page that has a filename bar. */
function firstNamedPair(page: Page): Locator {
  return pairs(page)
    .filter({has: page.locator('[data-code-pair-filename]')})
    .first();
}

function half(scope: Page | Locator, lang: 'ts' | 'js'): Locator {
  return scope.locator(`[data-code-pair-half="${lang}"]`);
}

/** React has taken over: the inactive half of each pair gets `hidden` after hydration. */
async function waitForHydration(page: Page): Promise<void> {
  await expect(page.locator('[data-code-pair-half][hidden]').first()).toBeAttached();
}

async function codeLang(page: Page): Promise<string | undefined> {
  return page.evaluate(() => document.documentElement.dataset.codeLang);
}

async function storedLang(page: Page): Promise<string | null> {
  return page.evaluate((key) => window.localStorage.getItem(key), storageKey);
}

/** Every pair of the page shows `lang` and hides the other half. */
async function expectAllPairsShow(page: Page, lang: 'ts' | 'js'): Promise<void> {
  const other = lang === 'ts' ? 'js' : 'ts';
  const count = await pairs(page).count();
  expect(count).toBeGreaterThan(1);
  await expect(page.locator(`[data-code-pair-half="${lang}"]:visible`)).toHaveCount(count);
  await expect(page.locator(`[data-code-pair-half="${other}"]:visible`)).toHaveCount(0);
  expect(await codeLang(page)).toBe(lang);
}

/** Hydration mismatches are console errors, not page errors. */
function collectHydrationErrors(page: Page): () => string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /hydrat|did not match/i.test(message.text())) {
      errors.push(message.text());
    }
  });
  return () => errors;
}

test.describe('code pairs', () => {
  test('TypeScript is shown first, with a JS button and a copy button', async ({page}) => {
    const pageErrors = collectPageErrors(page);
    const hydrationErrors = collectHydrationErrors(page);
    await page.goto('/controllers');
    await waitForHydration(page);
    await expectAllPairsShow(page, 'ts');
    const pair = firstNamedPair(page);
    await expect(pair.locator('[data-code-pair-filename="ts"]')).toBeVisible();
    await expect(pair.locator('[data-code-pair-filename="ts"]')).toHaveText(/\.ts$/);
    await expect(pair.locator('[data-code-pair-filename="js"]')).toBeHidden();
    // Only the inactive language is offered; the hidden button is not in the accessibility tree.
    await expect(pair.getByRole('button', {name: 'Show JavaScript'})).toHaveText('JS');
    // WCAG 2.5.3, label in name: the accessible name starts with the visible label.
    await expect(pair.getByRole('button', {name: 'JS, show JavaScript', exact: true})).toHaveCount(
      1,
    );
    await expect(pair.getByRole('button', {name: 'Show TypeScript'})).toHaveCount(0);
    await expect(half(pair, 'ts').locator('pre code')).toBeVisible();
    await expect(half(pair, 'js')).toBeHidden();
    await expect(half(pair, 'ts').getByRole('button', {name: /copy/i})).toHaveCount(1);
    expect(pageErrors()).toEqual([]);
    expect(hydrationErrors()).toEqual([]);
  });

  test('the switch shows JavaScript in every pair of the page', async ({page}) => {
    await page.goto('/controllers');
    await waitForHydration(page);
    const pair = firstNamedPair(page);
    const tsName = await pair.locator('[data-code-pair-filename="ts"]').innerText();
    await pair.getByRole('button', {name: 'Show JavaScript'}).click();

    await expect(half(pair, 'js')).toBeVisible();
    await expect(half(pair, 'ts')).toBeHidden();
    await expect(pair.locator('[data-code-pair-filename="js"]')).toHaveText(
      tsName.replace(/\.ts$/, '.js'),
    );
    await expect(pair.locator('[data-code-pair-filename="ts"]')).toBeHidden();
    await expect(pair.getByRole('button', {name: 'Show TypeScript'})).toHaveText('TS');
    await expect(pair.getByRole('button', {name: 'TS, show TypeScript', exact: true})).toHaveCount(
      1,
    );
    await expect(pair.getByRole('button', {name: 'Show JavaScript'})).toHaveCount(0);
    await expectAllPairsShow(page, 'js');
    // After React caught up, the hidden halves carry `hidden` as well.
    await expect(half(page, 'ts').first()).toHaveAttribute('hidden', '');

    await pair.getByRole('button', {name: 'Show TypeScript'}).click();
    await expectAllPairsShow(page, 'ts');
  });

  test('the choice is remembered across pages, navigations and reloads', async ({page}) => {
    await page.goto('/controllers');
    await waitForHydration(page);
    await firstNamedPair(page).getByRole('button', {name: 'Show JavaScript'}).click();
    expect(await storedLang(page)).toBe('js');

    // Client-side navigation.
    await page.locator('.menu').getByRole('link', {name: 'Providers', exact: true}).click();
    await expect(page).toHaveURL(/\/providers$/);
    await expectAllPairsShow(page, 'js');

    // Full loads.
    await page.reload();
    await expectAllPairsShow(page, 'js');
    await page.goto('/controllers');
    await expectAllPairsShow(page, 'js');

    await waitForHydration(page);
    await firstNamedPair(page).getByRole('button', {name: 'Show TypeScript'}).click();
    await page.goto('/providers');
    await expectAllPairsShow(page, 'ts');
    expect(await storedLang(page)).toBe('ts');
  });

  test('?lang=js applies before first paint, without React', async ({page}) => {
    // With the bundles blocked nothing hydrates: only the inline head script and the CSS act,
    // which is exactly what the reader sees before React runs.
    await page.route('**/assets/js/**', (route) => route.abort());
    await page.goto('/controllers?lang=js');
    expect(await codeLang(page)).toBe('js');
    await expectAllPairsShow(page, 'js');
    const pair = firstNamedPair(page);
    await expect(pair.locator('[data-code-pair-filename="js"]')).toBeVisible();
    await expect(pair.locator('[data-code-pair-filename="ts"]')).toBeHidden();
    await expect(pair.getByRole('button', {name: 'Show TypeScript'})).toBeVisible();
    await expect(pair.getByRole('button', {name: 'Show JavaScript'})).toHaveCount(0);
    expect(await storedLang(page)).toBe('js');

    // Remembered: the next full load without the query is JavaScript from the start too.
    await page.goto('/providers');
    await expectAllPairsShow(page, 'js');

    // ?lang=ts overrides the remembered choice.
    await page.goto('/providers?lang=ts');
    await expectAllPairsShow(page, 'ts');
  });

  test('?lang=js shows JavaScript on the first painted frame of a normal load', async ({page}) => {
    // Sample, before each frame is painted (requestAnimationFrame runs in the rendering step,
    // which waits for render-blocking stylesheets), which half of the first pair is displayed,
    // until the page has hydrated.
    await page.addInitScript(() => {
      const frames: string[] = [];
      Object.assign(window, {codePairFrames: frames});
      const sample = () => {
        const ts = document.querySelector('[data-code-pair-half="ts"]');
        if (ts) {
          frames.push(getComputedStyle(ts).display);
        }
        if (!document.querySelector('[data-code-pair-half][hidden]') && frames.length < 600) {
          requestAnimationFrame(sample);
        }
      };
      requestAnimationFrame(sample);
    });
    const hydrationErrors = collectHydrationErrors(page);
    await page.goto('/controllers?lang=js');
    await waitForHydration(page);
    const frames = await page.evaluate(
      () => (window as unknown as {codePairFrames: string[]}).codePairFrames,
    );
    expect(frames.length).toBeGreaterThan(0);
    expect(new Set(frames)).toEqual(new Set(['none']));
    await expectAllPairsShow(page, 'js');
    expect(hydrationErrors()).toEqual([]);
  });

  test('works from the keyboard', async ({page}) => {
    await page.goto('/providers');
    await waitForHydration(page);
    const pair = firstNamedPair(page);
    // Clicking the (not focusable) filename sets the focus navigation starting point.
    await pair.locator('[data-code-pair-filename="ts"]').click();
    await page.keyboard.press('Tab');
    const toJs = pair.getByRole('button', {name: 'Show JavaScript'});
    await expect(toJs).toBeFocused();
    await expect(toJs).toHaveCSS('outline-style', 'solid');

    await page.keyboard.press('Enter');
    await expectAllPairsShow(page, 'js');
    // The button that replaced the pressed one keeps the focus.
    const toTs = pair.getByRole('button', {name: 'Show TypeScript'});
    await expect(toTs).toBeFocused();

    await page.keyboard.press('Space');
    await expectAllPairsShow(page, 'ts');
    await expect(toJs).toBeFocused();
  });

  test('a blocked storage does not break the switch', async ({page}) => {
    await page.addInitScript(() => {
      const deny = () => {
        throw new DOMException('denied', 'SecurityError');
      };
      Object.defineProperty(window, 'localStorage', {get: deny, configurable: true});
    });
    const pageErrors = collectPageErrors(page);
    await page.goto('/providers?lang=js');
    await expectAllPairsShow(page, 'js');
    await waitForHydration(page);
    await firstNamedPair(page).getByRole('button', {name: 'Show TypeScript'}).click();
    await expectAllPairsShow(page, 'ts');
    expect(pageErrors()).toEqual([]);
  });
});

/**
 * The build as production serves it (scripts/serve-build.mjs applies the generated `_headers` and
 * `_redirects`): no page breaks its own Content-Security-Policy, the redirects are 301s, unknown
 * paths are 404s that still land on `/`, and the caching headers fit each kind of file.
 */
import {expect, test} from './fixtures';
import {links} from '../../src/data/links';
import {emittedRedirects} from '../../src/features/redirects/node/emitted';
import {settleLateWork, thirdParties, watchPolicy} from './policy';

const immutable = 'public, max-age=31536000, immutable';

/** One page of each kind, for the combinations that do not visit every URL. */
const samplePaths = [
  '/',
  '/controllers',
  '/techniques/caching',
  '/support',
  '/discover/companies',
  '/search?q=pipes',
  // Opened from a search result: loads Pagefind's highlighter.
  '/pipes?highlight=pipes',
];

/**
 * Every sitemap URL is checked against the policy by the sweep of every page (pages.spec.ts): light
 * with third parties answering, dark with them down. The two other combinations visit one page of
 * each kind here (the mode only changes CSS variables, the third parties only what the ad script
 * does), and run a real search.
 */
const combinations = [
  {colorScheme: 'light', parties: 'down'},
  {colorScheme: 'dark', parties: 'answering'},
] as const;

for (const {colorScheme, parties} of combinations) {
  test.describe(`${colorScheme}, third parties ${parties}`, () => {
    test.use({colorScheme});

    test('no kind of page breaks the Content-Security-Policy', async ({page}) => {
      const violations = await watchPolicy(page);
      await thirdParties(page, parties);
      for (const [index, path] of samplePaths.entries()) {
        const response = await page.goto(path);
        expect(response?.status(), path).toBe(200);
        if (index === 0) {
          expect(response?.headers()['content-security-policy']).toBeTruthy();
          await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
        }
        await settleLateWork(page);
      }
      if ((await page.request.get('/pagefind/pagefind.js')).ok()) {
        // Pagefind's WebAssembly, index chunks and fragments, from the header box.
        await page.getByRole('combobox', {name: 'Search the documentation'}).fill('pipes');
        await expect(page.getByRole('option').first()).toBeVisible();
      }
      expect(violations).toEqual([]);
    });
  });
}

test('legacy URLs and /consulting answer with a 301 to their new home', async ({request}) => {
  const expected = [
    ...emittedRedirects().map(({from, to}) => [from, to] as const),
    ['/consulting', links.enterprise] as const,
  ];
  expect(expected.length).toBeGreaterThan(1);
  for (const [from, to] of expected) {
    const response = await request.get(from, {maxRedirects: 0});
    expect(response.status(), from).toBe(301);
    expect(response.headers().location, from).toBe(to);
  }
  // A trailing slash and a query string are kept track of.
  const slash = await request.get('/components/?lang=js', {maxRedirects: 0});
  expect(slash.status()).toBe(301);
  expect(slash.headers().location).toBe('/providers?lang=js');
});

test('an unknown path answers 404 and still lands the reader on /', async ({page, request}) => {
  const violations = await watchPolicy(page);
  const direct = await request.get('/no/such/page', {maxRedirects: 0});
  expect(direct.status()).toBe(404);
  expect(direct.headers()['content-security-policy']).toBeTruthy();
  const response = await page.goto('/no/such/page');
  expect(response?.status()).toBe(404);
  await expect(page).toHaveURL((url) => url.pathname === '/');
  await expect(page.locator('h1')).toHaveText('Introduction');
  expect(violations).toEqual([]);
});

test('HTML pages carry the security headers', async ({request}) => {
  for (const path of ['/', '/controllers', '/techniques/caching']) {
    const headers = (await request.get(path)).headers();
    const policy = headers['content-security-policy'] ?? '';
    const scriptSrc = /(?:^|;\s*)script-src ([^;]*)/.exec(policy)?.[1] ?? '';
    expect(scriptSrc, path).toContain("'sha256-");
    expect(scriptSrc, path).not.toContain("'unsafe-inline'");
    expect(scriptSrc, path).not.toContain("'unsafe-eval'");
    expect(policy, path).toContain("frame-ancestors 'none'");
    expect(policy, path).toContain("object-src 'none'");
    expect(policy, path).toContain("base-uri 'self'");
    expect(headers['strict-transport-security'], path).toMatch(/^max-age=\d+/);
    expect(headers['x-content-type-options'], path).toBe('nosniff');
    expect(headers['referrer-policy'], path).toBe('strict-origin-when-cross-origin');
    expect(headers['permissions-policy'], path).toContain('camera=()');
  }
});

test('caching: hashed files for a year, the rest revalidated', async ({request}) => {
  const cacheControl = async (path: string) => {
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    return response.headers()['cache-control'];
  };
  const html = await (await request.get('/')).text();
  const hashed = [...html.matchAll(/\/assets\/(?:css|js)\/[\w~.-]+\.[0-9a-f]{8}\.(?:css|js)/g)].map(
    (match) => match[0],
  );
  expect(hashed.length).toBeGreaterThanOrEqual(2);
  for (const path of hashed) expect(await cacheControl(path), path).toBe(immutable);

  for (const path of ['/', '/controllers', '/techniques/caching', '/search', '/sitemap.xml']) {
    expect(await cacheControl(path), path).toBe('no-cache');
  }

  // Pagefind's index (absent from an Algolia build): entry files revalidated, chunks hashed.
  const pages = await request.get('/pagefind/pages.json');
  if (pages.status() === 404) return;
  const list = (await pages.json()) as {meta: string; pages: [string, ...string[]][]};
  for (const file of ['pagefind.js', 'pagefind-entry.json', 'pages.json', 'wasm.en.pagefind']) {
    expect(await cacheControl(`/pagefind/${file}`), file).toBe('no-cache');
  }
  expect(await cacheControl(`/pagefind/${list.meta}`)).toBe(immutable);
  expect(await cacheControl(`/pagefind/fragment/${list.pages[0]?.[0]}.pf_fragment`)).toBe(
    immutable,
  );
});

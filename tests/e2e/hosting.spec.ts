/**
 * The build as production serves it (scripts/serve-build.mjs applies the generated `_headers` and
 * `_redirects`): no page breaks its own Content-Security-Policy, the redirects are 301s, unknown
 * paths are 404s that still land on `/`, and the caching headers fit each kind of file.
 */
import {expect, test, type Page} from './fixtures';
import {links} from '../../src/data/links';
import {emittedRedirects} from '../../src/node/redirects';
import {sitemapPaths} from './helpers';

const immutable = 'public, max-age=31536000, immutable';

/**
 * Collects every CSP violation the page reports (the `securitypolicyviolation` event, and the
 * console error the browser logs with it) and Permissions-Policy header errors, for all the
 * documents the page loads.
 */
async function watchPolicy(page: Page): Promise<string[]> {
  const found: string[] = [];
  await page.exposeBinding('__reportViolation', ({frame}, text: string) => {
    found.push(`${new URL(frame.url()).pathname}: ${text}`);
  });
  await page.addInitScript(() => {
    document.addEventListener(
      'securitypolicyviolation',
      (event) => {
        const report = (window as unknown as {__reportViolation(text: string): void})
          .__reportViolation;
        void report(
          `${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} ` +
            `at ${event.sourceFile}:${event.lineNumber} "${event.sample}"`,
        );
      },
      true,
    );
  });
  page.on('console', (message) => {
    if (
      message.type() === 'error' &&
      /Content.Security.Policy|Permissions.Policy/i.test(message.text())
    ) {
      found.push(`${new URL(page.url()).pathname}: console: ${message.text()}`);
    }
  });
  return found;
}

/** Third parties (the ad network, say) answer with an empty script or JSON, or not at all. */
async function thirdParties(page: Page, baseURL: string, answer: boolean): Promise<void> {
  await page.route(
    (url) => url.origin !== new URL(baseURL).origin,
    (route) =>
      answer
        ? route.fulfill(
            route.request().resourceType() === 'script'
              ? {status: 200, contentType: 'text/javascript', body: ''}
              : {status: 200, contentType: 'application/json', body: '{}'},
          )
        : route.abort(),
  );
}

/**
 * Lets the page's late work run: the ad slot adds its script in the first idle period after
 * `load` (src/components/AdSlot/loadAd.ts); this waits for the next one, and for the script's
 * load or error.
 */
async function settleLateWork(page: Page): Promise<void> {
  if ((await page.locator('[data-ad-slot]').count()) === 0) return;
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        requestIdleCallback(() => setTimeout(resolve, 100), {timeout: 4000});
      }),
  );
}

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
 * Every sitemap URL is visited in both colour modes and with third parties both answering and
 * down, in two sweeps; the two other combinations visit one page of each kind (the mode only
 * changes CSS variables, the third parties only what the ad script does), keeping the suite lean.
 */
const sweeps = [
  {colorScheme: 'light', answering: true, every: true},
  {colorScheme: 'dark', answering: false, every: true},
  {colorScheme: 'light', answering: false, every: false},
  {colorScheme: 'dark', answering: true, every: false},
] as const;

for (const {colorScheme, answering, every} of sweeps) {
  const parties = answering ? 'third parties answering' : 'third parties down';
  test.describe(`${colorScheme}, ${parties}`, () => {
    test.use({colorScheme});

    test(`no ${every ? 'sitemap URL' : 'kind of page'} breaks the Content-Security-Policy`, async ({
      page,
      baseURL,
    }) => {
      test.setTimeout(every ? 8 * 60_000 : 60_000);
      const violations = await watchPolicy(page);
      await thirdParties(page, baseURL ?? '', answering);
      const paths = every ? await sitemapPaths(page) : samplePaths;
      expect(paths.length).toBeGreaterThan(every ? 100 : 5);
      for (const [index, path] of paths.entries()) {
        const response = await page.goto(path);
        expect(response?.status(), path).toBe(200);
        if (index === 0) {
          expect(response?.headers()['content-security-policy']).toBeTruthy();
          await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
        }
        await settleLateWork(page);
      }
      if (!every && (await page.request.get('/pagefind/pagefind.js')).ok()) {
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

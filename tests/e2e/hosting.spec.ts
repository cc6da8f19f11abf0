/**
 * The build as production serves it, behind each host the build writes rules for: the test
 * server (scripts/serve-build.mjs applies `_headers` and `_redirects` as Netlify and Cloudflare
 * Pages do), nginx with the generated `nginx.conf` and Apache with the generated `.htaccess`
 * (real servers from Debian's packages, started by ./hosts.ts). On each: no page breaks its own
 * Content-Security-Policy; every page of the sitemap answers 200 with the security headers;
 * every legacy URL and every other form of a page's URL (a trailing slash, `.html`, letter case)
 * answers with one 301 straight to its page, query string kept; unknown paths are 404s that
 * still land the reader on `/`; caching fits each kind of file. And in the browser, a page whose
 * server HTML is another page (a host without these rules) renders the page its URL names.
 */
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import type {APIRequestContext, ConsoleMessage, Page} from '@playwright/test';
import {expect, test as base} from './fixtures';
import {links} from '../../src/data/links';
import {emittedRedirects} from '../../src/features/redirects/node/emitted';
import {baseURL as testServerURL} from '../../playwright.config';
import {buildDir, startApache, startNginx, type RunningHost} from './hosts';
import {settleLateWork, thirdParties, watchPolicy} from './policy';
import {sitemapPaths} from './helpers';

const immutable = 'public, max-age=31536000, immutable';

/** A file of the build (a page's HTML, as a static host without rules would send it). */
const builtFile = (file: string) => readFileSync(join(buildDir, file), 'utf8');

type HostName = 'test server' | 'nginx' | 'apache';

interface Host {
  readonly name: HostName;
  readonly baseURL: string;
  /** Apache's plain-HTTP port. */
  readonly plainURL?: string;
  /**
   * Whether the host's rules match any letter case (nginx, Apache), or only the spellings
   * `_redirects` lists (capitals, capitalised words), as Netlify and Cloudflare Pages do.
   */
  readonly anyCase: boolean;
}

/** Each worker's servers, started when a test first asks for one, stopped with the worker. */
interface Servers {
  get(name: HostName): Promise<Host>;
}

const test = base.extend<{hostName: HostName; host: Host}, {servers: Servers}>({
  servers: [
    // Playwright reads a fixture's dependencies from its first parameter: none here.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const running = new Map<HostName, Promise<RunningHost>>();
      await use({
        async get(name) {
          if (name === 'test server') return {name, baseURL: testServerURL, anyCase: false};
          let server = running.get(name);
          if (!server) {
            server = name === 'nginx' ? startNginx(buildDir) : startApache(buildDir);
            running.set(name, server);
          }
          const {baseURL, plainURL} = await server;
          return {name, baseURL, plainURL, anyCase: true};
        },
      });
      const stopped = await Promise.allSettled(
        [...running.values()].map(async (server) => (await server).stop()),
      );
      for (const result of stopped) if (result.status === 'rejected') throw result.reason;
    },
    {scope: 'worker', timeout: 30_000},
  ],
  hostName: ['test server', {option: true}],
  host: async ({servers, hostName}, use) => {
    await use(await servers.get(hostName));
  },
  baseURL: async ({host}, use) => {
    await use(host.baseURL);
  },
});

// Apache answers over HTTPS with a certificate made for the run.
test.use({ignoreHTTPSErrors: true});

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
 * does), and run a real search: both behind the test server, the second behind nginx and Apache.
 */
const combinations = [
  {colorScheme: 'light', parties: 'down'},
  {colorScheme: 'dark', parties: 'answering'},
] as const;

/** `/Techniques/Queues`: each segment capitalised. */
const capitalised = (path: string) =>
  path.replace(/\/([a-z])/g, (_, c: string) => `/${c.toUpperCase()}`);
/** `/cOnTrOlLeRs`: a letter case no list holds. */
const mixed = (path: string) =>
  path.replace(/[a-z]/g, (c, index: number) => (index % 2 === 0 ? c : c.toUpperCase()));

/** The other forms of a URL a reader may type or follow. */
function formsOf(path: string, host: Host): string[] {
  const forms = [`${path}/`, `${path}.html`, path.toUpperCase(), capitalised(path)];
  if (host.anyCase) forms.push(mixed(path), `${mixed(path)}/`, `${mixed(path)}.html`);
  return [...new Set(forms)].filter((form) => form !== path);
}

/** Checks that `from` answers with a 301 whose location is `to` (resolved as a browser does). */
async function expectRedirect(request: APIRequestContext, from: string, to: string) {
  const response = await request.get(from, {maxRedirects: 0});
  expect(response.status(), from).toBe(301);
  const location = new URL(response.headers().location ?? '', response.url());
  expect(location.href, from).toBe(new URL(to, response.url()).href);
}

for (const hostName of ['test server', 'nginx', 'apache'] as const) {
  test.describe(hostName, () => {
    test.use({hostName});

    // The real servers' policy header is compared with `_headers` on every page below; one
    // combination in the browser there is enough to see it applied.
    for (const {colorScheme, parties} of hostName === 'test server'
      ? combinations
      : combinations.slice(1)) {
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

    test('every page of the sitemap answers 200, revalidated, with the security headers', async ({
      page,
      request,
    }) => {
      const paths = await sitemapPaths(page);
      expect(paths.length).toBeGreaterThan(100);
      // The policy the build wrote, as `_headers` gives it to Netlify and Cloudflare Pages.
      const policy = /Content-Security-Policy: (.*)/.exec(builtFile('_headers'))?.[1];
      expect(policy).toContain("script-src 'self'");
      for (const path of paths) {
        const response = await request.get(path, {maxRedirects: 0});
        expect(response.status(), path).toBe(200);
        const headers = response.headers();
        expect(headers['content-type'], path).toMatch(/^text\/html/);
        expect(headers['cache-control'], path).toBe('no-cache');
        expect(headers['content-security-policy'], path).toBe(policy);
        expect(headers['x-content-type-options'], path).toBe('nosniff');
      }
    });

    test("every other form of a page's URL answers with one 301 to the page", async ({
      page,
      request,
      host,
    }) => {
      for (const path of await sitemapPaths(page)) {
        const forms = path === '/' ? ['/index', '/index.html', '/INDEX.html'] : formsOf(path, host);
        for (const form of forms) await expectRedirect(request, form, path);
      }
      // The query string is kept.
      await expectRedirect(request, '/controllers/?lang=js', '/controllers?lang=js');
      await expectRedirect(
        request,
        '/Techniques/Queues.html?lang=js#retries',
        '/techniques/queues?lang=js',
      );
      await expectRedirect(request, '/index.html?q=pipes', '/?q=pipes');
    });

    test('legacy URLs and /consulting answer in every form with one 301 to their new home', async ({
      request,
      host,
    }) => {
      const expected = [
        ...emittedRedirects().map(({from, to}) => [from, to] as const),
        ['/consulting', links.enterprise] as const,
      ];
      expect(expected.length).toBeGreaterThan(1);
      for (const [from, to] of expected) {
        for (const form of [from, ...formsOf(from, host)]) await expectRedirect(request, form, to);
      }
      await expectRedirect(request, '/components/?lang=js', '/providers?lang=js');
      await expectRedirect(request, '/COMPONENTS?lang=js', '/providers?lang=js');
    });

    test('an unknown path answers 404 and still lands the reader on /', async ({page, request}) => {
      const violations = await watchPolicy(page);
      for (const path of ['/no/such/page', '/techniques', '/techniques/', '/CONTROLLERS.md']) {
        const direct = await request.get(path, {maxRedirects: 0});
        expect(direct.status(), path).toBe(404);
        expect(direct.headers()['content-security-policy'], path).toBeTruthy();
        expect(await direct.text(), path).toContain('<h1>Page not found</h1>');
      }
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
      const hashed = [
        ...html.matchAll(/\/assets\/(?:css|js)\/[\w~.-]+\.[0-9a-f]{8}\.(?:css|js)/g),
      ].map((match) => match[0]);
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

    test('in the browser, another form of a URL lands on its page', async ({page, host}) => {
      const errors = consoleErrors(page);
      await thirdParties(page, 'answering');
      const form = host.anyCase ? '/cOnTrOlLeRs/?lang=js' : '/CONTROLLERS?lang=js';
      await page.goto(form);
      await expect(page).toHaveURL((url) => url.pathname + url.search === '/controllers?lang=js');
      await expect(page.locator('h1')).toHaveText('Controllers');
      expect(errors()).toEqual([]);
    });
  });
}

test.describe('apache, plain HTTP', () => {
  test.use({hostName: 'apache'});

  test('plain HTTP answers with one 301 to HTTPS, other forms straight to their page', async ({
    request,
    host,
  }) => {
    const plain = host.plainURL ?? '';
    const https = plain.replace(/^http:/, 'https:');
    await expectRedirect(request, `${plain}/controllers?lang=js`, `${https}/controllers?lang=js`);
    await expectRedirect(request, `${plain}/CONTROLLERS/`, `${https}/controllers`);
    await expectRedirect(request, `${plain}/components`, `${https}/providers`);
  });
});

/**
 * The console errors of a page, but the one Chromium logs for a document answered with 404
 * (the host's answer, not the page's doing).
 */
function consoleErrors(page: Page): () => string[] {
  const errors: string[] = [];
  const record = (message: ConsoleMessage) => {
    if (message.type() !== 'error') return;
    if (/^Failed to load resource: the server responded with a status of 404/.test(message.text()))
      return;
    errors.push(message.text());
  };
  page.on('console', record);
  page.on('pageerror', (error) => errors.push(error.message));
  return () => errors;
}

test.describe('a host without the rules', () => {
  // GitHub Pages, S3 and the like: the 404 page's HTML for a URL they have no file for, a page's
  // file under its own name. React Router matches such URLs to the page anyway.
  const cases = [
    {url: '/CONTROLLERS', status: 404, file: '404.html', page: '/controllers', h1: 'Controllers'},
    {url: '/controllers/', status: 404, file: '404.html', page: '/controllers', h1: 'Controllers'},
    {
      url: '/techniques/queues/?lang=js',
      status: 404,
      file: '404.html',
      page: '/techniques/queues?lang=js',
      h1: 'Queues',
    },
    {
      url: '/controllers.html',
      status: 200,
      file: 'controllers.html',
      page: '/controllers',
      h1: 'Controllers',
    },
    {url: '/pipes', status: 200, file: 'controllers.html', page: '/pipes', h1: 'Pipes'},
  ];

  for (const {url, status, file, page: target, h1} of cases) {
    test(`${url} with the HTML of ${file} renders ${target} without an error`, async ({page}) => {
      const errors = consoleErrors(page);
      await thirdParties(page, 'answering');
      await page.route(
        (requested) => requested.pathname + requested.search === url,
        (route) => route.fulfill({status, contentType: 'text/html', body: builtFile(file)}),
      );
      await page.goto(url);
      await expect(page).toHaveURL((current) => current.pathname + current.search === target);
      await expect(page.locator('h1')).toHaveText(h1);
      await expect(page.locator(`[data-static-article="${target.split('?')[0]}"]`)).toBeVisible();
      // Its code blocks are the page's, highlighted.
      await expect(page.locator('article pre .token').first()).toBeVisible();
      expect(await page.getByText('This page crashed').count()).toBe(0);
      expect(errors()).toEqual([]);
    });
  }
});

import {expect, test, type Page, type Request} from './fixtures';
import {collectPageErrors} from './helpers';

/**
 * The local search (@easyops-cn/docusaurus-search-local, configured in src/node/search.ts):
 * the header box `#search`, the lazily fetched `search-index.json`, the dropdown, the /search
 * page and the relevance of the results for what a learner types.
 */

const isIndexRequest = (request: Request) => /\/search-index[^/]*\.json/.test(request.url());

/** Records the requests for the search index. */
function collectIndexRequests(page: Page): () => string[] {
  const urls: string[] = [];
  page.on('request', (request) => {
    if (isIndexRequest(request)) {
      urls.push(request.url());
    }
  });
  return () => urls;
}

const searchBox = (page: Page) => page.locator('nav.navbar input#search');
const suggestions = (page: Page) => page.locator('nav.navbar [role="listbox"] [role="option"]');

/** The routes of the results listed by `/search?q=`, in order (one per result). */
async function searchPageResults(page: Page, query: string): Promise<string[]> {
  await page.goto(`/search?q=${encodeURIComponent(query)}`);
  await expect(page.getByText(/^(\d+ documents? found|No documents were found)$/)).toBeVisible();
  return page
    .locator('article h2 a')
    .evaluateAll((links) =>
      links.map((link) => new URL((link as HTMLAnchorElement).href).pathname),
    );
}

/**
 * What a learner types, and the page (or one of the pages) that must be among the first five
 * results. Tune the search options in src/node/search.ts, not this list.
 */
const relevance: [query: string, expected: string | string[]][] = [
  // API names and code identifiers.
  ['ParseIntPipe', '/pipes'],
  ['ValidationPipe', ['/techniques/validation', '/pipes']],
  ['@nestjs/config ConfigService', '/techniques/configuration'],
  ['forwardRef', '/fundamentals/circular-dependency'],
  ['Test.createTestingModule', '/fundamentals/testing'],
  ['createParamDecorator', '/custom-decorators'],
  ['CanActivate', '/guards'],
  ['NestInterceptor', '/interceptors'],
  ['HttpException', '/exception-filters'],
  ['OnModuleInit', '/fundamentals/lifecycle-events'],
  ['Scope.REQUEST', '/fundamentals/injection-scopes'],
  ['ModuleRef', '/fundamentals/module-ref'],
  ['LazyModuleLoader', '/fundamentals/lazy-loading-modules'],
  ['ClassSerializerInterceptor', '/techniques/serialization'],
  ['HttpService', '/techniques/http-module'],
  ['MessagePattern', '/microservices/basics'],
  // Error messages.
  ["Nest can't resolve dependencies", '/faq/common-errors'],
  ['circular dependency', '/fundamentals/circular-dependency'],
  // Concepts.
  ['exclude routes from middleware', '/middleware'],
  ['global prefix', '/faq/global-prefix'],
  ['file upload', '/techniques/file-upload'],
  ['cron job', '/techniques/task-scheduling'],
  ['rate limiting', '/security/rate-limiting'],
  ['cors', '/security/cors'],
  ['websocket gateway', '/websockets/gateways'],
  ['kafka', '/microservices/kafka'],
  ['grpc', '/microservices/grpc'],
  ['hot reload', '/recipes/hot-reload'],
  ['swagger', ['/openapi/introduction', '/recipes/swagger']],
  ['health check', '/recipes/terminus'],
  ['serialization exclude password', '/techniques/serialization'],
  ['dynamic module forRoot', '/fundamentals/dynamic-modules'],
  ['passport jwt', '/security/authentication'],
  ['role based access control', '/security/authorization'],
  ['api versioning', '/techniques/versioning'],
  ['typeorm repository', ['/techniques/database', '/recipes/sql-typeorm']],
  ['mongoose schema', ['/techniques/mongodb', '/recipes/mongodb']],
  ['fastify', '/techniques/performance'],
  ['cache', '/techniques/caching'],
  ['queue', '/techniques/queues'],
  ['helmet', '/security/helmet'],
  ['hash password bcrypt', '/security/encryption-and-hashing'],
  ['monorepo', '/cli/monorepo'],
  ['server-sent events', '/techniques/server-sent-events'],
  ['graphql resolver', '/graphql/resolvers'],
  ['graphql subscriptions', '/graphql/subscriptions'],
];

test.describe('relevance (/search page, first five results)', () => {
  for (const [query, expected] of relevance) {
    test(`"${query}"`, async ({page}) => {
      const top = (await searchPageResults(page, query)).slice(0, 5);
      const wanted = typeof expected === 'string' ? [expected] : expected;
      expect(
        top.some((route) => wanted.includes(route)),
        `${wanted.join(' or ')} in ${JSON.stringify(top)}`,
      ).toBe(true);
    });
  }
});

test.describe('header search box', () => {
  test.use({viewport: {width: 1280, height: 900}});

  test('is in the header with id "search" and "Search..." placeholder', async ({page}) => {
    await page.goto('/controllers');
    await expect(searchBox(page)).toBeVisible();
    await expect(searchBox(page)).toHaveAttribute('placeholder', 'Search...');
    // Right after the sidebar toggle, on the left of the header.
    const toggle = await page.getByRole('button', {name: 'Toggle side navigation'}).boundingBox();
    const box = await searchBox(page).boundingBox();
    expect(box && toggle && box.x > toggle.x && box.x < 640).toBe(true);
    expect(box?.width).toBe(165);
    // The whole placeholder shows: the "ctrl K" hint starts after its last letter, focused or not.
    for (const focused of [false, true]) {
      if (focused) await searchBox(page).focus();
      await expect(searchBox(page)).toHaveCSS('width', focused ? '190px' : '165px');
      const room = await searchBox(page).evaluate((input: HTMLInputElement) => {
        const hint = input
          .closest('[class*="searchBarContainer"]')
          ?.querySelector('kbd')?.parentElement;
        const style = getComputedStyle(input);
        const context = document.createElement('canvas').getContext('2d');
        if (!hint || !context) return null;
        context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const textEnd =
          input.getBoundingClientRect().left +
          parseFloat(style.paddingLeft) +
          context.measureText(input.placeholder).width;
        return hint.getBoundingClientRect().left - textEnd;
      });
      expect(room).toBeGreaterThan(2);
    }
  });

  test('the index loads when a search starts, never on page load', async ({page}) => {
    const indexRequests = collectIndexRequests(page);
    await page.goto('/controllers');
    await page.waitForLoadState('networkidle');
    // Client-side navigation does not fetch it either.
    await page.locator('nav[aria-label="Docs sidebar"] a', {hasText: /^Providers$/}).click();
    await expect(page).toHaveURL(/\/providers$/);
    await page.waitForLoadState('networkidle');
    expect(indexRequests()).toEqual([]);

    const response = page.waitForResponse((r) => isIndexRequest(r.request()) && r.ok());
    await searchBox(page).focus();
    await response;
    await searchBox(page).pressSequentially('pipe');
    await expect(suggestions(page).first()).toBeVisible();
    // Once, with the content hash for cache busting.
    expect(indexRequests()).toHaveLength(1);
    expect(indexRequests()[0]).toMatch(/search-index\.json\?_=\w+/);
  });

  test('Ctrl+K focuses the box; typing, ArrowDown and Enter open a result', async ({page}) => {
    const errors = collectPageErrors(page);
    await page.goto('/first-steps');
    // (The mouse stays away from the dropdown: hovering a suggestion selects it.)
    await expect(searchBox(page)).not.toBeFocused();
    await page.keyboard.press('Control+k');
    await expect(searchBox(page)).toBeFocused();
    // The index is loaded and the dropdown set up (the box becomes a combobox).
    await expect(searchBox(page)).toHaveAttribute('role', 'combobox');
    // One input event (a paste, or the last keystroke): a single search, no stale results after.
    await page.keyboard.insertText('ParseIntPipe');
    // The first suggestion is selected as the reader types; ArrowDown moves to the next one.
    await expect(suggestions(page).first()).toHaveAttribute('aria-selected', 'true');
    await expect(searchBox(page)).toHaveAttribute('aria-controls', 'search-suggestions');
    await expect(page.getByRole('listbox', {name: 'Search suggestions'})).toBeVisible();
    const second = suggestions(page).nth(1);
    await page.keyboard.press('ArrowDown');
    await expect(second).toHaveAttribute('aria-selected', 'true');
    await expect(suggestions(page).first()).not.toHaveAttribute('aria-selected', 'true');
    // Its path reads "Menu group › Page title › Section": Enter opens that page.
    const path = (await second.locator('[class*="hitPath"]').textContent())?.split(' › ') ?? [];
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\?_highlight=parseintpipe(#[\w-]+)?$/);
    await expect(page.locator('article h1')).not.toHaveText('First steps');
    expect(path).toContain(await page.locator('article h1').textContent());
    expect(errors()).toEqual([]);
  });

  test('the searched terms are highlighted on the target page', async ({page}) => {
    await page.goto('/controllers');
    await searchBox(page).click();
    await searchBox(page).pressSequentially('ParseIntPipe');
    // Wait for the suggestions of the whole word, not those of the first letters typed.
    await expect(suggestions(page).first()).toContainText(/parseintpipe/i);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/_highlight=parseintpipe/);
    const marks = page.locator('article mark');
    await expect(marks.first()).toBeVisible();
    expect((await marks.first().textContent())?.toLowerCase()).toBe('parseintpipe');
  });

  test('"See all results" opens the /search page', async ({page}) => {
    await page.goto('/controllers');
    await searchBox(page).click();
    await searchBox(page).pressSequentially('middleware');
    await page.getByRole('link', {name: 'See all results'}).click();
    await expect(page).toHaveURL(/\/search\/?\?q=middleware$/);
    await expect(page.locator('h1')).toHaveText('Search results for "middleware"');
    await expect(page.locator('article h2 a').first()).toHaveAttribute(
      'href',
      /^\/middleware\?_highlight=middleware/,
    );
  });
});

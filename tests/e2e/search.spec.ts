import AxeBuilder from '@axe-core/playwright';
import {expect, test, type Page, type Request} from './fixtures';
import {collectPageErrors} from './helpers';

/**
 * The embedded search (Pagefind, src/features/search/plugin.ts and src/features/search/client): the header
 * combobox `#search`, the index fetched only once the reader turns to the box, suggestions,
 * keyboard, highlighting on the opened page, the /search page with its section filter, and the
 * relevance of the suggestions for what a learner types.
 */

const isSearchRequest = (request: Request) =>
  new URL(request.url()).pathname.startsWith('/pagefind/');

/** Records the requests for the search's files. */
function collectSearchRequests(page: Page): () => string[] {
  const urls: string[] = [];
  page.on('request', (request) => {
    if (isSearchRequest(request)) urls.push(new URL(request.url()).pathname);
  });
  return () => urls;
}

const searchBox = (page: Page) => page.locator('nav.navbar input#search');
/** The suggested pages (not the "See all results" entry). */
const suggestions = (page: Page) => page.locator('#search-suggestions [data-search-page]');

/** Types `query` into the header box and returns the suggested routes once they answer it. */
async function suggest(page: Page, query: string): Promise<string[]> {
  await searchBox(page).fill(query);
  const listbox = page.locator(
    `#search-suggestions[data-search-query="${query.replace(/"/g, '\\"')}"]`,
  );
  await expect(listbox).toBeAttached();
  return listbox
    .locator('[data-search-page]')
    .evaluateAll((options) =>
      options.map(
        (option) => new URL(option.getAttribute('data-search-page') ?? '', location.href).pathname,
      ),
    );
}

/**
 * What a learner types, and the page (or one of the pages) that must be among the first five
 * suggestions: identifiers, error messages and tasks. Tune the ranking in
 * src/features/search/client/ranking.ts, not this list.
 */
const relevance: [query: string, expected: string | string[]][] = [
  // Identifiers, also by their first letters.
  ['ParseIntPipe', '/pipes'],
  ['ParseInt', '/pipes'],
  ['ValidationPipe whitelist', '/techniques/validation'],
  [
    'forRootAsync',
    [
      '/techniques/configuration',
      '/techniques/database',
      '/fundamentals/dynamic-modules',
      '/techniques/mongodb',
    ],
  ],
  ['@SubscribeMessage', '/websockets/gateways'],
  ['SubscribeMess', '/websockets/gateways'],
  ['nest-cli.json', ['/cli/monorepo', '/cli/overview', '/cli/libraries']],
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
  ['switchToHttp', '/fundamentals/execution-context'],
  ['getHttpAdapter', '/faq/http-adapter'],
  ['RouterModule', '/recipes/router-module'],
  ['ApiProperty', '/openapi/types-and-parameters'],
  ['PartialType', ['/openapi/mapped-types', '/graphql/mapped-types', '/techniques/validation']],
  ['useFactory inject', ['/fundamentals/custom-providers', '/fundamentals/async-providers']],
  // Error messages.
  ["Nest can't resolve dependencies", '/faq/common-errors'],
  ['Validation failed (numeric string is expected)', '/pipes'],
  ['Forbidden resource', '/guards'],
  ['circular dependency forwardRef', '/fundamentals/circular-dependency'],
  // Tasks and concepts.
  ['upload a file', '/techniques/file-upload'],
  ['validate query params', ['/techniques/validation', '/pipes']],
  ['exclude routes from middleware', '/middleware'],
  ['global prefix', '/faq/global-prefix'],
  ['cron job', '/techniques/task-scheduling'],
  ['rate limiting', '/security/rate-limiting'],
  ['enable cors', '/security/cors'],
  ['kafka', '/microservices/kafka'],
  ['grpc proto file', '/microservices/grpc'],
  ['hot reload', '/recipes/hot-reload'],
  ['swagger', ['/openapi/introduction', '/recipes/swagger']],
  ['health check', '/recipes/terminus'],
  ['hash a password', '/security/encryption-and-hashing'],
  ['jwt authentication', '/security/authentication'],
  ['role based access control', '/security/authorization'],
  ['api versioning', '/techniques/versioning'],
  ['typeorm repository', ['/techniques/database', '/recipes/sql-typeorm']],
  ['mongoose schema', ['/techniques/mongodb', '/recipes/mongodb']],
  ['fastify', '/techniques/performance'],
  ['cache responses', '/techniques/caching'],
  ['bull queue processor', '/techniques/queues'],
  ['helmet', '/security/helmet'],
  ['monorepo', '/cli/monorepo'],
  ['server-sent events', '/techniques/server-sent-events'],
  ['graphql resolver', '/graphql/resolvers'],
  ['graphql subscriptions', '/graphql/subscriptions'],
  ['environment variables', '/techniques/configuration'],
  ['set a cookie', '/techniques/cookies'],
  ['stream a file', '/techniques/streaming-files'],
  ['custom logger', '/techniques/logger'],
  ['emit events', '/techniques/events'],
  ['gzip compression', '/techniques/compression'],
  ['express session', '/techniques/session'],
  ['handlebars template', '/techniques/mvc'],
  ['csrf', '/security/csrf'],
  ['redis transporter', '/microservices/redis'],
  ['rabbitmq', '/microservices/rabbitmq'],
  ['websocket adapter', '/websockets/adapter'],
  ['dynamic module register', '/fundamentals/dynamic-modules'],
  ['graphql date scalar', '/graphql/scalars'],
  ['cqrs command handler', '/recipes/cqrs'],
  ['prisma', '/recipes/prisma'],
  ['serverless', '/faq/serverless'],
  ['hybrid application', '/faq/hybrid-application'],
  ['request lifecycle', '/faq/request-lifecycle'],
  ['migrate from version 7', '/migration-guide'],
  ['standalone application', '/standalone-applications'],
  ['serve static files', '/recipes/serve-static'],
  ['generate crud resource', '/recipes/crud-generator'],
  ['mqtt', '/microservices/mqtt'],
  ['apollo federation', '/graphql/federation'],
  ['compodoc', '/recipes/documentation'],
];

/** The share of the relevance set that must pass (at least 48 of 50). */
const requiredShare = 0.96;

test('relevance: the expected page is among the first five suggestions', async ({page}) => {
  test.setTimeout(120_000);
  expect(relevance.length).toBeGreaterThanOrEqual(50);
  await page.goto('/introduction');
  const misses: string[] = [];
  for (const [query, expected] of relevance) {
    const top = (await suggest(page, query)).slice(0, 5);
    const wanted = typeof expected === 'string' ? [expected] : expected;
    if (!top.some((route) => wanted.includes(route))) {
      misses.push(`"${query}": ${wanted.join(' or ')} not in ${JSON.stringify(top)}`);
    }
  }
  const passed = relevance.length - misses.length;
  expect(
    passed,
    `${passed}/${relevance.length} passed; misses:\n${misses.join('\n')}`,
  ).toBeGreaterThanOrEqual(Math.ceil(relevance.length * requiredShare));
});

test.describe('header search box', () => {
  test.use({viewport: {width: 1280, height: 900}});

  test('is a combobox in the header with id "search" and "Search..." placeholder', async ({
    page,
  }) => {
    await page.goto('/controllers');
    const box = searchBox(page);
    await expect(box).toBeVisible();
    await expect(box).toHaveAttribute('placeholder', 'Search...');
    await expect(page.getByRole('combobox', {name: 'Search the documentation'})).toBeVisible();
    await expect(box).toHaveAttribute('aria-expanded', 'false');
    await expect(box).toHaveAttribute('aria-autocomplete', 'list');
    // Right after the sidebar toggle, on the left of the header.
    const toggle = await page.getByRole('button', {name: 'Toggle side navigation'}).boundingBox();
    const bounds = await box.boundingBox();
    expect(bounds && toggle && bounds.x > toggle.x && bounds.x < 640).toBe(true);
    expect(bounds?.width).toBe(165);
    // The whole placeholder shows before the "ctrl K" hint.
    const room = await box.evaluate((input: HTMLInputElement) => {
      const hint = input.parentElement?.querySelector('kbd');
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
    await box.focus();
    await expect(box).toHaveCSS('width', '190px');
  });

  test('nothing is fetched for search until the reader turns to the box', async ({page}) => {
    const requests = collectSearchRequests(page);
    await page.goto('/controllers');
    await page.waitForLoadState('networkidle');
    // Client-side navigation does not fetch it either.
    await page.locator('nav[aria-label="Docs sidebar"] a', {hasText: /^Providers$/}).click();
    await expect(page).toHaveURL(/\/providers$/);
    await page.waitForLoadState('networkidle');
    expect(requests()).toEqual([]);

    // Focus starts Pagefind; a query fetches only the index chunks and fragments it needs.
    await searchBox(page).focus();
    await expect.poll(() => requests()).toContain('/pagefind/pagefind.js');
    await suggest(page, 'ParseIntPipe');
    await expect(suggestions(page).first().locator('[class*="excerpt"]')).toBeVisible();
    const chunks = requests().filter((url) => url.startsWith('/pagefind/index/'));
    const fragments = requests().filter((url) => url.startsWith('/pagefind/fragment/'));
    expect(chunks.length).toBeGreaterThanOrEqual(1);
    expect(chunks.length).toBeLessThanOrEqual(2);
    expect(fragments.length).toBeLessThanOrEqual(5);
  });

  test('suggestions show the page, its section heading and a marked excerpt', async ({page}) => {
    await page.goto('/first-steps');
    await searchBox(page).click();
    await searchBox(page).pressSequentially('binding pipes');
    const first = suggestions(page).first();
    await expect(first.locator('mark').first()).toBeVisible();
    await expect(first).toContainText('Pipes');
    await expect(first).toContainText('›');
    await expect(page.getByRole('listbox', {name: 'Search suggestions'})).toBeVisible();
    await expect(searchBox(page)).toHaveAttribute('aria-expanded', 'true');
    await expect(searchBox(page)).toHaveAttribute('aria-controls', 'search-suggestions');
    await expect(page.getByRole('status').filter({hasText: /\d+ suggestions/})).toBeAttached();
  });

  test('Ctrl+K focuses the box; arrows, Enter and Escape work the list', async ({page}) => {
    const errors = collectPageErrors(page);
    await page.goto('/first-steps');
    await expect(searchBox(page)).not.toBeFocused();
    await page.keyboard.press('Control+k');
    await expect(searchBox(page)).toBeFocused();
    await page.keyboard.insertText('ParseIntPipe');
    await expect(
      page.locator('#search-suggestions[data-search-query="ParseIntPipe"]'),
    ).toBeAttached();
    const first = suggestions(page).first();
    const second = suggestions(page).nth(1);
    await expect(first).toHaveAttribute('aria-selected', 'true');
    await expect(searchBox(page)).toHaveAttribute('aria-activedescendant', 'search-suggestion-0');
    await page.keyboard.press('ArrowDown');
    await expect(second).toHaveAttribute('aria-selected', 'true');
    await expect(first).toHaveAttribute('aria-selected', 'false');
    await page.keyboard.press('ArrowUp');
    await expect(first).toHaveAttribute('aria-selected', 'true');
    // ArrowUp from the first option wraps to "See all results".
    await page.keyboard.press('ArrowUp');
    await expect(page.getByRole('option', {name: /^See all results/})).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await page.keyboard.press('ArrowDown');
    // Escape closes the list, a second Escape clears the box.
    await page.keyboard.press('Escape');
    await expect(page.getByRole('listbox')).toHaveCount(0);
    await expect(searchBox(page)).toHaveAttribute('aria-expanded', 'false');
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('listbox')).toBeVisible();
    const target = await first.getAttribute('data-search-page');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\?highlight=parseintpipe(#[\w-]+)?$/);
    expect(target && new URL(page.url()).pathname).toBe(new URL(target ?? '', page.url()).pathname);
    await expect(page.locator('article h1')).not.toHaveText('First steps');
    await expect(searchBox(page)).toHaveValue('');
    expect(errors()).toEqual([]);
  });

  test('the searched words are highlighted on the page opened', async ({page}) => {
    await page.goto('/controllers');
    await searchBox(page).click();
    await suggest(page, 'ParseIntPipe');
    await suggestions(page).first().click();
    await expect(page).toHaveURL(/highlight=parseintpipe/);
    const marks = page.locator('article mark.search-highlight');
    // The first suggestion may be an entry of the API reference: its page (/api/common, 800 KB of
    // HTML) is loaded in full (src/features/api-reference/client/fullLoad.ts), and marked once it
    // has hydrated, about 3 s after the click on this 2-core machine under load.
    await expect(marks.first()).toBeVisible({timeout: 15_000});
    expect((await marks.first().textContent())?.toLowerCase()).toBe('parseintpipe');
    // A shared link with the words highlights on a fresh load too.
    await page.goto('/pipes?highlight=parseintpipe');
    await expect(page.locator('article mark.search-highlight').first()).toBeVisible();
  });

  test('"See all results" opens /search; the section filter narrows it', async ({page}) => {
    await page.goto('/controllers');
    await searchBox(page).click();
    await suggest(page, 'interceptor');
    await page.getByRole('option', {name: /^See all results/}).click();
    await expect(page).toHaveURL(/\/search\?q=interceptor$/);
    await expect(page.locator('h1')).toHaveText('Search results for “interceptor”');
    await expect(page.getByRole('status').filter({hasText: /\d+ pages found/})).toBeVisible();
    const results = page.locator('main ol > li h2 a');
    await expect(results.first()).toHaveAttribute('href', /highlight=interceptor/);
    const all = await results.count();
    expect(all).toBeGreaterThan(3);

    const section = page.getByLabel('Section');
    await expect(section.locator('option', {hasText: /^WebSockets \(\d+\)$/})).toBeAttached();
    await section.selectOption('WebSockets');
    await expect(page).toHaveURL(/\/search\?q=interceptor&section=WebSockets$/);
    // Every result listed is in that section (the previous list stays until the new one arrives).
    await expect
      .poll(async () => [...new Set(await page.locator('main ol > li > span').allTextContents())])
      .toEqual(['WebSockets']);

    // The address is shareable: loaded afresh, it shows the same filtered results, and the page
    // hydrates without a mismatch (it is built without a query).
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await page.reload();
    await expect(page.getByLabel('Section')).toHaveValue('WebSockets');
    await expect(page.locator('main ol > li').first()).toContainText(/WebSockets/i);
    expect(consoleErrors).toEqual([]);
  });

  test('with the search files unreachable the box says so and the page keeps working', async ({
    page,
  }) => {
    const errors = collectPageErrors(page);
    await page.route('**/pagefind/**', (route) => route.abort());
    await page.goto('/controllers');
    await searchBox(page).click();
    await searchBox(page).pressSequentially('pipes');
    await expect(
      page.locator('nav.navbar p', {hasText: 'Search is unavailable right now.'}),
    ).toBeVisible();
    await page.keyboard.press('Escape');
    await page.locator('nav[aria-label="Docs sidebar"] a', {hasText: /^Providers$/}).click();
    await expect(page).toHaveURL(/\/providers$/);
    expect(errors()).toEqual([]);
  });
});

test('the open suggestions and the results page have zero axe violations, light and dark', async ({
  page,
}) => {
  test.setTimeout(180_000);
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({colorScheme});
    await page.goto('/controllers');
    await searchBox(page).click();
    await suggest(page, 'pipes');
    await expect(suggestions(page).first().locator('[class*="excerpt"]')).toBeVisible();
    const open = await new AxeBuilder({page}).include('nav.navbar').analyze();
    await page.goto('/search?q=pipes');
    await expect(page.locator('main ol > li').first()).toBeVisible();
    // The shell around it is scanned by the a11y spec.
    const results = await new AxeBuilder({page}).include('main').analyze();
    const found = [...open.violations, ...results.violations].flatMap((violation) =>
      violation.nodes.map((node) => `${colorScheme}: ${violation.id}: ${node.target.join(' ')}`),
    );
    expect(found).toEqual([]);
  }
});

test.describe('on a phone', () => {
  test.use({viewport: {width: 375, height: 800}, hasTouch: true});

  test('the suggestions fit the screen under the header', async ({page}) => {
    await page.goto('/controllers');
    await searchBox(page).tap();
    await suggest(page, 'guards');
    const list = await page.locator('#search-suggestions').boundingBox();
    expect(list && list.x >= 0 && list.x + list.width <= 375).toBe(true);
    expect(list && list.y >= 70).toBe(true);
  });
});

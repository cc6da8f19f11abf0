import {mkdtempSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {gzipSync} from 'node:zlib';
import {describe, expect, it} from 'vitest';
import {defaultAlgoliaIndexName, searchConfig} from './node/searchConfig';
import pagefindPlugin from './plugin';
import {readFragment, writePageList} from './node/pagefindIndex';
import type {PagefindResultData, PagefindSubResult} from './client/pagefind';
import {rankedSubResults, readersOrder} from './client/ranking';
import {
  searchPageUrl,
  titleMatches,
  toPageResult,
  withEllipses,
  withHighlight,
  toSuggestion,
} from './client/results';
import {inspectSearchBuild, main} from '../../../scripts/check-search-build.mjs';

describe('searchConfig', () => {
  it('uses the Pagefind plugin when no Algolia keys are set', () => {
    const config = searchConfig({});
    expect(config.algolia).toBeUndefined();
    // The plugin, created with the options of the local search (the API reference's entries).
    expect(config.plugins).toHaveLength(1);
    const create = config.plugins[0] as unknown as (
      context: never,
    ) => ReturnType<typeof pagefindPlugin>;
    expect(create({siteDir: '/site', baseUrl: '/'} as never).name).toBe(
      pagefindPlugin({siteDir: '/site', baseUrl: '/'} as never).name,
    );
  });

  it('needs both the app id and the API key for Algolia', () => {
    for (const env of [
      {ALGOLIA_APP_ID: 'APP'},
      {ALGOLIA_API_KEY: 'key'},
      {ALGOLIA_APP_ID: ' ', ALGOLIA_API_KEY: 'key'},
      {ALGOLIA_APP_ID: 'APP', ALGOLIA_API_KEY: ''},
    ]) {
      const config = searchConfig(env);
      expect(config.algolia, JSON.stringify(env)).toBeUndefined();
      expect(config.plugins).toHaveLength(1);
    }
  });

  it('uses Algolia DocSearch, and only it, when both keys are set', () => {
    const config = searchConfig({ALGOLIA_APP_ID: 'APP', ALGOLIA_API_KEY: 'key'});
    expect(config.plugins).toEqual([]);
    expect(config.algolia).toMatchObject({
      appId: 'APP',
      apiKey: 'key',
      indexName: defaultAlgoliaIndexName,
      contextualSearch: false,
    });
    expect(defaultAlgoliaIndexName).toBe('nestjs');
  });

  it('takes the index name from ALGOLIA_INDEX_NAME', () => {
    const config = searchConfig({
      ALGOLIA_APP_ID: 'APP',
      ALGOLIA_API_KEY: 'key',
      ALGOLIA_INDEX_NAME: 'nestjs-v8',
    });
    expect(config.algolia?.indexName).toBe('nestjs-v8');
  });
});

describe('pagefind plugin', () => {
  it('writes the page list from the fragments, with the metadata file to fetch early', async () => {
    const bundle = mkdtempSync(join(tmpdir(), 'pagefind-'));
    mkdirSync(join(bundle, 'fragment'));
    const fragment = (url: string, title: string, section: string) =>
      gzipSync(
        Buffer.concat([
          Buffer.from('pagefind_dcd'),
          Buffer.from(JSON.stringify({url, meta: {title, section}, content: 'text'})),
        ]),
      );
    writeFileSync(
      join(bundle, 'fragment', 'en_b.pf_fragment'),
      fragment('/pipes', 'Pipes', 'Overview'),
    );
    writeFileSync(
      join(bundle, 'fragment', 'en_a.pf_fragment'),
      fragment('/techniques/queues', 'Queues', 'Techniques'),
    );
    writeFileSync(
      join(bundle, 'pagefind-entry.json'),
      JSON.stringify({version: '1.6.0', languages: {en: {hash: 'en_123', page_count: 2}}}),
    );
    const list = await writePageList(bundle);
    expect(list).toEqual({
      meta: 'pagefind.en_123.pf_meta',
      pages: [
        ['en_a', '/techniques/queues', 'Queues', 'Techniques'],
        ['en_b', '/pipes', 'Pipes', 'Overview'],
      ],
    });
    expect(JSON.parse(readFileSync(join(bundle, 'pages.json'), 'utf8'))).toEqual(list);
    expect(() => readFragment(gzipSync(Buffer.from('nothing')))).toThrow(/not a Pagefind fragment/);
  });

  it('adds the /search route, the highlight and the prefetch hold client modules', async () => {
    const routes: unknown[] = [];
    const plugin = pagefindPlugin({siteDir: '/site', baseUrl: '/'} as never);
    expect(plugin.getClientModules?.()).toEqual([
      join('/site', 'src/features/search/client/highlight.ts'),
      join('/site', 'src/features/search/client/prefetchHold.ts'),
    ]);
    await plugin.contentLoaded?.({
      content: undefined,
      actions: {addRoute: (route: unknown) => routes.push(route)} as never,
    });
    expect(routes).toEqual([
      expect.objectContaining({
        path: '/search',
        component: '@site/src/features/search/client/SearchPage',
      }),
    ]);
  });
});

const location = (balanced: number) => ({weight: 1, balanced_score: balanced, location: 0});

function sub(title: string, url: string, scores: number[], anchor = true): PagefindSubResult {
  return {
    title,
    url,
    excerpt: `<mark>${title}</mark> excerpt`,
    ...(anchor && {anchor: {element: 'h2', id: url.split('#')[1] ?? '', text: title, location: 0}}),
    weighted_locations: scores.map(location),
    locations: scores.map(() => 0),
  };
}

const pipes: PagefindResultData = {
  url: '/pipes?highlight=parseintpipe',
  excerpt: 'page excerpt',
  meta: {title: 'Pipes', section: 'Overview'},
  filters: {section: ['Overview']},
  word_count: 100,
  sub_results: [
    sub('Pipes', '/pipes?highlight=parseintpipe', [1], false),
    sub('Built-in pipes', '/pipes?highlight=parseintpipe#built-in-pipes', [2, 2]),
    sub('Binding pipes', '/pipes?highlight=parseintpipe#binding-pipes', [5, 1]),
    sub('Custom pipes', '/pipes?highlight=parseintpipe#custom-pipes', [4]),
    sub('Global pipes', '/pipes?highlight=parseintpipe#global-pipes', [1]),
  ],
};

describe('search results', () => {
  it('ranks the parts of a page by the summed score of their matches', () => {
    expect(rankedSubResults(pipes).map((part) => part.title)).toEqual([
      'Binding pipes',
      'Built-in pipes',
      'Custom pipes',
      'Pipes',
      'Global pipes',
    ]);
  });

  it('suggests the page at its best section', () => {
    expect(toSuggestion(pipes)).toEqual({
      url: '/pipes?highlight=parseintpipe#binding-pipes',
      title: 'Pipes',
      section: 'Overview',
      heading: 'Binding pipes',
      excerpt: '<mark>Binding pipes</mark> excerpt…',
    });
    // The best match in the page's opening text: no heading.
    const top = {...pipes, sub_results: [sub('Pipes', '/pipes', [3], false)]};
    expect(toSuggestion(top)).toMatchObject({url: '/pipes'});
    expect(toSuggestion(top)).not.toHaveProperty('heading');
    expect(toSuggestion({...pipes, sub_results: []})).toMatchObject({
      url: pipes.url,
      excerpt: '…page excerpt…',
    });
  });

  it('lists up to three matching sections per page on the results page', () => {
    const result = toPageResult(pipes);
    expect(result.parts.map((part) => part.heading)).toEqual([
      'Binding pipes',
      'Built-in pipes',
      'Custom pipes',
    ]);
    // The best match is under a heading: its excerpt shows with that part, not twice.
    expect(result).toMatchObject({
      url: pipes.url,
      title: 'Pipes',
      section: 'Overview',
      excerpt: '',
    });
    const opening = {
      ...pipes,
      sub_results: [sub('Pipes', '/pipes', [9], false), ...pipes.sub_results],
    };
    expect(toPageResult(opening).excerpt).toBe('<mark>Pipes</mark> excerpt…');
  });

  it('marks where an excerpt was cut with an ellipsis', () => {
    expect(withEllipses('the <mark>pipe</mark> runs before')).toBe(
      '…the <mark>pipe</mark> runs before…',
    );
    expect(withEllipses('<mark>Pipes</mark> transform input.')).toBe(
      '<mark>Pipes</mark> transform input.',
    );
    expect(withEllipses('')).toBe('');
  });

  it('builds the results page and highlight addresses', () => {
    expect(searchPageUrl('/', 'upload a file')).toBe('/search?q=upload+a+file');
    expect(searchPageUrl('/', 'cache', 'Techniques')).toBe('/search?q=cache&section=Techniques');
    expect(withHighlight('/pipes#binding-pipes', 'ParseIntPipe  Binding')).toBe(
      '/pipes?highlight=parseintpipe&highlight=binding#binding-pipes',
    );
    expect(withHighlight('/cli/overview', 'nest-cli.json')).toBe(
      '/cli/overview?highlight=nest-cli.json',
    );
  });
});

/** A fake build directory with the given files (paths relative to it). */
function fakeBuild(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'search-build-'));
  for (const [path, content] of Object.entries(files)) {
    const file = join(dir, path);
    mkdirSync(join(file, '..'), {recursive: true});
    writeFileSync(file, content);
  }
  return dir;
}

const sitemap = (...routes: string[]) =>
  `<urlset>${routes.map((route) => `<url><loc>https://docs.nestjs.com${route}</loc></url>`).join('')}</urlset>`;
const pageList = (...routes: string[]) =>
  JSON.stringify({
    meta: 'pagefind.en_1.pf_meta',
    pages: routes.map((u, i) => [`en_${i}`, u, u, 'Overview']),
  });

const localFiles = {
  'index.html':
    '<nav class="navbar"><input id="search" type="search" role="combobox" aria-expanded="false"></nav>',
  'pagefind/pagefind.js': 'export const search = () => {};',
  'pagefind/pages.json': pageList('/', '/pipes'),
  'pagefind/index/en_1.pf_index': 'x',
  'sitemap.xml': sitemap('/', '/pipes'),
};
const algoliaFiles = {
  'index.html':
    '<link rel=preconnect href=https://APP1-dsn.algolia.net crossorigin=anonymous>' +
    '<button class="DocSearch DocSearch-Button">Search</button>',
  'assets/js/main.1.js': 'x.className="DocSearch-Modal"',
  'sitemap.xml': sitemap('/', '/pipes'),
};

describe('check-search-build', () => {
  const quiet = {log: () => {}, error: () => {}};

  it('recognises a build with the Pagefind index', () => {
    const build = inspectSearchBuild(fakeBuild(localFiles));
    expect(build.mode).toBe('local');
    expect(build.indexFiles.map((index) => [index.file, index.pages])).toEqual([
      ['pagefind/', ['/', '/pipes']],
    ]);
    expect(build.indexFiles[0].gzipBytes).toBeGreaterThan(0);
    expect(build.unindexedPages).toEqual([]);
  });

  it('recognises a build with DocSearch', () => {
    const dir = fakeBuild(algoliaFiles);
    expect(inspectSearchBuild(dir)).toMatchObject({mode: 'algolia', algoliaAppId: 'APP1'});
    expect(main(['--expect', 'algolia', dir], quiet)).toBe(0);
    expect(main([dir], quiet)).toBe(0);
  });

  it('fails on the wrong search, on both, on none and on unindexed pages', () => {
    expect(main(['--expect=algolia', fakeBuild(localFiles)], quiet)).toBe(1);
    expect(main(['--expect', 'local', fakeBuild(algoliaFiles)], quiet)).toBe(1);
    const both = fakeBuild({
      ...algoliaFiles,
      ...localFiles,
      'index.html': algoliaFiles['index.html'],
    });
    expect(inspectSearchBuild(both).mode).toBe('both');
    expect(main([both], quiet)).toBe(1);
    expect(inspectSearchBuild(fakeBuild({'index.html': '<html></html>'})).mode).toBe('none');
    const missing = fakeBuild({...localFiles, 'pagefind/pages.json': pageList('/')});
    expect(inspectSearchBuild(missing).unindexedPages).toEqual(['/pipes']);
    expect(main(['--expect', 'local', missing], quiet)).toBe(1);
    expect(main(['--expect', 'local', fakeBuild(localFiles)], quiet)).toBe(0);
  });

  it('rejects bad arguments', () => {
    expect(main(['--expect', 'elastic', fakeBuild(localFiles)], quiet)).toBe(2);
    expect(main([join(tmpdir(), 'no-such-build-dir')], quiet)).toBe(2);
  });
});

describe('titleMatches (suggestions before Pagefind has loaded)', () => {
  const pages = [
    {url: '/pipes', title: 'Pipes', section: 'Overview'},
    {url: '/providers', title: 'Providers', section: 'Overview'},
    {url: '/techniques/performance', title: 'Performance (Fastify)', section: 'Techniques'},
    {
      url: '/fundamentals/platform-agnosticism',
      title: 'Platform agnosticism',
      section: 'Fundamentals',
    },
    {url: '/websockets/pipes', title: 'Pipes', section: 'WebSockets'},
    {url: '/graphql/plugins', title: 'Plugins with Apollo', section: 'GraphQL'},
    {url: '/guards', title: 'Guards', section: 'Overview'},
  ];
  it('offers the pages whose title has a word starting with what is typed', () => {
    expect(titleMatches(pages, 'p', 10).map((page) => page.url)).toEqual([
      '/pipes?highlight=p',
      '/websockets/pipes?highlight=p',
      '/providers?highlight=p',
      '/graphql/plugins?highlight=p',
      '/fundamentals/platform-agnosticism?highlight=p',
      '/techniques/performance?highlight=p',
    ]);
  });
  it('narrows as the reader types, and finds words inside a title', () => {
    expect(titleMatches(pages, 'pi', 10).map((page) => page.title)).toEqual(['Pipes', 'Pipes']);
    expect(titleMatches(pages, 'fast', 10).map((page) => page.url)).toEqual([
      '/techniques/performance?highlight=fast',
    ]);
    expect(titleMatches(pages, 'plugins apo', 10).map((page) => page.title)).toEqual([
      'Plugins with Apollo',
    ]);
  });
  it('keeps to the limit, and answers nothing when no title matches', () => {
    expect(titleMatches(pages, 'p', 2)).toHaveLength(2);
    expect(titleMatches(pages, 'parseint', 5)).toEqual([]);
    expect(titleMatches(pages, '  ', 5)).toEqual([]);
  });
  it('offers the API reference after the guide pages', () => {
    const withApi = [...pages, {url: '/api/common#Param', title: 'Param', section: 'API'}];
    expect(
      titleMatches(withApi, 'p', 10)
        .map((page) => page.title)
        .at(-1),
    ).toBe('Param');
  });
  it('gives a suggestion the box can show: page, section, no excerpt yet', () => {
    expect(titleMatches(pages, 'guards', 1)).toEqual([
      {url: '/guards?highlight=guards', title: 'Guards', section: 'Overview', excerpt: ''},
    ]);
  });
});

describe('readersOrder (guide pages before API entries)', () => {
  const listed = new Map([
    ['nest', {title: 'NestInterceptor', section: 'API'}],
    ['guide', {title: 'Interceptors', section: 'Overview'}],
    ['guards', {title: 'UseGuards', section: 'API'}],
    ['guards-page', {title: 'Guards', section: 'Overview'}],
  ]);
  const order = (ids: string[], query: string) => readersOrder(ids, (id) => listed.get(id), query);

  it('moves an entry the query does not name after the guides', () => {
    expect(order(['nest', 'guide'], 'interceptr')).toEqual(['guide', 'nest']);
  });
  it('keeps the place of the entry the query names, however it is typed', () => {
    expect(order(['guards', 'guards-page'], 'UseGuards')).toEqual(['guards', 'guards-page']);
    expect(order(['guards', 'guards-page'], '@useguards()')).toEqual(['guards', 'guards-page']);
    expect(order(['guards', 'guards-page'], 'UseGua')).toEqual(['guards', 'guards-page']);
    expect(order(['guards', 'guards-page'], 'guards')).toEqual(['guards-page', 'guards']);
  });
  it("leaves Pagefind's order otherwise, unknown results included", () => {
    expect(order(['guide', 'guards-page', 'other'], 'x')).toEqual([
      'guide',
      'guards-page',
      'other',
    ]);
  });
});

describe('where the ranking is said to be', () => {
  const ranking = 'src/features/search/client/ranking.ts';

  it('every document that sends a reader to tune it names client/ranking.ts', () => {
    expect(readFileSync(ranking, 'utf8')).toContain('export const ranking');
    expect(readFileSync('README.md', 'utf8')).toContain(ranking);
    expect(readFileSync('tests/e2e/search.spec.ts', 'utf8')).toContain(
      `Tune the ranking in\n * ${ranking}`,
    );
    expect(readFileSync('src/features/search/README.md', 'utf8')).toContain(
      '| `client/ranking.ts` |',
    );
  });

  it('Pagefind gets its weights from there', () => {
    const pagefind = readFileSync('src/features/search/client/pagefind.ts', 'utf8');
    expect(pagefind).toContain("import {ranking} from './ranking';");
    expect(pagefind).not.toMatch(/termSaturation: [\d.]/);
  });
});

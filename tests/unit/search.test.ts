import {mkdtempSync, mkdirSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {
  defaultAlgoliaIndexName,
  localSearchOptions,
  localSearchTheme,
  searchConfig,
} from '../../src/node/search';
import {inspectSearchBuild, main} from '../../scripts/check-search-build.mjs';

describe('searchConfig', () => {
  it('uses the local search when no Algolia keys are set', () => {
    const config = searchConfig({});
    expect(config.algolia).toBeUndefined();
    expect(config.themes).toEqual([[localSearchTheme, localSearchOptions]]);
  });

  it('indexes the docs served at the site root, not a blog', () => {
    expect(localSearchOptions).toMatchObject({
      docsRouteBasePath: '/',
      indexDocs: true,
      indexBlog: false,
      hashed: true,
      highlightSearchTermsOnTargetPage: true,
      searchBarShortcutKeymap: 'mod+k',
    });
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
      expect(config.themes).toHaveLength(1);
    }
  });

  it('uses Algolia DocSearch, and only it, when both keys are set', () => {
    const config = searchConfig({ALGOLIA_APP_ID: 'APP', ALGOLIA_API_KEY: 'key'});
    expect(config.themes).toEqual([]);
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
const localIndex = (...routes: string[]) =>
  JSON.stringify([{documents: routes.map((u, i) => ({i, t: u, u})), index: {}}]);

const localFiles = {
  'index.html':
    '<nav class="navbar"><input class="navbar__search-input x" aria-label=Search></nav>',
  'assets/js/main.1.js': 'const searchIndexUrl="search-index{dir}.json?_=abc";',
  'search-index.json': localIndex('/', '/pipes'),
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

  it('recognises a build with the local index', () => {
    const build = inspectSearchBuild(fakeBuild(localFiles));
    expect(build.mode).toBe('local');
    expect(build.indexFiles.map((index) => [index.file, index.pages])).toEqual([
      ['search-index.json', ['/', '/pipes']],
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
    const both = fakeBuild({...algoliaFiles, 'search-index.json': localIndex('/', '/pipes')});
    expect(inspectSearchBuild(both).mode).toBe('both');
    expect(main([both], quiet)).toBe(1);
    expect(inspectSearchBuild(fakeBuild({'index.html': '<html></html>'})).mode).toBe('none');
    const missing = fakeBuild({...localFiles, 'search-index.json': localIndex('/')});
    expect(inspectSearchBuild(missing).unindexedPages).toEqual(['/pipes']);
    expect(main(['--expect', 'local', missing], quiet)).toBe(1);
    expect(main(['--expect', 'local', fakeBuild(localFiles)], quiet)).toBe(0);
  });

  it('rejects bad arguments', () => {
    expect(main(['--expect', 'elastic', fakeBuild(localFiles)], quiet)).toBe(2);
    expect(main([join(tmpdir(), 'no-such-build-dir')], quiet)).toBe(2);
  });
});

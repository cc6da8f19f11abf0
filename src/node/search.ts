/**
 * Which search the site ships with: the one place that decides.
 *
 * - By default, `@easyops-cn/docusaurus-search-local` builds a lunr index of every docs page at
 *   build time (`search-index.json`), fetched by the browser only when the reader starts a search.
 * - When `ALGOLIA_APP_ID` and `ALGOLIA_API_KEY` are both set, Algolia DocSearch is used instead:
 *   `themeConfig.algolia` makes preset-classic load `@docusaurus/theme-search-algolia`, and the
 *   local search theme is left out. Exactly one of the two is ever loaded.
 */
import type {PluginConfig} from '@docusaurus/types';
import type {ThemeConfig} from '@docusaurus/preset-classic';
import type {PluginOptions as LocalSearchOptions} from '@easyops-cn/docusaurus-search-local';

export type AlgoliaConfig = NonNullable<ThemeConfig['algolia']>;

export interface SearchConfig {
  /** Spread into the site config's `themes`. */
  themes: PluginConfig[];
  /** Spread into `themeConfig` (as `algolia`) when set. */
  algolia?: AlgoliaConfig;
}

export const localSearchTheme = '@easyops-cn/docusaurus-search-local';
export const defaultAlgoliaIndexName = 'nestjs';

/**
 * Options of the local search. Its lunr index holds, per page, the title, each h2/h3 heading and
 * the text of each section, code included (a code token such as `ParseIntPipe` or
 * `Test.createTestingModule` is a word; dotted calls like `app.getHttpAdapter()` stay one token).
 * Results list title matches first, then headings, then sections, each group by score.
 */
export const localSearchOptions = {
  indexDocs: true,
  // The docs are served at the site root (`routeBasePath: '/'`).
  docsRouteBasePath: '/',
  indexBlog: false,
  // Every page but /consulting (a redirect) and /search is a docs page.
  indexPages: false,
  language: ['en'],
  // `search-index.json?_=<hash of docs/>`: a new URL whenever the docs change.
  hashed: true,
  highlightSearchTermsOnTargetPage: true,
  searchResultLimits: 8,
  searchResultContextMaxLength: 60,
  // "Menu group › Page › Section" under each suggestion.
  explicitSearchResultPath: true,
  searchBarShortcut: true,
  searchBarShortcutKeymap: 'mod+k',
  // Shows "ctrl K" (⌘ K on macOS) in the box, and a clear button once something is typed.
  searchBarShortcutHint: true,
  searchBarPosition: 'left',
  ignoreCssSelectors: [
    // The one-sentence page descriptions: every description match would rank above every
    // section match, and the descriptions of sibling pages share their words ("WebSocket
    // gateways" on each WebSockets page), crowding out the page itself. The page's opening
    // section is indexed anyway.
    'meta[name="description"]',
    // Code pair chrome ("JS"/"TS" buttons, the `.js` twin of the file name). Both code halves
    // stay: the JavaScript one has its own identifiers (`@Dependencies()`, `@Bind()`).
    '[data-code-pair-filename="js"]',
    '[data-code-pair-switch]',
  ],
} satisfies LocalSearchOptions;

/** Picks the search from the environment of the build. */
export function searchConfig(env: NodeJS.ProcessEnv): SearchConfig {
  const appId = env.ALGOLIA_APP_ID?.trim();
  const apiKey = env.ALGOLIA_API_KEY?.trim();
  if (appId && apiKey) {
    return {
      themes: [],
      algolia: {
        appId,
        apiKey,
        indexName: env.ALGOLIA_INDEX_NAME?.trim() || defaultAlgoliaIndexName,
        // One docs version and one locale: there is no context to narrow results to, and an
        // index not crawled with Docusaurus' template has no such facets to filter on.
        contextualSearch: false,
        // DocSearch's own results page, at the same /search route as the local one.
        searchPagePath: 'search',
      },
    };
  }
  return {themes: [[localSearchTheme, localSearchOptions]]};
}

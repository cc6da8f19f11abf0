/**
 * Which search the site ships with: the one place that decides.
 *
 * - By default, Pagefind builds a chunked static index of every docs page after the build
 *   (src/plugins/pagefind.ts), and the header box and `/search` page query it in the browser
 *   (src/components/Search).
 * - When `ALGOLIA_APP_ID` and `ALGOLIA_API_KEY` are both set, Algolia DocSearch is used instead:
 *   `themeConfig.algolia` makes preset-classic load `@docusaurus/theme-search-algolia`, and the
 *   Pagefind plugin is left out (no index, no `/search` route of ours). Exactly one of the two is
 *   ever in a build.
 */
import type {LoadContext, PluginConfig} from '@docusaurus/types';
import type {ThemeConfig} from '@docusaurus/preset-classic';
import pagefindPlugin, {type PagefindOptions} from '../plugins/pagefind';

export type AlgoliaConfig = NonNullable<ThemeConfig['algolia']>;

export interface SearchConfig {
  /** Spread into the site config's `plugins`. */
  plugins: PluginConfig[];
  /** Spread into `themeConfig` (as `algolia`) when set. */
  algolia?: AlgoliaConfig;
}

export const defaultAlgoliaIndexName = 'nestjs';

/**
 * Picks the search from the environment of the build. `pagefind` options apply to the local
 * search (the API reference's entries: src/features/api-reference).
 */
export function searchConfig(env: NodeJS.ProcessEnv, pagefind: PagefindOptions = {}): SearchConfig {
  const appId = env.ALGOLIA_APP_ID?.trim();
  const apiKey = env.ALGOLIA_API_KEY?.trim();
  if (appId && apiKey) {
    return {
      plugins: [],
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
  return {plugins: [(context: LoadContext) => pagefindPlugin(context, pagefind)]};
}

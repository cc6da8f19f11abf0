/**
 * The embedded search in the site: the `/search` results page, and the client module that marks
 * the searched words on a page opened from a result. The index itself is built after the build
 * by the pipeline's search step (./node/step.ts, ./node/pagefindIndex.ts).
 *
 * Only the article of a docs page is indexed: the element marked `data-pagefind-body`
 * (src/features/shell/client/DocItemContent.tsx), which also carries the page's menu group as
 * the `section` filter and metadata. The browser fetches `/pagefind/pagefind.js`, its WebAssembly
 * search and the entry file when the reader turns to the search box, then only the index chunks
 * and page fragments a query needs (./client/pagefind.ts).
 *
 * Left out of the site when the build uses Algolia DocSearch (./node/searchConfig.ts).
 */
import {join} from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';

export default function pagefindPlugin(context: LoadContext): Plugin {
  return {
    name: 'pagefind-search',
    getClientModules() {
      return [
        join(context.siteDir, 'src/features/search/client/highlight.ts'),
        // Linked pages are not prefetched while the reader searches.
        join(context.siteDir, 'src/features/search/client/prefetchHold.ts'),
      ];
    },
    async contentLoaded({actions}) {
      actions.addRoute({
        path: `${context.baseUrl}search`,
        component: '@site/src/features/search/client/SearchPage',
        exact: true,
      });
    },
  };
}

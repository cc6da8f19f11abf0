/**
 * The build pipeline's search step (src/features/pipeline): indexes the built pages with
 * Pagefind into `pagefind/` (./pagefindIndex.ts), with the documents earlier steps handed on
 * (`searchDocuments`: the API reference's entries). Nothing to do in a build that uses Algolia
 * DocSearch instead (./searchConfig.ts): its index is crawled elsewhere.
 */
import type {Step} from '../../pipeline/node/steps';
import {buildIndex, pagefindDir} from './pagefindIndex';
import {algoliaAppIdOf} from './searchConfig';

export const searchIndexStep: Step = {
  name: 'search',
  async run(build, previous) {
    if (algoliaAppIdOf(build.siteConfig) !== undefined) return {};
    const records = await buildIndex(
      build.siteDir,
      build.outDir,
      build.baseUrl,
      previous.searchDocuments,
    );
    console.log(`[pagefind-search] indexed ${records} pages and entries into ${pagefindDir}/`);
    return {};
  },
};

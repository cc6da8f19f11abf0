/**
 * The build pipeline's search step (src/features/pipeline): indexes the built pages with
 * Pagefind into `pagefind/` (./pagefindIndex.ts). Nothing to do in a build that uses Algolia
 * DocSearch instead (./searchConfig.ts): its index is crawled elsewhere.
 */
import type {Step} from '../../pipeline/node/steps';
import {buildIndex, pagefindDir} from './pagefindIndex';
import {algoliaAppIdOf} from './searchConfig';

export const searchIndexStep: Step = {
  name: 'search',
  async run(build) {
    if (algoliaAppIdOf(build.siteConfig) !== undefined) return {};
    const pages = await buildIndex(build.siteDir, build.outDir, build.baseUrl);
    console.log(`[pagefind-search] indexed ${pages} pages into ${pagefindDir}/`);
    return {};
  },
};

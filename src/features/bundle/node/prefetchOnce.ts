/**
 * Docusaurus prefetches the bundles of a page when a link to it scrolls into view: for each
 * route it adds a `<link rel="prefetch">` per chunk, and the chunks routes share (the docs
 * layout, the version's metadata, the menu) are added again for every link. On /controllers
 * that was 281 tags in the head for 18 distinct files at 412 px (304 for 19 at 1350 px),
 * each an element created and inserted on the main thread while the page becomes interactive.
 *
 * This resolves the helper `@docusaurus/core/lib/client/docusaurus.js` calls (`./prefetch`)
 * to src/plugins/prefetchOnceModule.ts, which calls it once per URL. Browser bundle only (the
 * server never prefetches). tests/e2e/foundation.spec.ts checks that linked pages are still
 * prefetched and no URL twice; tests/unit/slimBundles.test.ts the rule and the helper.
 */
import {join} from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';
import {packageDir} from './packageDir';

/** The file of Docusaurus' client that imports the prefetch helper. */
export function prefetchCaller(siteDir: string): string {
  return join(packageDir(siteDir, '@docusaurus/core'), 'lib', 'client', 'docusaurus.js');
}

export default function prefetchOnce(context: LoadContext): Plugin {
  const caller = prefetchCaller(context.siteDir);
  return {
    name: 'nest-prefetch-once',
    configureWebpack(_config, isServer) {
      if (isServer) return {};
      return {
        module: {
          rules: [
            {
              test: (resource: string) => resource === caller,
              resolve: {
                alias: {
                  './prefetch$': join(
                    context.siteDir,
                    'src',
                    'features',
                    'bundle',
                    'client',
                    'prefetchOnce.ts',
                  ),
                },
              },
            },
          ],
        },
      };
    },
  };
}

/**
 * Docusaurus prefetches the bundles of a page when a link to it scrolls into view: for each
 * route it adds a `<link rel="prefetch">` per chunk, and the chunks routes share (the docs
 * layout, the version's metadata, the menu) are added again for every link: hundreds of tags
 * for a few distinct files, each an element created on the main thread while the page becomes
 * interactive (figures: PERFORMANCE.md, 2026-11-24).
 *
 * This resolves the helper `@docusaurus/core/lib/client/docusaurus.js` calls (`./prefetch`)
 * to ../client/prefetchOnce.ts, which calls it once per URL. Browser bundle only (the
 * server never prefetches). tests/e2e/foundation.spec.ts checks that linked pages are still
 * prefetched and no URL twice; ./slimBundles.test.ts the rule and the helper.
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

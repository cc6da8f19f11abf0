/**
 * The API reference (issue #30): see README.md.
 *
 * `apiReference(siteDir)` runs when the site config is loaded, before Docusaurus reads the docs:
 * it writes `docs/api/*.md` from the packages' declarations (./node/generate.ts) and returns
 * - `remarkPlugin`, for the docs' remark plugins (after codePair): the samples' links;
 * - `plugin`, the Docusaurus plugin: its client module loads API pages in full rather than
 *   rendering them in the browser (./client/fullLoad.ts); it reports the pages' size after a build;
 * - `searchDocuments`, the post-build step that gives each entry its own search record
 *   (./node/searchStep.ts), called by the Pagefind plugin's post-build.
 */
import {stat} from 'node:fs/promises';
import {join} from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';
import {referencePackages} from './packages';
import {generateReference} from './node/generate';
import {resolverFor} from './node/pages';
import sampleLinksPlugin, {type Options as RemarkOptions} from './node/remark';
import {apiSearchDocuments} from './node/searchStep';

export interface ApiReference {
  readonly remarkPlugin: [typeof sampleLinksPlugin, RemarkOptions];
  readonly plugin: (context: LoadContext) => Plugin;
  readonly searchDocuments: typeof apiSearchDocuments;
  /** The number of exports the reference covers. */
  readonly entries: number;
}

export function apiReference(siteDir: string, baseUrl = '/'): ApiReference {
  const generated = generateReference({siteDir});
  const entries = generated.model.packages.reduce((sum, pkg) => sum + pkg.symbols.length, 0);
  console.log(
    `[api-reference] ${entries} exports of ${generated.model.packages.length} packages, ` +
      `${generated.pages} pages (${generated.written} rewritten; model ` +
      `${generated.cached ? 'cached' : 'extracted'}) in ${generated.milliseconds} ms`,
  );
  return {
    remarkPlugin: [sampleLinksPlugin, {resolve: resolverFor(generated.model, baseUrl)}],
    searchDocuments: apiSearchDocuments,
    entries,
    plugin: () => ({
      name: 'api-reference',
      getClientModules() {
        return [join(__dirname, 'client', 'fullLoad.ts')];
      },
      async postBuild({outDir}) {
        let bytes = 0;
        for (const pkg of referencePackages) {
          bytes += (await stat(join(outDir, `${pkg.route}.html`))).size;
        }
        console.log(
          `[api-reference] ${referencePackages.length} pages, ${entries} entries, ` +
            `${Math.round(bytes / 1024)} KiB of HTML`,
        );
      },
    }),
  };
}

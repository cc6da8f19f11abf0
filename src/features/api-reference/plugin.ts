/**
 * The API reference (issue #30): see README.md.
 *
 * `apiReference(siteDir)` runs when the site config is loaded, before Docusaurus reads the docs:
 * it writes `docs/api/*.md` from the packages' declarations (./node/generate.ts) and returns
 * - `remarkPlugin`, for the docs' remark plugins (after codePair): the samples' links;
 * - `plugin`, the Docusaurus plugin: its client module loads API pages in full rather than
 *   rendering them in the browser (./client/fullLoad.ts).
 * After the build, the pipeline's `api-reference` step (./node/step.ts) gives each entry its
 * own search record.
 */
import {join} from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';
import {generateReference} from './node/generate';
import {resolverFor} from './node/pages';
import sampleLinksPlugin, {type Options as RemarkOptions} from './node/remark';

export interface ApiReference {
  readonly remarkPlugin: [typeof sampleLinksPlugin, RemarkOptions];
  readonly plugin: (context: LoadContext) => Plugin;
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
    entries,
    plugin: () => ({
      name: 'api-reference',
      getClientModules() {
        return [join(__dirname, 'client', 'fullLoad.ts')];
      },
    }),
  };
}

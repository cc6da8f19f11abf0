/**
 * The API reference (issue #30): see README.md.
 *
 * `apiReference(siteDir)` does nothing when the site config loads; it returns
 * - `plugin`, the Docusaurus plugin. Docusaurus calls it when it loads the site, after the
 *   config and before any plugin loads its content: it then writes `docs/api/*.md` from the
 *   packages' declarations (./node/generate.ts, which installs `tools/samples` first if needed),
 *   so the docs plugin finds them. Its client module loads API pages in full rather than
 *   rendering them in the browser (./client/fullLoad.ts).
 * - `remarkPlugin`, for the docs' remark plugins (after codePair): the samples' links, resolved
 *   against the model that generation read (looked up on the first code block).
 * After the build, the pipeline's `api-reference` step (./node/step.ts) gives each entry its
 * own search record.
 */
import {join} from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';
import type {ApiModel} from './model';
import {generateReference, loadModel} from './node/generate';
import {resolverFor} from './node/pages';
import sampleLinksPlugin, {type Options as RemarkOptions} from './node/remark';

export interface ApiReference {
  readonly remarkPlugin: [typeof sampleLinksPlugin, RemarkOptions];
  readonly plugin: (context: LoadContext) => Plugin;
}

export function apiReference(siteDir: string, baseUrl = '/'): ApiReference {
  let model: ApiModel | undefined;
  let resolve: RemarkOptions['resolve'] | undefined;
  return {
    remarkPlugin: [
      sampleLinksPlugin,
      {
        // The plugin has generated the pages by the time Markdown is compiled; a process in
        // which it has not run reads the model from generation's cache.
        resolve: (pkg, name) => {
          resolve ??= resolverFor(model ?? loadModel(siteDir, console.log).model, baseUrl);
          return resolve(pkg, name);
        },
      },
    ],
    plugin: () => {
      const generated = generateReference({siteDir});
      model = generated.model;
      resolve = undefined;
      const entries = model.packages.reduce((sum, pkg) => sum + pkg.symbols.length, 0);
      console.log(
        `[api-reference] ${entries} exports of ${model.packages.length} packages, ` +
          `${generated.pages} pages (${generated.written} rewritten; model ` +
          `${generated.cached ? 'cached' : 'extracted'}) in ${generated.milliseconds} ms`,
      );
      return {
        name: 'api-reference',
        getClientModules() {
          return [join(__dirname, 'client', 'fullLoad.ts')];
        },
      };
    },
  };
}

/**
 * The build pipeline: the only `postBuild` of the site's plugins. Once Docusaurus has written
 * the pages, it runs the features' steps one after the other, each with the build's data and
 * what the steps before it produced (see ./README.md):
 *
 * 1. redirects: the legacy URLs' fallback pages and the noindex tag (src/features/redirects);
 * 2. markdown-twins: `/controllers.md`, `/llms.txt`, `/llms-full.txt` (src/features/markdown-twins);
 * 3. api-reference: a search record per API entry, handed on to the search step
 *    (src/features/api-reference);
 * 4. search: Pagefind's index of the pages and those records (src/features/search), unless
 *    Algolia is used;
 * 5. offline: `/offline.json`, what "Save all docs" fetches, search index included
 *    (src/features/offline);
 * 6. other artifacts: the Dash/Zeal docset, `docset/NestJS.tgz` and its feed
 *    (src/features/docset);
 * 7. hosting: `_headers`, `_redirects`, `.htaccess`, `nginx.conf`, last, since the
 *    Content-Security-Policy hashes the inline code of the pages the others wrote and the
 *    caching rules name their files (src/features/hosting).
 */
import type {LoadedContent} from '@docusaurus/plugin-content-docs';
import type {LoadContext, Plugin} from '@docusaurus/types';
import {apiReferenceStep} from '../api-reference/node/step';
import {docsetStep} from '../docset/node/step';
import {hostingStep, type HostingOptions} from '../hosting/node/step';
import {markdownTwinsStep} from '../markdown-twins/node/step';
import {offlineListStep} from '../offline/node/step';
import {redirectPagesStep, type RedirectPagesOptions} from '../redirects/node/step';
import {searchIndexStep} from '../search/node/step';
import {runSteps, type Step} from './node/steps';

export interface PipelineOptions {
  readonly redirects: RedirectPagesOptions;
  readonly hosting: HostingOptions;
}

/** The steps, in the order they run. */
export function pipelineSteps(context: LoadContext, options: PipelineOptions): Step[] {
  return [
    redirectPagesStep(context, options.redirects),
    markdownTwinsStep,
    apiReferenceStep,
    searchIndexStep,
    offlineListStep,
    // Other artifacts: after the pages and the search index they may list, before the hosting
    // files that serve them.
    docsetStep,
    hostingStep(context, options.hosting),
  ];
}

const docsPluginName = 'docusaurus-plugin-content-docs';

export default function pipelinePlugin(context: LoadContext, options: PipelineOptions): Plugin {
  const steps = pipelineSteps(context, options);
  // The docs plugin's content, kept for `postBuild` by this plugin instance.
  let docs: LoadedContent | undefined;
  return {
    name: 'nest-build-pipeline',
    async allContentLoaded({allContent}) {
      docs = allContent[docsPluginName]?.default as LoadedContent | undefined;
    },
    async postBuild(props) {
      if (!docs) throw new Error('[build-pipeline] the docs plugin loaded no content');
      await runSteps(
        {
          outDir: props.outDir,
          siteDir: props.siteDir,
          baseUrl: props.baseUrl,
          siteConfig: props.siteConfig,
          routesPaths: props.routesPaths,
          docs,
          props,
        },
        steps,
      );
    },
  };
}

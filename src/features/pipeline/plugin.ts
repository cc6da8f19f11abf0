/**
 * The build pipeline: the only `postBuild` of the site's plugins. Once Docusaurus has written
 * the pages, it runs the features' steps one after the other, each with the build's data and
 * what the steps before it produced. The order is `pipelineSteps` below; ./README.md has a row
 * per step (what it writes, what it hands on), which ./pipeline.test.ts checks against it.
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

/** The steps, in the order they run: the one place the order is written. */
export function pipelineSteps(context: LoadContext, options: PipelineOptions): Step[] {
  return [
    // The legacy URLs' fallback pages, which the hosting step hashes like every page.
    redirectPagesStep(context, options.redirects),
    markdownTwinsStep,
    // A search record per API entry, for the search step.
    apiReferenceStep,
    searchIndexStep,
    // `/offline.json` lists the search index's files.
    offlineListStep,
    // Other artifacts: after the pages and the search index they may list, before the hosting
    // files that serve them.
    docsetStep,
    // Last: the Content-Security-Policy hashes the inline code of the pages as the others left
    // them, and the caching and content-type rules name their files.
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

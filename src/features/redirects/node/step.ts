/**
 * The first step of the build pipeline (src/features/pipeline): the legacy redirects'
 * fallback pages, written by `@docusaurus/plugin-client-redirects` (a small HTML page with a
 * meta refresh at each old URL, for hosts that apply no redirect rules), then one rule the stock
 * plugin cannot express: every generated HTML file whose URL contains the noindex marker gets
 * `<meta name="robots" content="noindex">`.
 *
 * It runs first so that every later step sees the pages it writes (the hosting step leaves them
 * out of the Content-Security-Policy: the rules redirect before they are ever served).
 */
import type {LoadContext} from '@docusaurus/types';
import {normalizePluginOptions} from '@docusaurus/utils-validation';
import clientRedirects, {validateOptions} from '@docusaurus/plugin-client-redirects';
import type {Step} from '../../pipeline/node/steps';
import type {Redirect} from '../redirects';
import {markNoindex} from './noindex';

export interface RedirectPagesOptions {
  readonly redirects: readonly Redirect[];
  /** URLs containing this text are marked noindex. */
  readonly noindexMarker: string;
}

export function redirectPagesStep(context: LoadContext, options: RedirectPagesOptions): Step {
  // Created with the site, so that invalid redirects fail when Docusaurus loads the plugins.
  const inner = clientRedirects(
    context,
    validateOptions({
      validate: normalizePluginOptions,
      options: {redirects: options.redirects.map((redirect) => ({...redirect}))},
    }),
  );
  return {
    name: 'redirects',
    async run(build) {
      await inner?.postBuild?.({...build.props, content: undefined});
      await markNoindex(build.outDir, options.noindexMarker);
      return {};
    },
  };
}

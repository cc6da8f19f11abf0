/**
 * `docusaurus start` only: serves the Markdown twins (`/controllers.md`, `/llms.txt`; see
 * ./node/site.ts) from the generated files directory, rewritten whenever the pages change, so
 * "Copy page" works while writing. A production build writes them in the build pipeline instead
 * (./node/step.ts), and this plugin does nothing there.
 */
import {join} from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';
import type {LoadedContent} from '@docusaurus/plugin-content-docs';
import {siteTwins, writeAll} from './node/site';

export default function markdownTwinsPlugin(context: LoadContext): Plugin {
  const development = process.env.NODE_ENV === 'development';
  const devDir = join(context.generatedFilesDir, 'markdown-twins');
  return {
    name: 'markdown-twins',
    async allContentLoaded({allContent}) {
      if (!development) return;
      const docs = allContent['docusaurus-plugin-content-docs']?.default as
        | LoadedContent
        | undefined;
      await writeAll(devDir, await siteTwins(docs, context.siteDir, context.siteConfig.url));
    },
    configureWebpack(_config, isServer) {
      if (!development || isServer) return {};
      // Merged into the dev server's options (webpack-merge appends to its static directories).
      return {
        devServer: {static: [{directory: devDir, publicPath: context.baseUrl, watch: false}]},
      } as object;
    },
  };
}

/**
 * The Dash/Zeal docset, built with the site: runs the docset step (./node/docset.ts) once the
 * build's HTML exists. It is written as a step of the post-build pipeline; until that pipeline
 * runs it, this plugin's `postBuild` does (Docusaurus has written every page by then).
 */
import type {Plugin} from '@docusaurus/types';
import {docsetStep} from './node/docset';

export default function docsetPlugin(): Plugin {
  return {
    name: 'nest-docset',
    async postBuild({outDir, siteConfig, routesPaths}) {
      const started = performance.now();
      const output = await docsetStep({outDir, siteUrl: siteConfig.url, routes: routesPaths});
      const entries = Object.entries(output.entries)
        .map(([type, count]) => `${count} ${type}`)
        .join(', ');
      console.log(
        `[nest-docset] docset/NestJS.tgz: ${output.pages} pages, ${entries}; ` +
          `${Math.round(output.bytes / 1024)} KiB, version ${output.version}, ` +
          `${Math.round(performance.now() - started)} ms`,
      );
    },
  };
}

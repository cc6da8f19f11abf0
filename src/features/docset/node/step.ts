/**
 * The build pipeline's docset step (src/features/pipeline), among the "other artifacts": once the
 * pages and the search index are written, it makes `docset/NestJS.tgz` and `docset/NestJS.xml`
 * (./docset.ts) and hands their content types on to the hosting step.
 */
import type {Step} from '../../pipeline/node/steps';
import {writeDocset} from './docset';

export const docsetStep: Step = {
  name: 'docset',
  async run(build) {
    const output = await writeDocset({
      outDir: build.outDir,
      siteUrl: build.siteConfig.url,
      routes: build.routesPaths,
    });
    const entries = Object.entries(output.entries)
      .map(([type, count]) => `${count} ${type}`)
      .join(', ');
    console.log(
      `[docset] docset/NestJS.tgz: ${output.pages} pages, ${entries}; ` +
        `${Math.round(output.bytes / 1024)} KiB, version ${output.version}`,
    );
    return {typedFiles: output.files};
  },
};

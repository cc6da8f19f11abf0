/**
 * The build pipeline's Markdown step (src/features/pipeline): writes the Markdown twin of every
 * docs page (`/controllers.md`, `/techniques/database.md`, `/index.md` for `/`), `/llms.txt` and
 * `/llms-full.txt` into the build, and hands their paths and content types on to the hosting
 * step. The files are not routes, so they are in neither the sitemap nor Pagefind's index.
 */
import type {Step} from '../../pipeline/node/steps';
import {siteTwins, typedFiles, writeAll} from './site';

export const markdownTwinsStep: Step = {
  name: 'markdown-twins',
  async run(build) {
    const files = await siteTwins(build.docs, build.siteDir, build.siteConfig.url);
    const bytes = await writeAll(build.outDir, files);
    console.log(
      `[markdown-twins] ${files.size - 2} Markdown pages, llms.txt, llms-full.txt ` +
        `(${Math.round(bytes / 1024)} KiB)`,
    );
    return {typedFiles: typedFiles(files.keys())};
  },
};

/**
 * The build pipeline's offline step (src/features/pipeline): writes `/offline.json`, the list
 * "Save all docs" (../client/OfflineSave) fetches into the service worker's cache: every page
 * route, and every bundle, style sheet, font, image and search file of the build (the rules
 * `pagesToSave` and `filesToSave` of ../logic.js). It runs after the search step, so the
 * search index is complete when it is listed.
 */
import {readdir, stat, writeFile} from 'node:fs/promises';
import {join, relative, sep} from 'node:path';
import type {Step} from '../../pipeline/node/steps';
import {filesToSave, pagesToSave, saveListPath} from '../logic';

async function filesOf(outDir: string): Promise<string[]> {
  const entries = await readdir(outDir, {recursive: true, withFileTypes: true});
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(outDir, join(entry.parentPath, entry.name)).split(sep).join('/'));
}

/** The bytes on disk of what "Save all docs" fetches: the reader is told before it starts. */
export async function saveListBytes(
  outDir: string,
  pages: string[],
  files: string[],
): Promise<number> {
  const paths = [
    ...pages.map((route) => (route.endsWith('/') ? `${route}index.html` : `${route}.html`)),
    ...files,
  ];
  let bytes = 0;
  for (const path of paths) {
    try {
      bytes += (await stat(join(outDir, decodeURI(path).slice(1)))).size;
    } catch {
      // A route served from `route/index.html`.
      try {
        bytes += (
          await stat(
            join(
              outDir,
              decodeURI(path)
                .slice(1)
                .replace(/\.html$/, ''),
              'index.html',
            ),
          )
        ).size;
      } catch {
        // Not on disk (a redirect route): nothing to count.
      }
    }
  }
  return bytes;
}

export const offlineListStep: Step = {
  name: 'offline',
  async run(build) {
    const pages = pagesToSave(build.routesPaths);
    const files = filesToSave(await filesOf(build.outDir));
    const bytes = await saveListBytes(build.outDir, pages, files);
    await writeFile(
      join(build.outDir, saveListPath.slice(1)),
      JSON.stringify({pages, files, bytes}),
    );
    console.log(
      `[nest-offline] ${saveListPath}: ${pages.length} pages, ${files.length} files, ${bytes} bytes`,
    );
    return {};
  },
};

/**
 * Offline reading, at build time: writes `/offline.json`, the list "Save all docs"
 * (src/components/OfflineSave) fetches into the service worker's cache: every page route, and
 * every bundle, style sheet, font, image and search file of the build (the rules
 * `pagesToSave` and `filesToSave` of src/pwa/logic.js).
 *
 * Docusaurus runs the plugins' `postBuild` hooks at the same time, and Pagefind writes its index
 * in its own (src/plugins/pagefind.ts), `pagefind/pages.json` last. With local search on, this
 * waits for that file before listing (the build directory is emptied at the start of a build,
 * so an old one cannot answer).
 */
import {access, readdir, stat, writeFile} from 'node:fs/promises';
import {join, relative, sep} from 'node:path';
import type {Plugin} from '@docusaurus/types';
import {filesToSave, pagesToSave, saveListPath} from './logic';

async function filesOf(outDir: string): Promise<string[]> {
  const entries = await readdir(outDir, {recursive: true, withFileTypes: true});
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(outDir, join(entry.parentPath, entry.name)).split(sep).join('/'));
}

/** Resolves once `file` exists; rejects after `timeoutMs`. */
export async function waitForFile(file: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await access(file);
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`${file} did not appear in ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
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

export interface OfflinePluginOptions {
  /** The build has Pagefind's local search (src/node/search.ts): wait for its index. */
  readonly pagefind: boolean;
}

export default function offlinePlugin(options: OfflinePluginOptions): Plugin {
  return {
    name: 'nest-offline',
    async postBuild({outDir, routesPaths}) {
      if (options.pagefind) await waitForFile(join(outDir, 'pagefind', 'pages.json'), 600_000);
      const pages = pagesToSave(routesPaths);
      const files = filesToSave(await filesOf(outDir));
      const bytes = await saveListBytes(outDir, pages, files);
      await writeFile(join(outDir, saveListPath.slice(1)), JSON.stringify({pages, files, bytes}));
      console.log(
        `[nest-offline] ${saveListPath}: ${pages.length} pages, ${files.length} files, ${bytes} bytes`,
      );
    },
  };
}

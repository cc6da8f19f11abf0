/**
 * Adds the metric-matched fallback faces of the brand fonts to the site's CSS (see
 * src/features/fonts/node/fallbacks.ts): measured from the font files when the site is loaded, written to
 * the generated files and loaded as a client module, so they land in the main stylesheet.
 */
import {mkdir, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';
import {fallbackStylesheet} from './node/fallbacks';

export default async function fontFallbacks(context: LoadContext): Promise<Plugin> {
  const dir = join(context.generatedFilesDir, 'font-fallbacks');
  const file = join(dir, 'fallbacks.css');
  await mkdir(dir, {recursive: true});
  await writeFile(file, await fallbackStylesheet());
  return {
    name: 'font-fallbacks',
    getClientModules: () => [file],
  };
}

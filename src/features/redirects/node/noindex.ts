/**
 * The robots noindex tag on every generated HTML file whose URL contains the noindex marker
 * (src/features/redirects/redirects.ts), written by the redirect step (./step.ts).
 *
 * Node-only.
 */
import {readFile, writeFile} from 'node:fs/promises';
import {join, sep} from 'node:path';
import {htmlFiles} from '../../pipeline/node/pages';

const robotsTag = '<meta name="robots" content="noindex">';

/** Adds the robots noindex tag to an HTML document (idempotent). */
export function addNoindex(html: string): string {
  if (html.includes(robotsTag)) {
    return html;
  }
  // Drop any other robots directive, then add ours as the head's first child.
  const cleaned = html.replace(/<meta name="robots"[^>]*>/g, '');
  return cleaned.replace(/<head([^>]*)>/i, `<head$1>${robotsTag}`);
}

/** Marks every HTML file under `outDir` whose URL contains `marker`. */
export async function markNoindex(outDir: string, marker: string): Promise<string[]> {
  const marked: string[] = [];
  for (const {file} of await htmlFiles(outDir)) {
    const url = '/' + file.split(sep).join('/');
    if (url.includes(marker)) {
      const path = join(outDir, file);
      await writeFile(path, addNoindex(await readFile(path, 'utf8')));
      marked.push(url);
    }
  }
  return marked;
}

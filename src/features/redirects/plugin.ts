/**
 * Legacy redirects: `@docusaurus/plugin-client-redirects`, plus one rule the
 * stock plugin cannot express: every generated HTML file whose URL contains
 * the noindex marker gets `<meta name="robots" content="noindex">`.
 *
 * The rule runs after the inner plugin has written its redirect pages, which
 * is why this wraps the plugin instead of adding a second `postBuild` (plugins'
 * `postBuild` hooks run concurrently).
 */
import {readdir, readFile, writeFile} from 'node:fs/promises';
import {join, relative, sep} from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';
import {normalizePluginOptions} from '@docusaurus/utils-validation';
import clientRedirects, {validateOptions} from '@docusaurus/plugin-client-redirects';
import type {Redirect} from './redirects';

export interface RedirectsPluginOptions {
  readonly redirects: readonly Redirect[];
  /** URLs containing this text are marked noindex. */
  readonly noindexMarker: string;
}

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

async function htmlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, {recursive: true, withFileTypes: true});
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Marks every HTML file under `outDir` whose URL contains `marker`. */
export async function markNoindex(outDir: string, marker: string): Promise<string[]> {
  const marked: string[] = [];
  for (const file of await htmlFiles(outDir)) {
    const url = '/' + relative(outDir, file).split(sep).join('/');
    if (url.includes(marker)) {
      await writeFile(file, addNoindex(await readFile(file, 'utf8')));
      marked.push(url);
    }
  }
  return marked;
}

export default function redirectsPlugin(
  context: LoadContext,
  options: RedirectsPluginOptions,
): Plugin {
  const inner = clientRedirects(
    context,
    validateOptions({
      validate: normalizePluginOptions,
      options: {redirects: options.redirects.map((redirect) => ({...redirect}))},
    }),
  );
  return {
    name: 'nest-redirects',
    async postBuild(props) {
      await inner?.postBuild?.({...props, content: undefined});
      await markNoindex(props.outDir, options.noindexMarker);
    },
  };
}

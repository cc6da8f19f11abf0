/**
 * The built HTML files and the routes they are served at: one rule for the steps that read the
 * pages (the search index, the hosting files).
 *
 * Node-only.
 */
import {readdir} from 'node:fs/promises';
import {sep} from 'node:path';

/**
 * The route a built HTML file is served at (`trailingSlash: false`): `controllers.html` is
 * `/controllers`, `index.html` is `/`, `faq/index.html` is `/faq`. The 404 page keeps its name
 * (`/404.html`): hosts serve it for unknown paths, never at `/404`.
 */
export function routeOf(file: string, baseUrl = '/'): string {
  const path = file.split(sep).join('/');
  if (path === '404.html') return `${baseUrl}404.html`;
  const route = path.replace(/\.html$/, '').replace(/(^|\/)index$/, '');
  return `${baseUrl}${route}`;
}

export interface HtmlFile {
  /** The path under the build directory, with the platform's separator. */
  readonly file: string;
  readonly route: string;
}

/**
 * Every HTML file of the build with its route, in the order the file system lists them, read
 * when called (the redirect step adds pages), outside Pagefind's folder.
 */
export async function htmlFiles(outDir: string, baseUrl = '/'): Promise<HtmlFile[]> {
  const files = await readdir(outDir, {recursive: true});
  return files
    .filter((file) => file.endsWith('.html') && !file.startsWith(`pagefind${sep}`))
    .map((file) => ({file, route: routeOf(file, baseUrl)}));
}

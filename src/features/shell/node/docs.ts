/**
 * Node-only helpers shared by `docusaurus.config.ts`, `sidebars.ts` and the
 * tests. Never import this file from client code.
 */
import {existsSync} from 'node:fs';
import {join} from 'node:path';

export const docsDir = join(__dirname, '..', '..', '..', '..', 'docs');

/** The source file of a doc id (`techniques/caching`), if it exists. */
export function docFile(id: string): string | undefined {
  return ['.md', '.mdx']
    .map((extension) => join(docsDir, id + extension))
    .find((file) => existsSync(file));
}

/** The doc id a route is served from: `/` is the introduction. */
export function routeToDocId(route: string): string {
  const id = route.replace(/^\/+|\/+$/g, '');
  return id === '' ? 'introduction' : id;
}

/** Whether the page behind a docs route has been written. */
export function docExists(route: string): boolean {
  return docFile(routeToDocId(route)) !== undefined;
}

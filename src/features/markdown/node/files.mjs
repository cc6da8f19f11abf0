// @ts-check
/**
 * The Markdown files the writers wrote, for every check that reads the pages (check:samples,
 * check:types, check-installs): the `.md`/`.mdx` files under a path, or the path itself, sorted.
 * The API reference (`docs/api/`) is left out: the build generates it from the packages'
 * declarations (src/features/api-reference), which checks it itself.
 */
import {readdirSync, statSync} from 'node:fs';
import {join, relative, sep} from 'node:path';
import {apiRoute} from '../../api-reference/route.mjs';

/**
 * @param {string} path a file or a folder
 * @param {string} docsDir the site's `docs/` folder
 * @returns {string[]}
 */
export function writtenMarkdownFiles(path, docsDir) {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, {recursive: true, encoding: 'utf8'})
    .map((name) => join(path, name))
    .filter((file) => /\.mdx?$/.test(file))
    .filter((file) => !relative(docsDir, file).startsWith(`${apiRoute}${sep}`))
    .sort();
}

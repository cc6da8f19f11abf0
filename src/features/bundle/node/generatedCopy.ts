/**
 * For plugins that give the browser bundle a lighter copy of a file Docusaurus generates
 * (src/features/bundle/node/slimDocsVersion.ts, slimSiteConfig.ts).
 */
import {mkdirSync, writeFileSync} from 'node:fs';
import {dirname} from 'node:path';

/**
 * Writes `content` to `copy` and returns the `resolve.alias` entry that makes the bundle load it
 * in place of the generated file `original`. The entry is keyed by the resolved path: a request
 * for `@generated/...` resolves through Docusaurus' alias of the whole folder first, then the
 * result through this one.
 */
export function aliasToCopy(
  original: string,
  copy: string,
  content: string,
): Record<string, string> {
  mkdirSync(dirname(copy), {recursive: true});
  writeFileSync(copy, content);
  return {[`${original}$`]: copy};
}

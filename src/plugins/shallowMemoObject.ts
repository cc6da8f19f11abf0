/**
 * The first `String.prototype.localeCompare` call of a page sets up the ICU collator: 13-22 ms
 * in Chromium on this machine, inside the task that hydrates the page. The only call while a
 * page loads was theme-common's `useShallowMemoObject`, which sorts an object's entries by key
 * with it, on every render: every code block runs it (`useCodeWordWrap` ->
 * `useMutationObserver`), and so does the mobile menu (`NavbarSecondaryMenuFiller`). The order
 * only has to be stable from one render to the next, so comparing keys by code unit does the
 * same job without the collator.
 *
 * This rewrites that one comparator in `@docusaurus/theme-common/lib/utils/reactUtils.js`
 * (./shallowMemoObjectLoader.cjs, for the browser and server bundles); the build fails if the
 * line is not found. Measured with `npm run cpu-report` on /controllers at 412 px, CPU 4x: the
 * comparator's self time (the collator set-up) was 55-62 ms per load. tests/unit/slimBundles.test.ts
 * checks the rule and the rewrite against the installed file.
 */
import {join} from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';
import {packageDir} from '../node/packageDir';

/** theme-common's file that defines `useShallowMemoObject`. */
export function reactUtilsFile(siteDir: string): string {
  return join(packageDir(siteDir, '@docusaurus/theme-common'), 'lib', 'utils', 'reactUtils.js');
}

export default function shallowMemoObject(context: LoadContext): Plugin {
  const file = reactUtilsFile(context.siteDir);
  return {
    name: 'nest-shallow-memo-object',
    configureWebpack() {
      return {
        module: {
          rules: [
            {
              test: (resource: string) => resource === file,
              use: [
                {loader: join(context.siteDir, 'src', 'plugins', 'shallowMemoObjectLoader.cjs')},
              ],
            },
          ],
        },
      };
    },
  };
}

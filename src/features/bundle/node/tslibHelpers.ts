/**
 * `@docusaurus/utils-common`, in every page's main bundle, is CommonJS compiled with
 * `importHelpers`: `const tslib_1 = require("tslib")`, then one helper, `__importDefault`.
 * A `require` keeps every export of the module it loads, so the whole of tslib shipped for a
 * three-line function (size: PERFORMANCE.md, 2026-11-22).
 *
 * In the browser bundle, this plugin resolves that package's `tslib` to
 * ../client/tslibHelpers.ts, which re-exports only the helpers it uses (from tslib's
 * ES module, so the rest is dropped). `helpersUsedBy` lists what the installed package uses;
 * a unit test compares it with the module's exports, so an upgrade that needs another helper
 * fails there (and, at the latest, in every browser test: the bundle would not start).
 */
import {readFileSync, readdirSync} from 'node:fs';
import {join} from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';
import {packageDir} from './packageDir';

/** The compiled files of the package whose `tslib` is narrowed. */
export function utilsCommonLib(siteDir: string): string {
  return join(packageDir(siteDir, '@docusaurus/utils-common'), 'lib');
}

/** The tslib helpers the compiled files in `libDir` call (`tslib_1.__name`). */
export function helpersUsedBy(libDir: string): string[] {
  const names = new Set<string>();
  for (const file of readdirSync(libDir).filter((name) => name.endsWith('.js'))) {
    const text = readFileSync(join(libDir, file), 'utf8');
    for (const match of text.matchAll(/\btslib_\d+\.(__\w+)/g)) {
      names.add(match[1]);
    }
  }
  return [...names].sort();
}

export default function tslibHelpers(context: LoadContext): Plugin {
  const libDir = utilsCommonLib(context.siteDir);
  return {
    name: 'nest-tslib-helpers',
    configureWebpack(_config, isServer) {
      if (isServer) {
        return {};
      }
      return {
        module: {
          rules: [
            {
              // Requests made by these files resolve `tslib` to the narrow module.
              test: (resource: string) => resource.startsWith(libDir),
              resolve: {
                alias: {
                  tslib$: join(
                    context.siteDir,
                    'src',
                    'features',
                    'bundle',
                    'client',
                    'tslibHelpers.ts',
                  ),
                },
              },
            },
          ],
        },
      };
    },
  };
}

/**
 * Keeps Prism out of the main bundle, loading it when a page needs it (see
 * src/features/code/client/CodeBlockContent.tsx): the theme's `prism-include-languages` client module, which
 * imports Prism on every page, is swapped for an empty module
 * (src/features/code/client/highlighter/Highlighted.tsx registers the languages in the highlighter's
 * own chunk), and `@nest/code-highlighter` resolves to a lazy component in the browser bundle
 * and to the highlighter itself in the server bundle.
 */
import {join} from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';
import {packageDir} from '../bundle/node/packageDir';

/** The requests to replace, as the generated files spell them (absolute paths). */
export function replacedModules(siteDir: string): {prismLanguages: string} {
  return {
    prismLanguages: join(
      packageDir(siteDir, '@docusaurus/theme-classic'),
      'lib',
      'prism-include-languages',
    ),
  };
}

export default function deferLibraries(context: LoadContext): Plugin {
  const {prismLanguages} = replacedModules(context.siteDir);
  const dir = join(context.siteDir, 'src/features/code/client/highlighter');
  return {
    name: 'defer-libraries',
    configureWebpack(_config, isServer) {
      return {
        resolve: {
          alias: {
            [`${prismLanguages}$`]: join(dir, 'noLanguages.ts'),
            '@nest/code-highlighter$': join(dir, isServer ? 'server.ts' : 'browser.ts'),
          },
        },
      };
    },
  };
}

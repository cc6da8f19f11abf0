/**
 * The browser bundle carries the whole site config (`@generated/docusaurus.config`), for
 * `useDocusaurusContext().siteConfig`. Two of its fields only the server reads, when it writes
 * each page: `headTags` (here the inline code-colour style sheet and the TS/JS choice script)
 * and `ssrTemplate` (the page template with its bundle loader): about half of the config's
 * bytes on every page (PERFORMANCE.md, 2026-11-22).
 *
 * In production builds this plugin points the browser bundle at a copy of the config without
 * those fields; the server bundle and `docusaurus start` keep the original.
 */
import {join} from 'node:path';
import type {DocusaurusConfig, LoadContext, Plugin} from '@docusaurus/types';
import {aliasToCopy} from './generatedCopy';

/** Fields of the site config that no browser code reads. */
export const serverOnlyFields = ['headTags', 'ssrTemplate'] as const;

/** The config module the browser bundle gets, spelled like Docusaurus' generated one. */
export function browserConfigModule(siteConfig: DocusaurusConfig): string {
  const browserConfig: Record<string, unknown> = {...siteConfig};
  for (const field of serverOnlyFields) {
    delete browserConfig[field];
  }
  return `export default ${JSON.stringify(browserConfig, null, 2)};\n`;
}

export default function slimSiteConfig(context: LoadContext): Plugin {
  return {
    name: 'nest-slim-site-config',
    configureWebpack(config, isServer) {
      if (isServer || config.mode !== 'production') {
        return {};
      }
      const alias = aliasToCopy(
        join(context.generatedFilesDir, 'docusaurus.config.mjs'),
        join(
          context.generatedFilesDir,
          'nest-slim-site-config',
          'browser',
          'docusaurus.config.mjs',
        ),
        browserConfigModule(context.siteConfig),
      );
      return {resolve: {alias}};
    },
  };
}

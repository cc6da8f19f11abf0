/**
 * The options of @docusaurus/plugin-pwa (offline reading; see README "Offline reading"):
 * our worker code (`swCustom`), our idle-time registration (`swRegister`), the head tags of
 * the web app manifest, and which built files the worker precaches (the app shell only).
 * Node-only: read by docusaurus.config.ts.
 */
import {join} from 'node:path';
import type {PluginOptions} from '@docusaurus/plugin-pwa';
import {isShellFile} from '../logic';

/** The navbar's background in each colour mode (Infima's defaults): the browser's toolbar. */
export const themeColors = {light: '#ffffff', dark: '#242526'} as const;

type ManifestEntry = {url: string; revision: string | null; size: number};

export const pwaOptions = {
  offlineModeActivationStrategies: ['always'],
  swCustom: join(__dirname, '..', 'client', 'sw.js'),
  swRegister: join(__dirname, '..', 'client', 'register.ts'),
  injectManifestConfig: {
    // plugin-pwa globs every page, bundle and image; keep the shell.
    manifestTransforms: [
      async (entries: ManifestEntry[]) => ({
        manifest: entries.filter((entry) => isShellFile(entry.url)),
        warnings: [],
      }),
    ],
    // Named by content: fetched under their own URL, so the browser's HTTP cache answers.
    dontCacheBustURLsMatching: /^assets\//,
  } as unknown as PluginOptions['injectManifestConfig'],
  pwaHead: [
    {tagName: 'link', rel: 'manifest', href: '/manifest.json'},
    {
      tagName: 'meta',
      name: 'theme-color',
      media: '(prefers-color-scheme: light)',
      content: themeColors.light,
    },
    {
      tagName: 'meta',
      name: 'theme-color',
      media: '(prefers-color-scheme: dark)',
      content: themeColors.dark,
    },
    {tagName: 'link', rel: 'apple-touch-icon', href: '/img/icons/icon-192.png'},
  ],
} satisfies Partial<PluginOptions>;

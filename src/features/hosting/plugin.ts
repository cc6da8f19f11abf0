/**
 * Production hosting files, written next to the build after it (see src/node/hosting.ts):
 * `_redirects` and `_headers` (Netlify, Cloudflare Pages), `.htaccess` (Apache) and `nginx.conf`
 * (a snippet for nginx), all from one model, so every host serves the same 301s, caching and
 * security headers.
 *
 * The Content-Security-Policy allows the inline code of the pages by hash, so it is computed from
 * the generated HTML here rather than written by hand: a change to an inline script (the theme
 * script, the code-pair script, the bundle loader of src/node/ssrTemplate.ts) changes its hash
 * in the next build, never silently breaks the page.
 */
import {readdir, readFile, writeFile} from 'node:fs/promises';
import {join, sep} from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';
import type {Redirect} from '../redirects/redirects';
import {
  hostingModel,
  inlineHashes,
  mergeHashes,
  renderHeaders,
  renderHtaccess,
  renderNginx,
  renderRedirects,
  type HostingFeatures,
  type InlineHashes,
  type TypedFile,
} from './node/hosting';

export interface HostingPluginOptions {
  readonly redirects: readonly Redirect[];
  /** Where `/consulting` leaves for. */
  readonly enterpriseUrl: string;
  /** Force the redirects in `_redirects` (`301!`): set for Netlify builds (`NETLIFY=true`). */
  readonly forceRedirects: boolean;
  /**
   * Generated text files and their types (the Markdown twins, llms.txt: src/plugins/markdownTwins.ts),
   * asked for after the build: they are written by another plugin's `postBuild`, at the same time.
   */
  readonly typedFiles?: () => readonly TypedFile[];
}

/** Cloudflare Pages ignores `_headers` lines longer than this. */
export const maxHeaderLine = 2000;

/**
 * A Docusaurus page, as opposed to the redirect fallback pages that plugin-client-redirects
 * writes during `postBuild`. Plugins' `postBuild` hooks run concurrently, so those may be half
 * written when this one reads; they are never served where these files apply (the redirects
 * answer first), and their inline script is only a fallback to their meta refresh.
 */
const pageMarker = /id=["']?__docusaurus["'\s>]/;

/** The route a page file is served at (`trailingSlash: false`); the 404 page keeps its name. */
export function routeOfFile(file: string): string {
  const path = file.split(sep).join('/');
  if (path === '404.html') return '/404.html';
  const route = path.replace(/\.html$/, '').replace(/(^|\/)index$/, '');
  return `/${route}`;
}

/** What the built site uses beyond its own origin, read from its config. */
export function featuresOf(siteConfig: LoadContext['siteConfig']): HostingFeatures {
  const algolia = (siteConfig.themeConfig as {algolia?: {appId?: unknown}}).algolia;
  const algoliaAppId = typeof algolia?.appId === 'string' ? algolia.appId : undefined;
  const newsletterHost = siteConfig.customFields?.newsletterHost;
  return {
    ads: siteConfig.customFields?.adsEnabled !== false,
    // Exactly one search per build (src/node/search.ts): Pagefind unless Algolia is configured.
    pagefind: algoliaAppId === undefined,
    algoliaAppId,
    newsletterHost:
      typeof newsletterHost === 'string' && newsletterHost !== '' ? newsletterHost : undefined,
  };
}

export default function hostingPlugin(context: LoadContext, options: HostingPluginOptions): Plugin {
  // The rules are written for a site at the root of its domain, as docs.nestjs.com is.
  if (context.baseUrl !== '/') {
    throw new Error(`nest-hosting expects baseUrl "/", not "${context.baseUrl}"`);
  }
  return {
    name: 'nest-hosting',
    async postBuild({outDir, siteConfig}) {
      const hashes: InlineHashes[] = [];
      const htmlRoutes: string[] = [];
      for (const file of await readdir(outDir, {recursive: true})) {
        if (!file.endsWith('.html') || file.startsWith(`pagefind${sep}`)) continue;
        const html = await readFile(join(outDir, file), 'utf8');
        if (!pageMarker.test(html)) continue;
        hashes.push(inlineHashes(html));
        htmlRoutes.push(routeOfFile(file));
      }
      const model = hostingModel({
        features: featuresOf(siteConfig),
        hashes: mergeHashes(hashes),
        redirects: options.redirects,
        enterpriseUrl: options.enterpriseUrl,
        htmlRoutes,
        typedFiles: options.typedFiles?.() ?? [],
      });
      const headers = renderHeaders(model);
      const long = headers.split('\n').find((line) => line.length > maxHeaderLine);
      if (long) {
        throw new Error(`_headers has a line over ${maxHeaderLine} characters: ${long}`);
      }
      await Promise.all([
        writeFile(join(outDir, '_headers'), headers),
        writeFile(
          join(outDir, '_redirects'),
          renderRedirects(model, {force: options.forceRedirects}),
        ),
        writeFile(join(outDir, '.htaccess'), renderHtaccess(model)),
        writeFile(join(outDir, 'nginx.conf'), renderNginx(model)),
      ]);
      console.log(
        `[nest-hosting] _headers, _redirects, .htaccess, nginx.conf: ${htmlRoutes.length} pages, ` +
          `${model.redirects.length} redirects`,
      );
    },
  };
}

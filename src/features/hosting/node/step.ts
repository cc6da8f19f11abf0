/**
 * The build pipeline's last step (src/features/pipeline): the production hosting files, written
 * next to the build (see ./hosting.ts):
 * `_redirects` and `_headers` (Netlify, Cloudflare Pages), `.htaccess` (Apache) and `nginx.conf`
 * (a snippet for nginx), all from one model, so every host serves the same 301s, caching and
 * security headers.
 *
 * The Content-Security-Policy allows the inline code of the pages by hash, so it is computed from
 * the generated HTML here rather than written by hand: a change to an inline script (the theme
 * script, the code-pair script, the bundle loader of src/features/bundle/node/ssrTemplate.ts) changes its hash
 * in the next build, never silently breaks the page.
 */
import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import type {DocusaurusConfig, LoadContext} from '@docusaurus/types';
import {htmlFiles} from '../../pipeline/node/pages';
import type {Step} from '../../pipeline/node/steps';
import type {Redirect} from '../../redirects/redirects';
import {algoliaAppIdOf} from '../../search/node/searchConfig';
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
} from './hosting';

export interface HostingOptions {
  readonly redirects: readonly Redirect[];
  /** Where `/consulting` leaves for. */
  readonly enterpriseUrl: string;
  /** Force the redirects in `_redirects` (`301!`): set for Netlify builds (`NETLIFY=true`). */
  readonly forceRedirects: boolean;
}

/** Cloudflare Pages ignores `_headers` lines longer than this. */
export const maxHeaderLine = 2000;

/**
 * A Docusaurus page, as opposed to the redirect fallback pages the redirect step wrote: those are
 * never served where these files apply (the redirects answer first), and their inline script is
 * only a fallback to their meta refresh.
 */
const pageMarker = /id=["']?__docusaurus["'\s>]/;

/** What the built site uses beyond its own origin, read from its config. */
export function featuresOf(siteConfig: DocusaurusConfig): HostingFeatures {
  const algoliaAppId = algoliaAppIdOf(siteConfig);
  const newsletterHost = siteConfig.customFields?.newsletterHost;
  return {
    ads: siteConfig.customFields?.adsEnabled !== false,
    // Exactly one search per build (src/features/search/node/searchConfig.ts): Pagefind unless Algolia is configured.
    pagefind: algoliaAppId === undefined,
    algoliaAppId,
    newsletterHost:
      typeof newsletterHost === 'string' && newsletterHost !== '' ? newsletterHost : undefined,
  };
}

export function hostingStep(context: LoadContext, options: HostingOptions): Step {
  // The rules are written for a site at the root of its domain, as docs.nestjs.com is.
  if (context.baseUrl !== '/') {
    throw new Error(`nest-hosting expects baseUrl "/", not "${context.baseUrl}"`);
  }
  return {
    name: 'hosting',
    async run({outDir, siteConfig}, previous) {
      const hashes: InlineHashes[] = [];
      const htmlRoutes: string[] = [];
      for (const {file, route} of await htmlFiles(outDir)) {
        const html = await readFile(join(outDir, file), 'utf8');
        if (!pageMarker.test(html)) continue;
        hashes.push(inlineHashes(html));
        htmlRoutes.push(route);
      }
      const model = hostingModel({
        features: featuresOf(siteConfig),
        hashes: mergeHashes(hashes),
        redirects: options.redirects,
        enterpriseUrl: options.enterpriseUrl,
        htmlRoutes,
        typedFiles: previous.typedFiles,
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
      return {};
    },
  };
}

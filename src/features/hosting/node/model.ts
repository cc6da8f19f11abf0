/**
 * Production hosting as one typed model: the redirects, caching and security headers the build
 * must be served with. Every host format (./render.ts) is written from it.
 *
 * Node-only.
 */
import type {TypedFile} from '../../pipeline/node/steps';
import type {Redirect} from '../../redirects/redirects';
import {
  contentSecurityPolicy,
  deniedPermissions,
  type HostingFeatures,
  type InlineHashes,
} from './csp';

/**
 * Files of offline reading (src/features/offline) rewritten under the same name by every build: the service
 * worker and the chunk of our code it imports (`550.sw.js`: plugin-pwa's webpack names it by
 * id, not content), the web app manifest and the "Save all docs" list.
 */
export const offlineFiles = ['/sw.js', '/*.sw.js', '/manifest.json', '/offline.json'] as const;

/** `Cache-Control` of files whose name changes with their content. */
export const immutable = 'public, max-age=31536000, immutable';
/** `Cache-Control` of files rewritten under the same name by every build: revalidate each time. */
export const revalidate = 'no-cache';

/** Headers of one path pattern (`*` matches anything, as in `_headers`). */
export interface HeaderRule {
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * A permanent redirect; `to` is a path of the site or an absolute URL. Every form of `from`
 * (itself, with a trailing slash or `.html`, in any letter case) answers with it.
 */
export interface RedirectRule {
  readonly from: string;
  readonly to: string;
}

/** Everything a host needs to serve the build. */
export interface HostingModel {
  /** The security headers, the same on every HTML response. */
  readonly security: Readonly<Record<string, string>>;
  /** Redirects, checked before files (a legacy URL's fallback page must not answer instead). */
  readonly redirects: readonly RedirectRule[];
  /** The routes of the HTML pages (`/`, `/controllers`, `/techniques/caching`, ...). */
  readonly htmlRoutes: readonly string[];
  /**
   * The pages' canonical URLs (`htmlRoutes` without the 404 page and the redirected ones): each
   * other form of one (`/controllers/`, `/controllers.html`, `/Controllers`; `/index.html` for
   * `/`) answers with one 301 to it (`redirectTarget`).
   */
  readonly pages: readonly string[];
  /** `Cache-Control` by path pattern (for `_headers`; patterns never overlap). */
  readonly caching: readonly HeaderRule[];
  /** Generated files served with an explicit `Content-Type` (the Markdown twins, llms.txt). */
  readonly typedFiles: readonly TypedFile[];
}

export interface HostingInput {
  readonly features: HostingFeatures;
  readonly hashes: InlineHashes;
  /** The emitted legacy redirects (`emittedRedirects()`). */
  readonly redirects: readonly Redirect[];
  /** Where `/consulting` leaves for (`links.enterprise`). */
  readonly enterpriseUrl: string;
  readonly htmlRoutes: readonly string[];
  /** Generated text files (src/features/markdown-twins/node/step.ts): their type, and `no-cache`. */
  readonly typedFiles?: readonly TypedFile[];
}

/** The security headers of every HTML response. */
export function securityHeaders(
  features: HostingFeatures,
  hashes: InlineHashes,
): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(features, hashes),
    // HTTPS only, for a year, once the browser has seen the site over HTTPS.
    'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Permissions-Policy': deniedPermissions.map((feature) => `${feature}=()`).join(', '),
  };
}

/**
 * A kind of file that shares one `Cache-Control`, as each host matches it: `_headers` paths
 * (`*` matches anything) for Netlify and Cloudflare Pages, one regular expression over the URL
 * path for Apache and nginx. Both must name exactly the same files (a unit test checks them on
 * the paths of a build).
 */
export interface FileClass {
  /** What the files are (the generated files' comments). */
  readonly what: string;
  readonly cache: string;
  readonly paths: readonly string[];
  readonly pattern: string;
}

/** Docusaurus' bundles, style sheets and fonts carry a content hash in their names. */
export const assetFiles: FileClass = {
  what: 'bundles, style sheets and fonts, named by their content',
  cache: immutable,
  paths: ['/assets/*'],
  pattern: '^/assets/',
};

export const sitemapFile: FileClass = {
  what: 'the sitemap',
  cache: revalidate,
  paths: ['/sitemap.xml'],
  pattern: '^/sitemap\\.xml$',
};

/**
 * Offline reading (src/features/offline): the service worker must be re-checked at every visit
 * for a new build to be found; the manifest and the "Save all docs" list change with the build.
 */
export const offlineReadingFiles: FileClass = {
  what: 'offline reading: the service worker, the manifest, the "Save all docs" list',
  cache: revalidate,
  paths: offlineFiles,
  pattern: '^/(([^/]+\\.)?sw\\.js|manifest\\.json|offline\\.json)$',
};

/** Pagefind rewrites its entry files under the same names at every build ... */
export const pagefindEntryFiles: FileClass = {
  what: "Pagefind's entry files, rewritten under the same names by every build",
  cache: revalidate,
  paths: [
    'pagefind.js',
    'pagefind-entry.json',
    'pages.json',
    'pagefind-highlight.js',
    '*.pagefind',
  ].map((file) => `/pagefind/${file}`),
  pattern:
    '^/pagefind/(pagefind\\.js|pagefind-entry\\.json|pages\\.json|pagefind-highlight\\.js|[^/]+\\.pagefind)$',
};

/** ... and names its metadata, index chunks, fragments and filters by their content. */
export const pagefindHashedFiles: FileClass = {
  what: "Pagefind's metadata, index chunks, fragments and filters, named by their content",
  cache: immutable,
  paths: [
    '/pagefind/pagefind.*.pf_meta',
    '/pagefind/index/*',
    '/pagefind/fragment/*',
    '/pagefind/filter/*',
  ],
  pattern: '^/pagefind/((index|fragment|filter)/|pagefind\\.[^/]+\\.pf_meta$)',
};

/**
 * The kinds of file besides the pages and the typed files, in the order Apache and nginx list
 * them (no two overlap, so the order does not change what applies).
 */
export const fileClasses: readonly FileClass[] = [
  sitemapFile,
  offlineReadingFiles,
  assetFiles,
  pagefindEntryFiles,
  pagefindHashedFiles,
];

/**
 * `Cache-Control` by path, for `_headers`. Netlify and Cloudflare Pages apply every rule whose
 * path matches and join the values of a header set by several ("no-cache, public, max-age=..."
 * would be read as no-cache): so no two patterns here match the same URL. HTML pages have no
 * extension (`trailingSlash: false`), so they are listed: top-level routes one by one, the
 * others by their first segment, whose directories hold nothing but pages.
 */
export function cachingRules(
  htmlRoutes: readonly string[],
  typedFiles: readonly TypedFile[] = [],
): HeaderRule[] {
  const top = htmlRoutes.filter((route) => route.lastIndexOf('/') === 0);
  const sections = [
    ...new Set(
      htmlRoutes
        .filter((route) => route.lastIndexOf('/') > 0)
        .map((route) => route.split('/')[1] ?? ''),
    ),
  ];
  const rule = (path: string, value: string): HeaderRule => ({
    path,
    headers: {'Cache-Control': value},
  });
  const rules = ({paths, cache}: FileClass) => paths.map((path) => rule(path, cache));
  return [
    ...rules(assetFiles),
    ...top.sort().map((route) => rule(route, revalidate)),
    ...sections.sort().map((section) => rule(`/${section}/*`, revalidate)),
    ...rules(sitemapFile),
    ...rules(offlineReadingFiles),
    // Generated text files (`/controllers.md`, `/llms.txt`) outside those directories (the
    // twins of section pages, `/techniques/caching.md`, are already under `/techniques/*`).
    ...typedFiles
      .map((file) => file.path)
      .filter((path) => !sections.includes(path.split('/')[1] ?? '') || path.lastIndexOf('/') === 0)
      .sort()
      .map((path) => rule(path, revalidate)),
    ...rules(pagefindEntryFiles),
    ...rules(pagefindHashedFiles),
  ];
}

/** The whole model: redirects, security headers and caching. */
export function hostingModel(input: HostingInput): HostingModel {
  const redirects = [
    ...input.redirects.map(({from, to}) => ({from, to})),
    {from: '/consulting', to: input.enterpriseUrl},
  ];
  const redirected = new Set(redirects.map(({from}) => from.toLowerCase()));
  return {
    security: securityHeaders(input.features, input.hashes),
    redirects,
    htmlRoutes: input.htmlRoutes,
    pages: input.htmlRoutes.filter(
      (route) => !route.endsWith('.html') && !redirected.has(route.toLowerCase()),
    ),
    caching: cachingRules(input.htmlRoutes, input.typedFiles),
    typedFiles: input.typedFiles ?? [],
  };
}

/**
 * `/`'s other names: the file it is served from, which nginx and Apache would also serve at
 * `/index` and `/index.html`.
 */
export const homeAlias = '/index';

/**
 * A path without the trailing slash or `.html` a reader may add (`/controllers/`,
 * `/controllers.html`): the part every form of a URL shares, before letter case.
 */
export function formBase(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/(?:\/|\.html)$/i, '') : pathname;
}

/**
 * Where a path answers with a 301, or undefined where it is served as it is: the rules every host
 * file follows (the e2e checks each server against this). A legacy URL in any of its forms goes
 * to its new home; another form of a page (a trailing slash, `.html`, other letter case, `/index`
 * or `/index.html` for `/`) straight to the page, in one step. Unknown paths are left to the 404.
 */
export function redirectTarget(
  model: Pick<HostingModel, 'redirects' | 'pages'>,
  pathname: string,
): string | undefined {
  const key = formBase(pathname).toLowerCase();
  const legacy = model.redirects.find(({from}) => from.toLowerCase() === key);
  if (legacy) return legacy.to;
  const page = key === homeAlias ? '/' : model.pages.find((route) => route.toLowerCase() === key);
  return page === undefined || page === pathname ? undefined : page;
}

/**
 * The spellings of a path that hosts matching rules literally (`_redirects`) are given, besides
 * the path itself: all capitals and capitalised words (`/CONTROLLERS`, `/Techniques/Queues`),
 * each also with `.html`. Other letter case reaches the page in the browser
 * (src/features/static-article/client/serverPage.ts).
 */
export function literalSpellings(path: string): string[] {
  const capitalised = path.replace(/\/([a-z])/g, (_, letter: string) => `/${letter.toUpperCase()}`);
  const casings = [...new Set([path, path.toUpperCase(), capitalised])];
  return casings.flatMap((casing) => [casing, `${casing}.html`]).filter((form) => form !== path);
}

/**
 * Production hosting, as one typed model: the redirects, caching and security headers the build
 * must be served with, and the files that tell each kind of host about them (`_redirects` and
 * `_headers` for Netlify and Cloudflare Pages, `.htaccess` for Apache, `nginx.conf` for nginx).
 * src/plugins/hosting.ts builds the model from the generated HTML after the build and writes the
 * files next to it; scripts/serve-build.mjs applies `_headers` and `_redirects` for the browser
 * tests, so the whole suite runs under the production Content-Security-Policy.
 *
 * Node-only: never import this file from client code.
 */
import {createHash} from 'node:crypto';
import {links} from '../data/links';
import type {Redirect} from '../data/redirects';

/** The parts of the build that reach beyond the site's own origin. */
export interface HostingFeatures {
  /** The ad script (`customFields.adsEnabled`; `ADS=off` leaves it out). */
  readonly ads: boolean;
  /** Pagefind's local search (its WebAssembly needs `'wasm-unsafe-eval'`). */
  readonly pagefind: boolean;
  /** The Algolia app of DocSearch (`themeConfig.algolia.appId`), when the build uses it. */
  readonly algoliaAppId?: string;
  /** Origin of the newsletter sign-up API (`customFields.newsletterHost`), when set. */
  readonly newsletterHost?: string;
}

/** CSP sources (`'sha256-...'`) of what the built HTML does inline. */
export interface InlineHashes {
  /** Inline `<script>` elements the browser runs. */
  readonly scripts: readonly string[];
  /** Inline `<style>` elements. */
  readonly styles: readonly string[];
  /** `style="..."` attributes of server-rendered elements. */
  readonly styleAttributes: readonly string[];
}

/**
 * Hosts the ad script talks to: Carbon's `carbon.js` (links.adsScript) fetches the ad itself as
 * a JSONP script from `srv.carbonads.net`, and the ad shows an image from the BuySellAds CDN
 * plus a tracking pixel from `srv.carbonads.net`.
 */
export const adNetwork = {
  script: [new URL(links.adsScript).origin, 'https://srv.carbonads.net'],
  img: ['https://cdn4.buysellads.net', 'https://srv.carbonads.net'],
} as const;

/**
 * Features the site never uses, denied to the page and to anything it embeds. Only names every
 * current Chromium knows: an unknown name is logged as an error on every page. The clipboard is
 * not in the list (the code blocks' copy buttons write to it).
 */
export const deniedPermissions = [
  'accelerometer',
  'camera',
  'display-capture',
  'geolocation',
  'gyroscope',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'usb',
] as const;

/**
 * Files of offline reading (src/pwa) rewritten under the same name by every build: the service
 * worker and the chunk of our code it imports (`550.sw.js`: plugin-pwa's webpack names it by
 * id, not content), the web app manifest and the "Save all docs" list.
 */
export const offlineFiles = ['/sw.js', '/*.sw.js', '/manifest.json', '/offline.json'] as const;

/** `Cache-Control` of files whose name changes with their content. */
export const immutable = 'public, max-age=31536000, immutable';
/** `Cache-Control` of files rewritten under the same name by every build: revalidate each time. */
export const revalidate = 'no-cache';

/** The CSP source of a SHA-256 hash of `text` (UTF-8), as browsers compute it. */
export function hashSource(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** Script `type`s the browser runs; anything else (`application/ld+json`) is a data block. */
const scriptTypes = /^(|module|text\/javascript|application\/javascript)$/i;

/** One attribute of a tag: its name, and its value quoted or not. */
const attributePattern = /([^\s"'>/=]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'=<>`]+))?/g;
/** A start tag, its attributes read whole (a quoted value may hold `>`). */
const tagPattern = new RegExp(`<[a-z][\\w:-]*((?:\\s+${attributePattern.source})*)\\s*/?>`, 'gi');

/** The value of attribute `name` in a tag's attribute text; `undefined` if absent. */
export function attribute(attributes: string, name: string): string | undefined {
  // Read attribute by attribute, so that text inside a quoted value is never taken for a name.
  for (const [, key = '', raw = ''] of attributes.matchAll(attributePattern)) {
    if (key.toLowerCase() === name) return decodeEntities(raw.replace(/^(["'])(.*)\1$/s, '$2'));
  }
  return undefined;
}

/** The character references that occur in attribute values of the generated HTML. */
function decodeEntities(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_, code: string) => String.fromCodePoint(parseInt(code, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/**
 * The inline code of one HTML document: the text of its inline scripts and style elements, hashed
 * exactly as written (the browser hashes the raw text between the tags), and its `style`
 * attributes, decoded (the browser hashes the attribute's value). Tags are looked for outside
 * scripts, styles and comments only: the text of a script may hold markup of its own.
 */
export function inlineHashes(html: string): InlineHashes {
  const scripts = new Set<string>();
  const styles = new Set<string>();
  const styleAttributes = new Set<string>();
  const rawText = /<!--[\s\S]*?-->|<(script|style)\b([^>]*)>([\s\S]*?)<\/\1\s*>/gi;
  let markup = '';
  let last = 0;
  for (const match of html.matchAll(rawText)) {
    markup += html.slice(last, match.index) + (match[1] ? `<${match[1]}${match[2]}>` : '');
    last = match.index + match[0].length;
    const [, element, attributes = '', text = ''] = match;
    if (element?.toLowerCase() === 'script') {
      const type = attribute(attributes, 'type') ?? '';
      if (attribute(attributes, 'src') === undefined && scriptTypes.test(type.trim())) {
        scripts.add(hashSource(text));
      }
    } else if (element?.toLowerCase() === 'style') {
      styles.add(hashSource(text));
    }
  }
  markup += html.slice(last);
  for (const [, attributes = ''] of markup.matchAll(tagPattern)) {
    const style = attribute(attributes, 'style');
    if (style !== undefined) styleAttributes.add(hashSource(style));
  }
  return {
    scripts: [...scripts].sort(),
    styles: [...styles].sort(),
    styleAttributes: [...styleAttributes].sort(),
  };
}

/** The union of the inline code of several documents. */
export function mergeHashes(all: readonly InlineHashes[]): InlineHashes {
  const union = (pick: (hashes: InlineHashes) => readonly string[]) =>
    [...new Set(all.flatMap(pick))].sort();
  return {
    scripts: union((hashes) => hashes.scripts),
    styles: union((hashes) => hashes.styles),
    styleAttributes: union((hashes) => hashes.styleAttributes),
  };
}

/**
 * The Content-Security-Policy of every page: the site's own origin, the inline code of the
 * build by hash, and a third party only when the build uses the feature that needs it.
 */
export function contentSecurityPolicy(features: HostingFeatures, hashes: InlineHashes): string {
  const algolia = features.algoliaAppId
    ? [`https://${features.algoliaAppId.toLowerCase()}-dsn.algolia.net`, 'https://*.algolianet.com']
    : [];
  const styleSources = [
    "'self'",
    ...hashes.styles,
    // Server-rendered `style` attributes (Docusaurus' hidden SVG sprite: `display: none`) are
    // allowed one by one: 'unsafe-hashes' lets those hashes match attributes, not any style.
    ...(hashes.styleAttributes.length > 0 ? ["'unsafe-hashes'", ...hashes.styleAttributes] : []),
  ];
  const directives: [string, ...string[]][] = [
    ['default-src', "'self'"],
    [
      'script-src',
      "'self'",
      ...(features.pagefind ? ["'wasm-unsafe-eval'"] : []),
      ...hashes.scripts,
      ...(features.ads ? adNetwork.script : []),
    ],
    ['style-src', ...styleSources],
    // `data:`: the theme's icons are SVG data URLs in the style sheet.
    ['img-src', "'self'", 'data:', ...(features.ads ? adNetwork.img : [])],
    ['font-src', "'self'"],
    // The service worker (offline reading) and the web app manifest, from the site only.
    ['worker-src', "'self'"],
    ['manifest-src', "'self'"],
    [
      'connect-src',
      "'self'",
      ...(features.newsletterHost ? [new URL(features.newsletterHost).origin] : []),
      ...algolia,
    ],
    ['form-action', "'self'"],
    ['frame-ancestors', "'none'"],
    ['object-src', "'none'"],
    ['base-uri', "'self'"],
  ];
  return directives.map((directive) => directive.join(' ')).join('; ');
}

/** Headers of one path pattern (`*` matches anything, as in `_headers`). */
export interface HeaderRule {
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** A permanent redirect; `to` is a path of the site or an absolute URL. */
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
  /** `Cache-Control` by path pattern (for `_headers`; patterns never overlap). */
  readonly caching: readonly HeaderRule[];
  /** Generated files served with an explicit `Content-Type` (the Markdown twins, llms.txt). */
  readonly typedFiles: readonly TypedFile[];
}

/** A generated file, by its path under the site, and its `Content-Type`. */
export interface TypedFile {
  readonly path: string;
  readonly contentType: string;
}

export interface HostingInput {
  readonly features: HostingFeatures;
  readonly hashes: InlineHashes;
  /** The emitted legacy redirects (`emittedRedirects()`). */
  readonly redirects: readonly Redirect[];
  /** Where `/consulting` leaves for (`links.enterprise`). */
  readonly enterpriseUrl: string;
  readonly htmlRoutes: readonly string[];
  /** Generated text files (src/plugins/markdownTwins.ts): their type, and `no-cache`. */
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
 * `Cache-Control` by path. Netlify and Cloudflare Pages apply every rule whose path matches and
 * join the values of a header set by several ("no-cache, public, max-age=..." would be read as
 * no-cache): so no two patterns here match the same URL. HTML pages have no extension
 * (`trailingSlash: false`), so they are listed: top-level routes one by one, the others by
 * their first segment, whose directories hold nothing but pages.
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
  return [
    // Docusaurus' bundles, style sheets and fonts carry a content hash in their names.
    rule('/assets/*', immutable),
    ...top.sort().map((route) => rule(route, revalidate)),
    ...sections.sort().map((section) => rule(`/${section}/*`, revalidate)),
    rule('/sitemap.xml', revalidate),
    // Offline reading (src/pwa): the service worker must be re-checked at every visit for a new
    // build to be found; the manifest and the "Save all docs" list change with the build.
    ...offlineFiles.map((file) => rule(file, revalidate)),
    // Generated text files (`/controllers.md`, `/llms.txt`) outside those directories (the
    // twins of section pages, `/techniques/caching.md`, are already under `/techniques/*`).
    ...typedFiles
      .map((file) => file.path)
      .filter((path) => !sections.includes(path.split('/')[1] ?? '') || path.lastIndexOf('/') === 0)
      .sort()
      .map((path) => rule(path, revalidate)),
    // Pagefind rewrites its entry files under the same names at every build ...
    ...[
      'pagefind.js',
      'pagefind-entry.json',
      'pages.json',
      'pagefind-highlight.js',
      '*.pagefind',
    ].map((file) => rule(`/pagefind/${file}`, revalidate)),
    // ... and names its metadata, index chunks, fragments and filters by their content.
    rule('/pagefind/pagefind.*.pf_meta', immutable),
    rule('/pagefind/index/*', immutable),
    rule('/pagefind/fragment/*', immutable),
    rule('/pagefind/filter/*', immutable),
  ];
}

/** The whole model: redirects, security headers and caching. */
export function hostingModel(input: HostingInput): HostingModel {
  return {
    security: securityHeaders(input.features, input.hashes),
    redirects: [
      ...input.redirects.map(({from, to}) => ({from, to})),
      {from: '/consulting', to: input.enterpriseUrl},
    ],
    htmlRoutes: input.htmlRoutes,
    caching: cachingRules(input.htmlRoutes, input.typedFiles),
    typedFiles: input.typedFiles ?? [],
  };
}

const generatedBy = 'Generated by src/plugins/hosting.ts at build time: edit src/node/hosting.ts.';

/** `_headers` (Netlify, Cloudflare Pages): the security headers everywhere, then caching. */
export function renderHeaders(model: HostingModel): string {
  const block = ({path, headers}: HeaderRule) =>
    [path, ...Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`)].join('\n');
  return [
    `# ${generatedBy}`,
    '# Security headers on every response (browsers read the CSP of HTML documents only).',
    block({path: '/*', headers: model.security}),
    '# Caching: no two paths below match the same URL (the hosts would join the values).',
    ...model.caching.map(block),
    ...(model.typedFiles.length > 0
      ? ['# Content types of generated files (Markdown twins, llms.txt, the Dash docset).']
      : []),
    ...model.typedFiles.map(({path, contentType}) =>
      block({path, headers: {'Content-Type': contentType}}),
    ),
    '',
  ].join('\n');
}

export interface RedirectsFormat {
  /**
   * Append `!` to the status: Netlify serves an existing file before a rule unless the rule
   * is forced, and the build keeps HTML fallback pages at the legacy URLs. Cloudflare Pages
   * always applies its rules first and rejects `301!`, so only a Netlify build forces them.
   */
  readonly force: boolean;
}

/** `_redirects` (Netlify, Cloudflare Pages). */
export function renderRedirects(model: HostingModel, format: RedirectsFormat): string {
  const status = format.force ? '301!' : '301';
  return [
    `# ${generatedBy}`,
    '# HTTPS only: both hosts redirect http:// to https:// themselves (Netlify once the',
    '# certificate is issued, Cloudflare with "Always Use HTTPS"); HSTS is in _headers.',
    '# Unknown paths: both serve /404.html with status 404, no rule needed.',
    ...model.redirects.map(({from, to}) => `${from} ${to} ${status}`),
    '',
  ].join('\n');
}

/** A regular expression matching `text` literally. */
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** An Apache or nginx header value in double quotes (the CSP holds single quotes only). */
function quoted(value: string): string {
  return `"${value.replace(/(["\\])/g, '\\$1')}"`;
}

/**
 * The generated text files as regular expressions of their paths, by content type, for Apache
 * and nginx: every `.md` file of the build is a twin (`\\.md$`); other files by their names.
 */
export function typedFilePatterns(
  files: readonly TypedFile[],
): {pattern: string; contentType: string}[] {
  const byType = new Map<string, string[]>();
  for (const {path, contentType} of files) {
    byType.set(contentType, [...(byType.get(contentType) ?? []), path]);
  }
  return [...byType].map(([contentType, paths]) => {
    const markdown = paths.some((path) => path.endsWith('.md'));
    const others = paths.filter((path) => !path.endsWith('.md')).sort();
    const alternatives = [
      ...(markdown ? ['\\.md'] : []),
      ...(others.length > 0 ? [`^(${others.map(literal).join('|')})`] : []),
    ];
    return {pattern: `(${alternatives.join('|')})$`, contentType};
  });
}

/** `.htaccess` (Apache 2.4: mod_rewrite, mod_headers). */
export function renderHtaccess(model: HostingModel): string {
  const typed = typedFilePatterns(model.typedFiles);
  const security = Object.entries(model.security).map(
    ([name, value]) => `    Header always set ${name} ${quoted(value)}`,
  );
  return [
    `# ${generatedBy}`,
    'Options -MultiViews -Indexes',
    ...(typed.length > 0
      ? ['# The generated text files (Markdown twins, llms.txt): type, no-cache.']
      : []),
    ...typed.map(
      ({pattern, contentType}) =>
        `<If "%{REQUEST_URI} =~ m#${pattern}#">\n  ForceType ${quoted(contentType)}\n` +
        `  <IfModule mod_headers.c>\n    Header set Cache-Control ${quoted(revalidate)}\n` +
        `  </IfModule>\n</If>`,
    ),
    '# Pages are `name.html` files served at `/name` (trailingSlash: false); no slash redirects.',
    'DirectorySlash Off',
    'ErrorDocument 404 /404.html',
    '',
    'RewriteEngine On',
    '# HTTPS only.',
    'RewriteCond %{HTTPS} !=on',
    'RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]',
    '# Legacy URLs, /consulting.',
    ...model.redirects.map(
      ({from, to}) => `RewriteRule ^${literal(from.replace(/^\//, ''))}/?$ ${to} [R=301,L]`,
    ),
    '# /controllers is controllers.html.',
    'RewriteCond %{REQUEST_FILENAME} !-f',
    'RewriteCond %{DOCUMENT_ROOT}/$1.html -f',
    'RewriteRule ^(.+?)/?$ $1.html [L]',
    '',
    '<IfModule mod_headers.c>',
    '  # Security headers on every HTML response, the 404 page included.',
    '  <FilesMatch "\\.html$">',
    ...security,
    `    Header always set Cache-Control ${quoted(revalidate)}`,
    '  </FilesMatch>',
    `  <Files "sitemap.xml">`,
    `    Header set Cache-Control ${quoted(revalidate)}`,
    '  </Files>',
    '  <If "%{REQUEST_URI} =~ m#^/(([^/]+\\.)?sw\\.js|manifest\\.json|offline\\.json)$#">',
    `    Header set Cache-Control ${quoted(revalidate)}`,
    '  </If>',
    '  <If "%{REQUEST_URI} =~ m#^/assets/#">',
    `    Header set Cache-Control ${quoted(immutable)}`,
    '  </If>',
    '  <If "%{REQUEST_URI} =~ m#^/pagefind/(pagefind\\.js|pagefind-entry\\.json|pages\\.json|pagefind-highlight\\.js|[^/]+\\.pagefind)$#">',
    `    Header set Cache-Control ${quoted(revalidate)}`,
    '  </If>',
    '  <If "%{REQUEST_URI} =~ m#^/pagefind/((index|fragment|filter)/|pagefind\\.[^/]+\\.pf_meta$)#">',
    `    Header set Cache-Control ${quoted(immutable)}`,
    '  </If>',
    '</IfModule>',
    '',
  ].join('\n');
}

/**
 * `nginx.conf`: a snippet for the `server` block of the HTTPS site (see README). nginx drops the
 * parent's `add_header` lines in a location that has its own, so every location lists them all.
 */
export function renderNginx(model: HostingModel): string {
  const headers = (cache: string) =>
    [
      ...Object.entries(model.security).map(
        ([name, value]) => `    add_header ${name} ${quoted(value)} always;`,
      ),
      `    add_header Cache-Control ${quoted(cache)} always;`,
    ].join('\n');
  const location = (match: string, cache: string, extra: string[] = []) =>
    [`location ${match} {`, ...extra.map((line) => `    ${line}`), headers(cache), '}'].join('\n');
  return [
    `# ${generatedBy}`,
    '# Include in the `server` block of the HTTPS site, with `root` set to the build directory.',
    '# HTTPS only: the plain-HTTP server block answers `return 301 https://$host$request_uri;`.',
    'error_page 404 /404.html;',
    '',
    '# Legacy URLs, /consulting.',
    ...model.redirects.map(
      ({from, to}) => `location ~ ^${literal(from)}/?$ { return 301 ${to}$is_args$args; }`,
    ),
    '',
    location('/', revalidate, ['try_files $uri $uri.html $uri/index.html =404;']),
    location('= /404.html', revalidate, ['internal;']),
    location('/assets/', immutable),
    ...typedFilePatterns(model.typedFiles).map(({pattern, contentType}) =>
      location(`~ ${pattern}`, revalidate, [
        'types { }',
        `default_type ${quoted(contentType)};`,
        'try_files $uri =404;',
      ]),
    ),
    location('~ ^/pagefind/((index|fragment|filter)/|pagefind\\.[^/]+\\.pf_meta$)', immutable),
    '',
  ].join('\n');
}

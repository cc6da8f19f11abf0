/**
 * The Content-Security-Policy of the build's pages: what they may load and run. The inline code
 * of the built HTML is allowed by its SHA-256 hash, computed here from the pages themselves, so
 * a change to an inline script changes its hash at the next build and never breaks the page; a
 * third party is allowed only when the build uses the feature that needs it.
 *
 * Node-only.
 */
import {createHash} from 'node:crypto';
import {links} from '../../../data/links';

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

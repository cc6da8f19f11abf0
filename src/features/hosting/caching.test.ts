/**
 * The caching rules of the four host formats come from one model (node/model.ts): each kind of
 * file's `_headers` paths and its regular expression name the same files, and Netlify/Cloudflare,
 * Apache and nginx give every file of a build the same `Cache-Control`.
 */
import {describe, expect, it} from 'vitest';
import {
  cachingRules,
  fileClasses,
  hostingModel,
  immutable,
  renderHtaccess,
  renderNginx,
  revalidate,
  typedFilePatterns,
  type HostingModel,
} from './node/hosting';

/** Files of a real build (names as the build writes them), by kind. */
const pages = ['/', '/controllers', '/techniques/caching', '/faq/serverless', '/404.html'];
const files = [
  '/assets/js/main.9b1f2c3d.js',
  '/assets/js/runtime~main.1a2b3c4d.js',
  '/assets/js/f5713b9a.c223c80a.js',
  '/assets/js/3941.aa70e35e.js',
  '/assets/css/styles.554be897.css',
  '/assets/fonts/source-sans-3-latin-400-normal-5e0fb0b88bcf03ab466ca8120097aae6.woff2',
  '/sitemap.xml',
  '/sw.js',
  '/550.sw.js',
  '/manifest.json',
  '/offline.json',
  '/controllers.md',
  '/index.md',
  '/techniques/caching.md',
  '/llms.txt',
  '/llms-full.txt',
  '/pagefind/pagefind.js',
  '/pagefind/pagefind-entry.json',
  '/pagefind/pages.json',
  '/pagefind/pagefind-highlight.js',
  '/pagefind/wasm.en.pagefind',
  '/pagefind/wasm.unknown.pagefind',
  '/pagefind/pagefind.en_4f3c2b1a09.pf_meta',
  '/pagefind/index/en_2ee5628.pf_index',
  '/pagefind/fragment/en_316a553.pf_fragment',
  '/pagefind/filter/en_29bf23f.pf_filter',
  '/pagefind/pagefind-component-ui.js',
  '/img/logo.svg',
  '/img/icons/icon-192.png',
];
const typedFiles = files
  .filter((path) => /\.(md|txt)$/.test(path))
  .map((path) => ({
    path,
    contentType: path.endsWith('.md')
      ? 'text/markdown; charset=utf-8'
      : 'text/plain; charset=utf-8',
  }));
const model = hostingModel({
  features: {ads: false, pagefind: true},
  hashes: {scripts: [], styles: [], styleAttributes: []},
  redirects: [],
  enterpriseUrl: 'https://example.com',
  htmlRoutes: pages.filter((route) => route !== '/404.html'),
  typedFiles,
});

/** A `_headers` path as a test: `*` matches anything. */
const glob = (path: string) =>
  new RegExp(`^${path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);

/** Netlify and Cloudflare Pages: every matching rule applies (the model lets one match). */
function netlify(headers: HostingModel, url: string): string[] {
  return headers.caching
    .filter((rule) => glob(rule.path).test(url))
    .map((rule) => rule.headers['Cache-Control'] ?? '');
}

/** Apache, as the generated .htaccess reads: pages are .html files; else the last `<If>` that matches. */
function apache(htaccess: string, url: string, isPage: boolean): string | undefined {
  if (isPage) return htaccess.includes('<FilesMatch "\\.html$">') ? revalidate : undefined;
  let cache: string | undefined;
  for (const [, pattern = '', body = ''] of htaccess.matchAll(
    /<If "%\{REQUEST_URI\} =~ m#(.+?)#">([\s\S]*?)<\/If>/g,
  )) {
    if (new RegExp(pattern).test(url)) cache = /Cache-Control "([^"]+)"/.exec(body)?.[1];
  }
  return cache;
}

/** nginx, as the generated snippet reads: `= ` exact, then regex locations in order, else `/`. */
function nginx(conf: string, url: string): string | undefined {
  // One-line locations are the redirects (`location ~ ^/components/?$ { return 301 ...; }`).
  const blocks = conf
    .split('\n')
    .filter((line) => !/^location .*\}$/.test(line))
    .join('\n');
  const locations = [...blocks.matchAll(/^location (=|~)? ?(\S+) \{([\s\S]*?)^\}/gm)];
  const cacheOf = (body: string) => /add_header Cache-Control "([^"]+)"/.exec(body)?.[1];
  const exact = locations.find(([, kind, match]) => kind === '=' && match === url);
  if (exact) return cacheOf(exact[3] ?? '');
  const regex = locations.find(
    ([, kind, match]) => kind === '~' && new RegExp(match ?? '').test(url),
  );
  if (regex) return cacheOf(regex[3] ?? '');
  const root = locations.find(([, kind, match]) => kind === undefined && match === '/');
  return cacheOf(root?.[3] ?? '');
}

describe('caching, one model for every host', () => {
  it("names the same files by each kind's paths and by its pattern", () => {
    for (const kind of fileClasses) {
      for (const url of [...pages, ...files]) {
        const byPaths = kind.paths.some((path) => glob(path).test(url));
        expect(new RegExp(kind.pattern).test(url), `${kind.what}: ${url}`).toBe(byPaths);
      }
    }
  });

  it('gives every file of a build the same Cache-Control on Netlify/Cloudflare, Apache and nginx', () => {
    const htaccess = renderHtaccess(model);
    const conf = renderNginx(model);
    for (const url of [...pages, ...files]) {
      const rules = netlify(model, url);
      expect(rules.length, `${url}: one _headers rule at most`).toBeLessThanOrEqual(1);
      const expected = rules[0];
      // Files no rule names (images, Pagefind's unused UI kits) keep each host's default.
      if (expected === undefined) continue;
      const isPage = pages.includes(url);
      const typed = typedFilePatterns(typedFiles).some(({pattern}) =>
        new RegExp(pattern).test(url),
      );
      expect(typed ? revalidate : apache(htaccess, url, isPage), `Apache ${url}`).toBe(expected);
      expect(nginx(conf, url), `nginx ${url}`).toBe(expected);
    }
  });

  it('keeps the hashed files for a year and revalidates the rest', () => {
    expect(netlify(model, '/assets/js/main.9b1f2c3d.js')).toEqual([immutable]);
    expect(netlify(model, '/pagefind/index/en_2ee5628.pf_index')).toEqual([immutable]);
    expect(netlify(model, '/pagefind/pages.json')).toEqual([revalidate]);
    expect(netlify(model, '/550.sw.js')).toEqual([revalidate]);
    expect(cachingRules(['/controllers']).map((rule) => rule.path)).toContain('/controllers');
  });
});

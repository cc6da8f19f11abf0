import {mkdtemp, mkdir, readFile, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import type {LoadContext} from '@docusaurus/types';
import {describe, expect, it} from 'vitest';
import {links} from '../../data/links';
import {
  adNetwork,
  attribute,
  cachingRules,
  contentSecurityPolicy,
  formBase,
  formRules,
  hashSource,
  hostingModel,
  immutable,
  inlineHashes,
  literalSpellings,
  mergeHashes,
  redirectTarget,
  renderHeaders,
  renderHtaccess,
  renderNginx,
  renderRedirects,
  revalidate,
  type HostingFeatures,
  type InlineHashes,
} from './node/hosting';
import {featuresOf, hostingStep} from './node/step';
import {noArtifacts, type BuildData} from '../pipeline/node/steps';

// Computed independently: printf '%s' 'alert(1)' | openssl dgst -sha256 -binary | base64
const alertHash = "'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='";
const displayNoneHash = "'sha256-biLFinpqYMtWHmXfkA1BPeCY0/fNt46SAZ+BBk5YUog='";
const redStyleHash = "'sha256-6hWWMOcF+mJesSJGYhmK2lkIIEw9Xc5XKGLPVzh8yxs='";

const page = [
  '<!DOCTYPE html><html><head>',
  '<style>a{color:red}</style>',
  '<script>alert(1)</script>',
  '<script type=application/ld+json>{"@type":"WebSite"}</script>',
  '<script src=/assets/js/main.js></script>',
  '<script data-rh=true type="text/javascript">alert(1)</script>',
  '<!-- <script>commented()</script> <b style="color: blue">-->',
  '<script>document.body.innerHTML=\'<p style="color: green">x</p>\'</script>',
  '</head><body><svg style="display: none;"><defs></defs></svg>',
  '<div id="__docusaurus"><p style="a: &quot;b&quot;">text</p></div></body></html>',
].join('');

const none: InlineHashes = {scripts: [], styles: [], styleAttributes: []};
const base: HostingFeatures = {ads: false, pagefind: true};

/** The directives of a policy, by name. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(/;\s*/).map((directive) => {
      const [name = '', ...sources] = directive.split(' ');
      return [name, sources];
    }),
  );
}

describe('inline hashes', () => {
  it('hashes the text of inline scripts and style elements as browsers do', () => {
    expect(hashSource('alert(1)')).toBe(alertHash);
    const hashes = inlineHashes(page);
    expect(hashes.styles).toEqual([redStyleHash]);
    // Two identical scripts, one hash; the data block, the external and the commented script
    // are left out; the last script is hashed whole.
    expect(hashes.scripts).toHaveLength(2);
    expect(hashes.scripts).toContain(alertHash);
    expect(hashes.scripts).toContain(
      hashSource('document.body.innerHTML=\'<p style="color: green">x</p>\''),
    );
  });

  it('hashes style attributes of elements only, decoded', () => {
    const hashes = inlineHashes(page);
    expect(hashes.styleAttributes).toEqual([displayNoneHash, hashSource('a: "b"')].sort());
  });

  it('reads attributes quoted or not', () => {
    expect(attribute(' type=module', 'type')).toBe('module');
    expect(attribute(' data-type="x" type="text/javascript"', 'type')).toBe('text/javascript');
    expect(attribute(' async', 'async')).toBe('');
    expect(attribute(' data-src=x', 'src')).toBeUndefined();
    // Text inside a quoted value is not an attribute.
    expect(attribute(' title="no style here" class=a', 'style')).toBeUndefined();
  });

  it('reads tags whole, a quoted value holding ">" or " style"', () => {
    const hashes = inlineHashes(
      '<p title="a > b style" style="color: red">x</p><b title=" style">',
    );
    expect(hashes.styleAttributes).toEqual([hashSource('color: red')]);
  });

  it('merges the hashes of several pages without repeats', () => {
    const merged = mergeHashes([inlineHashes(page), inlineHashes('<script>alert(1)</script>')]);
    expect(merged.scripts).toHaveLength(2);
  });
});

describe('content security policy', () => {
  const hashes = inlineHashes(page);

  it('allows the inline code by hash, never scripts by unsafe-inline', () => {
    const policy = directives(contentSecurityPolicy(base, hashes));
    expect(policy.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'", ...hashes.scripts]);
    expect(policy.get('style-src')).toEqual([
      "'self'",
      redStyleHash,
      "'unsafe-hashes'",
      ...hashes.styleAttributes,
    ]);
    expect(contentSecurityPolicy(base, hashes)).not.toContain("'unsafe-inline'");
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'self'"]);
    expect(policy.get('connect-src')).toEqual(["'self'"]);
  });

  it("needs 'unsafe-hashes' only for style attributes", () => {
    const policy = directives(contentSecurityPolicy(base, {...hashes, styleAttributes: []}));
    expect(policy.get('style-src')).toEqual(["'self'", redStyleHash]);
  });

  it('allows the ad network only with ads on', () => {
    const off = directives(contentSecurityPolicy(base, none));
    const on = directives(contentSecurityPolicy({...base, ads: true}, none));
    expect(off.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(off.get('img-src')).toEqual(["'self'", 'data:']);
    expect(on.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'", ...adNetwork.script]);
    expect(on.get('script-src')).toContain(new URL(links.adsScript).origin);
    expect(on.get('img-src')).toEqual(["'self'", 'data:', ...adNetwork.img]);
  });

  it('allows Algolia only when configured, and then no WebAssembly', () => {
    const algolia = directives(
      contentSecurityPolicy({ads: false, pagefind: false, algoliaAppId: 'ABC123'}, none),
    );
    expect(algolia.get('connect-src')).toEqual([
      "'self'",
      'https://abc123-dsn.algolia.net',
      'https://*.algolianet.com',
    ]);
    expect(algolia.get('script-src')).toEqual(["'self'"]);
    expect(contentSecurityPolicy(base, none)).not.toContain('algolia');
  });

  it('allows the newsletter host, as an origin, only when set', () => {
    const policy = directives(
      contentSecurityPolicy({...base, newsletterHost: 'https://news.example.com/'}, none),
    );
    expect(policy.get('connect-src')).toEqual(["'self'", 'https://news.example.com']);
  });

  it('reads the features from the site config', () => {
    const siteConfig = (fields: object, themeConfig: object = {}) =>
      ({customFields: fields, themeConfig}) as unknown as LoadContext['siteConfig'];
    expect(featuresOf(siteConfig({adsEnabled: true, newsletterHost: 'https://n.io'}))).toEqual({
      ads: true,
      pagefind: true,
      algoliaAppId: undefined,
      newsletterHost: 'https://n.io',
    });
    expect(
      featuresOf(siteConfig({adsEnabled: false, newsletterHost: ''}, {algolia: {appId: 'X'}})),
    ).toEqual({ads: false, pagefind: false, algoliaAppId: 'X', newsletterHost: undefined});
  });
});

describe('hosting files', () => {
  const model = hostingModel({
    features: {...base, ads: true},
    hashes: inlineHashes(page),
    redirects: [
      {from: '/components', to: '/providers'},
      {from: '/cli/workspaces', to: '/cli/monorepo'},
    ],
    enterpriseUrl: links.enterprise,
    htmlRoutes: ['/', '/controllers', '/404.html', '/techniques/caching', '/techniques/queues'],
  });

  it('sends every form of a legacy URL, and the other forms of a page, to one place', () => {
    const cases: [string, string | undefined][] = [
      ['/components', '/providers'],
      ['/components/', '/providers'],
      ['/Components.html', '/providers'],
      ['/CLI/Workspaces', '/cli/monorepo'],
      ['/consulting/', links.enterprise],
      ['/controllers', undefined],
      ['/controllers/', '/controllers'],
      ['/controllers.html', '/controllers'],
      ['/CONTROLLERS', '/controllers'],
      ['/cOnTrOlLeRs/', '/controllers'],
      ['/techniques/Queues.html', '/techniques/queues'],
      ['/', undefined],
      ['/index', '/'],
      ['/INDEX.HTML', '/'],
      ['/404.html', undefined],
      ['/404', undefined],
      ['/no/such/page', undefined],
      ['/controllers.md', undefined],
      ['/controllers//', undefined],
      ['/assets/js/main.js', undefined],
    ];
    for (const [path, target] of cases) expect(redirectTarget(model, path), path).toBe(target);
    expect(model.pages).toEqual(['/', '/controllers', '/techniques/caching', '/techniques/queues']);
  });

  it('lists capitals and capitalised words, with .html, for hosts that match literally', () => {
    expect(literalSpellings('/techniques/queues')).toEqual([
      '/techniques/queues.html',
      '/TECHNIQUES/QUEUES',
      '/TECHNIQUES/QUEUES.html',
      '/Techniques/Queues',
      '/Techniques/Queues.html',
    ]);
  });

  it('writes _redirects from the same rules: legacy lines forced on Netlify, page lines never', () => {
    const lines = (force: boolean) =>
      renderRedirects(model, {force})
        .split('\n')
        .filter((line) => !/^#|^$/.test(line))
        .map((line) => line.split(' '));
    for (const [from = '', to, status] of lines(true)) {
      const base = formBase(from).toLowerCase();
      const legacy = model.redirects.some((rule) => rule.from.toLowerCase() === base);
      expect(redirectTarget(model, from), from).toBe(to);
      expect(status, from).toBe(legacy ? '301!' : '301');
    }
    expect(lines(false).map((line) => line.join(' '))).toEqual(
      expect.arrayContaining([
        '/components /providers 301',
        '/components/ /providers 301',
        '/Components.html /providers 301',
        `/consulting ${links.enterprise} 301`,
        '/controllers.html /controllers 301',
        '/CONTROLLERS /controllers 301',
        '/Techniques/Queues /techniques/queues 301',
        '/index.html / 301',
      ]),
    );
    // No line for a page's own URL or its trailing slash (Netlify ignores a trailing slash when
    // matching: such a rule would answer at the page itself).
    const froms = lines(false).map(([from]) => from);
    for (const page of model.pages) {
      expect(froms, page).not.toContain(page);
      if (page !== '/') expect(froms, page).not.toContain(`${page}/`);
    }
  });

  it('writes patterns for Apache and nginx that match exactly the forms of the model', () => {
    // PCRE's `(?i:...)` as a JavaScript pattern: each letter inside matches either case.
    const javascript = (pattern: string) =>
      new RegExp(
        pattern.replace(/\(\?i:((?:\\.|[^()]|\((?:\\.|[^()])*\))*)\)/g, (_, inner: string) =>
          inner.replace(/\\.|[a-z]/g, (part) =>
            part.length === 1 ? `[${part}${part.toUpperCase()}]` : part,
          ),
        ),
      );
    const paths = [
      ...['/components', '/controllers', '/techniques/queues', '/index', '/consulting'].flatMap(
        (path) => [path, `${path}/`, `${path}.html`, path.toUpperCase(), `${path}x`, `${path}//`],
      ),
      '/',
      '/404.html',
      '/controllers.md',
      '/xcontrollers',
      '/techniques/queues.html/',
    ];
    for (const prefix of ['/', ''] as const) {
      const rules = formRules(model, prefix).map(({pattern, to}) => ({
        match: javascript(pattern),
        to,
      }));
      for (const path of paths) {
        const subject = prefix === '/' ? path : path.slice(1);
        const rule = rules.find(({match}) => match.test(subject));
        expect(rule?.to, `${prefix}: ${path}`).toBe(redirectTarget(model, path));
      }
    }
  });

  it('writes the security headers for every path, then caching', () => {
    const headers = renderHeaders(model);
    expect(headers).toContain(
      `/*\n  Content-Security-Policy: ${model.security['Content-Security-Policy']}\n`,
    );
    expect(headers).toContain('  X-Content-Type-Options: nosniff\n');
    expect(headers).toContain('  Referrer-Policy: strict-origin-when-cross-origin\n');
    expect(headers).toMatch(/ {2}Strict-Transport-Security: max-age=\d+/);
    expect(headers).toMatch(/ {2}Permissions-Policy: .*camera=\(\)/);
    expect(headers).not.toMatch(/clipboard/);
    expect(headers).toContain(`/assets/*\n  Cache-Control: ${immutable}\n`);
    expect(headers).toContain(`/controllers\n  Cache-Control: ${revalidate}\n`);
    expect(headers).toContain(`/techniques/*\n  Cache-Control: ${revalidate}\n`);
  });

  it('gives each URL at most one Cache-Control rule', () => {
    const rules = cachingRules(model.htmlRoutes);
    const matches = (pattern: string, url: string) =>
      new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(
        url,
      );
    const expected: [string, string][] = [
      ['/', revalidate],
      ['/controllers', revalidate],
      ['/techniques/caching', revalidate],
      ['/sitemap.xml', revalidate],
      ['/assets/js/main.0123abcd.js', immutable],
      ['/pagefind/pagefind.js', revalidate],
      ['/pagefind/pagefind-entry.json', revalidate],
      ['/pagefind/pages.json', revalidate],
      ['/pagefind/pagefind-highlight.js', revalidate],
      ['/pagefind/wasm.en.pagefind', revalidate],
      ['/pagefind/pagefind.en_0123abcd.pf_meta', immutable],
      ['/pagefind/index/en_0123abcd.pf_index', immutable],
      ['/pagefind/fragment/en_0123abcd.pf_fragment', immutable],
      ['/pagefind/filter/en_0123abcd.pf_filter', immutable],
    ];
    for (const [url, value] of expected) {
      const applied = rules.filter((rule) => matches(rule.path, url));
      expect(
        applied.map((rule) => rule.headers['Cache-Control']),
        url,
      ).toEqual([value]);
    }
  });

  it('writes the same rules for Apache', () => {
    const htaccess = renderHtaccess(model);
    expect(htaccess).toContain(
      'RewriteRule ^(?i:components(?:/|\\.html)?)$ https://%{HTTP_HOST}/providers [R=301,L]',
    );
    expect(htaccess).toContain(
      `RewriteRule ^(?i:consulting(?:/|\\.html)?)$ ${links.enterprise} [R=301,L]`,
    );
    expect(htaccess).toContain(
      'RewriteRule ^(?!controllers$)(?i:controllers(?:/|\\.html)?)$ https://%{HTTP_HOST}/controllers [R=301,L]',
    );
    expect(htaccess).toContain(
      'RewriteRule ^(?i:index(?:/|\\.html)?)$ https://%{HTTP_HOST}/ [R=301,L]',
    );
    // The URL forms first (one step from http:// too), then HTTPS, then the files.
    expect(htaccess.indexOf('/providers [R=301,L]')).toBeLessThan(
      htaccess.indexOf('RewriteCond %{HTTPS} !=on'),
    );
    expect(htaccess).toContain('ErrorDocument 404 /404.html');
    expect(htaccess).toContain('RewriteRule ^$ index.html [END]');
    expect(htaccess).toContain('RewriteRule ^(.+)$ $1.html [END]');
    expect(htaccess).toMatch(
      /RewriteCond %\{REQUEST_FILENAME\} -d\nRewriteCond %\{REQUEST_FILENAME\}\/index\.html !-f\nRewriteRule \^\. - \[R=404,L\]/,
    );
    expect(htaccess).toContain(
      `Header always set Content-Security-Policy "${model.security['Content-Security-Policy']}"`,
    );
    expect(htaccess).toContain(`Header set Cache-Control "${immutable}"`);
  });

  it('writes the same rules for nginx', () => {
    const nginx = renderNginx(model);
    expect(nginx).toContain(
      'location ~ ^(?i:/components(?:/|\\.html)?)$ { return 301 /providers$is_args$args; }',
    );
    expect(nginx).toContain(
      'location ~ ^(?!/controllers$)(?i:/controllers(?:/|\\.html)?)$ { return 301 /controllers$is_args$args; }',
    );
    expect(nginx).toContain('error_page 404 /404.html;');
    expect(nginx).toContain('try_files $uri $uri.html $uri/index.html =404;');
    expect(nginx).toContain('location = / {\n    try_files /index.html =404;');
    // Every location repeats the security headers (nginx does not inherit add_header).
    expect(nginx.match(/add_header Content-Security-Policy/g)).toHaveLength(5);
  });
});

describe('hosting step', () => {
  it('writes the four files from the pages of the build, not the redirect fallbacks', async () => {
    const outDir = await mkdtemp(join(tmpdir(), 'hosting-'));
    await mkdir(join(outDir, 'components'));
    await writeFile(join(outDir, 'index.html'), page);
    await writeFile(
      join(outDir, 'components', 'index.html'),
      "<html><script>window.location.href = '/providers';</script></html>",
    );
    const context = {baseUrl: '/'} as LoadContext;
    const step = hostingStep(context, {
      redirects: [{from: '/components', to: '/providers'}],
      enterpriseUrl: links.enterprise,
      forceRedirects: false,
    });
    const siteConfig = {customFields: {adsEnabled: false}, themeConfig: {}};
    await step.run({outDir, siteConfig} as unknown as BuildData, noArtifacts);
    const headers = await readFile(join(outDir, '_headers'), 'utf8');
    const csp = /Content-Security-Policy: (.*)/.exec(headers)?.[1] ?? '';
    expect(directives(csp).get('script-src')).toEqual([
      "'self'",
      "'wasm-unsafe-eval'",
      ...inlineHashes(page).scripts,
    ]);
    expect(headers).toContain('\n/\n  Cache-Control: no-cache\n');
    expect(await readFile(join(outDir, '_redirects'), 'utf8')).toContain(
      '/components /providers 301\n',
    );
    expect(await readFile(join(outDir, '.htaccess'), 'utf8')).toContain(
      'RewriteRule ^(?i:components(?:/|\\.html)?)$',
    );
    expect(await readFile(join(outDir, 'nginx.conf'), 'utf8')).toContain(
      'location ~ ^(?i:/components(?:/|\\.html)?)$',
    );
  });

  it('refuses a site outside the root of its domain', () => {
    const options = {redirects: [], enterpriseUrl: links.enterprise, forceRedirects: false};
    expect(() => hostingStep({baseUrl: '/docs/'} as LoadContext, options)).toThrow(/baseUrl/);
  });
});

import {describe, expect, it} from 'vitest';
import {appLocation, appPage, mayBeAppLink, pagePaths, type LinkFacts} from './links';

const origin = 'https://docs.nestjs.com';

/** The route table's shape, as Docusaurus generates it (.docusaurus/routes.js). */
const routes = [
  {path: '/search', exact: true},
  {
    path: '/',
    routes: [
      {
        path: '/',
        routes: [
          {path: '/controllers', exact: true},
          {path: '/techniques/queues', exact: true},
          {path: '/', exact: true},
        ],
      },
    ],
  },
  {path: '*'},
];
const pages = pagePaths(routes);

const link = (href: string, extra: Partial<LinkFacts> = {}): LinkFacts => ({
  href,
  url: new URL(href, `${origin}/controllers`).href,
  target: '',
  download: false,
  ...extra,
});

describe('pagePaths', () => {
  it('lists the exact routes at any depth, not the layouts or the catch-all', () => {
    expect([...pages].sort()).toEqual(['/', '/controllers', '/search', '/techniques/queues']);
  });
});

describe('appLocation', () => {
  it('keeps the query and the hash of a link to a page of the app', () => {
    expect(appLocation(link('/techniques/queues?lang=js#retries'), origin, pages)).toBe(
      '/techniques/queues?lang=js#retries',
    );
    expect(appLocation(link('/'), origin, pages)).toBe('/');
  });

  it('resolves relative links against the document', () => {
    expect(appLocation(link('techniques/queues'), origin, pages)).toBe('/techniques/queues');
  });

  it('leaves to the browser what Docusaurus Link leaves to it', () => {
    // Another site, a new tab, a download, an anchor of this page.
    expect(appLocation(link('https://github.com/nestjs/nest'), origin, pages)).toBeNull();
    expect(appLocation(link('/controllers', {target: '_blank'}), origin, pages)).toBeNull();
    expect(appLocation(link('/controllers', {download: true}), origin, pages)).toBeNull();
    expect(appLocation(link('#routing'), origin, pages)).toBeNull();
    expect(appLocation(link(''), origin, pages)).toBeNull();
  });

  it('leaves files and unknown paths to the browser', () => {
    expect(appLocation(link('/controllers.md'), origin, pages)).toBeNull();
    expect(appLocation(link('/img/logo.svg'), origin, pages)).toBeNull();
    expect(appLocation(link('/no-such-page'), origin, pages)).toBeNull();
  });

  it('follows a link that names its target as _self', () => {
    expect(appLocation(link('/controllers', {target: '_self'}), origin, pages)).toBe(
      '/controllers',
    );
  });

  it('does not throw on a URL the browser could not resolve', () => {
    expect(
      appLocation({href: 'x', url: 'not a url', target: '', download: false}, origin, pages),
    ).toBeNull();
  });
});

describe('appPage', () => {
  it('is the path alone, what prefetching takes', () => {
    expect(appPage(link('/techniques/queues?lang=js#retries'), origin, pages)).toBe(
      '/techniques/queues',
    );
    expect(appPage(link('/controllers.md'), origin, pages)).toBeNull();
  });
});

describe('mayBeAppLink', () => {
  it.each(['/controllers', '/api/common#Controller', 'providers', '../x', '?lang=js'])(
    'watches %j (a path, a relative link, a query)',
    (href) => expect(mayBeAppLink(href)).toBe(true),
  );
  it.each(['', '#routing', '//example.com/x', 'https://example.com', 'mailto:a@b.c', 'HTTP://x'])(
    'leaves out %j (empty, an anchor, another host, a scheme)',
    (href) => expect(mayBeAppLink(href)).toBe(false),
  );
  it('leaves out only links appPage rejects too', () => {
    for (const href of ['#routing', '//example.com/controllers', 'mailto:a@b.c']) {
      expect(appPage(link(href), origin, pages), href).toBeNull();
    }
  });
});

import {matchRoutes} from 'react-router-config';
import {describe, expect, it} from 'vitest';
import {decide, pageOf, servedPageOf, type RouteOf} from './serverPage';

/** A route table of Docusaurus' shape: pages, the docs' nested routes, the catch-all. */
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

/** React Router's own matching, as ./client/serverPage.ts uses it. */
const routeOf: RouteOf = (pathname) => {
  const exact = matchRoutes(routes, pathname).filter(({route}) => route.exact === true);
  const path = exact.at(-1)?.route.path;
  return typeof path === 'string' ? path : null;
};

const at = (url: string) => {
  const {pathname, search, hash} = new URL(url, 'https://docs.nestjs.com');
  return {pathname, search, hash};
};

describe('the page a URL names', () => {
  it('is the route React Router matches, in its own spelling', () => {
    expect(pageOf('/controllers', routeOf)).toBe('/controllers');
    expect(pageOf('/CONTROLLERS', routeOf)).toBe('/controllers');
    expect(pageOf('/controllers/', routeOf)).toBe('/controllers');
    expect(pageOf('/Techniques/Queues/', routeOf)).toBe('/techniques/queues');
  });

  it('is found without the name of its file', () => {
    expect(pageOf('/controllers.html', routeOf)).toBe('/controllers');
    expect(pageOf('/Controllers.HTML', routeOf)).toBe('/controllers');
    expect(pageOf('/index.html', routeOf)).toBe('/');
    expect(pageOf('/index', routeOf)).toBe('/');
  });

  it('is none for an unknown path (the 404 page)', () => {
    expect(pageOf('/no/such/page', routeOf)).toBeNull();
    expect(pageOf('/controllers.md', routeOf)).toBeNull();
    expect(pageOf('/404.html', routeOf)).toBeNull();
  });

  it("is read from the server's canonical link", () => {
    expect(servedPageOf('https://docs.nestjs.com/controllers', routeOf)).toBe('/controllers');
    expect(servedPageOf('https://docs.nestjs.com/404.html', routeOf)).toBeNull();
    expect(servedPageOf(undefined, routeOf)).toBeUndefined();
  });
});

describe('before React starts', () => {
  const controllers = 'https://docs.nestjs.com/controllers';
  const notFound = 'https://docs.nestjs.com/404.html';

  it("hydrates the page's own HTML at its URL, the 404 page's at an unknown one", () => {
    expect(decide(at('/controllers?lang=js'), controllers, routeOf)).toEqual({
      replaceWith: null,
      hydrate: true,
    });
    expect(decide(at('/no/such/page'), notFound, routeOf)).toEqual({
      replaceWith: null,
      hydrate: true,
    });
  });

  it("shows the page's own URL for another spelling, keeping the query and the hash", () => {
    expect(decide(at('/controllers.html?lang=js#guards'), controllers, routeOf)).toEqual({
      replaceWith: '/controllers?lang=js#guards',
      hydrate: true,
    });
  });

  it("renders from scratch where the server sent another page's HTML", () => {
    // The 404 page for /CONTROLLERS or /controllers/ (a host without the 301s).
    expect(decide(at('/CONTROLLERS'), notFound, routeOf)).toEqual({
      replaceWith: '/controllers',
      hydrate: false,
    });
    expect(decide(at('/techniques/queues/'), notFound, routeOf)).toEqual({
      replaceWith: '/techniques/queues',
      hydrate: false,
    });
    // A page's HTML at another page's URL, and at an unknown one.
    expect(decide(at('/techniques/queues'), controllers, routeOf).hydrate).toBe(false);
    expect(decide(at('/no/such/page'), controllers, routeOf).hydrate).toBe(false);
  });

  it('hydrates as before where the document does not say (no canonical link)', () => {
    expect(decide(at('/controllers'), null, routeOf).hydrate).toBe(true);
  });
});

/**
 * Which page a URL names, and whether the HTML the server sent is that page: the rules of
 * ./client/serverPage.ts, pure so that they are unit-tested in Node. The route matching is
 * passed in (`RouteOf`): in the browser it is React Router's, over the app's route table.
 */

/**
 * The page the app renders at a path: the path of the exact route that matches it (React Router
 * matches `/CONTROLLERS` and `/controllers/` to `/controllers`), or null for the 404 page.
 */
export type RouteOf = (pathname: string) => string | null;

/**
 * The page a URL names, in its canonical spelling, or null when it names none: the route the
 * path matches, else the route of the path without `.html` or `/index.html` (a file's name,
 * `/controllers.html`, `/index.html`) or a final `/index`. The same pages as the hosts' 301s
 * (src/features/hosting/node/model.ts, `redirectTarget`).
 */
export function pageOf(pathname: string, routeOf: RouteOf): string | null {
  const candidates = [
    pathname,
    pathname.replace(/(?:\/index)?\.html$/i, '') || '/',
    pathname.replace(/\/index\/?$/i, '') || '/',
  ];
  for (const candidate of new Set(candidates)) {
    const page = routeOf(candidate);
    if (page !== null) return page;
  }
  return null;
}

/**
 * The page the server rendered a document for, from its canonical link (`/controllers`; the 404
 * page's is `/404.html`, which no route matches: null), or undefined when the document has no
 * canonical link to tell.
 */
export function servedPageOf(
  canonicalHref: string | null | undefined,
  routeOf: RouteOf,
): string | null | undefined {
  if (!canonicalHref) return undefined;
  let pathname: string;
  try {
    pathname = new URL(canonicalHref, 'https://localhost').pathname;
  } catch {
    return undefined;
  }
  return routeOf(pathname);
}

export interface Decision {
  /** The URL to show instead, in place (`history.replaceState`), when the URL is another spelling of its page. */
  readonly replaceWith: string | null;
  /** Whether the server's HTML is the page the URL names, so that React may hydrate it. */
  readonly hydrate: boolean;
}

/**
 * What the browser does with a document before React starts: a URL that is another spelling of
 * a page (`/CONTROLLERS`, `/controllers/`, `/controllers.html`, from a host without the 301s)
 * shows the page's own URL; and React hydrates the server's HTML only if it is the page the URL
 * names (the 404 page's, where the URL names none). Otherwise (the 404 page's HTML at
 * `/CONTROLLERS`, a copy of a page at another page's URL) React renders the page from scratch:
 * hydrating another page's markup fails (React error #418) and the static article would adopt
 * markup that is not its own.
 */
export function decide(
  location: {readonly pathname: string; readonly search: string; readonly hash: string},
  canonicalHref: string | null | undefined,
  routeOf: RouteOf,
): Decision {
  const page = pageOf(location.pathname, routeOf);
  const replaceWith =
    page !== null && page !== location.pathname
      ? `${page}${location.search}${location.hash}`
      : null;
  const served = servedPageOf(canonicalHref, routeOf);
  return {replaceWith, hydrate: served === undefined || served === page};
}

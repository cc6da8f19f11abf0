/**
 * Which links of a static article are the app's own pages, and what a click on one does: the
 * rules of Docusaurus' `Link` and React Router's `Link`, for plain `<a>` elements that have no
 * React component behind them (./client/links.ts applies them). Pure, so unit-tested in Node.
 */

/** A route of the generated route table, as far as this looks into it. */
export interface RouteLike {
  readonly path?: string | readonly string[];
  readonly exact?: boolean;
  readonly routes?: readonly RouteLike[];
}

/** The paths of the app's pages: every exact route of the table (the catch-all `*` is not one). */
export function pagePaths(routes: readonly RouteLike[]): Set<string> {
  const paths = new Set<string>();
  const visit = (list: readonly RouteLike[]) => {
    for (const route of list) {
      if (route.exact && typeof route.path === 'string') paths.add(route.path);
      if (route.routes) visit(route.routes);
    }
  };
  visit(routes);
  return paths;
}

/** What the browser tells about a link. */
export interface LinkFacts {
  /** The `href` attribute as written. */
  readonly href: string;
  /** The link resolved against the document (`HTMLAnchorElement.href`). */
  readonly url: string;
  readonly target: string;
  readonly download: boolean;
}

/**
 * The location (path, query, hash) a link opens inside the app, or null when the browser should
 * follow it itself: another origin, a new window or tab, a download, an anchor on this page (the
 * browser scrolls to it, as Docusaurus' `Link` leaves it to), or a path that is no page of the app
 * (`/controllers.md`: a file, which the app would show as "not found").
 */
export function appLocation(
  link: LinkFacts,
  origin: string,
  pages: ReadonlySet<string>,
): string | null {
  if (link.download || (link.target !== '' && link.target !== '_self')) return null;
  if (link.href === '' || link.href.startsWith('#')) return null;
  let url: URL;
  try {
    url = new URL(link.url);
  } catch {
    return null;
  }
  if (url.origin !== origin || !pages.has(url.pathname)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * Whether a link's `href` attribute, as written, may lead to a page of the app: false for an
 * empty one, an anchor (`#…`), another host (`//…`) or a scheme (`https:`, `mailto:`). A string
 * test, for the many links a page has (a sample's identifiers link to the API reference), so
 * that only these are watched for prefetching; `appLocation` decides.
 */
export function mayBeAppLink(href: string): boolean {
  return href !== '' && !href.startsWith('#') && !href.startsWith('//') && !scheme.test(href);
}

const scheme = /^[a-z][a-z\d+.-]*:/i;

/** The page a link leads to (for prefetching its bundles), or null; see `appLocation`. */
export function appPage(
  link: LinkFacts,
  origin: string,
  pages: ReadonlySet<string>,
): string | null {
  const location = appLocation(link, origin, pages);
  return location === null ? null : new URL(location, origin).pathname;
}

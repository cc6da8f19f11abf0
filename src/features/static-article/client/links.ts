/**
 * The links of a static article, which are plain `<a>` elements with no React component behind
 * them, behave as Docusaurus' `Link` makes them behave in a rendered one, through listeners on
 * the article's element:
 * - a click (no modifier key, main button) on a link to a page of the app is a client-side
 *   navigation with Docusaurus' own history (`history.replace` when it is the current location,
 *   as React Router's `Link` does), so the shell stays and the next article renders with React;
 * - pointing at such a link (mouse over, touch start) preloads its page, once per link;
 * - a link that scrolls into view has its page's bundles prefetched (through
 *   `window.docusaurus.prefetch`, as `Link` does).
 * Everything else (other sites, new tabs, downloads, `#anchors`, files such as `/controllers.md`)
 * is left to the browser, as `Link` leaves it. The rules are in ../links.ts.
 */
import type {useHistory} from '@docusaurus/router';
import routes from '@generated/routes';
import {appLocation, appPage, mayBeAppLink, pagePaths, type LinkFacts} from '../links';

type History = ReturnType<typeof useHistory>;

let pages: Set<string> | undefined;

/** The app's page paths, computed from the route table on first use. */
function appPages(): ReadonlySet<string> {
  pages ??= pagePaths(routes);
  return pages;
}

function facts(link: HTMLAnchorElement): LinkFacts {
  return {
    href: link.getAttribute('href') ?? '',
    url: link.href,
    target: link.target,
    download: link.hasAttribute('download'),
  };
}

/** The link an event happened in, if it is inside `container`. */
function linkOf(container: HTMLElement, target: EventTarget | null): HTMLAnchorElement | null {
  const link = target instanceof Element ? target.closest('a[href]') : null;
  return link instanceof HTMLAnchorElement && container.contains(link) ? link : null;
}

/** Wires the article's links; returns the function that unwires them. */
export function delegateLinks(container: HTMLElement, history: History): () => void {
  const origin = window.location.origin;
  const preloaded = new WeakSet<HTMLAnchorElement>();

  const onClick = (event: MouseEvent) => {
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.altKey ||
      event.ctrlKey ||
      event.shiftKey
    ) {
      return;
    }
    const link = linkOf(container, event.target);
    const to = link && appLocation(facts(link), origin, appPages());
    if (!to) return;
    event.preventDefault();
    const {pathname, search, hash} = history.location;
    if (`${pathname}${search}${hash}` === to) history.replace(to);
    else history.push(to);
  };

  const onPoint = (event: Event) => {
    const link = linkOf(container, event.target);
    if (!link || preloaded.has(link)) return;
    const page = appPage(facts(link), origin, appPages());
    if (page === null) return;
    preloaded.add(link);
    void window.docusaurus.preload(page);
  };

  const prefetch = (link: HTMLAnchorElement) => {
    const page = appPage(facts(link), origin, appPages());
    if (page !== null) void window.docusaurus.prefetch(page);
  };
  const observer =
    'IntersectionObserver' in window
      ? new IntersectionObserver((entries) => {
          for (const entry of entries) {
            if (!entry.isIntersecting && entry.intersectionRatio <= 0) continue;
            observer?.unobserve(entry.target);
            prefetch(entry.target as HTMLAnchorElement);
          }
        })
      : null;
  // Resolving every link here cost 31 ms per load on /controllers (CPU 4x, median), most of its
  // links being a sample's identifiers: a string test picks the links to watch, and a link is
  // resolved when it shows (PERFORMANCE.md).
  for (const link of Array.from(container.querySelectorAll<HTMLAnchorElement>('a[href]'))) {
    if (!mayBeAppLink(link.getAttribute('href') ?? '')) continue;
    if (observer) observer.observe(link);
    else prefetch(link);
  }

  container.addEventListener('click', onClick);
  container.addEventListener('mouseover', onPoint, {passive: true});
  container.addEventListener('touchstart', onPoint, {passive: true});
  return () => {
    observer?.disconnect();
    container.removeEventListener('click', onClick);
    container.removeEventListener('mouseover', onPoint);
    container.removeEventListener('touchstart', onPoint);
  };
}

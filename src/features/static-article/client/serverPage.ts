/**
 * Client module (../plugin.ts), run when the main bundle runs, before React starts: is the HTML
 * the server sent the page the URL names? Hosts without the hosting rules (or a reader's own
 * spelling) give other answers: the 404 page's HTML at `/CONTROLLERS` or `/controllers/`, a copy
 * of a page at `/controllers.html`. React Router matches those URLs to the page anyway, so
 * hydrating the 404 page's markup as /controllers failed (React error #418), the static article
 * adopted markup that was not its own, and the client render that followed crashed
 * ("This page crashed", 57 console errors on /controllers/).
 *
 * So, before React starts (rules: ../serverPage.ts):
 * - a URL that is another spelling of a page shows the page's own URL (`history.replaceState`,
 *   no reload), as the hosts' 301s would;
 * - if the server's HTML is not that page (or not the 404 page where the URL names none), React
 *   renders the page from scratch instead of hydrating: Docusaurus' client entry renders into
 *   `window.docusaurusRoot` when it is set (UPSTREAM.md; @docusaurus/core 3.10,
 *   lib/client/clientEntry.js, `renderApp`: the e2e "a host without the rules" in
 *   tests/e2e/hosting.spec.ts fails if that changes), and nothing is adopted
 *   (`serverHtmlIsThisPage`, ./adopt.ts).
 */
import {createRoot} from 'react-dom/client';
import {matchRoutes} from 'react-router-config';
import routes from '@generated/routes';
import {decide, type RouteOf} from '../serverPage';

/** React Router's match: the deepest exact route (Docusaurus' `normalizeLocation` asks the same). */
const routeOf: RouteOf = (pathname) => {
  const exact = matchRoutes(routes, pathname).filter(({route}) => route.exact === true);
  const path = exact.at(-1)?.route.path;
  return typeof path === 'string' ? path : null;
};

function run(): boolean {
  const canonical = document.querySelector<HTMLLinkElement>('link[rel="canonical"]');
  const {replaceWith, hydrate} = decide(window.location, canonical?.href, routeOf);
  if (replaceWith !== null) window.history.replaceState(window.history.state, '', replaceWith);
  const container = document.getElementById('__docusaurus');
  if (!hydrate && container && !window.docusaurusRoot) {
    window.docusaurusRoot = createRoot(container, {
      onRecoverableError: (error, errorInfo) =>
        console.error('Docusaurus React Root onRecoverableError:', error, errorInfo),
    });
  }
  return hydrate;
}

/**
 * Whether React hydrates the server's HTML of this page (and may adopt its article): false
 * on the server, where there is nothing to adopt, and where the server sent another page.
 */
export const serverHtmlIsThisPage: boolean = typeof document !== 'undefined' && run();

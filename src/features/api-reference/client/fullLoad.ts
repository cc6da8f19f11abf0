/**
 * Client module (added by ../plugin.ts): a client-side navigation to an API page becomes a full
 * page load. The pages are long (`/api/common`: 178 entries, about 500 code blocks): rendered by
 * React in the browser, code highlighting included, it took seconds from the click (README.md,
 * "Known cost"); loaded, the page shows the server's HTML at once and its code blocks keep that
 * markup. The history entry the router has just pushed is the one loaded, so Back still works.
 * Moves within the page (its table of contents) stay client-side.
 */
import type {ClientModule} from '@docusaurus/types';
import siteConfig from '@generated/docusaurus.config';
import {apiRoute} from '../packages';

const clientModule: ClientModule = {
  onRouteUpdate({location, previousLocation}) {
    if (!previousLocation || previousLocation.pathname === location.pathname) return;
    if (!location.pathname.startsWith(`${siteConfig.baseUrl}${apiRoute}/`)) return;
    // The router has already put the page's address in the location bar: load it. (Not
    // `location.replace(address)`: to the same address with a `#fragment` that only scrolls.)
    window.location.reload();
  },
};

export default clientModule;

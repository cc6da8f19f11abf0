/**
 * The content fades in on a page change, not on the first load: animating the first
 * paint from opacity 0 would delay the moment the reader (and Largest Contentful
 * Paint) sees the page. After the first client-side navigation `<html>` carries
 * `data-page-fade`, so every newly mounted page fades in (see custom.css). Runs in a
 * layout effect, before the new page is painted.
 */
import type {ClientModule} from '@docusaurus/types';

const clientModule: ClientModule = {
  onRouteDidUpdate({location, previousLocation}) {
    if (previousLocation && previousLocation.pathname !== location.pathname) {
      document.documentElement.setAttribute('data-page-fade', '');
    }
  },
};

export default clientModule;

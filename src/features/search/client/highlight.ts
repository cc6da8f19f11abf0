/**
 * Client module (added by src/features/search/plugin.ts): on a page opened from a search result
 * (`/pipes?highlight=parseintpipe#binding-pipes`), marks the searched words in the article with
 * Pagefind's highlighter (mark.js inside), loaded only then. Pages opened otherwise load nothing.
 */
import type {ClientModule} from '@docusaurus/types';
import siteConfig from '@generated/docusaurus.config';
import {highlightParam} from './pagefind';

interface HighlighterOptions {
  highlightParam: string;
  markContext: string;
  markOptions: {className: string; exclude: string[]};
  addStyles: boolean;
}

type Highlighter = new (options: HighlighterOptions) => unknown;

export const highlightClass = 'search-highlight';

/**
 * Where to mark: the article, or only the API entry the address names
 * (`/api/common?highlight=useguards#UseGuards`, src/features/api-reference), which is the search
 * result: marking the whole page of a package (800 KB of HTML) would take seconds.
 */
function markContext(): string {
  const id = decodeURIComponent(window.location.hash.slice(1));
  const entry = id ? `[data-api-entry="${CSS.escape(id)}"]` : '';
  return entry && document.querySelector(entry) ? entry : '[data-pagefind-body]';
}

async function highlight(baseUrl: string): Promise<void> {
  const url = `${baseUrl}pagefind/pagefind-highlight.js`;
  const {default: PagefindHighlight} = (await import(/* webpackIgnore: true */ url)) as {
    default: Highlighter;
  };
  new PagefindHighlight({
    highlightParam,
    markContext: markContext(),
    markOptions: {
      className: highlightClass,
      exclude: ['[data-pagefind-ignore]', '[data-pagefind-ignore] *', 'button', '.hash-link'],
    },
    // Styled by src/features/shell/client/custom.css (an inline <style> would need a CSP allowance).
    addStyles: false,
  });
}

const clientModule: ClientModule = {
  onRouteDidUpdate({location, previousLocation}) {
    const words = new URLSearchParams(location.search).getAll(highlightParam);
    // A new page or new words; not a jump to another heading of the same marked page.
    const same =
      previousLocation?.pathname === location.pathname &&
      previousLocation.search === location.search;
    if (words.length === 0 || same) return;
    if (document.querySelector(`[data-pagefind-body] mark.${highlightClass}`)) return;
    void highlight(siteConfig.baseUrl).catch(() => {
      // The highlighter could not be fetched (offline, say): the page is fine without marks.
    });
  },
};

export default clientModule;

/**
 * The header search box: the search theme's own bar (local search or Algolia DocSearch, see
 * src/node/search.ts), with the input given the id `search` and the `Search...` placeholder,
 * legible colours and a suggestion list that assistive technology can find.
 */
import React, {
  type ComponentProps,
  type CSSProperties,
  type ReactNode,
  useEffect,
  useRef,
} from 'react';
import SearchBar from '@theme-original/SearchBar';
import {translate} from '@docusaurus/Translate';

/**
 * Colours of the local search with a 4.5:1 contrast in both colour modes (its defaults are pale
 * grey on light grey, and white on light pink for the selected suggestion in dark mode).
 */
const legibleColours = {
  display: 'contents',
  // The placeholder and the "ctrl K" hint.
  '--ifm-navbar-search-input-placeholder-color': 'var(--ifm-color-emphasis-700)',
  // The path under each suggestion, "See all results".
  '--search-local-muted-color': 'var(--ifm-color-emphasis-700)',
  // Text of the selected suggestion, on the primary colour.
  '--search-local-hit-active-color': 'var(--ifm-color-content-inverse)',
} as CSSProperties;

const listboxId = 'search-suggestions';

export default function SearchBarWrapper(props: ComponentProps<typeof SearchBar>): ReactNode {
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const input = ref.current?.querySelector<HTMLInputElement>('input.navbar__search-input');
    if (!input) {
      return undefined;
    }
    input.id = 'search';
    input.placeholder = translate({
      id: 'site.searchBar.placeholder',
      message: 'Search...',
      description: 'The placeholder of the header search box',
    });
    // The suggestion list (autocomplete.js, set up when a search starts) takes its id from the
    // root's two CSS classes: an id with a space, which the input's aria-owns cannot refer to.
    // Give the list a plain id and a name, and point the input to it with aria-controls.
    const observer = new MutationObserver(() => {
      const listbox = input.parentElement?.querySelector('[role="listbox"]');
      if (input.getAttribute('role') !== 'combobox' || !listbox || listbox.id === listboxId) {
        return;
      }
      listbox.id = listboxId;
      listbox.setAttribute(
        'aria-label',
        translate({
          id: 'site.searchBar.suggestions',
          message: 'Search suggestions',
          description: 'The accessible name of the list of suggestions under the search box',
        }),
      );
      input.removeAttribute('aria-owns');
      input.setAttribute('aria-controls', listboxId);
    });
    observer.observe(input, {attributes: true, attributeFilter: ['role', 'aria-owns']});
    return () => observer.disconnect();
  }, []);
  return (
    <span ref={ref} style={legibleColours}>
      <SearchBar {...props} />
    </span>
  );
}

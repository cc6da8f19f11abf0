/**
 * The header search box: the search theme's own bar (local search or Algolia DocSearch, see
 * src/node/search.ts), with the input given the id `search` and the `Search...` placeholder.
 */
import React, {type ComponentProps, type ReactNode, useEffect, useRef} from 'react';
import SearchBar from '@theme-original/SearchBar';
import {translate} from '@docusaurus/Translate';

export default function SearchBarWrapper(props: ComponentProps<typeof SearchBar>): ReactNode {
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const input = ref.current?.querySelector<HTMLInputElement>('input.navbar__search-input');
    if (input) {
      input.id = 'search';
      input.placeholder = translate({
        id: 'site.searchBar.placeholder',
        message: 'Search...',
        description: 'The placeholder of the header search box',
      });
    }
  }, []);
  return (
    <span ref={ref} style={{display: 'contents'}}>
      <SearchBar {...props} />
    </span>
  );
}

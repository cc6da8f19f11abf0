/**
 * The header search: Algolia DocSearch when the build is configured for it (the original
 * component, from @docusaurus/theme-search-algolia; see src/features/search/node/searchConfig.ts), otherwise the
 * site's own box over the Pagefind index (src/features/search/client/SearchBox).
 */
import React, {type ComponentProps, type ReactNode} from 'react';
import SearchBar from '@theme-original/SearchBar';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import SearchBox from '@site/src/features/search/client/SearchBox';

export default function SearchBarWrapper(props: ComponentProps<typeof SearchBar>): ReactNode {
  const {siteConfig} = useDocusaurusContext();
  if (siteConfig.themeConfig.algolia) {
    return <SearchBar {...props} />;
  }
  return <SearchBox />;
}

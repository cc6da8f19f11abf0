/**
 * Every content page: the ad slot first (it takes no space until an ad arrives), then the page.
 *
 * The page itself is what the search indexes (src/features/search/plugin.ts): `data-pagefind-body`
 * marks it, and its menu group ("Fundamentals", "Techniques", …; "Overview" for the pages
 * outside a group) is the results page's `section` filter and the path shown under a suggestion.
 * The API reference's pages (front matter `api_reference`) are the section "API", like their
 * entries' own records (src/features/api-reference/node/step.ts).
 *
 * On a first load React adopts the server's article without hydrating it (StaticArticle,
 * src/features/static-article); client-side navigations render it as usual.
 */
import React, {type ReactNode} from 'react';
import Content from '@theme-original/DocItem/Content';
import type ContentType from '@theme/DocItem/Content';
import type {WrapperProps} from '@docusaurus/types';
import {useDoc, useSidebarBreadcrumbs} from '@docusaurus/plugin-content-docs/client';
import AdSlot from '@site/src/features/promotions/client/AdSlot';
import NotFoundNotice from '@site/src/features/shell/client/NotFoundNotice';
import {MarkdownUrl, markdownUrl} from '@site/src/features/markdown-twins/client/CopyPage';
import StaticArticle from '@site/src/features/static-article/client/StaticArticle';
import {apiSection} from '@site/src/features/api-reference/packages';
import VersionNote from '@site/src/features/versions/client/VersionNote';

type Props = WrapperProps<typeof ContentType>;

/** The label of the menu group a page sits in. */
function useSection(): string {
  const crumbs = useSidebarBreadcrumbs();
  const group = crumbs?.find((item) => item.type === 'category');
  return group?.label ?? 'Overview';
}

export default function ContentWrapper(props: Props): ReactNode {
  const menuSection = useSection();
  const {metadata, frontMatter} = useDoc();
  const {permalink} = metadata;
  const section = (frontMatter as {api_reference?: unknown}).api_reference
    ? apiSection
    : menuSection;
  return (
    <>
      {/* Only after an unknown address sent the reader here (the 404 page). */}
      <NotFoundNotice />
      {/* "You are reading the docs for NestJS 8", outside what the search indexes. */}
      <VersionNote />
      <AdSlot />
      <StaticArticle
        page={permalink}
        attributes={{
          'data-pagefind-body': '',
          'data-pagefind-filter': `section:${section}`,
          'data-pagefind-meta': `section:${section}`,
        }}
      >
        {/* The page's Markdown twin, for "Copy page" beside the title (PageTitle). */}
        <MarkdownUrl.Provider value={markdownUrl(permalink)}>
          <Content {...props} />
        </MarkdownUrl.Provider>
      </StaticArticle>
    </>
  );
}

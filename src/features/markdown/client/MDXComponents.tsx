/**
 * The MDX components available on every page without an import: the stock
 * ones plus `CodePair`, which the remark plugin `src/features/code/node/remarkCodePair.ts`
 * emits for marked code fences, and the promotional banners pages place
 * by hand (`<EnterpriseBanner />`, `<ShopBanner />`, `<CoursesBanner />`).
 * The `# Title` of a docs page renders with "Copy page" and "View as
 * Markdown" beside it (`PageTitle`, src/features/markdown-twins/client/CopyPage).
 * `MonospaceFontPreload` is what src/features/code/node/remarkMonospaceFontPreload.ts adds
 * to pages with code.
 * Images: Docusaurus' image transform HTML-escapes the alt text into a JSX
 * attribute, where entities are not decoded, so "a client's" reached readers
 * as "a client&#39;s"; `img` decodes them back.
 * `details` is the browser's own element (./Details): Docusaurus' opens only through React, and
 * articles are static on a first load.
 */
import React, {type ComponentProps} from 'react';
import MDXComponents from '@theme-original/MDXComponents';
import CodePair from '@site/src/features/code/client/CodePair';
import {PageTitle} from '@site/src/features/markdown-twins/client/CopyPage';
import {MonospaceFontPreload} from '@site/src/features/fonts/client/FontPreload';
import CoursesBanner from '@site/src/features/promotions/client/CoursesBanner';
import EnterpriseBanner from '@site/src/features/promotions/client/EnterpriseBanner';
import ShopBanner from '@site/src/features/promotions/client/ShopBanner';
import Diagram from '@site/src/features/markdown/client/Diagram';
import Details from '@site/src/features/markdown/client/Details';

const entities: Record<string, string> = {
  '&#39;': "'",
  '&quot;': '"',
  '&lt;': '<',
  '&gt;': '>',
  '&amp;': '&',
};

/** Undoes escape-html (the five entities it writes), `&amp;` last. */
export function unescapeAlt(text: string): string {
  return text.replace(/&(#39|quot|lt|gt|amp);/g, (entity) => entities[entity] ?? entity);
}

/** The pages' images are diagrams: each opens full-screen (src/features/markdown/client/Diagram). */
function ImgWithAlt(props: ComponentProps<'img'>) {
  return (
    <Diagram {...props} alt={typeof props.alt === 'string' ? unescapeAlt(props.alt) : props.alt} />
  );
}

export default {
  ...MDXComponents,
  img: ImgWithAlt,
  details: Details,
  // The title, with "Copy page" and "View as Markdown" beside it on docs pages.
  h1: PageTitle,
  CodePair,
  CoursesBanner,
  EnterpriseBanner,
  ShopBanner,
  MonospaceFontPreload,
};

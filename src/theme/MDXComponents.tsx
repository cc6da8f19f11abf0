/**
 * The MDX components available on every page without an import: the stock
 * ones plus `CodePair`, which the remark plugin `src/remark/codePair.ts`
 * emits for marked code fences, and the promotional banners pages place
 * by hand (`<EnterpriseBanner />`, `<ShopBanner />`, `<CoursesBanner />`).
 * The `# Title` of a docs page renders with "Copy page" and "View as
 * Markdown" beside it (`PageTitle`, src/components/CopyPage).
 * `MonospaceFontPreload` is what src/remark/monospaceFontPreload.ts adds
 * to pages with code.
 */
import MDXComponents from '@theme-original/MDXComponents';
import CodePair from '@site/src/components/CodePair';
import {PageTitle} from '@site/src/components/CopyPage';
import {MonospaceFontPreload} from '@site/src/components/FontPreload';
import CoursesBanner from '@site/src/components/CoursesBanner';
import EnterpriseBanner from '@site/src/components/EnterpriseBanner';
import ShopBanner from '@site/src/components/ShopBanner';

export default {
  ...MDXComponents,
  // The title, with "Copy page" and "View as Markdown" beside it on docs pages.
  h1: PageTitle,
  CodePair,
  CoursesBanner,
  EnterpriseBanner,
  ShopBanner,
  MonospaceFontPreload,
};

/**
 * The MDX components available on every page without an import: the stock
 * ones plus `CodePair`, which the remark plugin `src/remark/codePair.ts`
 * emits for marked code fences.
 */
import MDXComponents from '@theme-original/MDXComponents';
import CodePair from '@site/src/components/CodePair';

export default {
  ...MDXComponents,
  CodePair,
};

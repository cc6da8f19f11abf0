/**
 * Ejected (formally unsafe: not in theme-classic's swizzle list) from @docusaurus/theme-classic
 * 3.10: the code blocks' copy and word-wrap buttons as server-rendered markup, their behaviour
 * delegated; see src/features/static-article/client/CodeButtons.tsx.
 */
export {default} from '@site/src/features/static-article/client/CodeButtons';

/**
 * Stands in for @docusaurus/theme-classic's `prism-include-languages` client module,
 * which imports Prism on every page load. The languages are registered by
 * ./Highlighted.tsx, in the highlighter's own chunk (see src/features/code/plugin.ts).
 */
export {};

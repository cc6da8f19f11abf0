/** Swizzle entry point: the docs menu's desktop column (src/features/static-article). */
export {default} from '@site/src/features/static-article/client/DocSidebarDesktop';

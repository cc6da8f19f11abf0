/** Swizzle entry point: the table of contents' desktop column (src/features/static-article). */
export {default} from '@site/src/features/static-article/client/DocItemTOCDesktop';

/** Swizzle entry point: the previous/next links, a static part (src/features/shell). */
export {DocItemPaginator as default} from '@site/src/features/shell/client/StaticShell';

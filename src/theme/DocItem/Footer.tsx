/** Swizzle entry point: a docs page's footer (src/features/shell). */
export {default} from '@site/src/features/shell/client/DocItemFooter';

/** Swizzle entry point: a docs page's article (src/features/shell). */
export {default} from '@site/src/features/shell/client/DocItemContent';

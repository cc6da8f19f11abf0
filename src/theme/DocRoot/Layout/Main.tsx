/** Swizzle entry point: the docs main column (src/features/shell). */
export {default} from '@site/src/features/shell/client/DocRootLayoutMain';

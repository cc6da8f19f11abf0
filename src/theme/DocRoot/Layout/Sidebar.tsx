/** Swizzle entry point: the docs sidebar (src/features/shell). */
export {default} from '@site/src/features/shell/client/DocRootLayoutSidebar';

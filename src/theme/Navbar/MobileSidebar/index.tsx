/** Swizzle entry point: the phone menu's drawer, rendered once the page is idle (src/features/shell). */
export {default} from '@site/src/features/shell/client/NavbarMobileSidebar';

/** Swizzle entry point: the navbar item types (src/features/shell). */
export {default} from '@site/src/features/shell/client/NavbarItemTypes';

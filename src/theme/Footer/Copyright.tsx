/** Swizzle entry point: the footer's copyright line (src/features/shell). */
export {default} from '@site/src/features/shell/client/FooterCopyright';

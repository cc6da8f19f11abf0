/** Swizzle entry point: site-wide providers and shared head tags (src/features/shell). */
export {default} from '@site/src/features/shell/client/Root';

/** Swizzle entry point: the 404 page's content (src/features/shell). */
export {default} from '@site/src/features/shell/client/NotFoundContent';

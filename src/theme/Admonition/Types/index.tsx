/** Swizzle entry point: the callout kinds (src/features/markdown). */
export {default} from '@site/src/features/markdown/client/AdmonitionTypes';

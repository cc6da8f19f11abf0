/** Swizzle entry point: a code token with token classes (src/features/code). */
export {default} from '@site/src/features/code/client/CodeBlockLineToken';

/** Swizzle entry point: a code line with token classes (src/features/code). */
export {default} from '@site/src/features/code/client/CodeBlockLine';

/** Swizzle entry point: code blocks (src/features/code). */
export {default} from '@site/src/features/code/client/CodeBlock';

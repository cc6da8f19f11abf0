/** Swizzle entry point: code block content, highlighted without Prism on load (src/features/code). */
export {default} from '@site/src/features/code/client/CodeBlockContent';

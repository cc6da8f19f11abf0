/** Swizzle entry point (ejected, unsafe): code block buttons as markup, behaviour delegated (src/features/code). */
export {default} from '@site/src/features/code/client/CodeButtons';

/** Swizzle entry point: the components pages use without an import (src/features/markdown). */
export {default} from '@site/src/features/markdown/client/MDXComponents';

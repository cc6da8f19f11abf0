/** Swizzle entry point: the header search (src/features/search). */
export {default} from '@site/src/features/search/client/SearchBar';

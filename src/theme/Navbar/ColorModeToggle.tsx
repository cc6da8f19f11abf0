/** Swizzle entry point: the header's colour mode button (src/features/shell). */
export {default} from '@site/src/features/shell/client/ColorModeToggle';

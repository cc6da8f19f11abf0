/** Swizzle entry point: the header's logo, a static part (src/features/shell). */
export {NavbarLogo as default} from '@site/src/features/shell/client/StaticShell';

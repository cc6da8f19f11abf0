/** Swizzle entry point: menu groups that open by route (src/features/shell). */
export {default} from '@site/src/features/shell/client/SidebarCategory';

/** Swizzle entry point: the breadcrumbs, a static part (src/features/shell). */
export {DocBreadcrumbs as default} from '@site/src/features/shell/client/StaticShell';

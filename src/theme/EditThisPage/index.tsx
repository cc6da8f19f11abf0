/** Swizzle entry point: "Edit this page" and "Report a problem" (src/features/feedback). */
export {default} from '@site/src/features/feedback/client/EditThisPage';

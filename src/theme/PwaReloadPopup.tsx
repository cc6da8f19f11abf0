/** Swizzle entry point: the "New version available" prompt (src/features/offline). */
export {default} from '@site/src/features/offline/client/PwaReloadPopup';

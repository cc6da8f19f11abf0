/** The `/offline` page (src/features/offline). */
export {default} from '@site/src/features/offline/client/OfflinePage';

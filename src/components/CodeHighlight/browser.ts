/**
 * `@nest/code-highlighter` in the browser bundle: the highlighter as a lazy component,
 * in its own chunk (see ../../plugins/deferLibraries.ts). The chunk is prefetched (a
 * low-priority download, not run) so that the next page's blocks highlight at once.
 */
import {lazy} from 'react';

export const preload = () => import(/* webpackPrefetch: true */ './Highlighted');

export default lazy(preload);

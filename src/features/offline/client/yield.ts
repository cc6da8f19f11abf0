/**
 * Asks an installing service worker to hold its downloads while the reader searches (the worker
 * side is `yieldingInstall` in ./sw.js; the rule, `installPause` in ../logic.js).
 */
import {yieldMessage, yieldMs} from '../logic';

export function askToYield(worker: ServiceWorker | null | undefined): void {
  worker?.postMessage({type: yieldMessage, ms: yieldMs});
}

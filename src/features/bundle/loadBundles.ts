/**
 * The bundle loader at the end of every page's body (written into the page template by
 * ./node/ssrTemplate.ts, which explains why the bundles load after the first paint). Browser
 * code that the server serialises into the page with `Function.prototype.toString`, so it sits
 * here, among the feature's code for both sides, and uses only its arguments.
 */

/** What the loader leaves on `window.__bundles`: the browser tests wait for it after a load. */
export type BundleState = 'waiting' | 'loading' | 'loaded' | 'failed';

type PaintObserver = {
  observe(options: {type: string; buffered: boolean}): void;
  disconnect(): void;
};
type LoaderWindow = Pick<Window, 'requestAnimationFrame' | 'setTimeout'> & {
  __bundles?: BundleState;
  PerformanceObserver?: {
    new (callback: (list: {getEntries(): readonly unknown[]}) => void): PaintObserver;
    readonly supportedEntryTypes?: readonly string[];
  };
};
type LoaderDocument = Pick<Document, 'hidden' | 'createElement' | 'head'>;

/**
 * Requests the bundles, in order (the runtime before `main`), once the browser reports that the
 * page has been painted (the `paint` performance entry, Paint Timing). That entry carries the
 * time the frame reached the screen; a `requestAnimationFrame` callback followed by a timeout,
 * the fallback where Paint Timing is missing, can run while the first frame is still being
 * rastered on a busy CPU (seen in CI: the requests started 25 ms before the reported paint).
 * A hidden document (a background tab, a prerender) paints no frame, so it loads them at once;
 * and if no paint is reported within 3 seconds, they load anyway.
 *
 * Serialized into the page with `Function.prototype.toString`: it must use only its arguments.
 */
export function loadBundles(
  sources: readonly string[],
  doc: LoaderDocument,
  win: LoaderWindow,
): void {
  let started = false;
  win.__bundles = 'waiting';
  const start = (): void => {
    if (started) {
      return;
    }
    started = true;
    win.__bundles = 'loading';
    let pending = sources.length;
    let failed = false;
    const settle = (event: Event | string): void => {
      failed = failed || typeof event === 'string' || event.type === 'error';
      pending -= 1;
      if (pending === 0) {
        win.__bundles = failed ? 'failed' : 'loaded';
      }
    };
    if (pending === 0) {
      win.__bundles = 'loaded';
    }
    sources.forEach((source) => {
      const script = doc.createElement('script');
      script.src = source;
      // Dynamically added scripts are async by default; these must run in the order given.
      script.async = false;
      script.onload = settle;
      script.onerror = settle;
      doc.head.appendChild(script);
    });
  };
  if (doc.hidden) {
    start();
    return;
  }
  const Observer = win.PerformanceObserver;
  if (Observer && (Observer.supportedEntryTypes || []).indexOf('paint') >= 0) {
    try {
      const observer = new Observer((list) => {
        if (list.getEntries().length > 0) {
          observer.disconnect();
          start();
        }
      });
      observer.observe({type: 'paint', buffered: true});
      win.setTimeout(start, 3000);
      return;
    } catch {
      // An engine that lists `paint` but rejects these options: the frame fallback below.
    }
  }
  if (typeof win.requestAnimationFrame !== 'function') {
    start();
    return;
  }
  win.requestAnimationFrame(() => {
    win.setTimeout(start, 0);
  });
}

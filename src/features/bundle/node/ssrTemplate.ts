/**
 * The HTML page template of the production build (`ssrTemplate` in docusaurus.config.ts).
 *
 * It is Docusaurus' own template (@docusaurus/core/lib/ssg/ssgTemplate.html.js, 3.10) with one
 * change: the two bundles (the runtime and `main`) are not `<script defer>` tags in the head,
 * which the browser fetches at once and runs as soon as the document is parsed, often before
 * the first paint. An inline script at the end of the body requests them once the browser
 * reports the first paint instead (`loadBundles`). Every page is rendered in full on the server,
 * so the reader sees the whole article at the first paint; React takes over moments later.
 *
 * Measured with Lighthouse (mobile, simulated throttling, this 2-core machine): with the defer
 * tags the main bundle (~120 KiB gzip) finished loading and ran before the first paint of a fast
 * load, so the simulation counted its download and evaluation before the first text: LCP 2.0-2.5 s.
 * Requested after the first paint, it is out of that path: LCP 1.0-1.6 s on the same pages. Run to
 * run noise is large (TBT swings by 100-200 ms); `npm run bench` gives medians.
 *
 * The cost: on a first visit over a slow network the bundles start downloading once the page
 * has painted rather than alongside the style sheet, so the page becomes interactive a little
 * later. The links, the article and the code pairs (their head script and CSS) work without it.
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

/** Docusaurus' template, the bundles loaded by `loadBundles` (Eta syntax, `it` is the page). */
export const ssrTemplate = `
<!DOCTYPE html>
<html <%~ it.htmlAttributes %>>
  <head>
    <meta charset="UTF-8">
    <meta name="generator" content="Docusaurus v<%= it.version %>">
    <% it.metaAttributes.forEach((metaAttribute) => { %>
      <%~ metaAttribute %>
    <% }); %>
    <%~ it.headTags %>
    <% it.stylesheets.forEach((stylesheet) => { %>
      <link rel="stylesheet" href="<%= it.baseUrl %><%= stylesheet %>" />
    <% }); %>
  </head>
  <body <%~ it.bodyAttributes %>>
    <%~ it.preBodyTags %>
    <div id="__docusaurus"><%~ it.appHtml %></div>
    <script>(${loadBundles.toString()})(<%~ JSON.stringify(it.scripts.map((script) => it.baseUrl + script)) %>, document, window)</script>
    <%~ it.postBodyTags %>
  </body>
</html>
`;

/**
 * Docusaurus' prefetch helper (`@docusaurus/core/lib/client/prefetch.js`) called once per URL:
 * see ./prefetchOnce.ts. Browser code, bundled in place of the helper for core's
 * `docusaurus.js` only.
 */
// The helper itself, by its file path: this module's own import is not redirected.
import prefetchHelper from '@docusaurus/core/lib/client/prefetch.js';

/** `prefetch` that asks once per URL and hands later callers the first request's promise. */
export function once(prefetch: (url: string) => Promise<void>): (url: string) => Promise<void> {
  const requested = new Map<string, Promise<void>>();
  return (url) => {
    let pending = requested.get(url);
    if (!pending) {
      pending = prefetch(url);
      requested.set(url, pending);
    }
    return pending;
  };
}

export default once(prefetchHelper as (url: string) => Promise<void>);

/** Resolved to ./browser.ts or ./server.ts by src/plugins/deferLibraries.ts. */
declare module '@nest/code-highlighter' {
  import type ContentType from '@theme/CodeBlock/Content';

  /** Loads the highlighter chunk (browser) or resolves at once (server). */
  export const preload: () => Promise<unknown>;
  const Highlighted: typeof ContentType;
  export default Highlighted;
}

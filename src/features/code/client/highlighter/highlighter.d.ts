/** Resolved to ./browser.ts or ./server.ts by src/features/code/plugin.ts. */
declare module '@nest/code-highlighter' {
  import type ContentType from '@theme/CodeBlock/Content';

  /** Browser: loads the highlighter after the reader's first pointer, touch or key event. */
  export function preloadOnIntent(): void;
  const Highlighted: typeof ContentType;
  export default Highlighted;
}

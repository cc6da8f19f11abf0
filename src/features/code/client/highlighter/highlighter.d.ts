/** Resolved to ./browser.ts or ./server.ts by src/features/code/plugin.ts. */
declare module '@nest/code-highlighter' {
  import type ContentType from '@theme/CodeBlock/Content';

  const Highlighted: typeof ContentType;
  export default Highlighted;
}

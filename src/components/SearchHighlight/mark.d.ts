/** The part of mark.js (no bundled types) that ./lazyMark.ts uses. */
declare module 'mark.js/dist/mark.es6.js' {
  const Mark: new (root: Element) => {
    mark(keywords: string | readonly string[], options?: Record<string, unknown>): void;
    unmark(options?: Record<string, unknown>): void;
  };
  export default Mark;
}

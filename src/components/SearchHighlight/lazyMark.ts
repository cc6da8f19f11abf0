/**
 * Stands in for mark.js in the local search plugin (see src/plugins/deferLibraries.ts).
 * The plugin creates a `Mark` over the article on every page load and clears old marks
 * (`unmark()`, a walk over the whole article) even when there is nothing to highlight;
 * mark.js also sits in the main bundle. This class loads mark.js only when a page was
 * opened from a search result (`?_highlight=`) or still carries marks.
 */
type Options = Record<string, unknown>;

interface MarkInstance {
  mark(keywords: string | readonly string[], options?: Options): void;
  unmark(options?: Options): void;
}

// The ES6 build of the same library: a request other than the one this module replaces.
const load = async (): Promise<new (root: Element) => MarkInstance> =>
  (await import('mark.js/dist/mark.es6.js')).default;

export default class LazyMark implements MarkInstance {
  constructor(private readonly root: Element) {}

  mark(keywords: string | readonly string[], options?: Options): void {
    if (keywords.length === 0) return;
    void load().then((Mark) => new Mark(this.root).mark(keywords, options));
  }

  unmark(options?: Options): void {
    // mark.js tags every element it adds with data-markjs.
    if (!this.root.querySelector('[data-markjs]')) return;
    void load().then((Mark) => new Mark(this.root).unmark(options));
  }
}

/**
 * The server's article, read from the document while React hydrates it (see ../README.md).
 *
 * `StaticArticle` calls this in the render of its first client pass, before React reaches the
 * article's element, so the string is the DOM as React is about to see it: what the server sent,
 * plus anything that changed it before hydration (nothing of ours does; a browser extension
 * might).
 */

/** The attribute that marks the article's element, its value the page's permalink. */
export const articleAttribute = 'data-static-article';

export interface ServerArticle {
  /** The permalink the server rendered the article for. */
  readonly page: string;
  /**
   * The element's `innerHTML`, as `dangerouslySetInnerHTML` takes it. One object for the life of
   * the element: React sets `innerHTML` again only if `__html` changes between two renders.
   */
  readonly html: {readonly __html: string};
  /** Whether the article shows code (its font preload then stays in the head). */
  readonly hasCode: boolean;
}

/**
 * The server-rendered article of `page`, or null when the document has none for it: on the
 * server, in `docusaurus start` (rendered in the browser, no server markup), or if the element
 * belongs to another page.
 */
export function serverArticle(page: string): ServerArticle | null {
  if (typeof document === 'undefined') return null;
  const element = document.querySelector(`[${articleAttribute}]`);
  if (!(element instanceof HTMLElement) || element.getAttribute(articleAttribute) !== page) {
    return null;
  }
  // An element with no content is not a server render worth keeping (the client renders it).
  if (!element.firstElementChild) return null;
  return {
    page,
    html: {__html: element.innerHTML},
    hasCode: element.querySelector('code') !== null,
  };
}

/**
 * The server's article, taken from the document while React hydrates it (see ../README.md).
 *
 * `StaticArticle` calls this in the render of its first client pass, before React reaches the
 * article's element: it keeps the element and its child nodes (no copy, no serialization).
 */

/** The attribute that marks the article's element, its value the page's permalink. */
export const articleAttribute = 'data-static-article';

/**
 * What the element renders as `dangerouslySetInnerHTML`: never written while React adopts the
 * element, nor later, because it is this one object in every render (React 19 sets innerHTML
 * again whenever the prop is another object). Its children are the server's nodes.
 */
export const serverNodes: {readonly __html: string} = {__html: ''};

export interface ServerArticle {
  /** The permalink the server rendered the article for. */
  readonly page: string;
  /** The server's element, which hydration adopts. */
  readonly element: HTMLElement;
  /** Its child nodes, to move into a new element if React ever renders one instead. */
  readonly nodes: readonly ChildNode[];
  /** The element's `dangerouslySetInnerHTML` (always `serverNodes`). */
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
    element,
    nodes: Array.from(element.childNodes),
    html: serverNodes,
    hasCode: element.querySelector('code') !== null,
  };
}

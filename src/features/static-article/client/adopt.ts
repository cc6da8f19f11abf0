/**
 * The static article's mechanism (./StaticArticle.tsx): while React hydrates, the article's
 * element is rendered with the server's nodes adopted (why that holds under React 19.2:
 * ../README.md).
 */
import {useEffect, useLayoutEffect, useRef, useState, type RefObject} from 'react';
import {useHistory, useLocation} from '@docusaurus/router';
import useIsBrowser from '@docusaurus/useIsBrowser';
import {delegateLinks} from './links';
import {serverHtmlIsThisPage} from './serverPage';

/** The attribute that marks the article's element, its value the page's permalink. */
export const articleAttribute = 'data-static-article';

/**
 * What an adopted element renders as `dangerouslySetInnerHTML`: never written while React
 * adopts the element, nor later, because it is this one object in every render (React 19 sets
 * innerHTML again whenever the prop is another object). Its children are the server's nodes.
 */
export const serverNodes: {readonly __html: string} = {__html: ''};

interface Kept {
  /** The path the server rendered the element for. */
  readonly path: string;
  readonly element: Element;
  /** Its child nodes, to move into a new element if React ever renders one instead. */
  readonly nodes: readonly ChildNode[];
}

export interface Adoption {
  /** The server's element while it is adopted, else null (render the children). */
  readonly element: Element | null;
  /** For the rendered element: the server's nodes move into it if it is not the server's. */
  readonly ref: RefObject<HTMLElement | null>;
}

/**
 * Adopts the element `find` returns (called only in the render that hydrates this page's server
 * HTML, with the server's element having content, or null) until the location's path changes;
 * then, for good, the caller renders its children (in a new element: give the two forms
 * different keys).
 *
 * While adopted, the element's links behave as Docusaurus' `Link` makes them (./links.ts). If
 * hydration falls back to a client render (React error #418: something elsewhere did not match),
 * React creates a new, empty element: the kept nodes move into it before the browser paints.
 */
export function useAdoption(find: () => Element | null): Adoption {
  // Docusaurus' `useIsBrowser()` is false in the browser only in the first render: the one that
  // hydrates, or the one that renders from scratch when the server's HTML is another page's
  // (./serverPage.ts: nothing of it is adopted) or absent (`docusaurus start`: `find` finds
  // nothing).
  const hydrating = !useIsBrowser() && serverHtmlIsThisPage;
  const {pathname} = useLocation();
  const history = useHistory();
  const [kept, setKept] = useState<Kept | null>(() => {
    const element = hydrating ? find() : null;
    return element?.firstChild
      ? {path: pathname, element, nodes: Array.from(element.childNodes)}
      : null;
  });
  // Another page: React renders the element from now on.
  if (kept && kept.path !== pathname) setKept(null);
  const adopted = kept !== null && kept.path === pathname ? kept : null;
  const ref = useRef<HTMLElement>(null);

  useLayoutEffect(() => {
    const current = ref.current;
    if (!adopted || !current || current === adopted.element) return;
    current.replaceChildren(...adopted.nodes);
  }, [adopted]);

  useEffect(() => {
    if (!adopted || !ref.current) return undefined;
    return delegateLinks(ref.current, history);
  }, [adopted, history]);

  return {element: adopted?.element ?? null, ref};
}

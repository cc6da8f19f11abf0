/**
 * A static part of the shell: markup the server renders and the first load never needs React
 * for (the header's logo and links, the social icons, the panels of "More" and of the version
 * menu, the breadcrumbs, the previous/next links, the version note, the sponsors).
 *
 * While React hydrates the server's page, this renders its element with the server's nodes
 * adopted, by the static article's mechanism (../README.md): React claims the element and
 * builds no fiber and runs no component under it. The element's own attributes given here
 * (`id`, `hidden`, `aria-*`, handlers) stay React's, so a panel still opens and closes. Its
 * links behave as Docusaurus' `Link` makes them (client-side navigation, preload, prefetch:
 * ./links.ts). The part stays adopted while the location's path is the one the server rendered:
 * its links' active state and targets may depend on it, so once the reader goes to another page
 * it renders its children with React, for good. A later mount (another page's part, the phone
 * menu's drawer) or a page without server markup (`docusaurus start`) renders its children.
 *
 * If hydration falls back to a client render (React error #418: something elsewhere did not
 * match), React creates a new, empty element: the server's nodes are moved into it before the
 * browser paints, as the article's are.
 *
 * Each part has a name, unique in the page (`data-static-part`), by which it finds its server
 * element.
 */
import React, {
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type HTMLAttributes,
  type ReactNode,
} from 'react';
import {useHistory, useLocation} from '@docusaurus/router';
import useIsBrowser from '@docusaurus/useIsBrowser';
import {serverNodes} from './adopt';
import {delegateLinks} from './links';
import styles from './StaticPart.module.css';

/** The attribute that names a part's element. */
export const partAttribute = 'data-static-part';

export interface Props extends Omit<HTMLAttributes<HTMLElement>, 'children'> {
  /** The part's name, unique in a page. */
  readonly name: string;
  /**
   * The element (default a `div` with `display: contents`, which makes no box: its children
   * lay out as if they were its parent's).
   */
  readonly as?: 'div' | 'span' | 'ul' | 'nav';
  /** Adopt only if this holds while the page hydrates (default: always). */
  readonly adoptIf?: () => boolean;
  readonly children: ReactNode;
}

interface Adopted {
  /** The path the server rendered the part for. */
  readonly path: string;
  readonly element: Element;
  readonly nodes: readonly ChildNode[];
}

/** The server's element of the part `name`, with content, or null. */
function serverPart(name: string): Element | null {
  const element = document.querySelector(`[${partAttribute}="${name}"]`);
  return element?.firstChild ? element : null;
}

export default function StaticPart({
  name,
  as: Tag = 'div',
  adoptIf,
  className,
  children,
  ...attributes
}: Props): ReactNode {
  // Docusaurus' `useIsBrowser()` is false in the browser only in the render that hydrates.
  const hydrating = !useIsBrowser() && typeof document !== 'undefined';
  const {pathname} = useLocation();
  const history = useHistory();
  const [adopted, setAdopted] = useState<Adopted | null>(() => {
    const element = hydrating && (adoptIf?.() ?? true) ? serverPart(name) : null;
    return element ? {path: pathname, element, nodes: Array.from(element.childNodes)} : null;
  });
  // Another page: React renders the part from now on (a new element, by the key below).
  if (adopted && adopted.path !== pathname) setAdopted(null);
  const isAdopted = adopted !== null && adopted.path === pathname;
  const element = useRef<HTMLElement>(null);

  useLayoutEffect(() => {
    const current = element.current;
    if (!isAdopted || !current || current === adopted.element) return;
    // A client render after a failed hydration: the server's nodes move into the new element.
    current.replaceChildren(...adopted.nodes);
  }, [isAdopted, adopted]);

  useEffect(() => {
    if (!isAdopted || !element.current) return undefined;
    return delegateLinks(element.current, history);
  }, [isAdopted, history]);

  const props = {
    ...attributes,
    className: className ?? (Tag === 'div' ? styles.contents : undefined),
    [partAttribute]: name,
  };
  if (isAdopted) {
    return (
      <Tag
        key="adopted"
        ref={element as React.Ref<never>}
        {...props}
        // The same object in every render, so React never sets innerHTML (./adopt.ts).
        dangerouslySetInnerHTML={serverNodes}
        // A development build compares `__html` with the server's innerHTML: they differ on
        // purpose, and only for this element's own props.
        suppressHydrationWarning
      />
    );
  }
  return (
    <Tag key="rendered" {...props}>
      {children}
    </Tag>
  );
}

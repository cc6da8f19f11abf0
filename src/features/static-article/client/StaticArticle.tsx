/**
 * The element that holds a docs page's article (the Markdown content, title to last paragraph).
 *
 * On the server, and on every client-side navigation, it renders the article with React, as
 * usual. On the first load in the browser, while React hydrates the server's page, it renders the
 * same element with `dangerouslySetInnerHTML` instead of children: React claims the element and
 * never descends into it, so the article's nodes stay the server's, no fiber is built for them,
 * and none of the article's components run. Why that holds under React 19.2, and what would
 * break it: ../README.md. The e2e test tests/e2e/static-article.spec.ts fails if it stops
 * holding.
 *
 * What the article's components did in the browser is done without them: links here
 * (./links.ts), code pairs, code buttons, "Copy page" and diagrams by delegated listeners that
 * serve rendered articles too (./behaviours.ts); the code font's preload, which a `<Head>` inside
 * the article keeps in the head, is rendered here instead.
 */
import React, {useEffect, useLayoutEffect, useRef, useState, type ReactNode} from 'react';
import {useHistory} from '@docusaurus/router';
import useIsBrowser from '@docusaurus/useIsBrowser';
import {MonospaceFontPreload} from '@site/src/features/fonts/client/FontPreload';
import {articleAttribute, serverArticle} from './adopt';
import {delegateLinks} from './links';

export interface Props {
  /** The page's permalink: the server's article is adopted only for this page. */
  readonly page: string;
  /** Attributes of the element (`data-*`), the same in every render. */
  readonly attributes?: Readonly<Record<`data-${string}`, string>>;
  /** The article, rendered by React when it is not adopted. */
  readonly children: ReactNode;
}

export default function StaticArticle({page, attributes, children}: Props): ReactNode {
  // Docusaurus' `useIsBrowser()` is false in the browser only in the first render: while the
  // server's page hydrates (or, in `docusaurus start`, where serverArticle finds no markup).
  const hydrating = !useIsBrowser() && typeof window !== 'undefined';
  // Decided once per mount: a remount (the next page) renders with React.
  const [adopted] = useState(() => (hydrating ? serverArticle(page) : null));
  const element = useRef<HTMLDivElement>(null);
  const history = useHistory();
  const isStatic = adopted !== null && adopted.page === page;

  useLayoutEffect(() => {
    const current = element.current;
    if (!isStatic || !current || current === adopted.element) return;
    // React created a new element instead of adopting the server's: it renders the whole page
    // again when hydration fails somewhere (React error #418). The server's nodes move into it,
    // before the browser paints, so the article stays (the very same nodes).
    current.replaceChildren(...adopted.nodes);
  }, [isStatic, adopted]);

  useEffect(() => {
    if (!isStatic || !element.current) return undefined;
    return delegateLinks(element.current, history);
  }, [isStatic, history]);

  const marker = {[articleAttribute]: page};
  if (isStatic) {
    return (
      <>
        {adopted.hasCode ? <MonospaceFontPreload /> : null}
        <div
          key="static"
          ref={element}
          {...attributes}
          {...marker}
          // The same object in every render, so React never sets innerHTML (./adopt.ts).
          dangerouslySetInnerHTML={adopted.html}
          // A development build compares `__html` with the server's innerHTML: they differ on
          // purpose (the nodes are kept, not a copy), and only for this element's own props.
          suppressHydrationWarning
        />
      </>
    );
  }
  return (
    <div key="rendered" {...attributes} {...marker}>
      {children}
    </div>
  );
}

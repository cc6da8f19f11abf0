/**
 * The element that holds a docs page's article (the Markdown content, title to last paragraph).
 *
 * On the server, and on every client-side navigation, it renders the article with React, as
 * usual. On the first load in the browser, while React hydrates the server's page, it renders the
 * same element with `dangerouslySetInnerHTML` instead of children: React claims the element and
 * never descends into it, so the article's nodes stay the server's, no fiber is built for them,
 * and none of the article's components run (./adopt.ts). Why that holds under React 19.2, and
 * what would break it: ../README.md. The e2e test tests/e2e/static-article.spec.ts fails if it
 * stops holding.
 *
 * What the article's components did in the browser is done without them: links by ./adopt.ts
 * (./links.ts), code pairs, code buttons, "Copy page" and diagrams by delegated listeners that
 * serve rendered articles too (./behaviours.ts); the code font's preload, which a `<Head>` inside
 * the article keeps in the head, is rendered here instead.
 */
import React, {useMemo, type ReactNode} from 'react';
import {MonospaceFontPreload} from '@site/src/features/fonts/client/FontPreload';
import {articleAttribute, serverNodes, useAdoption} from './adopt';

export interface Props {
  /** The page's permalink: the server's article is adopted only for this page. */
  readonly page: string;
  /** Attributes of the element (`data-*`), the same in every render. */
  readonly attributes?: Readonly<Record<`data-${string}`, string>>;
  /** The article, rendered by React when it is not adopted. */
  readonly children: ReactNode;
}

/** The server's article element, if it is this page's (not on the server, nor in `docusaurus start`). */
function serverArticle(page: string): Element | null {
  const element = document.querySelector(`[${articleAttribute}]`);
  return element?.getAttribute(articleAttribute) === page ? element : null;
}

export default function StaticArticle({page, attributes, children}: Props): ReactNode {
  const {element, ref} = useAdoption(() => serverArticle(page));
  const hasCode = useMemo(() => element?.querySelector('code') != null, [element]);
  const marker = {[articleAttribute]: page};
  if (element) {
    return (
      <>
        {hasCode ? <MonospaceFontPreload /> : null}
        <div
          key="static"
          ref={ref as React.Ref<HTMLDivElement>}
          {...attributes}
          {...marker}
          // The same object in every render, so React never sets innerHTML (./adopt.ts).
          dangerouslySetInnerHTML={serverNodes}
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

/**
 * After an unknown address: the 404 page sends the reader to the documentation home (as the
 * specification asks), with the address in the history entry's state (nothing in the URL, nothing
 * stored). Here, on arrival, the reader learns which address was not found and gets the closest
 * pages by search: the words of its last segment first ("/techniques/cachng" → "cachng"), all of
 * its words when those find nothing.
 */
import React, {type ReactNode, useEffect, useState} from 'react';
import Link from '@docusaurus/Link';
import Translate from '@docusaurus/Translate';
import {useLocation} from '@docusaurus/router';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import {queriesFor} from './queries';
import styles from './styles.module.css';

import type {NotFoundState} from './queries';

export type {NotFoundState};

interface Page {
  url: string;
  title: string;
  section: string;
}

export default function NotFoundNotice(): ReactNode {
  const location = useLocation<Partial<NotFoundState> | undefined>();
  const missing = location.state?.notFound;
  const {
    siteConfig: {baseUrl},
  } = useDocusaurusContext();
  const [pages, setPages] = useState<Page[] | null>(null);

  useEffect(() => {
    if (!missing) return undefined;
    let cancelled = false;
    (async () => {
      const {suggest} = await import('@site/src/features/search/client/engine');
      for (const query of queriesFor(missing)) {
        const found = await suggest(baseUrl, query, {limit: 5});
        if (found.items.length > 0) {
          if (!cancelled) {
            setPages(found.items.map((item) => ({...item, url: item.url.split('?')[0]})));
          }
          return;
        }
      }
      if (!cancelled) setPages([]);
    })().catch(() => {
      if (!cancelled) setPages([]);
    });
    return () => {
      cancelled = true;
    };
  }, [missing, baseUrl]);

  if (!missing) return null;
  return (
    <aside className={styles.notice} role="status">
      <p className={styles.lead}>
        <Translate id="site.notFound.notice" values={{address: <code>{missing}</code>}}>
          {'There is no page at {address}, so here is the introduction.'}
        </Translate>
      </p>
      {pages && pages.length > 0 && (
        <>
          <p>
            <Translate id="site.notFound.closest">The closest pages:</Translate>
          </p>
          <ul>
            {pages.map((page) => (
              <li key={page.url}>
                <Link to={page.url}>{page.title}</Link>{' '}
                <span className={styles.section}>{page.section}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </aside>
  );
}

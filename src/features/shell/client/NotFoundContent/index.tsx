/**
 * Any unknown path sends the reader to the documentation home. Readers with
 * JavaScript are redirected at once, and the home page says which address was
 * not found (src/features/shell/client/NotFoundNotice, from the history entry's state).
 * The static 404 page keeps a visible link for everyone else; it appears only
 * after a moment (styles.module.css), so the redirect does not flash it.
 * (Ejected: `NotFound/Content` is a safe swizzle, and none of the original's
 * text applies.)
 */
import React, {useEffect, type ReactNode} from 'react';
import clsx from 'clsx';
import Link from '@docusaurus/Link';
import Translate from '@docusaurus/Translate';
import {useHistory, useLocation} from '@docusaurus/router';
import Heading from '@theme/Heading';
import type {Props} from '@theme/NotFound/Content';
import type {NotFoundState} from '@site/src/features/shell/client/NotFoundNotice';
import styles from './styles.module.css';

export default function NotFoundContent({className}: Props): ReactNode {
  const history = useHistory();
  const {pathname, search, hash} = useLocation();
  useEffect(() => {
    const state: NotFoundState = {notFound: `${pathname}${search}${hash}`};
    history.replace('/', state);
  }, [history, pathname, search, hash]);
  return (
    <main className={clsx('container margin-vert--xl', styles.late, className)}>
      <Heading as="h1">
        <Translate id="theme.NotFound.title">Page not found</Translate>
      </Heading>
      <p>
        <Translate
          id="site.notFound.redirect"
          values={{
            home: (
              <Link to="/">
                <Translate id="site.notFound.home">documentation home</Translate>
              </Link>
            ),
          }}
        >
          {'This page does not exist. Taking you to the {home}.'}
        </Translate>
      </p>
    </main>
  );
}

/**
 * Any unknown path sends the reader to the documentation home. Readers with
 * JavaScript are redirected at once; the static 404 page keeps a visible link
 * for everyone else. (Ejected: `NotFound/Content` is a safe swizzle, and none
 * of the original's text applies.)
 */
import React, {useEffect, type ReactNode} from 'react';
import clsx from 'clsx';
import Link from '@docusaurus/Link';
import Translate from '@docusaurus/Translate';
import {useHistory} from '@docusaurus/router';
import Heading from '@theme/Heading';
import type {Props} from '@theme/NotFound/Content';

export default function NotFoundContent({className}: Props): ReactNode {
  const history = useHistory();
  useEffect(() => {
    history.replace('/');
  }, [history]);
  return (
    <main className={clsx('container margin-vert--xl', className)}>
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

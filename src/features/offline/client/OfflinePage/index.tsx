/**
 * `/offline`: what a reader sees, offline, on a page that was never opened or saved. The
 * service worker (src/features/offline/client/sw.js) answers such a request with this page's HTML and writes two
 * things into it first: the address asked for (`data-offline-path`) and the list of saved pages
 * (`data-offline-links`). Both are raw HTML for React (`dangerouslySetInnerHTML`), so the
 * worker's version survives if the page ever hydrates; opened directly, the page fills the list
 * itself from the same cache.
 */
import React, {useEffect, useRef, type ReactNode} from 'react';
import Head from '@docusaurus/Head';
import Link from '@docusaurus/Link';
import Translate, {translate} from '@docusaurus/Translate';
import Layout from '@theme/Layout';
import Heading from '@theme/Heading';
import {offlineLinks, pageTitle, renderLinks, requestKind, runtimeCache} from '../../logic';
import styles from './styles.module.css';

async function savedPagesHtml(): Promise<string> {
  if (!('caches' in window) || !(await caches.has(runtimeCache))) return '';
  const cache = await caches.open(runtimeCache);
  const pages: {route: string; title: string}[] = [];
  for (const request of await cache.keys()) {
    const route = new URL(request.url).pathname;
    if (requestKind(route, 'cors') !== 'page') continue;
    const response = await cache.match(request);
    if (!response?.headers.get('content-type')?.includes('text/html')) continue;
    pages.push({route, title: pageTitle(await response.text(), route)});
  }
  return renderLinks(offlineLinks(pages));
}

export default function Offline(): ReactNode {
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    const element = list.current;
    if (!element || element.children.length > 0) return;
    savedPagesHtml()
      .then((html) => {
        if (html) element.innerHTML = html;
      })
      .catch(() => undefined);
  }, []);
  const address = translate({id: 'site.offline.thisPage', message: 'This page'});
  return (
    <Layout
      title={translate({id: 'site.offline.title', message: 'Page not saved for offline reading'})}
      description={translate({
        id: 'site.offline.description',
        message: 'Shown offline for a documentation page that was not saved on this device.',
      })}
    >
      <Head>
        <meta name="robots" content="noindex" />
      </Head>
      <main className={`container margin-vert--xl ${styles.offline}`}>
        <Heading as="h1">
          <Translate id="site.offline.heading">
            This page is not saved for offline reading
          </Translate>
        </Heading>
        <p>
          <Translate
            id="site.offline.explanation"
            values={{
              address: (
                <code data-offline-path="true" dangerouslySetInnerHTML={{__html: address}} />
              ),
            }}
          >
            {
              'You are offline, and {address} was never opened or saved on this device. Reconnect to read it.'
            }
          </Translate>
        </p>
        <Heading as="h2">
          <Translate id="site.offline.savedHeading">Pages you can read offline</Translate>
        </Heading>
        <ul
          className={styles.links}
          ref={list}
          data-offline-links="true"
          dangerouslySetInnerHTML={{__html: ''}}
        />
        <p>
          <Translate
            id="site.offline.saveAll"
            values={{
              action: (
                <strong>
                  <Translate id="site.offline.saveAllAction">
                    Save all docs for offline reading
                  </Translate>
                </strong>
              ),
              home: (
                <Link to="/">
                  <Translate id="site.offline.home">documentation home</Translate>
                </Link>
              ),
            }}
          >
            {
              'To read every page offline, choose {action} at the bottom of any page while online. Back to the {home}.'
            }
          </Translate>
        </p>
      </main>
    </Layout>
  );
}

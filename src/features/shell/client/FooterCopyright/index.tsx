/**
 * The footer's copyright line. The year range ends at the reader's current
 * year, computed in the browser (the build-time year is only the first paint).
 */
import React, {type ReactNode} from 'react';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import useIsBrowser from '@docusaurus/useIsBrowser';
import Link from '@docusaurus/Link';
import Translate from '@docusaurus/Translate';
import {archivedVersion} from '@site/src/features/versions/versions';
import OfflineSave from '@site/src/features/offline/client/OfflineSave';
import styles from './styles.module.css';

export default function FooterCopyright(): ReactNode {
  const {siteConfig} = useDocusaurusContext();
  // The server render (and hydration) use the build year; the browser then shows its own.
  const isBrowser = useIsBrowser();
  const year = isBrowser ? new Date().getFullYear() : Number(siteConfig.customFields?.buildYear);
  return (
    <div className={`footer__copyright ${styles.copyright}`}>
      <OfflineSave />
      <p>
        <Translate
          id="site.footer.copyright"
          values={{year: <span data-current-year>{year}</span>}}
        >
          {'© 2017-{year} MIT by Kamil Myśliwiec. Designed by Kamil Myśliwiec.'}
        </Translate>
      </p>
      <p>
        <Translate id="site.footer.license">
          Documentation content released under the MIT license.
        </Translate>{' '}
        <Link href={archivedVersion('v7').url}>
          <Translate id="site.footer.v7">Version 7</Translate>
        </Link>
      </p>
    </div>
  );
}

/**
 * The line above every docs page that says which NestJS version it documents, with the
 * migration guide (v7 to v8) and the same page in the framework's current docs. Outside the
 * part the search indexes (src/theme/DocItem/Content); left out of printouts (src/features/print).
 */
import React, {type ReactNode} from 'react';
import Link from '@docusaurus/Link';
import {useLocation} from '@docusaurus/router';
import Translate from '@docusaurus/Translate';
import {latestMajor, latestUrl, siteMajor} from '../versions';
import styles from './VersionNote.module.css';

export default function VersionNote(): ReactNode {
  const {pathname} = useLocation();
  return (
    <p className={styles.note} data-version-note="">
      <Translate
        id="site.versionNote.text"
        values={{
          major: siteMajor,
          migration: (
            <Link to="/migration-guide">
              <Translate id="site.versionNote.migration">migration guide</Translate>
            </Link>
          ),
          latest: (
            <Link href={latestUrl(pathname)}>
              <Translate id="site.versionNote.latest" values={{latestMajor}}>
                {'this page for v{latestMajor}'}
              </Translate>
            </Link>
          ),
        }}
      >
        {
          'You are reading the docs for NestJS {major}. Coming from v7: the {migration}. Newest release: {latest}.'
        }
      </Translate>
    </p>
  );
}

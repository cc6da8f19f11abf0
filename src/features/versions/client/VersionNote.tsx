/**
 * The line above every docs page that says which NestJS version it documents, with the
 * migration guide (v7 to v8) and the same page in the framework's current docs. Outside the
 * part the search indexes (src/theme/DocItem/Content); left out of printouts (src/features/print).
 *
 * Three phrases that never wrap inside: a narrow screen breaks the line between them only, so
 * the brand font arriving after the first paint (a little wider or narrower than its fallback)
 * does not move a word to another line, and nothing under the note moves
 * (tests/e2e/stability.spec.ts).
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
      <span className={styles.phrase}>
        <Translate id="site.versionNote.reading" values={{major: siteMajor}}>
          {'You are reading the docs for NestJS {major}.'}
        </Translate>
      </span>{' '}
      <span className={styles.phrase}>
        <Translate
          id="site.versionNote.fromV7"
          values={{
            migration: (
              <Link to="/migration-guide">
                <Translate id="site.versionNote.migration">migration guide</Translate>
              </Link>
            ),
          }}
        >
          {'From v7: {migration}.'}
        </Translate>
      </span>{' '}
      <span className={styles.phrase}>
        <Translate
          id="site.versionNote.newest"
          values={{
            latest: (
              <Link href={latestUrl(pathname)}>
                <Translate id="site.versionNote.latest" values={{latestMajor}}>
                  {'this page for v{latestMajor}'}
                </Translate>
              </Link>
            ),
          }}
        >
          {'Newest: {latest}.'}
        </Translate>
      </span>
    </p>
  );
}

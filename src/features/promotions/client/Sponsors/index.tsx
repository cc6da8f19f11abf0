/** The sponsors block under every content page, inviting readers to /support. */
import React, {type ReactNode} from 'react';
import Link from '@docusaurus/Link';
import Translate from '@docusaurus/Translate';
import Heading from '@theme/Heading';
import styles from './styles.module.css';

export default function Sponsors(): ReactNode {
  return (
    <aside className={styles.sponsors} aria-labelledby="sponsors-heading">
      <Heading as="h2" id="sponsors-heading" className={styles.title}>
        <Translate id="site.sponsors.title">Support Nest</Translate>
      </Heading>
      <p className={styles.text}>
        <Translate id="site.sponsors.text">
          Nest is an MIT-licensed open source project. It keeps growing thanks to its sponsors and
          to readers like you.
        </Translate>
      </p>
      <Link className={styles.button} to="/support">
        <Translate id="site.sponsors.cta">Become a sponsor</Translate>
      </Link>
    </aside>
  );
}

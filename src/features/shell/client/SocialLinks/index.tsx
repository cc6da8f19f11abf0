/**
 * Header icons linking to the framework's social and community pages. Icon
 * paths come from the `simple-icons` package (CC0); the globe is drawn here.
 */
import React, {type ReactNode} from 'react';
import Link from '@docusaurus/Link';
import {translate} from '@docusaurus/Translate';
import {siDiscord, siGithub, siStackoverflow, siX} from 'simple-icons';
import {links} from '@site/src/data/links';
import styles from './styles.module.css';

const globePath =
  'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm6.93 6h-2.95a15.7 15.7 0 0 0-1.38-3.56A8.03 8.03 0 0 1 18.93 8ZM12 4.04c.83 1.2 1.48 2.53 1.91 3.96h-3.82A13.9 13.9 0 0 1 12 4.04ZM4.26 14a8.2 8.2 0 0 1 0-4h3.38a16.5 16.5 0 0 0 0 4H4.26Zm.81 2h2.95c.32 1.25.78 2.45 1.38 3.56A7.99 7.99 0 0 1 5.07 16ZM8.02 8H5.07a7.99 7.99 0 0 1 4.33-3.56C8.8 5.55 8.34 6.75 8.02 8ZM12 19.96A14.1 14.1 0 0 1 10.09 16h3.82A14.1 14.1 0 0 1 12 19.96ZM14.34 14H9.66a14.7 14.7 0 0 1 0-4h4.68a14.7 14.7 0 0 1 0 4Zm.26 5.56c.6-1.11 1.06-2.31 1.38-3.56h2.95a8.03 8.03 0 0 1-4.33 3.56ZM16.36 14a16.5 16.5 0 0 0 0-4h3.38a8.2 8.2 0 0 1 0 4h-3.38Z';

export interface SocialLink {
  readonly href: string;
  readonly label: string;
  readonly path: string;
}

export const socialLinks: readonly SocialLink[] = [
  {href: links.github, label: 'GitHub', path: siGithub.path},
  {href: links.discord, label: 'Discord', path: siDiscord.path},
  {href: links.twitter, label: 'X (Twitter)', path: siX.path},
  {href: links.stackOverflow, label: 'Stack Overflow', path: siStackoverflow.path},
  {href: links.website, label: 'NestJS website', path: globePath},
];

export default function SocialLinks({mobile}: {mobile?: boolean}): ReactNode {
  return (
    <ul className={mobile ? styles.listMobile : styles.list}>
      {socialLinks.map(({href, label, path}) => (
        <li key={href}>
          <Link
            className={styles.link}
            href={href}
            aria-label={translate(
              {id: 'site.social.label', message: '{name} (opens in a new tab)'},
              {name: label},
            )}
          >
            <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
              <path d={path} fill="currentColor" />
            </svg>
          </Link>
        </li>
      ))}
    </ul>
  );
}

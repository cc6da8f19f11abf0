/**
 * "More" in the header, between 997 and 1250 px: the header links that custom.css hides there
 * for lack of room (the four top links below 1151 px, the social icons below 1251 px), so every
 * link of the header stays reachable at every width. Below 997 px they are in the drawer.
 * A disclosure button with a list of links: Escape, a click elsewhere or the focus leaving
 * closes it.
 */
import React, {type ReactNode, useId, useRef, useState} from 'react';
import clsx from 'clsx';
import Link from '@docusaurus/Link';
import {translate} from '@docusaurus/Translate';
import {useThemeConfig} from '@docusaurus/theme-common';
import {socialLinks} from '@site/src/features/shell/client/SocialLinks';
import {useDismiss} from '../useDismiss';
import styles from './styles.module.css';

interface HeaderLink {
  label: string;
  href?: string;
  to?: string;
}

export default function MoreMenu(): ReactNode {
  const {navbar} = useThemeConfig();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const id = useId();
  const topLinks = (navbar.items as (HeaderLink & {position?: string; type?: string})[]).filter(
    (item) => item.position === 'right' && !item.type && item.label && (item.href || item.to),
  );

  const onBlur = useDismiss(open, setOpen, root, button);

  return (
    <div ref={root} className={styles.more} onBlur={onBlur}>
      <button
        ref={button}
        type="button"
        className={clsx('navbar__link', styles.button)}
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((current) => !current)}
      >
        {translate({id: 'site.moreMenu.label', message: 'More'})}
        <svg viewBox="0 0 24 24" width="14" height="14" aria-hidden="true" focusable="false">
          <path d="M6 9l6 6 6-6" stroke="currentColor" strokeWidth="2" fill="none" />
        </svg>
      </button>
      <ul id={id} className={styles.menu} hidden={!open}>
        {topLinks.map((item) => (
          <li key={item.label} className={styles.topLink}>
            <Link className={styles.link} {...(item.href ? {href: item.href} : {to: item.to})}>
              {item.label}
            </Link>
          </li>
        ))}
        {socialLinks.map((item) => (
          <li key={item.href}>
            <Link className={styles.link} href={item.href}>
              <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
                <path d={item.path} fill="currentColor" />
              </svg>
              {item.label}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

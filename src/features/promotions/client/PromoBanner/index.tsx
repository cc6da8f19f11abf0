/**
 * The frame shared by the promotional banners that pages place with
 * `<EnterpriseBanner />`, `<ShopBanner />` and `<CoursesBanner />`: an
 * accent bar, an icon, the banner's own content and one call-to-action link
 * (external links open in a new tab).
 */
import React, {type ReactNode} from 'react';
import clsx from 'clsx';
import Link from '@docusaurus/Link';
import styles from './styles.module.css';

export type PromoTone = 'enterprise' | 'shop' | 'courses';

interface Props {
  readonly tone: PromoTone;
  /** A decorative icon (hidden from assistive technology). */
  readonly icon: ReactNode;
  /** The accessible name of the banner. */
  readonly label: string;
  readonly href: string;
  /** The call-to-action text. */
  readonly action: ReactNode;
  readonly children: ReactNode;
}

export default function PromoBanner({tone, icon, label, href, action, children}: Props): ReactNode {
  return (
    <aside className={clsx(styles.banner, styles[tone])} aria-label={label} data-banner={tone}>
      <div className={styles.icon} aria-hidden="true">
        {icon}
      </div>
      <div className={styles.body}>{children}</div>
      <Link className={styles.action} href={href}>
        {action}
        <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
          <path
            d="M3 8h9M8.5 4.5 12 8l-3.5 3.5"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.8"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
      </Link>
    </aside>
  );
}

/** Styles the banners' own content uses. */
export {styles as promoStyles};

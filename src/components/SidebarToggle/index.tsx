/**
 * The header button that shows or hides the side navigation: the docs
 * sidebar on desktop, the navigation drawer on narrow screens.
 */
import React, {type ReactNode} from 'react';
import {translate} from '@docusaurus/Translate';
import {useWindowSize} from '@docusaurus/theme-common';
import {useNavbarMobileSidebar} from '@docusaurus/theme-common/internal';
import {useSidebarState} from '@site/src/components/SidebarState';
import styles from './styles.module.css';

export default function SidebarToggle(): ReactNode {
  const desktop = useSidebarState();
  const drawer = useNavbarMobileSidebar();
  const isMobile = useWindowSize() === 'mobile';
  const expanded = isMobile ? drawer.shown : desktop.isOpen;
  return (
    <button
      type="button"
      className={styles.toggle}
      aria-expanded={expanded}
      aria-label={translate({id: 'site.sidebarToggle.label', message: 'Toggle side navigation'})}
      onClick={isMobile ? drawer.toggle : desktop.toggle}
    >
      <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
        <path
          d="M3 6h18M3 12h18M3 18h18"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          fill="none"
        />
      </svg>
    </button>
  );
}

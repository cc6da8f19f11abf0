/**
 * The header button that shows or hides the side navigation: the docs
 * sidebar on desktop, the navigation drawer on narrow screens.
 */
import React, {type ReactNode, useEffect, useRef} from 'react';
import {translate} from '@docusaurus/Translate';
import {useWindowSize} from '@docusaurus/theme-common';
import {useNavbarMobileSidebar} from '@docusaurus/theme-common/internal';
import {useSidebarState} from '@site/src/features/shell/client/SidebarState';
import styles from './styles.module.css';

const focusable =
  'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';

/** The focusable elements of the drawer that can be seen (a collapsed category's links cannot). */
function focusableIn(drawer: HTMLElement): HTMLElement[] {
  return Array.from(drawer.querySelectorAll<HTMLElement>(focusable)).filter(
    (element) => element.offsetParent !== null || element === document.activeElement,
  );
}

/**
 * While the drawer is open, the keyboard stays in it: focus moves into it, Tab and Shift+Tab
 * cycle through its items (not to the search box behind the overlay), Escape closes it, and the
 * focus returns to this button (WAI-ARIA dialog pattern).
 */
function useDrawerFocus(
  shown: boolean,
  close: () => void,
  button: React.RefObject<HTMLButtonElement | null>,
) {
  const closeRef = useRef(close);
  useEffect(() => {
    closeRef.current = close;
  });
  useEffect(() => {
    if (!shown) return undefined;
    const drawer = document.querySelector<HTMLElement>('.navbar-sidebar');
    if (!drawer) return undefined;
    // The drawer turns visible over a few frames (a transition), and an element cannot take the
    // focus before: try each frame, for up to half a second. The current page's link first.
    let frame = 0;
    let tries = 0;
    const focusInside = () => {
      if (drawer.contains(document.activeElement)) return;
      const current = Array.from(drawer.querySelectorAll<HTMLElement>('.menu__link--active')).pop();
      (current ?? focusableIn(drawer)[0])?.focus();
      tries += 1;
      if (!drawer.contains(document.activeElement) && tries < 30) {
        frame = window.requestAnimationFrame(focusInside);
      }
    };
    frame = window.requestAnimationFrame(focusInside);
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        closeRef.current();
        button.current?.focus();
        return;
      }
      if (event.key !== 'Tab') return;
      const items = focusableIn(drawer);
      if (items.length === 0) return;
      const first = items[0];
      const last = items[items.length - 1];
      const inside = drawer.contains(document.activeElement);
      if (event.shiftKey && (document.activeElement === first || !inside)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (document.activeElement === last || !inside)) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      window.cancelAnimationFrame(frame);
      document.removeEventListener('keydown', onKey);
    };
  }, [shown, button]);
}

/** In the drawer's own list of header items (`mobile`) there is nothing to render: it has its close button. */
export default function SidebarToggle({mobile}: {mobile?: boolean}): ReactNode {
  return mobile ? null : <HeaderToggle />;
}

function HeaderToggle(): ReactNode {
  const desktop = useSidebarState();
  const drawer = useNavbarMobileSidebar();
  const isMobile = useWindowSize() === 'mobile';
  const expanded = isMobile ? drawer.shown : desktop.isOpen;
  const button = useRef<HTMLButtonElement>(null);
  useDrawerFocus(isMobile && drawer.shown, drawer.toggle, button);
  return (
    <button
      ref={button}
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

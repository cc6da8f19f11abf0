/**
 * A desktop-only part of the shell: the docs menu's column and the table of contents' column.
 * Docusaurus renders both on the server for every width (it cannot know the reader's) and
 * unmounts them at a phone's width right after hydration, once `useWindowSize()` has read the
 * width. Hydrating them there built fibers and ran their components only to throw them away: on
 * /controllers at 412 px, 354 fibers for the menu and 70 for the table of contents, two fifths of
 * what the first load hydrated.
 *
 * So while React hydrates a page at a phone's width (the width Docusaurus calls "mobile"), this
 * renders its element with the server's nodes adopted, by the static article's mechanism
 * (../README.md): React claims the element and builds nothing under it; Docusaurus then unmounts
 * it as before. At a desktop width, in a later mount (the window widened, another page), or
 * without server markup (`docusaurus start`) it renders its children. The wrapper element has
 * `display: contents`, so the layout is the same as without it.
 */
import React, {useState, type ReactNode} from 'react';
import useIsBrowser from '@docusaurus/useIsBrowser';
import {serverNodes} from './adopt';
import styles from './DesktopPart.module.css';

/** Docusaurus' breakpoint (`useWindowSize`, theme-common): wider than this is "desktop". */
const desktopBreakpoint = 996;

const attribute = 'data-desktop-part';

export interface Props {
  /** Which part (one element per name in a page). */
  readonly name: string;
  readonly children: ReactNode;
}

function adoptAtHydration(name: string): boolean {
  if (typeof window === 'undefined' || window.innerWidth > desktopBreakpoint) return false;
  return document.querySelector(`[${attribute}="${name}"]`)?.firstElementChild != null;
}

export default function DesktopPart({name, children}: Props): ReactNode {
  // `useIsBrowser()` is false in the browser only while the server's page hydrates.
  const hydrating = !useIsBrowser();
  // Decided once per mount: Docusaurus unmounts the part at a phone's width.
  const [adopted] = useState(() => hydrating && adoptAtHydration(name));
  const marker = {[attribute]: name};
  if (adopted) {
    return (
      <div
        key="adopted"
        className={styles.part}
        {...marker}
        // The same object in every render, so React never sets innerHTML (./adopt.ts).
        dangerouslySetInnerHTML={serverNodes}
        suppressHydrationWarning
      />
    );
  }
  return (
    <div key="rendered" className={styles.part} {...marker}>
      {children}
    </div>
  );
}

/**
 * The phone menu's drawer, rendered after the page has hydrated, in idle time and in a transition,
 * instead of in the task that follows hydration.
 *
 * Docusaurus renders nothing for the drawer on the server (the window's size is unknown there)
 * and renders all of it as soon as `useWindowSize()` reads a phone's width after hydration: the
 * header's items and the whole docs menu with the current page's categories open: 238 elements
 * and 580 fibers on /controllers at 412 px, nearly half of the 1,226 fibers a first load builds
 * once the article is static (src/features/static-article). That render ran at the default
 * priority, which React renders in one piece: one long task right after hydration. Here the drawer
 * waits for the browser's first idle period (at most 2 s) and then renders in a transition, which
 * React renders in slices, yielding to input between them. A reader who opens the menu sooner
 * gets it at once (`shown` renders it). Nothing of the drawer is visible before it opens, and the
 * server's HTML is the same, so nothing shifts.
 */
import React, {startTransition, useEffect, useState, type ReactNode} from 'react';
import MobileSidebar from '@theme-original/Navbar/MobileSidebar';
import {useNavbarMobileSidebar} from '@docusaurus/theme-common/internal';

export default function DeferredMobileSidebar(): ReactNode {
  const {shouldRender, shown} = useNavbarMobileSidebar();
  const [ready, setReady] = useState(false);

  useEffect(() => {
    if (!shouldRender || ready) return undefined;
    const render = () => startTransition(() => setReady(true));
    if (typeof requestIdleCallback !== 'function') {
      const timer = setTimeout(render, 200);
      return () => clearTimeout(timer);
    }
    const handle = requestIdleCallback(render, {timeout: 2000});
    return () => cancelIdleCallback(handle);
  }, [shouldRender, ready]);

  return ready || shown ? <MobileSidebar /> : null;
}

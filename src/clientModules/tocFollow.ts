/**
 * The table of contents follows the reader. On a long page (/techniques/database: 981 px of
 * entries in a 696 px panel) the panel scrolls, but Docusaurus only moves the highlight, so in
 * the second half of the page the active entry is out of sight. When an entry becomes active,
 * the panel scrolls (itself, never the page) just enough to show it with a little context.
 */
import type {ClientModule} from '@docusaurus/types';

const activeClass = 'table-of-contents__link--active';

/** The panel's new scrollTop that shows [top, top + height) with `context` px around it, or null. */
export function followScroll(
  scrollTop: number,
  panelHeight: number,
  top: number,
  height: number,
  context = 48,
): number | null {
  if (top - context < scrollTop) return Math.max(0, top - context);
  if (top + height + context > scrollTop + panelHeight) return top + height + context - panelHeight;
  return null;
}

let observer: MutationObserver | null = null;

function follow(): void {
  observer?.disconnect();
  observer = null;
  const panel = document.querySelector<HTMLElement>('.theme-doc-toc-desktop');
  if (!panel) return;
  observer = new MutationObserver((records) => {
    for (const record of records) {
      const link = record.target as HTMLElement;
      if (!link.classList.contains(activeClass)) continue;
      if (panel.scrollHeight <= panel.clientHeight) return;
      const top =
        link.getBoundingClientRect().top - panel.getBoundingClientRect().top + panel.scrollTop;
      const next = followScroll(panel.scrollTop, panel.clientHeight, top, link.offsetHeight);
      if (next !== null) panel.scrollTo({top: next});
      return;
    }
  });
  observer.observe(panel, {subtree: true, attributes: true, attributeFilter: ['class']});
}

const clientModule: ClientModule = {
  onRouteDidUpdate() {
    // After the new page's TOC is in the DOM.
    window.requestAnimationFrame(follow);
  },
};

export default clientModule;

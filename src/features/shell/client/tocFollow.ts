/**
 * The table of contents follows the reader. On a long page (/techniques/database: 981 px of
 * entries in a 696 px panel) the panel scrolls, but Docusaurus only moves the highlight, so in
 * the second half of the page the active entry is out of sight. When an entry becomes active,
 * the panel scrolls (itself, never the page) just enough to show it with a little context.
 *
 * And at the very bottom of the page the last section is marked: Docusaurus marks the heading
 * nearest the top half of the viewport, which a short last section (followed by the footer)
 * never reaches.
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
let onScroll: (() => void) | null = null;

/** At the bottom of the page, the TOC's last entry is the active one. */
function markLastAtBottom(panel: HTMLElement): void {
  const root = document.documentElement;
  if (window.scrollY + window.innerHeight < root.scrollHeight - 2) return;
  const links = Array.from(panel.querySelectorAll<HTMLElement>('.table-of-contents__link'));
  const last = links[links.length - 1];
  if (!last || last.classList.contains(activeClass)) return;
  for (const link of links) link.classList.remove(activeClass);
  last.classList.add(activeClass);
}

function follow(): void {
  observer?.disconnect();
  observer = null;
  if (onScroll) document.removeEventListener('scroll', onScroll);
  onScroll = null;
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
  // After Docusaurus' own scroll handler has set the highlight for this scroll.
  onScroll = () => window.requestAnimationFrame(() => markLastAtBottom(panel));
  document.addEventListener('scroll', onScroll, {passive: true});
}

const clientModule: ClientModule = {
  onRouteDidUpdate() {
    // After the new page's TOC is in the DOM.
    window.requestAnimationFrame(follow);
  },
};

export default clientModule;

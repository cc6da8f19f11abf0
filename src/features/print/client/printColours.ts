/**
 * Client module: a page printed from dark mode prints in the light mode's colours (dark text,
 * light code colours would be unreadable on paper, where browsers leave backgrounds out). The
 * theme's `data-theme` attribute is set to `light` on `beforeprint` and restored on `afterprint`;
 * the colour mode the reader chose is not changed.
 */
import ExecutionEnvironment from '@docusaurus/ExecutionEnvironment';

let restore: string | null = null;

export function beforePrint(root: HTMLElement): void {
  const theme = root.getAttribute('data-theme');
  if (theme !== 'dark') return;
  restore = theme;
  root.setAttribute('data-theme', 'light');
}

export function afterPrint(root: HTMLElement): void {
  if (restore === null) return;
  root.setAttribute('data-theme', restore);
  restore = null;
}

if (ExecutionEnvironment.canUseDOM) {
  window.addEventListener('beforeprint', () => beforePrint(document.documentElement));
  window.addEventListener('afterprint', () => afterPrint(document.documentElement));
}

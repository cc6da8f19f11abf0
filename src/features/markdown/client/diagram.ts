/**
 * Opening a diagram full-screen (./Diagram renders the button around the image,
 * `button[data-diagram]`), for static and rendered articles alike: a modal dialog, fitted to the
 * screen first; "Zoom in" shows it at twice its size with scrolling; Escape, "Close" or a tap
 * outside the image closes it, and the focus returns to the diagram. The dialog is built when
 * asked for and removed when closed, next to the button (so the article's styles apply to it as
 * they did when React rendered it there).
 */
import {translate} from '@docusaurus/Translate';
import styles from '@site/src/features/markdown/client/Diagram/styles.module.css';

function button(className: string, label: string): HTMLButtonElement {
  const element = document.createElement('button');
  element.type = 'button';
  element.className = className;
  element.textContent = label;
  return element;
}

function open(opener: HTMLButtonElement, image: HTMLImageElement): void {
  const dialog = document.createElement('dialog');
  dialog.className = styles.dialog;
  dialog.setAttribute('aria-label', image.alt);

  const zoom = button(
    'button button--sm button--secondary',
    translate({id: 'site.diagram.zoom', message: 'Zoom in'}),
  );
  zoom.setAttribute('aria-pressed', 'false');
  const close = button(
    'button button--sm button--primary',
    translate({id: 'site.diagram.close', message: 'Close'}),
  );
  const bar = document.createElement('div');
  bar.className = styles.bar;
  bar.append(zoom, close);

  const large = document.createElement('img');
  large.src = image.currentSrc || image.src;
  large.alt = image.alt;
  const setZoomed = (zoomed: boolean) => {
    zoom.setAttribute('aria-pressed', String(zoomed));
    large.className = `${styles.image} ${zoomed ? styles.zoomed : styles.fitted}`;
  };
  setZoomed(false);
  const viewport = document.createElement('div');
  viewport.className = styles.viewport;
  viewport.append(large);
  dialog.append(bar, viewport);

  zoom.addEventListener('click', () => setZoomed(zoom.getAttribute('aria-pressed') !== 'true'));
  close.addEventListener('click', () => dialog.close());
  dialog.addEventListener('click', (event) => {
    if (event.target === dialog) dialog.close();
  });
  dialog.addEventListener('close', () => {
    dialog.remove();
    opener.focus();
  });
  opener.after(dialog);
  dialog.showModal();
}

/** A click on a diagram; false when the click was not on one. */
export function onDiagramClick(target: Element): boolean {
  const opener = target.closest<HTMLButtonElement>('button[data-diagram]');
  const image = opener?.querySelector('img');
  if (!opener || !image) return false;
  open(opener, image);
  return true;
}

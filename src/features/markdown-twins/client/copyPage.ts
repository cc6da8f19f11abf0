/**
 * "Copy page" (./CopyPage renders the markup: `[data-copy-page]` holding the button,
 * the "View as Markdown" link to the page's Markdown twin and a status region), for static and
 * rendered articles alike.
 *
 * Nothing is fetched until the button is pressed. The clipboard is written in the click itself,
 * as Safari requires: `navigator.clipboard.write` with a `ClipboardItem` whose text is still
 * being fetched, else (or if that fails) `writeText` once the text is there. The button says
 * "Copied" (or "Copy failed") for three seconds, and the status region says it to screen readers
 * (a label change alone is not announced).
 */
import {translate} from '@docusaurus/Translate';

type State = 'idle' | 'copied' | 'failed';

/** The button's label in each state (also what ./CopyPage renders first). */
export function copyPageLabel(state: State): string {
  switch (state) {
    case 'copied':
      return translate({message: 'Copied'});
    case 'failed':
      return translate({message: 'Copy failed'});
    default:
      return translate({message: 'Copy page'});
  }
}

/** Copies the text of `url` within the current click (see the file comment). */
export function copyFrom(url: string): Promise<void> {
  const text = fetch(url).then((response) => {
    if (!response.ok) throw Error(`${url}: ${response.status}`);
    return response.text();
  });
  const clipboard = navigator.clipboard;
  const writeText = () => text.then((value) => clipboard.writeText(value));
  if (typeof ClipboardItem === 'undefined' || !clipboard?.write) return writeText();
  const blob = text.then((value) => new Blob([value], {type: 'text/plain'}));
  return clipboard.write([new ClipboardItem({'text/plain': blob})]).catch(writeText);
}

const timers = new WeakMap<Element, number>();

function show(box: HTMLElement, button: HTMLButtonElement, state: State): void {
  button.dataset.state = state;
  button.textContent = copyPageLabel(state);
  const status = box.querySelector('[role="status"]');
  if (status) status.textContent = state === 'idle' ? '' : copyPageLabel(state);
}

/** A click on "Copy page"; false when the click was not on it. */
export function onCopyPageClick(target: Element): boolean {
  const button = target.closest<HTMLButtonElement>('[data-copy-page] button');
  const box = button?.closest<HTMLElement>('[data-copy-page]');
  const url = box?.querySelector<HTMLAnchorElement>('a[type="text/markdown"]')?.href;
  if (!button || !box || !url) return false;
  const done = (state: State) => {
    show(box, button, state);
    window.clearTimeout(timers.get(box));
    timers.set(
      box,
      window.setTimeout(() => show(box, button, 'idle'), 3000),
    );
  };
  copyFrom(url).then(
    () => done('copied'),
    () => done('failed'),
  );
  return true;
}

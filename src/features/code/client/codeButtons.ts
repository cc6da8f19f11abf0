/**
 * What the code blocks' buttons (./CodeButtons.tsx) do, for every block of the page, whether
 * React rendered it or it is part of a static article: the same behaviour as Docusaurus' own
 * buttons (theme-classic's CopyButton and WordWrapButton, theme-common's useCodeWordWrap).
 * - Copy: the block's code goes to the clipboard; the button says "Copied" (label and icon)
 *   for a second.
 * - Word wrap: shown on blocks whose code is wider than the block (or already wrapped), measured
 *   after each route update, on resize and when a code pair switches language; toggles
 *   `white-space: pre-wrap` on the block's code.
 */
import {translate} from '@docusaurus/Translate';
import {codeButtonClasses} from './CodeButtons';

const copiedLabel = () =>
  translate({
    id: 'theme.CodeBlock.copied',
    message: 'Copied',
    description: 'The copied button label on code blocks',
  });
const copyLabel = () =>
  translate({
    id: 'theme.CodeBlock.copyButtonAriaLabel',
    message: 'Copy code to clipboard',
    description: 'The ARIA label for copy code blocks button',
  });

/** The code of a block as its author wrote it: one line per rendered line. */
export function blockCode(block: Element): string {
  const code = block.querySelector('pre code');
  if (!code) return '';
  const lines = code.querySelectorAll(':scope > .token-line');
  return lines.length > 0
    ? Array.from(lines, (line) => line.textContent ?? '').join('\n')
    : (code.textContent ?? '');
}

/** Copies with a selected, off-screen text area: for pages served without HTTPS (no clipboard API). */
function copyBySelection(text: string): void {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.className = 'visually-hidden';
  document.body.append(area);
  area.select();
  const copied = document.execCommand('copy');
  area.remove();
  if (!copied) throw new Error('The code could not be copied');
}

async function copyToClipboard(text: string): Promise<void> {
  // The clipboard API exists in secure contexts only (HTTPS, localhost).
  if (navigator.clipboard) return navigator.clipboard.writeText(text);
  copyBySelection(text);
}

const timers = new WeakMap<HTMLButtonElement, number>();

function copy(button: HTMLButtonElement): void {
  const block = button.closest('.theme-code-block');
  if (!block) return;
  void copyToClipboard(blockCode(block)).then(() => {
    button.classList.add(codeButtonClasses.copied);
    button.setAttribute('aria-label', copiedLabel());
    window.clearTimeout(timers.get(button));
    timers.set(
      button,
      window.setTimeout(() => {
        button.classList.remove(codeButtonClasses.copied);
        button.setAttribute('aria-label', copyLabel());
      }, 1000),
    );
  });
}

/** Shows the word-wrap button of each block that needs it (a block hidden now is left as is). */
export function measureBlocks(root: ParentNode = document): void {
  const buttons = Array.from(root.querySelectorAll<HTMLButtonElement>('button[data-code-wrap]'));
  // Read everything first, then write: one layout for the whole page.
  const wanted = buttons.map((button) => {
    const pre = button.closest('.theme-code-block')?.querySelector('pre');
    if (!pre || pre.clientWidth === 0) return null;
    return pre.scrollWidth > pre.clientWidth || !!pre.querySelector('code[style]');
  });
  buttons.forEach((button, index) => {
    const show = wanted[index];
    if (show !== null && button.hidden === show) button.hidden = !show;
  });
}

function toggleWrap(button: HTMLButtonElement): void {
  const code = button.closest('.theme-code-block')?.querySelector<HTMLElement>('pre code');
  if (!code) return;
  const enabled = code.hasAttribute('style');
  if (enabled) {
    code.removeAttribute('style');
  } else {
    code.style.whiteSpace = 'pre-wrap';
    // Very long words or strings wrap too: no scrollbar at all.
    code.style.overflowWrap = 'anywhere';
  }
  button.classList.toggle(codeButtonClasses.wrapEnabled, !enabled);
  measureBlocks(button.closest('.theme-code-block') ?? document);
}

/** A click on a code button; false when the click was not on one. */
export function onCodeButtonClick(target: Element): boolean {
  const button = target.closest<HTMLButtonElement>(
    'button[data-code-copy], button[data-code-wrap]',
  );
  if (!button) return false;
  if (button.hasAttribute('data-code-copy')) copy(button);
  else toggleWrap(button);
  return true;
}

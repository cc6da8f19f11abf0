/**
 * The TypeScript/JavaScript switch of the code pairs, for every pair of the page, whether React
 * rendered it or it is part of a static article: ./CodePair renders markup only
 * (`[data-code-pair]`, `[data-code-pair-switch=ts|js]`, `[data-code-pair-half=ts|js]`), and this
 * does the rest.
 *
 * Before first paint the head script sets `html[data-code-lang]` and the pairs' CSS shows the
 * chosen half. After that:
 * - a switch button makes its language the site's choice (remembered in localStorage), keeps its
 *   pair where the reader sees it while every pair above changes height, and gives the focus to
 *   the pair's other button (the pressed one is hidden now);
 * - the inactive half of every pair carries `hidden` (`syncHalves`, after each route update and
 *   each change), so it is out of the accessibility tree even where the CSS is not applied;
 * - another tab's choice (the `storage` event) and `?lang=` on a client-side navigation apply.
 */
import {codeLangStorageKey, parseCodeLang, type CodeLang} from '../codeLang';

export function currentCodeLang(): CodeLang {
  return parseCodeLang(document.documentElement.dataset.codeLang) ?? 'ts';
}

/** Marks the inactive half of every pair `hidden`, the active one not. */
export function syncHalves(root: ParentNode = document): void {
  const lang = currentCodeLang();
  for (const half of Array.from(root.querySelectorAll<HTMLElement>('[data-code-pair-half]'))) {
    const hidden = half.dataset.codePairHalf !== lang;
    if (half.hidden !== hidden) half.hidden = hidden;
  }
}

/** Listeners called after the language changed (the code buttons measure the shown blocks). */
const changeListeners = new Set<() => void>();

export function onCodeLangChange(listener: () => void): void {
  changeListeners.add(listener);
}

function applyCodeLang(lang: CodeLang): void {
  document.documentElement.dataset.codeLang = lang;
  syncHalves();
  changeListeners.forEach((listener) => listener());
}

/** Switches every pair (on this page and later ones) to `lang` and remembers it. */
export function chooseCodeLang(lang: CodeLang): void {
  applyCodeLang(lang);
  try {
    window.localStorage.setItem(codeLangStorageKey, lang);
  } catch {
    // Storage unavailable (private mode, blocked cookies): the choice lasts for this page.
  }
}

/** `?lang=` of a location reached by client-side navigation (full loads: the head script). */
export function applyLangQuery(search: string): void {
  const requested = parseCodeLang(new URLSearchParams(search).get('lang'));
  if (requested && requested !== currentCodeLang()) chooseCodeLang(requested);
}

export function onStorage(event: StorageEvent): void {
  const lang = event.key === codeLangStorageKey ? parseCodeLang(event.newValue) : null;
  if (lang) applyCodeLang(lang);
}

/** A click on a switch button; false when the click was not on one. */
export function onSwitchClick(target: Element): boolean {
  const button = target.closest<HTMLButtonElement>('button[data-code-pair-switch]');
  const lang = parseCodeLang(button?.dataset.codePairSwitch);
  const pair = button?.closest<HTMLElement>('[data-code-pair]');
  if (!button || !lang || !pair) return false;
  // Every pair on the page changes height: keep this one where the reader sees it.
  const before = pair.getBoundingClientRect().top;
  chooseCodeLang(lang);
  const after = pair.getBoundingClientRect().top;
  if (before !== after) window.scrollBy(0, after - before);
  // This button is hidden now; the other one (shown now) keeps keyboard focus.
  const other = pair.querySelector<HTMLButtonElement>(
    `button[data-code-pair-switch]:not([data-code-pair-switch="${lang}"])`,
  );
  other?.focus();
  return true;
}

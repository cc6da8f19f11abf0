/**
 * The reader's code language, one value for the whole site: the `data-code-lang` attribute of
 * `<html>` (`ts` or `js`), remembered in localStorage under `codeLangStorageKey` and settable
 * with `?lang=js` / `?lang=ts`. Read by the code pairs (./client/CodePair) and, before the first
 * paint, by the inline script built from `applyInitialCodeLang` (./node/prePaintScript.ts), so
 * that both read the query and the storage by the same rules.
 *
 * `parseCodeLang` and `applyInitialCodeLang` are also serialised into every page with `Function.prototype.toString`:
 * they use only their arguments, and no syntax that a transpiler would turn into helpers.
 */
export type CodeLang = 'ts' | 'js';

/** The localStorage key of the remembered choice. */
export const codeLangStorageKey = 'nest-docs.code-lang';

/** TypeScript until the reader chooses. */
export const defaultCodeLang: CodeLang = 'ts';

/** `ts` / `js` (or `typescript` / `javascript`, any case), else null: the fences' own rule. */
export {markerLanguage as parseCodeLang} from '../markdown/markers.mjs';

/**
 * Sets `data-code-lang` on `root` from `?lang=` (remembering it) or the remembered choice, else
 * `fallback`. Storage that throws (private modes, blocked cookies) leaves the choice to the query
 * or the default.
 */
export function applyInitialCodeLang(
  parse: (value: string | null) => CodeLang | null,
  key: string,
  fallback: CodeLang,
  search: string,
  storage: () => Pick<Storage, 'getItem' | 'setItem'>,
  root: Pick<Element, 'setAttribute'>,
): void {
  let lang = fallback;
  try {
    const requested = parse(new URLSearchParams(search).get('lang'));
    if (requested) {
      lang = requested;
      try {
        storage().setItem(key, requested);
      } catch {
        // The choice lasts for this page.
      }
    } else {
      lang = parse(storage().getItem(key)) || lang;
    }
  } catch {
    // No storage: the default.
  }
  root.setAttribute('data-code-lang', lang);
}

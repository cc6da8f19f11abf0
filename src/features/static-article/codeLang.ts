/**
 * The language of the code pairs (src/components/CodePair): one value for the whole site, the
 * `data-code-lang` attribute of `<html>`, remembered in localStorage and settable with `?lang=`.
 * Pure parts; the browser side is ./client/codePair.ts, the pre-paint script is in
 * docusaurus.config.ts (keep the key and the parsing in step with it).
 */
export type CodeLang = 'ts' | 'js';

export const codeLangStorageKey = 'nest-docs.code-lang';

/** `ts` / `js` (or `typescript` / `javascript`, any case), else null. */
export function parseCodeLang(value: string | null | undefined): CodeLang | null {
  switch (value?.toLowerCase()) {
    case 'ts':
    case 'typescript':
      return 'ts';
    case 'js':
    case 'javascript':
      return 'js';
    default:
      return null;
  }
}

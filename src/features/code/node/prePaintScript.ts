/**
 * The code pairs' inline script in every page's head (`headTags` in docusaurus.config.ts): it
 * picks TypeScript or JavaScript before the first paint, from `?lang=` or the remembered choice,
 * so the CSS shows the right half at once (see ../client/CodePair). Generated from the pair's
 * own rules (../codeLang.ts) rather than kept by hand beside them.
 */
import {
  applyInitialCodeLang,
  codeLangStorageKey,
  defaultCodeLang,
  parseCodeLang,
} from '../codeLang';

export const codeLangScript =
  `(${applyInitialCodeLang.toString()})(${parseCodeLang.toString()},` +
  `${JSON.stringify(codeLangStorageKey)},${JSON.stringify(defaultCodeLang)},location.search,` +
  `function(){return localStorage},document.documentElement);`;

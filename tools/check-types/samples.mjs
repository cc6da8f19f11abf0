// @ts-check
/**
 * The samples of a page: the TypeScript and JavaScript halves of its marked fences
 * (src/features/markdown/markers.mjs decides what a half is), and how the compiler reads a
 * TypeScript half that is a fragment of class members.
 */
import ts from 'typescript';
import {fragmentReadings} from '../../src/features/markdown/fragment.mjs';
import {markerLanguage, parseFence} from '../../src/features/markdown/markers.mjs';
import {findFences} from '../../scripts/check-samples.mjs';

/** @typedef {import('./types').Sample} Sample */

/**
 * The TypeScript and JavaScript halves of the marked fences of a page, in
 * page order (the shared marker parser decides what a half is).
 * @param {string} markdown
 * @param {string} page
 * @returns {Sample[]}
 */
export function collectSamples(markdown, page) {
  /** @type {Sample[]} */
  const samples = [];
  for (const fence of findFences(markdown).fences) {
    if (!markerLanguage(fence.lang)) {
      continue;
    }
    const parsed = parseFence(fence.value, fence.lang);
    if (parsed.kind !== 'marked') {
      continue;
    }
    // The code starts on the line below the opening fence.
    const first = fence.line + 1;
    for (const lang of /** @type {const} */ (['ts', 'js'])) {
      const half = parsed[lang];
      if (half) {
        samples.push({
          page,
          filename: parsed.filename,
          lang,
          code: half.code,
          line: first + half.offset,
        });
      }
    }
  }
  return samples;
}

/** @param {string} code */
function parsesAsTypeScript(code) {
  const source = ts.createSourceFile('x.ts', code, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  // parseDiagnostics is internal API (check-samples.mjs uses it too).
  /** @type {any} */
  const internal = source;
  return (internal.parseDiagnostics ?? []).length === 0;
}

export const fragmentOpen = 'class __Fragment { [member: string]: any;';

/**
 * The code the compiler sees for a TypeScript half: the half itself when it
 * parses, else (a fragment of class members, with or without leading
 * imports) the half inside `class __Fragment {...}`. `fragmentAt` is the
 * 0-based line of the inserted class line, null when not wrapped.
 * @param {string} code
 * @returns {{code: string, fragmentAt: number | null}}
 */
export function fragmentReading(code) {
  if (parsesAsTypeScript(code)) {
    return {code, fragmentAt: null};
  }
  for (const {split, code: wrapped} of fragmentReadings(code.split('\n'), fragmentOpen)) {
    if (parsesAsTypeScript(wrapped)) {
      return {code: wrapped, fragmentAt: split};
    }
  }
  return {code, fragmentAt: null};
}

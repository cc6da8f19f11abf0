// @ts-check
/*
 * The code-pair marker language, shared by the remark plugin
 * (`src/features/code/node/remarkCodePair.ts`) and the sample checker
 * (`scripts/check-samples.mjs`). Plain ESM with JSDoc types so that plain
 * Node can load it and TypeScript still type-checks its callers.
 *
 * A marked fence is ONE fenced block:
 *
 *     ```ts
 *     @@filename(cats.controller)
 *     …TypeScript…
 *     @@switch
 *     …JavaScript…
 *     ```
 *
 * - `@@filename(name)` must be the first line; `name` has no extension (the
 *   bar shows `name.ts` or `name.js` for the active language).
 * - `@@switch` splits a ts/typescript fence into its TypeScript and JavaScript
 *   halves; it may appear once, and neither half may be blank.
 * - In a js/javascript fence only `@@filename(name)` is allowed.
 * - Any other line starting with `@@` is an error. Fences of other languages
 *   are never inspected (a diff hunk header starts with `@@` too).
 */

/** @typedef {'ts' | 'js'} CodeLang */

/**
 * A fence the markers do not concern: no marker, or not a ts/js fence.
 * @typedef {{readonly kind: 'plain'}} PlainFence
 */

/**
 * A half of a marked fence: its code (leading and trailing blank lines
 * removed) and the 0-based index, within the fence's value, of its first line.
 * @typedef {{readonly code: string; readonly offset: number}} FenceHalf
 */

/**
 * A fence with markers. `ts` and `js` are both set for a pair; exactly one of
 * them is set for a filename-only fence.
 * @typedef {{
 *   readonly kind: 'marked';
 *   readonly filename: string | null;
 *   readonly ts: FenceHalf | null;
 *   readonly js: FenceHalf | null;
 * }} MarkedFence
 */

/**
 * A malformed fence: `offset` is the 0-based index, within the fence's value,
 * of the offending line.
 * @typedef {{readonly kind: 'error'; readonly offset: number; readonly reason: string}} MarkerError
 */

/** @typedef {PlainFence | MarkedFence | MarkerError} ParsedFence */

const PLAIN = /** @type {PlainFence} */ ({kind: 'plain'});

/**
 * `ts` / `js` (or `typescript` / `javascript`, any case), else null: the
 * marker language of a fence's info string, and the reader's choice read from
 * `?lang=` or storage (src/features/code/codeLang.ts re-exports it as
 * `parseCodeLang`). It is serialised into every page's pre-paint script with
 * `Function.prototype.toString`, so it uses only its argument and no syntax
 * newer than the browsers that script serves.
 * @param {string | null | undefined} lang
 * @returns {CodeLang | null}
 */
export function markerLanguage(lang) {
  switch ((lang || '').toLowerCase()) {
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

/**
 * @param {number} offset
 * @param {string} reason
 * @returns {MarkerError}
 */
function error(offset, reason) {
  return {kind: 'error', offset, reason};
}

/**
 * Lines `from` (inclusive) to `to` (exclusive) without the blank lines at
 * either end, or null when they are all blank.
 * @param {readonly string[]} lines
 * @param {number} from
 * @param {number} to
 * @returns {FenceHalf | null}
 */
function half(lines, from, to) {
  let start = from;
  let end = to;
  while (start < end && lines[start].trim() === '') {
    start += 1;
  }
  while (end > start && lines[end - 1].trim() === '') {
    end -= 1;
  }
  return start === end ? null : {code: lines.slice(start, end).join('\n'), offset: start};
}

/**
 * Parses the `@@filename(name)` marker line.
 * @param {string} line trimmed marker line
 * @returns {{name: string} | {reason: string}}
 */
function parseFilename(line) {
  const match = /^@@filename\((.*)\)$/.exec(line);
  if (!match) {
    return {
      reason: `malformed marker "${line}": write @@filename(name), e.g. @@filename(cats.controller)`,
    };
  }
  const name = match[1].trim();
  if (name === '') {
    return {
      reason: '@@filename() has no name: write @@filename(name), e.g. @@filename(cats.controller)',
    };
  }
  if (/[\s()]/.test(name)) {
    return {reason: `malformed @@filename name "${name}": no spaces or parentheses`};
  }
  if (/\.(ts|js)$/i.test(name)) {
    return {
      reason: `@@filename(${name}) includes an extension: write the name without .ts/.js, it is added for the language shown`,
    };
  }
  return {name};
}

/**
 * Parses the markers of a fenced code block.
 * @param {string} value the code (mdast `code.value`: no fence lines)
 * @param {string | null | undefined} lang the fence's language
 * @returns {ParsedFence}
 */
export function parseFence(value, lang) {
  const language = markerLanguage(lang);
  if (!language) {
    return PLAIN;
  }
  const lines = value.split(/\r?\n/);
  /** @type {string | null} */
  let filename = null;
  let switchAt = -1;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i].trim();
    if (!line.startsWith('@@')) {
      continue;
    }
    const marker = /^@@[A-Za-z_-]*/.exec(line)?.[0] ?? '@@';
    if (marker === '@@filename') {
      if (i !== 0) {
        return error(i, '@@filename must be on the first line of the code block');
      }
      const parsed = parseFilename(line);
      if ('reason' in parsed) {
        return error(i, parsed.reason);
      }
      filename = parsed.name;
    } else if (marker === '@@switch') {
      if (line !== '@@switch') {
        return error(i, `malformed marker "${line}": @@switch stands alone on its line`);
      }
      if (language === 'js') {
        return error(
          i,
          `@@switch in a ${lang} fence: a pair is a ts fence, TypeScript first, JavaScript after @@switch`,
        );
      }
      if (switchAt !== -1) {
        return error(i, '@@switch appears twice: a code block has at most one');
      }
      switchAt = i;
    } else {
      return error(i, `unknown marker "${marker}": only @@filename(name) and @@switch exist`);
    }
  }
  if (filename === null && switchAt === -1) {
    return PLAIN;
  }
  const start = filename === null ? 0 : 1;
  if (switchAt === -1) {
    const body = half(lines, start, lines.length);
    if (!body) {
      return error(0, 'the code block after @@filename is empty');
    }
    return language === 'ts'
      ? {kind: 'marked', filename, ts: body, js: null}
      : {kind: 'marked', filename, ts: null, js: body};
  }
  const ts = half(lines, start, switchAt);
  if (!ts) {
    return error(switchAt, 'empty TypeScript half: there is no code before @@switch');
  }
  const js = half(lines, switchAt + 1, lines.length);
  if (!js) {
    return error(switchAt, 'empty JavaScript half: there is no code after @@switch');
  }
  return {kind: 'marked', filename, ts, js};
}

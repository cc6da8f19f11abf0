// @ts-check
/*
 * How a sample that is a fragment of class members (a method or two, shown
 * without their class, with or without leading imports) is read: inside a
 * wrapper class that opens after the sample's imports. One reading for the
 * syntax check (scripts/check-samples.mjs), the type check
 * (tools/check-types/samples.mjs) and the API reference's sample links
 * (src/features/api-reference/node/sampleLinks.ts). Plain ESM with JSDoc
 * types, like markers.mjs, so that plain Node can load it.
 */

/**
 * The number of lines the leading import declarations (with blank and `//`
 * comment lines among them) take at the top of `lines`.
 * @param {readonly string[]} lines
 * @returns {number}
 */
export function importHeadLength(lines) {
  let end = 0;
  let i = 0;
  while (i < lines.length) {
    const text = lines[i].trim();
    if (text === '' || text.startsWith('//')) {
      i += 1;
      continue;
    }
    if (!/^import[\s{'"*]/.test(text)) {
      break;
    }
    // An import ends on the line with its module specifier.
    while (i < lines.length && !/['"][^'"]*['"]\s*;?\s*$/.test(lines[i].trim())) {
      i += 1;
    }
    i += 1;
    end = i;
  }
  return Math.min(end, lines.length);
}

/**
 * The readings of `lines` as class members, in the order to try them: the
 * wrapper class opening before line `split` (0: everything is a member; after
 * the imports: the imports stay at the top). `code` is the wrapped text: the
 * class line is inserted at index `split` and its closing line is last.
 * @param {readonly string[]} lines
 * @param {string} open the wrapper's opening line
 * @returns {{split: number, code: string}[]}
 */
export function fragmentReadings(lines, open) {
  const head = importHeadLength(lines);
  const splits = head > 0 && head < lines.length ? [0, head] : [0];
  return splits.map((split) => ({
    split,
    code: [...lines.slice(0, split), open, ...lines.slice(split), '}'].join('\n'),
  }));
}

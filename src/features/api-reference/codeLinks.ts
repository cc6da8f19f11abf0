/**
 * The links of one code block, as the remark plugin (./node/remark.ts) hands them to the page and
 * the code block (./client/CodeLinks.tsx) reads them back. Pure: shared by the build and the
 * browser.
 *
 * On the wire (an MDX attribute): a JSON object from each link's URL to the positions it covers,
 * flattened `[line, column, line, column, ...]`, in the lines the block *shows* (Docusaurus'
 * `// highlight-*` comment lines removed), 0-based. A link covers the identifier that starts
 * there.
 */

export type EncodedLinks = Readonly<Record<string, readonly number[]>>;

/** A link found in a block, in the shown lines. */
export interface CodeLink {
  readonly line: number;
  readonly column: number;
  readonly length: number;
  readonly url: string;
}

/** The lines Docusaurus reads as line-highlighting instructions and does not show. */
const magicComment =
  /^\s*(?:\/\/\s*highlight-(?:next-line|start|end)|\/\*\s*highlight-(?:next-line|start|end)\s*\*\/)\s*$/;

/** The lines a block shows: its code without Docusaurus' magic comment lines. */
export function shownLines(code: string): string[] {
  return code.split(/\r?\n/).filter((line) => !magicComment.test(line));
}

/** For each line of `code`, the index of that line among the shown ones (-1: not shown). */
export function shownLineIndex(code: string): number[] {
  let shown = 0;
  return code.split(/\r?\n/).map((line) => (magicComment.test(line) ? -1 : shown++));
}

export function encodeLinks(links: readonly CodeLink[]): string {
  const byUrl: Record<string, number[]> = {};
  for (const link of links) (byUrl[link.url] ??= []).push(link.line, link.column);
  return JSON.stringify(byUrl);
}

const identifier = /^[A-Za-z_$][\w$]*/;

/** A link of each line's text: `[column, length, url]`, by the line's text. */
export type LinksByLine = ReadonlyMap<string, readonly (readonly [number, number, string])[]>;

/**
 * The links of a block keyed by the text of their line: a token renderer knows its line's text,
 * not its index. Lines with the same text share their links (the same identifiers in the same
 * places: in practice the same links). Malformed input gives no links, never an error.
 */
export function linksByLine(code: string, encoded: string | undefined): LinksByLine {
  const result = new Map<string, [number, number, string][]>();
  if (!encoded) return result;
  let parsed: unknown;
  try {
    parsed = JSON.parse(encoded);
  } catch {
    return result;
  }
  if (!parsed || typeof parsed !== 'object') return result;
  const lines = shownLines(code);
  for (const [url, positions] of Object.entries(parsed as Record<string, unknown>)) {
    if (!Array.isArray(positions)) continue;
    for (let i = 0; i + 1 < positions.length; i += 2) {
      const [line, column] = [positions[i], positions[i + 1]];
      if (typeof line !== 'number' || typeof column !== 'number') continue;
      const text = lines[line];
      const name = text === undefined ? undefined : identifier.exec(text.slice(column))?.[0];
      if (text === undefined || !name) continue;
      const list = result.get(text) ?? [];
      if (!list.some(([at]) => at === column)) list.push([column, name.length, url]);
      result.set(text, list);
    }
  }
  for (const list of result.values()) list.sort((a, b) => a[0] - b[0]);
  return result;
}

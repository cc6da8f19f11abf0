/**
 * The pages of docs/ as the behaviour suite sees them: their headings (the
 * anchors a claim names) and their code fences (the samples a test runs and
 * the outputs a test compares).
 */
import {readFileSync, existsSync} from 'node:fs';
import {join, resolve} from 'node:path';
import GithubSlugger from 'github-slugger';
import {parseFence, markerLanguage} from '../../../src/features/markdown/markers.mjs';
import {findFences} from '../../../scripts/check-samples.mjs';

export const repoRoot = resolve(__dirname, '..', '..', '..');

export interface Fence {
  /** 1-based line of the opening fence. */
  line: number;
  lang: string | null;
  meta: string | null;
  value: string;
  /** The anchor of the nearest `##`/`###`… heading above the fence ('' above the first). */
  section: string;
  /** `@@filename(...)` of a marked fence, else null. */
  filename: string | null;
  /** The TypeScript half of a marked fence, or the whole value of a plain one. */
  ts: string | null;
  /** The JavaScript half of a marked fence. */
  js: string | null;
  /** `output=<id>` in the fence's meta: the block is the output of a test. */
  output: string | null;
}

export interface Page {
  path: string;
  headings: Map<string, number>;
  fences: Fence[];
}

const cache = new Map<string, Page>();

/** `docs/techniques/queues.md` → its headings and fences (read once per worker). */
export function readPage(path: string): Page {
  const cached = cache.get(path);
  if (cached) return cached;
  const file = join(repoRoot, path);
  if (!/^docs\/.+\.mdx?$/.test(path) || !existsSync(file)) {
    throw new Error(
      `behaviour: no page ${path} (a claim names a file under docs/, with its extension)`,
    );
  }
  const markdown = readFileSync(file, 'utf8');
  const lines = markdown.split('\n');
  const headings = new Map<string, number>();
  const slugger = new GithubSlugger();
  let inFence = false;
  let fenceMark = '';
  lines.forEach((text, index) => {
    const fence = /^\s*(`{3,}|~{3,})/.exec(text);
    if (fence) {
      if (!inFence) {
        inFence = true;
        fenceMark = fence[1];
      } else if (text.trim().startsWith(fenceMark) && text.trim().replace(/[`~]/g, '') === '') {
        inFence = false;
      }
      return;
    }
    if (inFence) return;
    const heading = /^(#{1,6})\s+(.*?)\s*$/.exec(text);
    if (!heading) return;
    let title = heading[2];
    const explicit = /\s*\{\/\*\s*#([\w-]+)\s*\*\/\}\s*$|\s*\{#([\w-]+)\}\s*$/.exec(title);
    if (explicit) {
      headings.set(explicit[1] ?? explicit[2], index + 1);
      title = title.slice(0, explicit.index);
      return;
    }
    // Docusaurus slugs the heading's text (inline code and links reduced to their text).
    const plain = title
      .replace(/`([^`]*)`/g, '$1')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/[*_]/g, '');
    headings.set(slugger.slug(plain), index + 1);
  });
  const sortedHeadings = [...headings.entries()].sort((a, b) => a[1] - b[1]);
  const sectionAt = (line: number) => {
    let section = '';
    for (const [id, at] of sortedHeadings) {
      if (at > line) break;
      section = id;
    }
    return section;
  };
  const fences: Fence[] = [];
  for (const raw of findFences(markdown).fences as {
    lang: string | null;
    value: string;
    line: number;
  }[]) {
    const opening = lines[raw.line - 1] ?? '';
    const metaMatch = /^\s*(?:`{3,}|~{3,})\s*[\w+-]*\s*(.*)$/.exec(opening);
    const meta = metaMatch && metaMatch[1].trim() ? metaMatch[1].trim() : null;
    const output = meta ? (/(?:^|\s)output=([\w.-]+)/.exec(meta)?.[1] ?? null) : null;
    let filename: string | null = null;
    let ts: string | null = raw.value;
    let js: string | null = null;
    if (markerLanguage(raw.lang)) {
      const parsed = parseFence(raw.value, raw.lang);
      if (parsed.kind === 'marked') {
        filename = parsed.filename;
        ts = parsed.ts?.code ?? null;
        js = parsed.js?.code ?? null;
      }
    }
    fences.push({
      line: raw.line,
      lang: raw.lang,
      meta,
      value: raw.value,
      section: sectionAt(raw.line),
      filename,
      ts,
      js,
      output,
    });
  }
  const page = {path, headings, fences};
  cache.set(path, page);
  return page;
}

/** Splits `docs/x.md#anchor`, checking that the page and the heading exist. */
export function parseRef(ref: string): {path: string; anchor: string; page: Page} {
  const match = /^(docs\/[^#\s]+\.mdx?)#([\w-]+)$/.exec(ref);
  if (!match) {
    throw new Error(
      `behaviour: "${ref}" is not a claim reference: write docs/<page>.md#<heading-id>`,
    );
  }
  const page = readPage(match[1]);
  if (!page.headings.has(match[2])) {
    throw new Error(
      `behaviour: ${match[1]} has no heading #${match[2]} (its headings: ${[...page.headings.keys()].join(', ')})`,
    );
  }
  return {path: match[1], anchor: match[2], page};
}

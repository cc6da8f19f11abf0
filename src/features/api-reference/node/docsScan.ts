/**
 * What the API pages need to know of the guide pages: each page's route, title and heading ids
 * (to turn the packages' `https://docs.nestjs.com/...` links into links to this site that the
 * build can check), and which exports its code samples import ("Used in").
 *
 * Reads `docs/**` as files, before Docusaurus loads them (the API pages are written before the
 * docs plugin reads the folder). Node-only.
 */
import {readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {parseFence} from '../../markdown/markers.mjs';
import {apiRoute} from '../packages';
import {sampleImports} from './sampleLinks';

export interface GuidePage {
  /** `/controllers`, `/` for the introduction. */
  readonly route: string;
  readonly title: string;
  /** The ids of the page's headings. */
  readonly anchors: ReadonlySet<string>;
  /** The exports its samples import: `@nestjs/common#Controller`. */
  readonly imports: ReadonlySet<string>;
}

const explicitId = /\s*\{\/\*\s*#([\w-]+)\s*\*\/\}\s*$|\s*\{#([\w-]+)\}\s*$/;

/** GitHub's heading slugs (what Docusaurus uses): lower case, punctuation dropped, `-` for spaces. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** A heading's text as it renders: links and code unwrapped, emphasis marks dropped. */
function headingText(markdown: string): string {
  return markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*\*|__|\*|_)(\S[^*_]*?)\1/g, '$2')
    .replace(/\\([\\`*_{}[\]()#+\-.!<>])/g, '$1')
    .trim();
}

/** The fences of a Markdown file: language, meta and code (indentation of the fence removed). */
export function fences(markdown: string): {lang: string; code: string}[] {
  const lines = markdown.split('\n');
  const found: {lang: string; code: string}[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^(\s*(?:>\s*)?)(`{3,}|~{3,})\s*([\w-]*)/.exec(lines[i]);
    if (!open) continue;
    const [, indent, marker, lang] = open;
    const body: string[] = [];
    let j = i + 1;
    const close = new RegExp(`^\\s*(?:>\\s*)?${marker[0]}{${marker.length},}\\s*$`);
    while (j < lines.length && !close.test(lines[j])) {
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j].trimStart());
      j += 1;
    }
    found.push({lang, code: body.join('\n')});
    i = j;
  }
  return found;
}

/** The headings of a Markdown file, outside fences, with their ids. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const counts = new Map<string, number>();
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === null || marker.startsWith(fence))) {
      fence = fence === null ? marker : null;
      continue;
    }
    if (fence !== null) continue;
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (!heading) continue;
    const explicit = explicitId.exec(heading[1]);
    let id = explicit ? (explicit[1] ?? explicit[2]) : slug(headingText(heading[1]));
    const seen = counts.get(id) ?? 0;
    counts.set(id, seen + 1);
    if (!explicit && seen > 0) id = `${id}-${seen}`;
    anchors.add(id);
  }
  return anchors;
}

function frontMatterField(markdown: string, name: string): string | undefined {
  const block = /^---\n([\s\S]*?)\n---/.exec(markdown)?.[1] ?? '';
  const value = new RegExp(`^${name}:\\s*(.*)$`, 'm').exec(block)?.[1]?.trim();
  return value?.replace(/^(['"])(.*)\1$/, '$2');
}

/** The exports a page's samples import, as `package#name` keys. */
export function pageImports(markdown: string): Set<string> {
  const imports = new Set<string>();
  for (const {lang, code} of fences(markdown)) {
    const parsed = parseFence(code, lang);
    if (parsed.kind === 'error') continue;
    const halves =
      parsed.kind === 'plain'
        ? /^(ts|typescript)$/i.test(lang)
          ? [{code, lang: 'ts' as const}]
          : /^(js|javascript)$/i.test(lang)
            ? [{code, lang: 'js' as const}]
            : []
        : [
            ...(parsed.ts ? [{code: parsed.ts.code, lang: 'ts' as const}] : []),
            ...(parsed.js ? [{code: parsed.js.code, lang: 'js' as const}] : []),
          ];
    for (const half of halves) {
      for (const binding of sampleImports(half.code, half.lang)) {
        if (binding.imported) imports.add(`${binding.package}#${binding.imported}`);
      }
    }
  }
  return imports;
}

/** Every guide page under `docsDir` (the generated API pages left out). */
export function scanGuides(docsDir: string): GuidePage[] {
  const files = readdirSync(docsDir, {recursive: true, encoding: 'utf8'})
    .map((file) => file.split('\\').join('/'))
    .filter((file) => /\.mdx?$/.test(file) && !file.startsWith(`${apiRoute}/`))
    .sort();
  return files.map((file) => {
    const markdown = readFileSync(join(docsDir, file), 'utf8');
    const id = file.replace(/\.mdx?$/, '');
    const route = frontMatterField(markdown, 'slug') ?? `/${id}`;
    const title =
      frontMatterField(markdown, 'title') ?? /^#\s+(.*)$/m.exec(markdown)?.[1]?.trim() ?? id;
    return {route, title, anchors: anchorsOf(markdown), imports: pageImports(markdown)};
  });
}

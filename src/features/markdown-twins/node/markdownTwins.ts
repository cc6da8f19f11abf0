/**
 * The Markdown twin of every docs page, and `llms.txt` / `llms-full.txt` (https://llmstxt.org),
 * generated from the source `docs/**\/*.md(x)` by src/features/markdown-twins/node/step.ts.
 *
 * A page's twin is clean CommonMark + GFM that reads well without the site: its `# Title`
 * first, then the text with
 *
 * - callouts (`:::hint[Label]`) as block quotes headed `**Hint**` (`**Hint: Label**`),
 * - each TypeScript/JavaScript pair (`@@filename` / `@@switch`, parsed by src/features/markdown/markers.mjs
 *   as for the site) as two fenced blocks, TypeScript first, each under its file name,
 * - links and images made absolute (`https://docs.nestjs.com/...`; links to other docs keep
 *   pointing at their HTML page, anchors kept),
 * - no front matter, imports/exports, MDX comments (heading ids `{/* #id *\/}` included), `@@`
 *   markers or Docusaurus' `// highlight-*` comments; JSX elements unwrapped to their text
 *   (`<Link href={...}>` becomes a link), or replaced with Markdown given by the caller
 *   (`<CompanyList />`), or dropped (the banners).
 *
 * The work is done on the mdast (remark-parse, remark-mdx, remark-gfm, remark-directive), then
 * printed by remark-stringify, which fails on any MDX node left over.
 *
 * Node-only: never import this file from client code.
 */
import {dirname, resolve} from 'node:path';
import type {
  BlockContent,
  Code,
  Heading,
  Image,
  Link,
  Nodes,
  Paragraph,
  Parents,
  PhrasingContent,
  Root,
  RootContent,
  Text,
} from 'mdast';
import type {ContainerDirective, LeafDirective, TextDirective} from 'mdast-util-directive';
import type {MdxJsxFlowElement, MdxJsxTextElement} from 'mdast-util-mdx-jsx';
import remarkDirective from 'remark-directive';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkMdx from 'remark-mdx';
import remarkParse from 'remark-parse';
import remarkStringify, {type Options as StringifyOptions} from 'remark-stringify';
import {unified} from 'unified';
import {calloutKinds, isCalloutKind, type CalloutKind} from '../../markdown/callouts';
import {located} from '../../markdown/location.mjs';
import {parseFence} from '../../markdown/markers.mjs';
import {attributeValue, expressionValue} from './expressions';

/** Lines Docusaurus reads as line-highlighting instructions and never shows. */
const magicComment = /^\s*\/\/\s*highlight-(next-line|start|end)\s*$/;

export interface ConvertOptions {
  /** The site's origin, `siteConfig.url` (`https://docs.nestjs.com`). */
  readonly siteUrl: string;
  /** The page's route (`/controllers`, `/` for the introduction). */
  readonly route: string;
  /** The page's title, written as `# Title` when the source has no `# ` heading first. */
  readonly title?: string;
  /** The source file's absolute path: relative `.md` links resolve from it. */
  readonly file?: string;
  /** The route of each doc by the absolute path of its source file. */
  readonly routesByFile?: ReadonlyMap<string, string>;
  /** What the page's JavaScript expressions may name (`{links.supportEmail}` needs `links`). */
  readonly scope?: Readonly<Record<string, unknown>>;
  /** Markdown that stands for a JSX element without children (`CompanyList`); else dropped. */
  readonly components?: Readonly<Record<string, () => RootContent[]>>;
}

const parser = unified()
  .use(remarkParse)
  .use(remarkFrontmatter, ['yaml'])
  .use(remarkMdx)
  .use(remarkGfm)
  .use(remarkDirective);

const stringifyOptions: StringifyOptions = {
  bullet: '-',
  emphasis: '_',
  strong: '*',
  fence: '`',
  fences: true,
  rule: '-',
  listItemIndent: 'one',
  incrementListMarker: true,
};

/** Prints plain Markdown + GFM only: a node of MDX or directives left over is an error. */
const printer = unified().use(remarkGfm).use(remarkStringify, stringifyOptions);

/** A `file:line: reason` error (the page's file, else its route). */
function failure(options: ConvertOptions, line: number | undefined, reason: string): Error {
  return new Error(located(options.file ?? options.route, line, reason));
}

// ---------------------------------------------------------------------------------------------
// URLs.

const hasScheme = /^[a-z][a-z\d+.-]*:/i;

/** A URL of the page made absolute: see the module comment. */
export function absoluteUrl(url: string, options: ConvertOptions): string {
  const site = options.siteUrl.replace(/\/+$/, '');
  if (url === '' || hasScheme.test(url) || url.startsWith('//')) return url;
  const page = `${site}${options.route}`;
  if (url.startsWith('#')) return `${page}${url}`;
  if (url.startsWith('/')) return `${site}${url}`;
  // A relative link to a Markdown file is a link to its page, as Docusaurus resolves it.
  const [path = '', rest = ''] = /^([^?#]*)(.*)$/s.exec(url)?.slice(1) ?? [];
  if (/\.mdx?$/.test(path) && options.file) {
    const route = options.routesByFile?.get(resolve(dirname(options.file), decodeURI(path)));
    if (route !== undefined) return `${site}${route}${rest}`;
  }
  return new URL(url, page).href;
}

// ---------------------------------------------------------------------------------------------
// The tree transform.

function text(value: string): Text {
  return {type: 'text', value};
}

function paragraph(children: PhrasingContent[]): Paragraph {
  return {type: 'paragraph', children};
}

/** The nodes standing for a marked fence: file name, then code, TypeScript half first. */
function codeNodes(node: Code, options: ConvertOptions): RootContent[] {
  const clean = (code: string) =>
    code
      .split('\n')
      .filter((line) => !magicComment.test(line))
      .join('\n');
  const parsed = parseFence(node.value, node.lang);
  if (parsed.kind === 'error') {
    const start = node.position?.start.line;
    throw failure(
      options,
      start === undefined ? undefined : start + 1 + parsed.offset,
      parsed.reason,
    );
  }
  if (parsed.kind === 'plain') {
    const isScript = /^(ts|typescript|js|javascript|jsx|tsx)$/i.test(node.lang ?? '');
    return [
      {
        type: 'code',
        lang: node.lang,
        meta: null,
        value: isScript ? clean(node.value) : node.value,
      },
    ];
  }
  const pair = parsed.ts !== null && parsed.js !== null;
  const halves = [
    {lang: 'ts', half: parsed.ts, name: 'TypeScript'},
    {lang: 'js', half: parsed.js, name: 'JavaScript'},
  ];
  return halves.flatMap(({lang, half, name}): RootContent[] => {
    if (!half) return [];
    const heading: PhrasingContent[] =
      parsed.filename !== null
        ? [{type: 'inlineCode', value: `${parsed.filename}.${lang}`}]
        : pair
          ? [{type: 'strong', children: [text(name)]}]
          : [];
    return [
      ...(heading.length > 0 ? [paragraph(heading)] : []),
      {type: 'code', lang, meta: null, value: clean(half.code)},
    ];
  });
}

/** The source text of a node (a directive that is not a callout: `12:30`, `a:b`). */
function sourceText(node: Nodes, source: string): string {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  return start === undefined || end === undefined ? '' : source.slice(start, end);
}

/** A callout as a block quote: `> **Hint: Label**`, then its content. */
function callout(node: ContainerDirective, kind: CalloutKind): RootContent {
  const word = calloutKinds[kind];
  const [first, ...rest] = node.children;
  const labelled = first?.type === 'paragraph' && first.data?.directiveLabel === true;
  const label: PhrasingContent[] = labelled ? first.children : [];
  const title: PhrasingContent = {
    type: 'strong',
    children: label.length > 0 ? [text(`${word}: `), ...label] : [text(word)],
  };
  return {
    type: 'blockquote',
    children: [paragraph([title]), ...((labelled ? rest : node.children) as BlockContent[])],
  };
}

type JsxElement = MdxJsxFlowElement | MdxJsxTextElement;

/** The Markdown of a JSX element: a link, an image, a replacement, its children, or nothing. */
function jsxNodes(node: JsxElement, options: ConvertOptions): Nodes[] {
  const scope = options.scope ?? {};
  const name = node.name ?? '';
  const replacement = options.components?.[name];
  if (replacement) {
    const nodes = replacement();
    return node.type === 'mdxJsxTextElement'
      ? nodes.flatMap((child): Nodes[] => ('children' in child ? child.children : [child]))
      : nodes;
  }
  if (name === 'br') return [{type: 'break'}];
  if (name === 'img') {
    const src = attributeValue(node, 'src', scope);
    if (src === undefined) return [];
    const image: Image = {type: 'image', url: src, alt: attributeValue(node, 'alt', scope) ?? ''};
    return node.type === 'mdxJsxFlowElement' ? [paragraph([image])] : [image];
  }
  const href = name === 'a' || name === 'Link' ? attributeValue(node, 'href', scope) : undefined;
  const to = name === 'Link' ? attributeValue(node, 'to', scope) : undefined;
  const url = href ?? to;
  if (url !== undefined && node.type === 'mdxJsxTextElement') {
    const link: Link = {type: 'link', url, children: node.children};
    return [link];
  }
  if (url !== undefined && node.type === 'mdxJsxFlowElement') {
    const children = node.children.every((child) => child.type === 'paragraph')
      ? node.children.flatMap((child) => (child.type === 'paragraph' ? child.children : []))
      : [];
    return children.length > 0 ? [paragraph([{type: 'link', url, children}])] : node.children;
  }
  return node.children;
}

/** Whether a text ends a heading with a Docusaurus id: `## Title {#custom-id}`. */
const headingId = /\s*\{#[\w-]+\}\s*$/;

/** Rewrites one node into the nodes that replace it (recursing into the result). */
function rewrite(node: Nodes, options: ConvertOptions, source: string): Nodes[] {
  switch (node.type) {
    case 'yaml':
    case 'mdxjsEsm':
    case 'html':
      return [];
    case 'mdxFlowExpression':
    case 'mdxTextExpression': {
      const result = expressionValue(node, options.scope ?? {});
      if (result.comment) return [];
      const value = result.value;
      if (typeof value !== 'string' && typeof value !== 'number') {
        throw failure(
          options,
          node.position?.start.line,
          `cannot write the expression {${node.value}} as Markdown`,
        );
      }
      return node.type === 'mdxFlowExpression'
        ? [paragraph([text(String(value))])]
        : [text(String(value))];
    }
    case 'mdxJsxFlowElement':
    case 'mdxJsxTextElement':
      return jsxNodes(node, options).flatMap((child) => rewrite(child, options, source));
    case 'containerDirective':
      // The site renders the callout kinds only (src/features/markdown/callouts.ts); Docusaurus
      // leaves any other `:::name` unstyled, with a warning.
      if (!isCalloutKind(node.name)) {
        throw failure(
          options,
          node.position?.start.line,
          `:::${node.name} is not a callout kind (${Object.keys(calloutKinds).join(', ')})`,
        );
      }
      return rewrite(callout(node, node.name), options, source);
    case 'leafDirective':
      return [paragraph([text(sourceText(node as LeafDirective, source))])];
    case 'textDirective':
      return [text(sourceText(node as TextDirective, source))];
    case 'code':
      return codeNodes(node, options);
    case 'link':
    case 'definition':
      node.url = absoluteUrl(node.url, options);
      break;
    case 'image':
      node.url = absoluteUrl(node.url, options);
      break;
    default:
      break;
  }
  if ('children' in node) {
    const parent = node as Parents;
    (parent as {children: Nodes[]}).children = parent.children.flatMap((child) =>
      rewrite(child, options, source),
    );
    if (node.type === 'heading') tidyHeading(node);
  }
  return [node];
}

/** A heading without what followed its id comment or `{#id}`: no trailing blanks. */
function tidyHeading(heading: Heading): void {
  const last = heading.children.at(-1);
  if (last?.type === 'text') {
    last.value = last.value.replace(headingId, '').replace(/\s+$/, '');
    if (last.value === '') heading.children.pop();
  }
}

/** Merges adjacent text nodes (an expression's value next to the text around it). */
function mergeText(node: Nodes): void {
  if (!('children' in node)) return;
  const merged: Nodes[] = [];
  for (const child of node.children as Nodes[]) {
    const previous = merged.at(-1);
    if (child.type === 'text' && previous?.type === 'text') {
      previous.value += child.value;
    } else {
      merged.push(child);
      mergeText(child);
    }
  }
  (node as {children: Nodes[]}).children = merged;
}

/** The Markdown twin of a page, from its source text. */
export function toMarkdown(source: string, options: ConvertOptions): string {
  const tree = parser.parse(source);
  parser.runSync(tree);
  const root: Root = {type: 'root', children: []};
  root.children = tree.children.flatMap((child) =>
    rewrite(child, options, source),
  ) as RootContent[];
  mergeText(root);
  const first = root.children[0];
  if (!(first?.type === 'heading' && first.depth === 1)) {
    if (!options.title) throw failure(options, undefined, 'the page has no # title');
    root.children.unshift({type: 'heading', depth: 1, children: [text(options.title)]});
  }
  return String(printer.stringify(root)).replace(/\n{3,}/g, '\n\n');
}

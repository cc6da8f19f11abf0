/**
 * Remark plugin: the identifiers of code samples that name an export of the reference become
 * links to its entry, rendered on the server inside the highlighted code (see README.md).
 *
 * Runs after src/features/code/node/remarkCodePair.ts. For each `<CodePair>` it adds `tsLinks` / `jsLinks` (the
 * links of each half, ../codeLinks.ts); a plain `ts`/`js` fence whose code has links becomes a
 * `<CodePair>` with that one half and no file name (which renders exactly like the fence). The
 * signature blocks of the API pages are fences marked `api-refs="Name=package ..."` by the page
 * writer (./pages.ts): their names link to the entries the checker resolved them to.
 *
 * Nothing is looked up in the browser: each block carries its own links.
 */
import type {Code, Root, RootContent} from 'mdast';
import type {MdxJsxAttribute, MdxJsxFlowElement} from 'mdast-util-mdx-jsx';
import {visit} from 'unist-util-visit';
import {markerLanguage} from '../../markdown/markers.mjs';
import {encodeLinks, type CodeLink} from '../codeLinks';
import {sampleLinks, signatureLinks, type Resolve} from './sampleLinks';

/** The meta key of an API signature block: `api-refs="CanActivate=@nestjs/common Type=..."`. */
export const refsMeta = 'api-refs';

const refsPattern = new RegExp(`(?:^|\\s)${refsMeta}="([^"]*)"`);

/** The references of a signature block's meta, and the meta without them. */
export function parseRefsMeta(meta: string | null | undefined): {
  references: Record<string, string> | null;
  rest: string;
} {
  const match = meta ? refsPattern.exec(meta) : null;
  if (!meta || !match) return {references: null, rest: meta ?? ''};
  const references: Record<string, string> = {};
  for (const pair of match[1].split(/\s+/).filter(Boolean)) {
    const at = pair.indexOf('=');
    if (at > 0) references[pair.slice(0, at)] = `${pair.slice(at + 1)}#${pair.slice(0, at)}`;
  }
  return {references, rest: meta.replace(match[0], '').trim()};
}

/** `name=package` pairs for a signature block's meta. */
export function refsMetaValue(references: Readonly<Record<string, string>>): string {
  const pairs = Object.entries(references).map(([name, key]) => {
    const hash = key.lastIndexOf('#');
    // A name resolved to an export of another name (a renamed re-export) keeps its own key.
    return key.slice(hash + 1) === name ? `${name}=${key.slice(0, hash)}` : null;
  });
  return `${refsMeta}="${pairs.filter(Boolean).join(' ')}"`;
}

function attribute(name: string, value: string): MdxJsxAttribute {
  return {type: 'mdxJsxAttribute', name, value};
}

function stringAttribute(element: MdxJsxFlowElement, name: string): string | undefined {
  const found = element.attributes.find(
    (item): item is MdxJsxAttribute => item.type === 'mdxJsxAttribute' && item.name === name,
  );
  return typeof found?.value === 'string' ? found.value : undefined;
}

export interface Options {
  /** The URL of an export's entry, undefined when the reference has no such export. */
  readonly resolve: Resolve;
}

/** The remark plugin (`remarkPlugins: [codePair, [sampleLinksPlugin, {resolve}]]`). */
export default function sampleLinksPlugin(options: Options): (tree: Root) => void {
  const {resolve} = options;
  const linksOf = (code: string, lang: 'ts' | 'js'): CodeLink[] => {
    try {
      return sampleLinks(code, lang, resolve);
    } catch {
      // The parser never throws on bad code; anything else leaves the block without links.
      return [];
    }
  };
  return (tree) => {
    visit(tree, (node, index, parent) => {
      if (node.type === 'mdxJsxFlowElement' && node.name === 'CodePair') {
        for (const lang of ['ts', 'js'] as const) {
          const code = stringAttribute(node, lang);
          const links = code === undefined ? [] : linksOf(code, lang);
          if (links.length > 0) node.attributes.push(attribute(`${lang}Links`, encodeLinks(links)));
        }
        return undefined;
      }
      if (node.type !== 'code' || !parent || index === undefined) return undefined;
      const code = node as Code;
      const lang = markerLanguage(code.lang);
      if (!lang) return undefined;
      const {references, rest} = parseRefsMeta(code.meta);
      const links = references
        ? signatureLinks(code.value, references, resolve)
        : linksOf(code.value, lang);
      if (links.length === 0 && !references) return undefined;
      const attributes = [attribute(lang, code.value)];
      if (links.length > 0) attributes.push(attribute(`${lang}Links`, encodeLinks(links)));
      if (rest) attributes.push(attribute('meta', rest));
      const element: MdxJsxFlowElement = {
        type: 'mdxJsxFlowElement',
        name: 'CodePair',
        attributes,
        children: [],
        position: code.position,
      };
      const siblings: RootContent[] = parent.children;
      siblings[index] = element;
      return undefined;
    });
  };
}

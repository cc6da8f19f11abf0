/**
 * Remark plugin: turns marked fences into `<CodePair>` MDX elements.
 *
 *     ```ts
 *     @@filename(cats.controller)
 *     …TypeScript…
 *     @@switch
 *     …JavaScript…
 *     ```
 *
 * becomes `<CodePair filename="cats.controller" ts="…" js="…" />`. A fence
 * with `@@filename(name)` only becomes `<CodePair filename="name" ts="…" />`
 * (or `js="…"` for a js/javascript fence); one with `@@switch` only has no
 * `filename`. The fence's meta string, if any, is passed on as `meta`.
 * Fences without markers are left to Docusaurus.
 *
 * Malformed markers throw an Error whose message starts with `file:line:`
 * (the line of the offending marker in the page) followed by the reason.
 * The marker language itself lives in src/features/markdown/markers.mjs,
 * shared with `scripts/check-samples.mjs`.
 *
 * `CodePair` is registered globally in `src/features/markdown/client/MDXComponents.tsx`, so no
 * import is added to the page.
 */
import type {Code, Root, RootContent} from 'mdast';
import type {MdxJsxAttribute, MdxJsxFlowElement} from 'mdast-util-mdx-jsx';
import {visit} from 'unist-util-visit';
import {parseFence} from '../../markdown/markers.mjs';
import {location, type FileLike} from '../../markdown/node/fileLocation';

/** The name of the MDX component the plugin emits. */
export const componentName = 'CodePair';

function attribute(name: string, value: string): MdxJsxAttribute {
  return {type: 'mdxJsxAttribute', name, value};
}

/** The `<CodePair>` element for a fence, or null when it carries no marker. */
function transform(node: Code, file: FileLike): MdxJsxFlowElement | null {
  const parsed = parseFence(node.value, node.lang);
  if (parsed.kind === 'plain') {
    return null;
  }
  if (parsed.kind === 'error') {
    // The fence's first line is the opening ``` line; its value starts one below.
    const start = node.position?.start.line;
    const line = start === undefined ? undefined : start + 1 + parsed.offset;
    throw new Error(`${location(file, line)}: ${parsed.reason}`);
  }
  const attributes: MdxJsxAttribute[] = [];
  if (parsed.filename !== null) {
    attributes.push(attribute('filename', parsed.filename));
  }
  if (parsed.ts) {
    attributes.push(attribute('ts', parsed.ts.code));
  }
  if (parsed.js) {
    attributes.push(attribute('js', parsed.js.code));
  }
  if (node.meta) {
    attributes.push(attribute('meta', node.meta));
  }
  return {
    type: 'mdxJsxFlowElement',
    name: componentName,
    attributes,
    children: [],
    position: node.position,
  };
}

/** The remark plugin (use as `remarkPlugins: [codePair]`). */
export default function codePair(): (tree: Root, file: FileLike) => void {
  return (tree, file) => {
    visit(tree, 'code', (node, index, parent) => {
      const element = transform(node, file);
      if (!element || !parent || index === undefined) {
        return undefined;
      }
      // Every parent of a `code` node accepts flow content, JSX elements included.
      const siblings: RootContent[] = parent.children;
      siblings[index] = element;
      return undefined;
    });
  };
}

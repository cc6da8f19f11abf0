/**
 * Remark plugin: a page with code (a fence, a code pair or inline code) gets
 * `<MonospaceFontPreload />` as its last node (it renders nothing in place),
 * which preloads the code font from the page's head (src/features/fonts/client/FontPreload.tsx).
 * Pages without code do not ask for a file they never use. Registered globally
 * in src/features/markdown/client/MDXComponents.tsx, so no import is added to the page.
 */
import type {Root} from 'mdast';
import type {MdxJsxFlowElement} from 'mdast-util-mdx-jsx';
import {EXIT, visit} from 'unist-util-visit';
import {componentName as codePairName} from './remarkCodePair';

export const componentName = 'MonospaceFontPreload';

/** Whether the tree shows code: fences, inline code, or `<CodePair>` elements. */
export function hasCode(tree: Root): boolean {
  let found = false;
  visit(tree, (node) => {
    if (
      node.type === 'code' ||
      node.type === 'inlineCode' ||
      (node.type === 'mdxJsxFlowElement' && (node as MdxJsxFlowElement).name === codePairName)
    ) {
      found = true;
      return EXIT;
    }
    return undefined;
  });
  return found;
}

/** The remark plugin (use as `remarkPlugins: [monospaceFontPreload]`). */
export default function monospaceFontPreload(): (tree: Root) => void {
  return (tree) => {
    if (!hasCode(tree)) {
      return;
    }
    const element: MdxJsxFlowElement = {
      type: 'mdxJsxFlowElement',
      name: componentName,
      attributes: [],
      children: [],
    };
    tree.children.push(element);
  };
}

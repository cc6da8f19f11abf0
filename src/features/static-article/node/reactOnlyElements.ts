/**
 * Remark plugin: a page may not use an element that only works through its React component,
 * because a docs article is static on a first load (../README.md): nothing of React runs inside
 * it. Today that is `<details>`: Docusaurus' `Details` renders its content hidden with an inline
 * `display: none` and opens it in a click handler, so in a static article it would never open.
 * The build fails at once, naming the file and line, instead of shipping a box that does not open.
 * An element that works as plain HTML (or through the delegated listeners of ../client) is fine.
 */
import type {Root} from 'mdast';
import type {MdxJsxFlowElement, MdxJsxTextElement} from 'mdast-util-mdx-jsx';
import {visit} from 'unist-util-visit';
import {location, type FileLike} from '../../markdown/node/fileLocation';

/** Elements (as MDX names them) whose behaviour is their React component's, and why. */
export const reactOnlyElements: Readonly<Record<string, string>> = {
  details: "Docusaurus' Details opens only through React",
  Details: "Docusaurus' Details opens only through React",
};

export default function reactOnly() {
  return (tree: Root, file: FileLike): void => {
    visit(tree, (node) => {
      if (node.type !== 'mdxJsxFlowElement' && node.type !== 'mdxJsxTextElement') return;
      const {name, position} = node as MdxJsxFlowElement | MdxJsxTextElement;
      const reason = name ? reactOnlyElements[name] : undefined;
      if (reason) {
        throw new Error(
          `${location(file, position?.start.line)}: <${name}> does not work in a static article (${reason}); ` +
            'see src/features/static-article/README.md',
        );
      }
    });
  };
}

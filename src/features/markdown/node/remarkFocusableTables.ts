/**
 * Tables scroll sideways on narrow screens; a scrollable region must be
 * reachable by keyboard, so every markdown table gets `tabindex="0"`.
 */
import type {Root} from 'mdast';
import {visit} from 'unist-util-visit';

export default function focusableTables() {
  return (tree: Root): void => {
    visit(tree, 'table', (node) => {
      node.data = {...node.data, hProperties: {...node.data?.hProperties, tabIndex: 0}};
    });
  };
}

import {unified} from 'unified';
import remarkParse from 'remark-parse';
import remarkGfm from 'remark-gfm';
import remarkRehype from 'remark-rehype';
import {visit} from 'unist-util-visit';
import type {Element, Root} from 'hast';
import {describe, expect, it} from 'vitest';
import focusableTables from './remarkFocusableTables';

describe('focusableTables', () => {
  it('makes every table keyboard-focusable and leaves other nodes alone', async () => {
    const processor = unified()
      .use(remarkParse)
      .use(remarkGfm)
      .use(focusableTables)
      .use(remarkRehype);
    const tree = (await processor.run(
      processor.parse('| a | b |\n| - | - |\n| 1 | 2 |\n\ntext'),
    )) as Root;
    const elements: Element[] = [];
    visit(tree, 'element', (node: Element) => {
      elements.push(node);
    });
    const table = elements.find((node) => node.tagName === 'table');
    expect(table?.properties.tabIndex).toBe(0);
    const paragraph = elements.find((node) => node.tagName === 'p');
    expect(paragraph?.properties.tabIndex).toBeUndefined();
  });
});

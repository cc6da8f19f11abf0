import {unified} from 'unified';
import remarkParse from 'remark-parse';
import remarkMdx from 'remark-mdx';
import type {Root} from 'mdast';
import type {MdxJsxFlowElement} from 'mdast-util-mdx-jsx';
import {describe, expect, it} from 'vitest';
import codePair from './remarkCodePair';
import monospaceFontPreload, {componentName} from './remarkMonospaceFontPreload';

async function run(markdown: string, withCodePair = false): Promise<Root> {
  const processor = unified().use(remarkParse).use(remarkMdx);
  if (withCodePair) processor.use(codePair);
  processor.use(monospaceFontPreload);
  return (await processor.run(processor.parse(markdown), {path: 'docs/page.md'})) as Root;
}

const preloads = (tree: Root) =>
  tree.children.filter(
    (node) =>
      node.type === 'mdxJsxFlowElement' && (node as MdxJsxFlowElement).name === componentName,
  );

describe('monospaceFontPreload', () => {
  it('adds one preload element, last, to a page with a code fence', async () => {
    const tree = await run('# Title\n\nText.\n\n```ts\nconst a = 1;\n```\n\n```bash\nnpm i\n```\n');
    expect(preloads(tree)).toHaveLength(1);
    expect(tree.children.at(-1)).toMatchObject({type: 'mdxJsxFlowElement', name: componentName});
    // The title stays the first node (Docusaurus reads the page title from it).
    expect(tree.children[0]).toMatchObject({type: 'heading', depth: 1});
  });

  it('counts inline code and code pairs made by the codePair plugin', async () => {
    expect(preloads(await run('# Title\n\nCall `app.listen()` once.\n'))).toHaveLength(1);
    const pair = '```ts\n@@filename(a)\nconst a = 1;\n@@switch\nconst a = 1;\n```\n';
    const tree = await run(`# Title\n\n${pair}`, true);
    expect(tree.children.some((node) => node.type === 'code')).toBe(false);
    expect(preloads(tree)).toHaveLength(1);
  });

  it('leaves a page without code alone', async () => {
    const tree = await run('# Support\n\nWrite to us.\n\n- one\n- two\n');
    expect(preloads(tree)).toHaveLength(0);
    expect(tree.children).toHaveLength(3);
  });
});

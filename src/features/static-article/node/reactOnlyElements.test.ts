import {unified} from 'unified';
import remarkMdx from 'remark-mdx';
import remarkParse from 'remark-parse';
import {VFile} from 'vfile';
import {describe, expect, it} from 'vitest';
import reactOnly from './reactOnlyElements';

async function run(markdown: string): Promise<void> {
  const processor = unified().use(remarkParse).use(remarkMdx).use(reactOnly);
  const file = new VFile({path: '/site/docs/page.md', cwd: '/site', value: markdown});
  await processor.run(processor.parse(file), file);
}

describe('reactOnlyElements', () => {
  it('accepts plain Markdown and components that work without React', async () => {
    await expect(
      run('# Title\n\nText with a [link](/pipes).\n\n<EnterpriseBanner />\n'),
    ).resolves.toBeUndefined();
  });

  it('fails on <details>, naming the file and line', async () => {
    await expect(
      run('# Title\n\n<details>\n<summary>More</summary>\n\nHidden text.\n\n</details>\n'),
    ).rejects.toThrow(
      "docs/page.md:3: <details> does not work in a static article (Docusaurus' Details opens only through React)",
    );
  });

  it('ignores the word inside code', async () => {
    await expect(run('# Title\n\n```html\n<details></details>\n```\n')).resolves.toBeUndefined();
  });
});

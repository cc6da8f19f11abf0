import {unified} from 'unified';
import remarkParse from 'remark-parse';
import {VFile} from 'vfile';
import {describe, expect, it} from 'vitest';
import headingOrder from './remarkHeadingOrder';

async function run(markdown: string): Promise<void> {
  const processor = unified().use(remarkParse).use(headingOrder);
  const file = new VFile({path: '/site/docs/page.md', cwd: '/site', value: markdown});
  await processor.run(processor.parse(file), file);
}

describe('headingOrder', () => {
  it('accepts headings that descend one level at a time and climb back freely', async () => {
    await expect(
      run('# Title\n\n## A\n\n### A.1\n\n#### A.1.a\n\n## B\n\n### B.1\n'),
    ).resolves.toBeUndefined();
  });

  it('accepts a page without its own h1 (the title comes from front matter)', async () => {
    await expect(run('Intro.\n\n## Section\n\n### Sub\n')).resolves.toBeUndefined();
  });

  it('fails on a skipped level, naming the file and line', async () => {
    await expect(run('# Title\n\nText.\n\n### Too deep\n')).rejects.toThrow(
      'docs/page.md:5: heading level 3 follows level 1; use a level-2 heading',
    );
  });

  it('ignores hashes inside code fences', async () => {
    await expect(run('# Title\n\n```bash\n### not a heading\n```\n')).resolves.toBeUndefined();
  });
});

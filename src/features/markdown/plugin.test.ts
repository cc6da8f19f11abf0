import {describe, expect, it} from 'vitest';
import {descriptionProblems} from './plugin';

describe('requireDescriptions', () => {
  it('accepts unique descriptions', () => {
    expect(
      descriptionProblems([
        {source: '@site/docs/a.md', frontMatter: {description: 'A.'}},
        {source: '@site/docs/b.md', frontMatter: {description: 'B.'}},
      ]),
    ).toEqual([]);
  });

  it('names pages with a missing or duplicated description', () => {
    expect(
      descriptionProblems([
        {source: '@site/docs/a.md', frontMatter: {description: 'Same.'}},
        {source: '@site/docs/b.md', frontMatter: {}},
        {source: '@site/docs/c.md', frontMatter: {description: 'Same.'}},
        {source: '@site/docs/d.md', frontMatter: {description: '  '}},
      ]),
    ).toEqual([
      '@site/docs/b.md: front matter has no "description"',
      '@site/docs/c.md: same "description" as @site/docs/a.md',
      '@site/docs/d.md: front matter has no "description"',
    ]);
  });
});

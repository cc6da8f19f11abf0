import {describe, expect, it} from 'vitest';
import {collectSamples} from './samples.mjs';
import {page} from './testPage';

describe('check-types: samples of a page', () => {
  it('takes the TypeScript and JavaScript halves with their page lines', () => {
    const markdown = page([
      'ts',
      '@@filename(cats.service)\nexport class CatsService {}\n@@switch\nexport class CatsService {}',
    ]);
    expect(collectSamples(markdown, 'docs/p.md')).toEqual([
      {
        page: 'docs/p.md',
        filename: 'cats.service',
        lang: 'ts',
        code: 'export class CatsService {}',
        line: 5,
      },
      {
        page: 'docs/p.md',
        filename: 'cats.service',
        lang: 'js',
        code: 'export class CatsService {}',
        line: 7,
      },
    ]);
  });

  it('skips fences without markers and other languages', () => {
    const markdown = page(['ts', 'const a = 1;'], ['bash', '@@filename(x)\nls']);
    expect(collectSamples(markdown, 'docs/p.md')).toEqual([]);
  });
});

import {describe, expect, it} from 'vitest';
import {encodeLinks, linksByLine, shownLineIndex, shownLines} from './codeLinks';

describe('codeLinks', () => {
  const code = [
    'import { Get } from "@nestjs/common";',
    '// highlight-next-line',
    '@Get()',
    'x',
  ].join('\n');

  it('counts lines as Docusaurus shows them, without highlight comments', () => {
    expect(shownLines(code)).toEqual(['import { Get } from "@nestjs/common";', '@Get()', 'x']);
    expect(shownLineIndex(code)).toEqual([0, -1, 1, 2]);
  });

  it('round-trips links keyed by line text', () => {
    const encoded = encodeLinks([
      {line: 0, column: 9, length: 3, url: '/api/common#Get'},
      {line: 1, column: 1, length: 3, url: '/api/common#Get'},
    ]);
    expect(JSON.parse(encoded)).toEqual({'/api/common#Get': [0, 9, 1, 1]});
    const byLine = linksByLine(code, encoded);
    expect(byLine.get('import { Get } from "@nestjs/common";')).toEqual([
      [9, 3, '/api/common#Get'],
    ]);
    expect(byLine.get('@Get()')).toEqual([[1, 3, '/api/common#Get']]);
    expect(byLine.get('x')).toBeUndefined();
  });

  it('ignores malformed input instead of failing', () => {
    expect(linksByLine(code, 'not json').size).toBe(0);
    expect(linksByLine(code, '{"u": [99, 0, 0, 100, "a", 1]}').size).toBe(0);
    expect(linksByLine(code, '{"u": [2, 5]}').size).toBe(0);
    expect(linksByLine(code, '[1, 2]').size).toBe(0);
    expect(linksByLine(code, undefined).size).toBe(0);
  });
});

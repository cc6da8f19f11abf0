import {describe, expect, it} from 'vitest';
import {panelOffset} from './placement';
import {hasMatchedWords} from './ranking';

describe('search panel placement', () => {
  it('starts at the box when it fits', () => {
    expect(panelOffset(100, 480, 1280)).toBe(0);
  });
  it('moves left to end 16 px inside the viewport (768 px, box at 557)', () => {
    expect(panelOffset(557, 480, 768)).toBe(768 - 16 - 480 - 557);
  });
  it('never starts before the left margin', () => {
    expect(panelOffset(300, 600, 620)).toBe(16 - 300);
  });
});

describe('search results', () => {
  it('keeps only results that matched a word', () => {
    expect(hasMatchedWords({words: []})).toBe(false);
    expect(hasMatchedWords({words: [3, 8]})).toBe(true);
  });
});

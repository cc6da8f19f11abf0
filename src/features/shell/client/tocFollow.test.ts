import {describe, expect, it} from 'vitest';
import {followScroll} from './tocFollow';

describe('table of contents follow', () => {
  it('leaves the panel when the entry is in view', () => {
    expect(followScroll(0, 700, 300, 20)).toBeNull();
  });
  it('scrolls down just enough to show an entry below, with context', () => {
    expect(followScroll(0, 700, 900, 20)).toBe(900 + 20 + 48 - 700);
  });
  it('scrolls up to an entry above, never below 0', () => {
    expect(followScroll(500, 700, 520, 20)).toBe(472);
    expect(followScroll(30, 700, 10, 20)).toBe(0);
  });
});

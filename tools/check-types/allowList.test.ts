import {describe, expect, it} from 'vitest';
import {validateAllowList} from './allowList.mjs';

describe('check-types: allow-list', () => {
  const entry = {page: 'docs/p.md', filename: 'cats.service', reason: 'partial on purpose'};

  it('accepts entries with page, filename and a one-line reason', () => {
    expect(validateAllowList([entry])).toEqual({entries: [entry], errors: []});
    expect(validateAllowList([])).toEqual({entries: [], errors: []});
  });

  it('rejects entries without a reason, with a multi-line one, or listed twice', () => {
    const {entries, errors} = validateAllowList([
      {page: 'docs/p.md', filename: 'a'},
      {page: 'docs/p.md', filename: 'b', reason: '  '},
      {page: 'docs/p.md', filename: 'c', reason: 'one\ntwo'},
      entry,
      entry,
    ]);
    expect(entries).toEqual([entry]);
    expect(errors).toHaveLength(4);
    expect(errors[0]).toMatch(/entry 1 .*no reason/);
    expect(errors[1]).toMatch(/entry 2 .*no reason/);
    expect(errors[2]).toMatch(/entry 3 .*one line/);
    expect(errors[3]).toMatch(/entry 5 .*listed twice/);
  });

  it('rejects a file that is not an array of entries', () => {
    expect(validateAllowList({}).errors).toHaveLength(1);
    expect(validateAllowList(['x']).errors).toEqual(['allow-list entry 1: not an object']);
    expect(validateAllowList([{filename: 'a', reason: 'r'}]).errors[0]).toMatch(/"page"/);
    expect(validateAllowList([{...entry, extra: 1}]).errors[0]).toMatch(/unknown key/);
  });
});

// Compiles against tools/samples' packages; `npm run check:types` installs them

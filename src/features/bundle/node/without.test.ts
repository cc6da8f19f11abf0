import {describe, expect, it} from 'vitest';
import {patchesWithout, removablePatches} from './without';

describe('patchesWithout', () => {
  it('is empty when nothing is asked', () => {
    expect([...patchesWithout(undefined)]).toEqual([]);
    expect([...patchesWithout('')]).toEqual([]);
  });

  it('reads a comma-separated list, spaces allowed', () => {
    expect([...patchesWithout('slimSiteConfig, tslibHelpers')]).toEqual([
      'slimSiteConfig',
      'tslibHelpers',
    ]);
  });

  it('names the unknown entries and the known ones', () => {
    expect(() => patchesWithout('helmet,ssrTemplate')).toThrow(
      `NEST_WITHOUT: unknown patch "helmet"; known: ${Object.keys(removablePatches).join(', ')}`,
    );
  });
});

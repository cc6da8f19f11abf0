import {describe, expect, it} from 'vitest';
import {queriesFor} from './queries';

describe('closest pages for an unknown address', () => {
  it('searches the last segment first, then every word', () => {
    expect(queriesFor('/techniques/cachng')).toEqual(['cachng', 'techniques cachng']);
    expect(queriesFor('/guide/custom-pipes.html?x=1#y')).toEqual([
      'custom pipes',
      'guide custom pipes',
    ]);
    expect(queriesFor('/pipes')).toEqual(['pipes']);
    expect(queriesFor('/')).toEqual([]);
    expect(queriesFor('/a%20b/%E0%A4')).toEqual(['%E0%A4', 'a b %E0%A4']);
  });
});

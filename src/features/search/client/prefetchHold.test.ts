import {describe, expect, it} from 'vitest';
import {HOLD_CHECK_MS, heldWhileSearching} from './prefetchHold';

describe('prefetches while the reader searches', () => {
  it('pass straight through when no search is in progress', () => {
    const done: string[] = [];
    const prefetch = heldWhileSearching(
      (path) => {
        done.push(path);
        return false;
      },
      () => false,
      () => {
        throw new Error('nothing to wait for');
      },
    );
    prefetch('/a');
    expect(done).toEqual(['/a']);
  });

  it('wait while it holds, then run in order once it is over', () => {
    const done: string[] = [];
    const timers: {run: () => void; ms: number}[] = [];
    let searching = true;
    const prefetch = heldWhileSearching(
      (path) => {
        done.push(path);
        return false;
      },
      () => searching,
      (run, ms) => timers.push({run, ms}),
    );
    prefetch('/a');
    prefetch('/b');
    expect(done).toEqual([]);
    expect(timers.map(({ms}) => ms)).toEqual([HOLD_CHECK_MS]);
    // Still searching a second later: wait again.
    timers.shift()!.run();
    expect(done).toEqual([]);
    expect(timers).toHaveLength(1);
    // Over: what waited runs, and a prefetch asked meanwhile queues behind it.
    searching = false;
    prefetch('/c');
    timers.shift()!.run();
    expect(done).toEqual(['/a', '/b', '/c']);
    expect(timers).toHaveLength(0);
    prefetch('/d');
    expect(done).toEqual(['/a', '/b', '/c', '/d']);
  });
});

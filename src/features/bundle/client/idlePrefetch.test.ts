import {describe, expect, it} from 'vitest';
import {idleQueue, SLICE_MS} from './idlePrefetch';

describe('idleQueue', () => {
  it('defers prefetches to idle time and runs them while time remains', () => {
    const done: string[] = [];
    const pending: ((deadline: {timeRemaining: () => number}) => void)[] = [];
    const prefetch = idleQueue(
      (path) => {
        done.push(path);
        return false;
      },
      (run) => pending.push(run),
    );
    prefetch('/a');
    prefetch('/b');
    prefetch('/c');
    // Nothing runs at call time, and one idle callback is enough to schedule.
    expect(done).toEqual([]);
    expect(pending).toHaveLength(1);

    // An idle period with room for two.
    let budget = 13;
    pending.shift()!({timeRemaining: () => (budget -= 3)});
    expect(done).toEqual(['/a', '/b']);
    // The rest waits for the next idle period.
    expect(pending).toHaveLength(1);
    pending.shift()!({timeRemaining: () => 50});
    expect(done).toEqual(['/a', '/b', '/c']);
    expect(pending).toHaveLength(0);

    // A later call schedules again.
    prefetch('/d');
    expect(pending).toHaveLength(1);
  });
});

describe('idleQueue slices', () => {
  it('stops an idle callback after SLICE_MS of prefetching, even with idle time left', () => {
    const done: string[] = [];
    const pending: ((deadline: {timeRemaining: () => number}) => void)[] = [];
    let clock = 0;
    const prefetch = idleQueue(
      (path) => {
        done.push(path);
        clock += 3; // each prefetch takes 3 ms
        return false;
      },
      (run) => pending.push(run),
      () => clock,
    );
    for (const path of ['/a', '/b', '/c', '/d', '/e']) prefetch(path);
    pending.shift()!({timeRemaining: () => 50});
    // 0, 3 and 6 ms are under the slice; at 9 ms it yields.
    expect(SLICE_MS).toBe(8);
    expect(done).toEqual(['/a', '/b', '/c']);
    expect(pending).toHaveLength(1);
    pending.shift()!({timeRemaining: () => 50});
    expect(done).toEqual(['/a', '/b', '/c', '/d', '/e']);
    expect(pending).toHaveLength(0);
  });
});

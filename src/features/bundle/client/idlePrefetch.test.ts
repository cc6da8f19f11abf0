import {describe, expect, it} from 'vitest';
import {idleQueue, SEARCH_WAIT_MS, SLICE_MS} from './idlePrefetch';

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

describe('idleQueue while the reader searches', () => {
  it('runs nothing while held, looks again later, and drains once released', () => {
    const done: string[] = [];
    const idleRuns: ((deadline: {timeRemaining: () => number}) => void)[] = [];
    const timers: {run: () => void; ms: number}[] = [];
    let searching = true;
    const prefetch = idleQueue(
      (path) => {
        done.push(path);
        return false;
      },
      (run) => idleRuns.push(run),
      () => 0,
      () => searching,
      (run, ms) => timers.push({run, ms}),
    );
    prefetch('/a');
    prefetch('/b');
    idleRuns.shift()!({timeRemaining: () => 50});
    expect(done).toEqual([]);
    expect(timers.map(({ms}) => ms)).toEqual([SEARCH_WAIT_MS]);
    // Still searching a second later: wait again.
    timers.shift()!.run();
    idleRuns.shift()!({timeRemaining: () => 50});
    expect(done).toEqual([]);
    expect(timers).toHaveLength(1);
    // The search is over: the queue drains in the next idle period.
    searching = false;
    timers.shift()!.run();
    idleRuns.shift()!({timeRemaining: () => 50});
    expect(done).toEqual(['/a', '/b']);
    expect(timers).toHaveLength(0);
  });
});

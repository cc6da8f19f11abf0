/**
 * `claim()` is the suite's `test()`: it names the claim it checks by the page
 * and heading that state it (`docs/techniques/queues.md#retries`), so the
 * claims of a page and their tests can be listed together, and the runner can
 * count them (`N claims verified on P pages`).
 */
import {test} from 'vitest';
import {parseRef} from './pages';

export const claimSeparator = ' :: ';

/**
 * @param ref `docs/<page>.md#<heading-id>`: the heading must exist (checked when the file is collected).
 * @param statement what the page says happens, in a few words.
 */
export function claim(
  ref: string,
  statement: string,
  fn: () => unknown | Promise<unknown>,
  timeout?: number,
): void {
  parseRef(ref);
  test(`${ref}${claimSeparator}${statement}`, fn, timeout);
}

/**
 * `claim()` is the suite's `test()`: it names the claim it checks by the page
 * and heading that state it (`docs/techniques/queues.md#retries`), so the
 * claims of a page and their tests can be listed together, and the runner can
 * count them (`N claims verified (A abuse cases, F failure modes) on P pages`).
 *
 * Three kinds, each its own function, so that the report can count them:
 * - `claim()`: what the page says happens on the path it describes;
 * - `claim.abuse()`: what the page's sample does against a hostile or careless
 *   caller (no token, a wrong role, a second user, a bracketed query value, a
 *   forged header, a foreign origin, an oversized body, a literal secret);
 * - `claim.failure()`: what it does when something it depends on fails (a
 *   missing environment variable, a broker or database down at start or
 *   restarted, a handler returning null, an async listener that throws,
 *   SIGTERM).
 * The kind is written into the test's name (`ref :: [abuse] statement`), so
 * `-t '\[abuse\]'` runs only the abuse cases, and `npm run test:behaviour --
 * --list` lists them without running anything.
 */
import {test} from 'vitest';
import {parseRef} from './pages';
import {claimSeparator, kindTag, type ClaimKind} from './claim-name.mjs';

export {claimSeparator, claimKinds, kindTag, parseClaimName} from './claim-name.mjs';
export type {ClaimKind} from './claim-name.mjs';
type Body = () => unknown | Promise<unknown>;

function define(kind: ClaimKind) {
  return (ref: string, statement: string, fn: Body, timeout?: number): void => {
    parseRef(ref);
    if (!statement.trim()) throw new Error(`behaviour: a claim of ${ref} has no statement`);
    test(`${ref}${claimSeparator}${kindTag(kind)}${statement}`, fn, timeout);
  };
}

interface Claim {
  /**
   * @param ref `docs/<page>.md#<heading-id>`: the heading must exist (checked when the file is collected).
   * @param statement what the page says happens, in a few words.
   */
  (ref: string, statement: string, fn: Body, timeout?: number): void;
  /** What the sample does against a hostile or careless caller (see the file's comment). */
  abuse: (ref: string, statement: string, fn: Body, timeout?: number) => void;
  /** What the sample does when a dependency or the configuration fails (see the file's comment). */
  failure: (ref: string, statement: string, fn: Body, timeout?: number) => void;
}

export const claim: Claim = Object.assign(define('claim'), {
  abuse: define('abuse'),
  failure: define('failure'),
});

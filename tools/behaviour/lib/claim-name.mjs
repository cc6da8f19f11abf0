// @ts-check
/**
 * How a claim's kind is written into its test's name, read by the suite
 * (claim.ts, reporter.ts) and by `npm run test:behaviour -- --list`
 * (scripts/test-behaviour.mjs): `docs/<page>.md#<heading> :: [abuse] statement`.
 */

export const claimSeparator = ' :: ';

/** The kinds of claim, in the order the report prints them; a plain `claim` has no tag. */
export const claimKinds = /** @type {const} */ (['claim', 'abuse', 'failure']);

/** @typedef {(typeof claimKinds)[number]} ClaimKind */

/**
 * The tag a kind puts at the start of the statement (`[abuse] `), empty for a plain claim.
 * @param {ClaimKind} kind
 */
export function kindTag(kind) {
  return kind === 'claim' ? '' : `[${kind}] `;
}

/**
 * Splits a test's name into page, ref, kind and statement; null for a test that is not a claim.
 * @param {string} name
 * @returns {{ref: string, page: string, kind: ClaimKind, statement: string} | null}
 */
export function parseClaimName(name) {
  const index = name.indexOf(claimSeparator);
  if (index < 0) return null;
  const ref = name.slice(0, index);
  let statement = name.slice(index + claimSeparator.length);
  /** @type {ClaimKind} */
  let kind = 'claim';
  for (const candidate of claimKinds) {
    const tag = kindTag(candidate);
    if (tag && statement.startsWith(tag)) {
      kind = candidate;
      statement = statement.slice(tag.length);
    }
  }
  return {ref, page: ref.split('#')[0], kind, statement};
}

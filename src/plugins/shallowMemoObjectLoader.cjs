// @ts-check
/**
 * Bundler loader for @docusaurus/theme-common's lib/utils/reactUtils.js (see
 * ./shallowMemoObject.ts): `useShallowMemoObject` orders its object's entries by key with
 * `localeCompare`; the same order by code unit, without the collator.
 */
const original = 'deps.sort((a, b) => a[0].localeCompare(b[0]));';
const replacement = 'deps.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));';

/**
 * The module's source with the comparator replaced. Throws if the line is not there (a
 * Docusaurus upgrade changed it): the build fails rather than silently keeping the collator.
 * @param {string} source
 * @returns {string}
 */
function rewrite(source) {
  if (!source.includes(original)) {
    throw new Error(
      `src/plugins/shallowMemoObjectLoader.cjs: "${original}" not found in theme-common's reactUtils.js; review src/plugins/shallowMemoObject.ts`,
    );
  }
  return source.replace(original, replacement);
}

/** @param {string} source */
module.exports = function shallowMemoObjectLoader(source) {
  return rewrite(source);
};
module.exports.rewrite = rewrite;

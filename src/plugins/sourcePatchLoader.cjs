// @ts-check
/**
 * Bundler loader of ./sourcePatches.ts: replaces one exact piece of a package's built file.
 */

/**
 * @typedef {{name: string, original: string, replacement: string}} PatchOptions
 */

/**
 * The source with the patch's text replaced, once. Throws if the text is not there (an upgrade
 * changed the file): the build fails rather than silently losing the fix.
 * @param {string} source
 * @param {PatchOptions} patch
 * @returns {string}
 */
function rewrite(source, patch) {
  const at = source.indexOf(patch.original);
  if (at === -1) {
    throw new Error(
      `src/plugins/sourcePatches.ts: patch "${patch.name}" did not find "${patch.original}"; review the patch against the installed package`,
    );
  }
  return source.slice(0, at) + patch.replacement + source.slice(at + patch.original.length);
}

/**
 * @this {{getOptions(): PatchOptions}}
 * @param {string} source
 */
module.exports = function sourcePatchLoader(source) {
  return rewrite(source, this.getOptions());
};
module.exports.rewrite = rewrite;

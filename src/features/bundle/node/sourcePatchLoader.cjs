// @ts-check
/**
 * Bundler loader of ./sourcePatches.ts: replaces exact pieces of a package's built file.
 */

/**
 * @typedef {{original: string, replacement: string}} Edit
 * @typedef {{name: string, edits: readonly Edit[]}} PatchOptions
 */

/**
 * The source with each of the patch's pieces replaced, once, in order. Throws if a piece is not
 * there (an upgrade changed the file): the build fails rather than silently losing the fix.
 * @param {string} source
 * @param {PatchOptions} patch
 * @returns {string}
 */
function rewrite(source, patch) {
  return patch.edits.reduce((text, {original, replacement}) => {
    const at = text.indexOf(original);
    if (at === -1) {
      throw new Error(
        `src/features/bundle/node/sourcePatches.ts: patch "${patch.name}" did not find "${original}"; review the patch against the installed package`,
      );
    }
    return text.slice(0, at) + replacement + text.slice(at + original.length);
  }, source);
}

/**
 * @this {{getOptions(): PatchOptions}}
 * @param {string} source
 */
module.exports = function sourcePatchLoader(source) {
  return rewrite(source, this.getOptions());
};
module.exports.rewrite = rewrite;

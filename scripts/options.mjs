// @ts-check
/**
 * The value after `--name` on the command line, or `undefined` (scripts/bench.mjs,
 * scripts/bundle-report.mjs).
 * @param {string} name
 */
export function option(name) {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? undefined : process.argv[index + 1];
}

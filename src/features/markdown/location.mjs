// @ts-check
/**
 * The one format of an error that points into a file, for every check of the project (the
 * remark plugins, the Markdown twins, check:samples, check:types): `file:line: reason`, with a
 * 1-based line, or `file: reason` when the line is unknown. Editors and terminals open
 * `file:line` as it is.
 */

/**
 * `file:line`, or `file` when the line is unknown.
 * @param {string} file
 * @param {number | undefined} [line]
 * @returns {string}
 */
export function fileLine(file, line) {
  return line === undefined ? file : `${file}:${line}`;
}

/**
 * `file:line: reason`.
 * @param {string} file
 * @param {number | undefined} line
 * @param {string} reason
 * @returns {string}
 */
export function located(file, line, reason) {
  return `${fileLine(file, line)}: ${reason}`;
}

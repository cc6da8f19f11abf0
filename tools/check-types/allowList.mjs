// @ts-check
/**
 * The allow-list (tools/samples/allow-list.json): known failures, each with a one-line reason.
 */

/** @typedef {import('./types').AllowEntry} AllowEntry */

/**
 * Validates the parsed allow-list file.
 * @param {unknown} data
 * @returns {{entries: AllowEntry[], errors: string[]}}
 */
export function validateAllowList(data) {
  /** @type {AllowEntry[]} */
  const entries = [];
  /** @type {string[]} */
  const errors = [];
  if (!Array.isArray(data)) {
    return {entries, errors: ['the allow-list must be a JSON array of {page, filename, reason}']};
  }
  const seen = new Set();
  data.forEach((item, i) => {
    const where = `allow-list entry ${i + 1}`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      errors.push(`${where}: not an object`);
      return;
    }
    const {page, filename, reason, ...rest} = /** @type {Record<string, unknown>} */ (item);
    const unknown = Object.keys(rest);
    if (unknown.length > 0) {
      errors.push(`${where}: unknown key(s) ${unknown.join(', ')}`);
    }
    if (typeof page !== 'string' || page.trim() === '') {
      errors.push(`${where}: "page" must be a page path such as docs/controllers.md`);
      return;
    }
    if (typeof filename !== 'string' || filename.trim() === '') {
      errors.push(`${where} (${page}): "filename" must be the sample's @@filename name`);
      return;
    }
    if (typeof reason !== 'string' || reason.trim() === '') {
      errors.push(`${where} (${page} ${filename}): no reason: say in one line why it may fail`);
      return;
    }
    if (/[\r\n]/.test(reason)) {
      errors.push(`${where} (${page} ${filename}): the reason must be one line`);
      return;
    }
    const id = `${page}\0${filename}`;
    if (seen.has(id)) {
      errors.push(`${where} (${page} ${filename}): listed twice`);
      return;
    }
    seen.add(id);
    entries.push({page, filename, reason: reason.trim()});
  });
  return {entries, errors};
}

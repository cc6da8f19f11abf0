// @ts-check
/**
 * Text made safe to write into HTML or XML, as element content or a quoted attribute value:
 * `&`, `<`, `>`, `"` and `'` as entities. The one escape of the markup the site writes itself
 * (the menu's pending entries, the API reference's search records, the docset's pages and feed,
 * the offline page's list), shared by build-time and browser code. Plain JavaScript: the service
 * worker imports it too, and plugin-pwa compiles the worker with Babel only.
 */

/** @type {Readonly<Record<string, string>>} */
const entities = {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'};

/**
 * @param {string} text
 * @returns {string}
 */
export function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (char) => entities[char] ?? char);
}

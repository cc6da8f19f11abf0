/** Test helper of check-types: a page made of code fences. */

/** A page made of fences: [lang, code] pairs, each after a heading line and a blank line. */
export function page(...fences: [string, string][]): string {
  return fences.map(([lang, code]) => `Text\n\n\`\`\`${lang}\n${code}\n\`\`\`\n`).join('\n');
}

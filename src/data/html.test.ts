import {readFileSync, readdirSync} from 'node:fs';
import {join, relative} from 'node:path';
import {describe, expect, it} from 'vitest';
import {escapeHtml} from './html';

const root = join(__dirname, '..', '..');

/** The site's own code: src/ (tests left out), sidebars.ts and the config. */
function codeFiles(): string[] {
  const files = ['sidebars.ts', 'docusaurus.config.ts'].map((file) => join(root, file));
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, {withFileTypes: true})) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(?:ts|tsx|js|mjs|cjs)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
        files.push(path);
    }
  };
  walk(join(root, 'src'));
  return files;
}

describe('escapeHtml', () => {
  it('writes the five characters markup reads as entities, & first', () => {
    expect(escapeHtml(`<a href="x">Tom & Jerry's</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;',
    );
    expect(escapeHtml('&lt;')).toBe('&amp;lt;');
  });

  it('leaves other text as it is', () => {
    expect(escapeHtml('ParseIntPipe · v8 — “quotes” /controllers?lang=js')).toBe(
      'ParseIntPipe · v8 — “quotes” /controllers?lang=js',
    );
    expect(escapeHtml('')).toBe('');
  });

  it('is the only escape of & in the site code (no copy to drift from it)', () => {
    // An escape writes `&` as `&amp;`: `.replace(/&/g, '&amp;')` or an entity table `'&': '&amp;'`.
    // Decoders (`'&amp;': '&'`, `/&amp;/g, '&'`) are another thing and are not matched.
    const escape = /\/&\/g,\s*['"`]&amp;['"`]|['"`]&['"`]\s*:\s*['"`]&amp;['"`]/;
    const copies = codeFiles()
      .filter((file) => escape.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file));
    expect(copies).toEqual(['src/data/html.js']);
  });
});

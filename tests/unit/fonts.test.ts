import {existsSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {fontFaceCss, fontHeadTags, fonts, prepareFonts} from '../../src/node/fonts';

describe('fonts', () => {
  it('declares each face with a fixed /fonts/ URL and swap', () => {
    const css = fontFaceCss();
    expect(css.match(/@font-face/g)).toHaveLength(fonts.length);
    expect(css).toContain(
      "@font-face{font-family:'Source Sans 3';font-style:normal;font-weight:400;font-display:swap;" +
        "src:url(/fonts/source-sans-3-latin-400-normal.woff2) format('woff2')}",
    );
  });

  it('preloads the body text face, as CORS font requests', () => {
    const links = fontHeadTags().filter((tag) => tag.tagName === 'link');
    expect(links.map((tag) => tag.attributes?.href)).toEqual([
      '/fonts/source-sans-3-latin-400-normal.woff2',
    ]);
    for (const link of links) {
      expect(link.attributes).toMatchObject({rel: 'preload', as: 'font', crossorigin: 'anonymous'});
    }
  });

  it('copies the listed WOFF2 files from the packages into a static directory', () => {
    const staticDir = prepareFonts(process.cwd(), fonts);
    expect(staticDir).toBe(join(process.cwd(), 'node_modules', '.cache', 'nest-fonts'));
    for (const font of fonts) {
      const copied = join(staticDir, 'fonts', font.file);
      expect(existsSync(copied)).toBe(true);
      expect(readFileSync(copied).subarray(0, 4).toString('latin1')).toBe('wOF2');
    }
  });
});

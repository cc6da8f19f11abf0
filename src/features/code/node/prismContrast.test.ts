import {themes} from 'prism-react-renderer';
import {describe, expect, it} from 'vitest';
import {contrast, ensureContrast, withContrast} from './prismContrast';

describe('prism contrast', () => {
  it('computes WCAG contrast ratios', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 0);
    expect(contrast('#ffffff', '#ffffff')).toBeCloseTo(1, 5);
  });

  it('keeps colours that already pass and fixes those that do not', () => {
    expect(ensureContrast('#000000', '#ffffff')).toBe('#000000');
    const fixed = ensureContrast('#d73a49', '#f6f8fa');
    expect(contrast(fixed, '#f6f8fa')).toBeGreaterThanOrEqual(4.5);
    const lightened = ensureContrast('#6272a4', '#282a36');
    expect(contrast(lightened, '#282a36')).toBeGreaterThanOrEqual(4.5);
  });

  it('brings every token of the site themes to 4.5:1', () => {
    for (const theme of [themes.github, themes.dracula]) {
      const safe = withContrast(theme);
      const background = safe.plain.backgroundColor!;
      for (const {style} of safe.styles) {
        if (style.color) expect(contrast(style.color, background)).toBeGreaterThanOrEqual(4.5);
      }
    }
  });
});

import {readFileSync} from 'node:fs';
import {mkdtemp, readFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import type {LoadContext} from '@docusaurus/types';
import {describe, expect, it} from 'vitest';
import {
  brandFaces,
  brandMetrics,
  fallbackFamily,
  fallbackStylesheet,
  fontStack,
  metricsFor,
  systemFallbacks,
} from './node/fallbacks';
import fontFallbacks from './plugin';

const customCss = readFileSync(join(__dirname, '..', 'shell', 'client', 'custom.css'), 'utf8');

/** The `@font-face` blocks of a stylesheet, as property maps. */
function faces(css: string): Record<string, string>[] {
  return [...css.matchAll(/@font-face\s*{([^}]*)}/g)].map((match) =>
    Object.fromEntries(
      match[1]
        .split(';')
        .map((line) => line.trim())
        .filter(Boolean)
        .map((line) => {
          const colon = line.indexOf(':');
          return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
        }),
    ),
  );
}

const percent = (value: string | undefined) => Number(value?.replace('%', '')) / 100;

describe('metric-matched fallback faces', () => {
  it('reads the brand metrics from the font files the site serves', async () => {
    const regular = await brandMetrics(brandFaces[0].file);
    expect(regular.unitsPerEm).toBe(1000);
    expect(regular.ascent).toBeGreaterThan(0);
    expect(regular.descent).toBeLessThan(0);
    expect(regular.xWidthAvg).toBeGreaterThan(300);
    const bold = await brandMetrics(brandFaces[2].file);
    // A bolder cut is wider: the numbers really come from each file.
    expect(bold.xWidthAvg).toBeGreaterThan(regular.xWidthAvg);
  });

  it('declares one face per brand face and system font, with computed overrides', async () => {
    const css = await fallbackStylesheet();
    const found = faces(css);
    const expected = brandFaces.flatMap((face) =>
      (systemFallbacks[face.family] ?? []).map((fallback) => ({face, fallback})),
    );
    expect(found).toHaveLength(expected.length);
    for (const [index, {face, fallback}] of expected.entries()) {
      const rule = found[index];
      expect(rule['font-family']).toBe(`'${fallbackFamily(face.family, fallback)}'`);
      expect(rule['font-weight']).toBe(String(face.weight));
      const names = face.weight >= 600 ? fallback.local.bold : fallback.local.regular;
      expect(rule.src).toBe(names.map((name) => `local('${name}')`).join(', '));

      // Worked out here from the two fonts' metrics, independently of @capsizecss/core: the
      // fallback is scaled so that its average glyph width is the brand font's, and its line box
      // is the brand font's ascent and descent at that scale.
      const brand = await brandMetrics(face.file);
      const system = metricsFor(fallback.metrics, face.weight >= 600 ? 'bold' : 'regular');
      const size = brand.xWidthAvg / brand.unitsPerEm / (system.xWidthAvg / system.unitsPerEm);
      expect(percent(rule['size-adjust'])).toBeCloseTo(size, 5);
      expect(percent(rule['ascent-override'])).toBeCloseTo(
        brand.ascent / (brand.unitsPerEm * size),
        5,
      );
      expect(percent(rule['descent-override'])).toBeCloseTo(
        -brand.descent / (brand.unitsPerEm * size),
        5,
      );
      if (system.lineGap !== 0) expect(percent(rule['line-gap-override'])).toBe(0);
    }
  });

  it('matches Arial to Source Sans 3 with known numbers', async () => {
    const css = await fallbackStylesheet([brandFaces[0]]);
    const [arial] = faces(css);
    // Source Sans 3: 418/1000 average width; Arial: 913/2048.
    expect(percent(arial['size-adjust'])).toBeCloseTo(0.418 / (913 / 2048), 4);
  });

  it('the site declares the brand faces it measures, with swap, and lists the fallbacks next', () => {
    const declared = faces(customCss).map((rule) => ({
      family: rule['font-family'].replace(/'/g, ''),
      weight: Number(rule['font-weight']),
      display: rule['font-display'],
      file: /url\('~([^']+)'\)/.exec(rule.src)?.[1],
    }));
    expect(declared).toEqual(
      brandFaces.map((face) => ({
        family: face.family,
        weight: face.weight,
        display: 'swap',
        file: face.file,
      })),
    );
    const variable = (name: string) =>
      new RegExp(`--ifm-font-family-${name}:\\s*([^;]+);`)
        .exec(customCss)?.[1]
        .replace(/\s+/g, ' ');
    expect(variable('base')).toMatch(
      new RegExp(`^${fontStack('Source Sans 3', []).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, `),
    );
    expect(variable('monospace')).toMatch(
      new RegExp(`^${fontStack('Inconsolata', []).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, `),
    );
  });

  it('the plugin writes the stylesheet and loads it as a client module', async () => {
    const generatedFilesDir = await mkdtemp(join(tmpdir(), 'font-fallbacks-'));
    const plugin = await fontFallbacks({generatedFilesDir} as LoadContext);
    const modules = plugin.getClientModules?.() ?? [];
    expect(modules).toHaveLength(1);
    expect(await readFile(modules[0], 'utf8')).toContain("'Source Sans 3 Fallback: Arial'");
  });
});

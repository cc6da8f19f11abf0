/**
 * Metric-matched fallback faces for the brand fonts (used by src/features/fonts/plugin.ts).
 *
 * The brand fonts are shown with `font-display: swap` (src/features/shell/client/custom.css): until a font file
 * arrives the text is painted in a local system font, then in the brand font. For the swap to move
 * nothing, the local font is declared again under a family of its own (`Source Sans 3 Fallback:
 * Arial`, …) with `size-adjust` (its average glyph width scaled to the brand font's) and
 * `ascent-override`, `descent-override`, `line-gap-override` (its line box made the brand font's).
 *
 * The numbers are computed, not tuned: the brand font's metrics are read from the very WOFF2
 * files the site serves (@capsizecss/unpack), the system fonts' from @capsizecss/metrics, and the
 * overrides by @capsizecss/core's `createFontStack`. A font update changes them at the next build.
 */
import {createRequire} from 'node:module';
import {createFontStack, type FontMetrics} from '@capsizecss/core';

const require = createRequire(__filename);

/** A web font face the site serves (and declares in src/features/shell/client/custom.css). */
export interface BrandFace {
  readonly family: string;
  readonly weight: 400 | 600 | 700;
  /** The WOFF2 file, as a module path. */
  readonly file: string;
}

/**
 * A system font to stand in for a brand font, with the local names it goes by per platform and
 * the fonts metric-compatible with it (same advance widths): Liberation and the Chrome OS fonts.
 */
export interface SystemFallback {
  /** Key of its metrics in @capsizecss/metrics (`arial`, `arial/700`: see `metricsFor`). */
  readonly metrics: string;
  readonly name: string;
  readonly local: {readonly regular: readonly string[]; readonly bold: readonly string[]};
}

export const brandFaces: readonly BrandFace[] = [
  {
    family: 'Source Sans 3',
    weight: 400,
    file: '@fontsource/source-sans-3/files/source-sans-3-latin-400-normal.woff2',
  },
  {
    family: 'Source Sans 3',
    weight: 600,
    file: '@fontsource/source-sans-3/files/source-sans-3-latin-600-normal.woff2',
  },
  {
    family: 'Source Sans 3',
    weight: 700,
    file: '@fontsource/source-sans-3/files/source-sans-3-latin-700-normal.woff2',
  },
  {
    family: 'Inconsolata',
    weight: 400,
    file: '@fontsource/inconsolata/files/inconsolata-latin-400-normal.woff2',
  },
];

/**
 * Per brand family, the system fonts that stand in for it, in order. Arial is on Windows and
 * macOS, and as Liberation Sans / Arimo (same widths) on most Linux desktops and Chrome OS; Roboto
 * is Android's. Courier New likewise, as Liberation Mono / Cousine on Linux.
 */
export const systemFallbacks: Readonly<Record<string, readonly SystemFallback[]>> = {
  'Source Sans 3': [
    {
      metrics: 'arial',
      name: 'Arial',
      local: {
        regular: ['Arial', 'ArialMT', 'Liberation Sans', 'LiberationSans', 'Arimo'],
        bold: [
          'Arial Bold',
          'Arial-BoldMT',
          'Liberation Sans Bold',
          'LiberationSans-Bold',
          'Arimo Bold',
        ],
      },
    },
    {
      metrics: 'roboto',
      name: 'Roboto',
      local: {regular: ['Roboto', 'Roboto-Regular'], bold: ['Roboto Bold', 'Roboto-Bold']},
    },
  ],
  Inconsolata: [
    {
      metrics: 'courierNew',
      name: 'Courier New',
      local: {
        regular: ['Courier New', 'CourierNewPSMT', 'Liberation Mono', 'LiberationMono', 'Cousine'],
        bold: [
          'Courier New Bold',
          'CourierNewPS-BoldMT',
          'Liberation Mono Bold',
          'LiberationMono-Bold',
          'Cousine Bold',
        ],
      },
    },
  ],
};

/** The family name of the fallback face for `fallback` standing in for `family`. */
export const fallbackFamily = (family: string, fallback: SystemFallback): string =>
  `${family} Fallback: ${fallback.name}`;

/** The CSS `font-family` list for a brand family: the brand font, its fallback faces, then `generic`. */
export function fontStack(family: string, generic: readonly string[]): string {
  const names = [family, ...(systemFallbacks[family] ?? []).map((f) => fallbackFamily(family, f))];
  return [...names.map((name) => `'${name}'`), ...generic].join(', ');
}

/** @capsizecss/metrics' numbers for a system font, regular or bold. */
export function metricsFor(key: string, weight: 'regular' | 'bold'): FontMetrics {
  const path = `@capsizecss/metrics/${key}${weight === 'bold' ? '/700' : ''}`;
  // The package's CommonJS build: its ESM one cannot be required by the config loader.
  const module = require(path) as FontMetrics | {default: FontMetrics};
  return 'default' in module ? module.default : module;
}

/** Reads a WOFF2 file's metrics (@capsizecss/unpack is an ES module: imported by its path). */
export async function brandMetrics(file: string): Promise<FontMetrics> {
  const {fromFile} = (await import(
    require.resolve('@capsizecss/unpack/fs')
  )) as typeof import('@capsizecss/unpack/fs');
  return fromFile(require.resolve(file));
}

const declaration = (property: string, value: string) => `  ${property}: ${value};`;

/**
 * The `@font-face` rules of every fallback face: per brand face (family and weight), one per
 * system fallback, over its regular local font for weights below 600 and its bold one above.
 */
export function fallbackFaces(
  faces: readonly {readonly face: BrandFace; readonly metrics: FontMetrics}[],
): string {
  const rules: string[] = [];
  for (const {face, metrics} of faces) {
    for (const fallback of systemFallbacks[face.family] ?? []) {
      const weight = face.weight >= 600 ? 'bold' : 'regular';
      const {fontFaces} = createFontStack(
        [{...metrics, familyName: face.family}, metricsFor(fallback.metrics, weight)],
        {fontFaceFormat: 'styleObject'},
      );
      const {
        fontFamily: _family,
        src: _src,
        ...overrides
      } = fontFaces[0]?.['@font-face'] ?? ({} as Record<string, string>);
      rules.push(
        [
          '@font-face {',
          declaration('font-family', `'${fallbackFamily(face.family, fallback)}'`),
          declaration('font-style', 'normal'),
          declaration('font-weight', String(face.weight)),
          declaration('src', fallback.local[weight].map((name) => `local('${name}')`).join(', ')),
          ...Object.entries(overrides).map(([property, value]) =>
            declaration(
              property.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`),
              String(value),
            ),
          ),
          '}',
        ].join('\n'),
      );
    }
  }
  return `${rules.join('\n\n')}\n`;
}

/** The stylesheet of all fallback faces, measured from the brand font files. */
export async function fallbackStylesheet(
  faces: readonly BrandFace[] = brandFaces,
): Promise<string> {
  const measured = await Promise.all(
    faces.map(async (face) => ({face, metrics: await brandMetrics(face.file)})),
  );
  return `/* Generated by src/features/fonts/plugin.ts from the font files: do not edit. */\n${fallbackFaces(measured)}`;
}

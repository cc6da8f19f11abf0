/**
 * Self-hosted fonts (Latin subsets from @fontsource), served from `/fonts/` under fixed
 * names so that every page can preload them from its `<head>`: the text is then
 * painted in its own font at once instead of swapping from a fallback, which moved
 * the page (layout shift) as each font arrived.
 *
 * The chosen files are copied at config time into a static directory of their own
 * (node_modules/.cache), so no font binary is committed and nothing else of the
 * packages is published. Node only: used by docusaurus.config.ts.
 */
import {copyFileSync, existsSync, mkdirSync, statSync} from 'node:fs';
import {createRequire} from 'node:module';
import {dirname, join} from 'node:path';
import type {HtmlTagObject} from '@docusaurus/types';

export interface Font {
  readonly family: string;
  readonly weight: number;
  /** The @fontsource package holding the file. */
  readonly package: string;
  /** The WOFF2 file in the package's `files/` directory. */
  readonly file: string;
  /** Preloaded by every page: the body text face (each preload delays the first paint on slow links). */
  readonly preload: boolean;
}

const sans = (weight: number, preload: boolean): Font => ({
  family: 'Source Sans 3',
  weight,
  package: '@fontsource/source-sans-3',
  file: `source-sans-3-latin-${weight}-normal.woff2`,
  preload,
});

export const fonts: readonly Font[] = [
  sans(400, false),
  sans(600, false),
  sans(700, false),
  {
    family: 'Inconsolata',
    weight: 400,
    package: '@fontsource/inconsolata',
    file: 'inconsolata-latin-400-normal.woff2',
    preload: false,
  },
];

/** The URL path of a font in the built site. */
export const fontUrl = (font: Font): string => `/fonts/${font.file}`;

/** The @font-face rules (WOFF2 only: every browser the site supports reads it). */
export function fontFaceCss(list: readonly Font[] = fonts): string {
  return list
    .map(
      (font) =>
        `@font-face{font-family:'${font.family}';font-style:normal;font-weight:${font.weight};` +
        `font-display:optional;src:url(${fontUrl(font)}) format('woff2')}`,
    )
    .join('');
}

/** The head tags: the @font-face rules inline, and a preload link per preloaded face. */
export function fontHeadTags(list: readonly Font[] = fonts): HtmlTagObject[] {
  return [
    {tagName: 'style', attributes: {}, innerHTML: fontFaceCss(list)},
    ...list
      .filter((font) => font.preload)
      .map(
        (font): HtmlTagObject => ({
          tagName: 'link',
          attributes: {
            rel: 'preload',
            href: fontUrl(font),
            as: 'font',
            type: 'font/woff2',
            crossorigin: 'anonymous',
          },
        }),
      ),
  ];
}

/**
 * Copies the font files into `<siteDir>/node_modules/.cache/nest-fonts/fonts/` (when
 * missing or changed) and returns the static directory to add to `staticDirectories`.
 */
export function prepareFonts(siteDir: string, list: readonly Font[] = fonts): string {
  const require = createRequire(join(siteDir, 'package.json'));
  const staticDir = join(siteDir, 'node_modules', '.cache', 'nest-fonts');
  const target = join(staticDir, 'fonts');
  mkdirSync(target, {recursive: true});
  for (const font of list) {
    const source = join(dirname(require.resolve(`${font.package}/package.json`)), 'files', font.file);
    const destination = join(target, font.file);
    if (!existsSync(destination) || statSync(destination).size !== statSync(source).size) {
      copyFileSync(source, destination);
    }
  }
  return staticDir;
}

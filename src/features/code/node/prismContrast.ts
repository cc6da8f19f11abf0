/**
 * Prism themes whose token colours all reach a minimum contrast with the code
 * background (WCAG AA, 4.5:1). Colours that fall short are darkened (on light
 * backgrounds) or lightened (on dark ones) just enough; the hue is kept.
 */
import type {PrismTheme} from 'prism-react-renderer';

type Rgb = [number, number, number];

/** Parses `#rgb`, `#rrggbb` and `rgb(r, g, b)`. */
function parse(color: string): Rgb | undefined {
  const rgb = /^rgb\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)$/i.exec(color.trim());
  if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])];
  const match = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim());
  if (!match) return undefined;
  const digits =
    match[1].length === 3 ? [...match[1]].map((digit) => digit + digit).join('') : match[1];
  return [0, 2, 4].map((index) => parseInt(digits.slice(index, index + 2), 16)) as Rgb;
}

function toHex(rgb: Rgb): string {
  return '#' + rgb.map((channel) => Math.round(channel).toString(16).padStart(2, '0')).join('');
}

function luminance([r, g, b]: Rgb): number {
  const [lr, lg, lb] = [r, g, b].map((channel) => {
    const c = channel / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * lr + 0.7152 * lg + 0.0722 * lb;
}

export function contrast(a: string, b: string): number {
  const [la, lb] = [parse(a), parse(b)].map((rgb) => (rgb ? luminance(rgb) : 0));
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** `color` moved towards black or white until it reaches `ratio` against `background`. */
export function ensureContrast(color: string, background: string, ratio = 4.5): string {
  const rgb = parse(color);
  const bg = parse(background);
  if (!rgb || !bg || contrast(color, background) >= ratio) return color;
  const target = luminance(bg) > 0.5 ? 0 : 255;
  for (let step = 1; step <= 100; step += 1) {
    const mixed = rgb.map((channel) => channel + ((target - channel) * step) / 100) as Rgb;
    const candidate = toHex(mixed);
    if (contrast(candidate, background) >= ratio) return candidate;
  }
  return toHex([target, target, target]);
}

export function withContrast(theme: PrismTheme, ratio = 4.6): PrismTheme {
  const background = theme.plain.backgroundColor ?? '#ffffff';
  const fix = (color: unknown) =>
    typeof color === 'string' ? ensureContrast(color, background, ratio) : color;
  return {
    plain: {...theme.plain, color: fix(theme.plain.color) as string},
    styles: theme.styles.map((style) => ({
      ...style,
      style: {...style.style, color: fix(style.style.color) as string | undefined},
    })),
  };
}

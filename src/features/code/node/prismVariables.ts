/**
 * One Prism theme for both colour modes. prism-react-renderer writes each token's
 * style inline, from the theme of the current colour mode; the server renders the
 * light theme, so Docusaurus re-mounts every code block after hydration to repaint
 * it in the reader's mode, which costs a second render of every block on load.
 *
 * Here the inline styles name CSS variables instead of colours (`color:
 * var(--prism-keyword-color)`), identical in both modes, and the colours move to a
 * small stylesheet keyed by `data-theme`. The server's markup is then right in
 * either mode and needs no re-mount (see src/features/code/client/CodeBlock.tsx).
 */
import type {PrismTheme} from 'prism-react-renderer';
import {variableClass} from '../tokenClasses';

/** The style properties the themes use, as CSS property names. */
const properties = {
  color: 'color',
  backgroundColor: 'background-color',
  fontStyle: 'font-style',
  fontWeight: 'font-weight',
  textDecorationLine: 'text-decoration-line',
  opacity: 'opacity',
} as const;
type Property = keyof typeof properties;
type Style = Partial<Record<Property, string | number>>;

/** Per token type, the merged style, the way prism-react-renderer merges a theme's entries. */
function dictionary(theme: PrismTheme): Map<string, Style> {
  const result = new Map<string, Style>();
  for (const entry of theme.styles) {
    if (entry.languages) {
      throw new Error('prismVariables: language-specific theme entries are not supported');
    }
    for (const type of entry.types) {
      result.set(type, {...result.get(type), ...(entry.style as Style)});
    }
  }
  return result;
}

const variable = (type: string, property: Property) =>
  `--prism-${type.replace(/[^a-z0-9-]/gi, '_')}-${properties[property]}`;

function declarations(theme: PrismTheme, types: Map<string, Set<Property>>): string[] {
  const lines = [
    `--prism-plain-color: ${theme.plain.color};`,
    `--prism-plain-background-color: ${theme.plain.backgroundColor};`,
  ];
  const dict = dictionary(theme);
  for (const [type, used] of types) {
    for (const property of used) {
      // A type this theme leaves unstyled keeps the plain look: `initial` makes the variable
      // invalid, so the token inherits from its line. (Leaving it out would inherit the
      // light theme's value from :root into dark mode.)
      const value = dict.get(type)?.[property] ?? 'initial';
      lines.push(`${variable(type, property)}: ${value};`);
    }
  }
  return lines;
}

/** The shared theme (variables only) and the stylesheet giving them values per colour mode. */
export function variableTheme(
  light: PrismTheme,
  dark: PrismTheme,
): {theme: PrismTheme; css: string} {
  const types = new Map<string, Set<Property>>();
  for (const theme of [light, dark]) {
    for (const [type, style] of dictionary(theme)) {
      const used = types.get(type) ?? new Set<Property>();
      for (const property of Object.keys(style) as Property[]) {
        if (!(property in properties)) {
          throw new Error(`prismVariables: unsupported style property "${property}"`);
        }
        used.add(property);
      }
      types.set(type, used);
    }
  }
  const theme: PrismTheme = {
    plain: {
      color: 'var(--prism-plain-color)',
      backgroundColor: 'var(--prism-plain-background-color)',
    },
    styles: [...types].map(([type, used]) => ({
      types: [type],
      style: Object.fromEntries(
        [...used].map((property) => [property, `var(${variable(type, property)})`]),
      ),
    })),
  };
  const block = (selector: string, lines: string[]) => `${selector}{${lines.join('')}}`;
  // Code lines and tokens carry a class per variable instead of an inline style (see
  // src/features/code/tokenClasses.ts): one rule per class applies the variable.
  const applied: [string, Property][] = [
    ['plain', 'color'],
    ['plain', 'backgroundColor'],
    ...[...types].flatMap(([type, used]) => [...used].map((p): [string, Property] => [type, p])),
  ];
  const css = [
    block(':root', declarations(light, types)),
    block("[data-theme='dark']", declarations(dark, types)),
    ...applied.map(([type, property]) =>
      block(`.${variableClass(variable(type, property))}`, [
        `${properties[property]}:var(${variable(type, property)})`,
      ]),
    ),
  ].join('');
  return {theme, css};
}

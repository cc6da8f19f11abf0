import clsx from 'clsx';
import type {CSSProperties} from 'react';

/**
 * The highlighter styles every token inline with a CSS variable of the shared Prism theme
 * (src/features/code/node/prismVariables.ts): `style="color:var(--prism-keyword-color)"`, a few thousand
 * times on a long page. Each such declaration becomes a class of the variable's name
 * (`prism-keyword-color`), which a rule of the theme's stylesheet sets to that variable:
 * the same colours, less HTML to parse and no inline style to resolve per token.
 * The style prism-react-renderer merged for a token (the last of its types wins) is converted
 * as it is, so nothing about precedence changes. Other values (`display: inline-block` on an
 * empty line) stay inline.
 */
const variablePattern = /^var\(--(prism-[a-z0-9_-]+)\)$/i;

/** The class a theme variable is applied by (the variable's name without the dashes). */
export const variableClass = (variable: string): string => variable.replace(/^--/, '');

type StyledProps = {className?: string; style?: CSSProperties};

/** Moves the variable-valued declarations of `props.style` into classes. */
export function withVariableClasses<T extends StyledProps>(props: T): T {
  if (!props.style) {
    return props;
  }
  const classes: string[] = [];
  const rest: Record<string, unknown> = {};
  for (const [property, value] of Object.entries(props.style)) {
    const match = typeof value === 'string' ? variablePattern.exec(value) : null;
    if (match) {
      classes.push(match[1]);
    } else {
      rest[property] = value;
    }
  }
  return {
    ...props,
    className: clsx(props.className, classes),
    style: Object.keys(rest).length > 0 ? (rest as CSSProperties) : undefined,
  };
}

/**
 * Ejected (marked safe) from @docusaurus/theme-classic 3.10 to drop one line: the
 * original re-mounts every code block once hydration ends (`key={isBrowser}`), so
 * that colours rendered by the server in the light theme are repainted in the
 * reader's mode. Our Prism theme names CSS variables instead of colours (see
 * src/features/code/node/prismVariables.ts), so the server's markup is right in both modes and
 * the second render of every block on page load is pure cost.
 */
import React, {isValidElement, type ReactNode} from 'react';
import ElementContent from '@theme/CodeBlock/Content/Element';
import StringContent from '@theme/CodeBlock/Content/String';
import type {Props} from '@theme/CodeBlock';

/** A plain string when the children are only strings, so the block can be copied. */
function maybeStringifyChildren(children: ReactNode): ReactNode {
  if (React.Children.toArray(children).some((element) => isValidElement(element))) {
    return children;
  }
  return Array.isArray(children) ? children.join('') : children;
}

export default function CodeBlock({children: rawChildren, ...props}: Props): ReactNode {
  const children = maybeStringifyChildren(rawChildren);
  return typeof children === 'string' ? (
    <StringContent {...props}>{children}</StringContent>
  ) : (
    <ElementContent {...props}>{children}</ElementContent>
  );
}

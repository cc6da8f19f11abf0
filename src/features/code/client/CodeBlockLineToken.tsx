/**
 * Docusaurus' code token, a pass-through `<span>` the theme provides for customising
 * (not in its swizzle list, so formally "unsafe"; it has no logic to drift from). Here:
 * - the token's inline variable styles become classes (src/features/code/tokenClasses.ts);
 * - a plain token with nothing to style is its bare text: a long page has over a thousand
 *   `<span class="token plain">` wrappers that change nothing on screen.
 * Server and browser render blocks with this same component, so their markup agrees.
 */
import React, {type ReactNode} from 'react';
import type {Props} from '@theme/CodeBlock/Line/Token';
import {withVariableClasses} from '@site/src/features/code/tokenClasses';

export default function CodeBlockLineToken(props: Props): ReactNode {
  // `line` and `token` are for customisations; the span takes only the output props.
  const {line, token, ...output} = props;
  const {className, style, children, ...rest} = withVariableClasses(output);
  if (className === 'token plain' && style === undefined) {
    return children;
  }
  return (
    <span {...rest} className={className} style={style}>
      {children}
    </span>
  );
}

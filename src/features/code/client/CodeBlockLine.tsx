/**
 * Wraps Docusaurus' code line (not in its swizzle list, so formally "unsafe"; the wrapper
 * only passes the original wrapped prop getters): the line's inline variable style
 * becomes a class (src/features/code/tokenClasses.ts), and the identifiers the
 * block links to the API reference are cut out of their tokens into links
 * (src/features/api-reference/client/CodeLinks.tsx). Tokens are handled by ./CodeBlockLineToken.tsx.
 */
import React, {type ReactNode} from 'react';
import Line from '@theme-original/CodeBlock/Line';
import type {Props} from '@theme/CodeBlock/Line';
import type {LineInputProps} from 'prism-react-renderer';
import {withVariableClasses} from '@site/src/features/code/tokenClasses';
import {linkedTokenProps, useLineLinks} from '@site/src/features/api-reference/client/CodeLinks';

export default function LineWrapper({getLineProps, getTokenProps, ...props}: Props): ReactNode {
  const links = useLineLinks(props.line);
  return (
    <Line
      {...props}
      getLineProps={(input: LineInputProps) => withVariableClasses(getLineProps(input))}
      getTokenProps={links ? linkedTokenProps(getTokenProps, links) : getTokenProps}
    />
  );
}

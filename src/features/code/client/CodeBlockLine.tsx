/**
 * Wraps Docusaurus' code line (not in its swizzle list, so formally "unsafe"; the wrapper
 * only passes the original a wrapped prop getter): the line's inline variable style
 * becomes a class (src/features/code/tokenClasses.ts). Tokens are handled by
 * ./Token.
 */
import React, {type ReactNode} from 'react';
import Line from '@theme-original/CodeBlock/Line';
import type {Props} from '@theme/CodeBlock/Line';
import type {LineInputProps} from 'prism-react-renderer';
import {withVariableClasses} from '@site/src/features/code/tokenClasses';

export default function LineWrapper({getLineProps, ...props}: Props): ReactNode {
  return (
    <Line
      {...props}
      getLineProps={(input: LineInputProps) => withVariableClasses(getLineProps(input))}
    />
  );
}

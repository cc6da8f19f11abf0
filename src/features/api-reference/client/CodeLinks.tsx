/**
 * Links inside highlighted code, rendered with the block on the server (and by the highlighter
 * in the browser, for pages reached by client-side navigation). See ../README.md.
 *
 * `CodeLinksProvider` wraps a code block with the links the remark plugin found for it
 * (../node/remark.ts); `linkedTokenProps` (used by src/theme/CodeBlock/Line) cuts the tokens of a
 * line around those identifiers and puts each in a link. The block's text is unchanged, so the
 * copy button (which copies the code string) and selection work as on any block.
 */
import React, {createContext, useContext, useMemo, type ReactNode} from 'react';
import Link from '@docusaurus/Link';
import type {Token, TokenInputProps, TokenOutputProps} from 'prism-react-renderer';
import {linksByLine, type LinksByLine} from '../codeLinks';
import styles from './styles.module.css';

const CodeLinksContext = createContext<LinksByLine | null>(null);

interface ProviderProps {
  /** The block's code, as given to the code block. */
  readonly code: string;
  /** The block's links, as encoded by the remark plugin (../codeLinks.ts). */
  readonly links: string | undefined;
  readonly children: ReactNode;
}

export function CodeLinksProvider({code, links, children}: ProviderProps): ReactNode {
  const value = useMemo(() => (links ? linksByLine(code, links) : null), [code, links]);
  if (!value || value.size === 0) return children;
  return <CodeLinksContext.Provider value={value}>{children}</CodeLinksContext.Provider>;
}

/** The links of a line of the current block, by the line's tokens. */
export function useLineLinks(
  line: readonly Token[],
): readonly (readonly [number, number, string])[] | undefined {
  const links = useContext(CodeLinksContext);
  if (!links) return undefined;
  return links.get(line.map((token) => token.content).join(''));
}

/** Token types whose text is never code to link (defensive: links come from identifiers). */
const unlinkable = /^(comment|string|template-string|regex)$/;

type GetTokenProps = (input: TokenInputProps) => TokenOutputProps;

/**
 * A token prop getter that wraps the linked identifiers of the line in links. The line's
 * tokens are rendered in order, so the getter counts their text to know each token's column.
 */
export function linkedTokenProps(
  getTokenProps: GetTokenProps,
  links: readonly (readonly [number, number, string])[],
): GetTokenProps {
  let column = 0;
  return (input) => {
    const output = getTokenProps(input);
    const text = input.token.content;
    const start = column;
    column += text.length;
    if (input.token.types.some((type) => unlinkable.test(type))) return output;
    const inside = links.filter(
      ([at, length]) => at >= start && at + length <= start + text.length,
    );
    if (inside.length === 0) return output;
    const children: ReactNode[] = [];
    let position = 0;
    for (const [at, length, url] of inside) {
      const from = at - start;
      if (from > position) children.push(text.slice(position, from));
      children.push(
        <Link key={from} to={url} className={styles.codeLink} draggable={false}>
          {text.slice(from, from + length)}
        </Link>,
      );
      position = from + length;
    }
    if (position < text.length) children.push(text.slice(position));
    // Typed as the token's text, but Docusaurus' line only passes it on as the token's children
    // (src/theme/CodeBlock/Line/Token renders any node).
    return {...output, children} as unknown as TokenOutputProps;
  };
}

/**
 * Code blocks without Prism on the page-load path.
 *
 * The server renders every block highlighted, as usual. In the browser a first load never
 * renders a block: the article that holds it is adopted with the server's markup
 * (src/features/static-article). Blocks rendered later (a page reached by client-side
 * navigation, or rendered from scratch) load the highlighter chunk; until it arrives they show
 * the same code unhighlighted.
 *
 * Docusaurus marks CodeBlock/Content unsafe to wrap. The original renders unchanged
 * (lazily in the browser, via `@nest/code-highlighter`: src/features/code/plugin.ts).
 * What this wrapper depends on: `useCodeBlockContext()` from theme-common's internal
 * entry (`metadata.code`, `metadata.language`, the word-wrap ref), the original's CSS
 * module, and the original rendering a single `<pre>`. The end-to-end code-pair and
 * copy tests exercise all three, so a Docusaurus upgrade that changes them fails there.
 */
import React, {Suspense, type ReactNode} from 'react';
import clsx from 'clsx';
import {useCodeBlockContext} from '@docusaurus/theme-common/internal';
import type ContentType from '@theme/CodeBlock/Content';
import type {WrapperProps} from '@docusaurus/types';
import styles from '@docusaurus/theme-classic/lib/theme/CodeBlock/Content/styles.module.css';
import Highlighted from '@nest/code-highlighter';

type Props = WrapperProps<typeof ContentType>;

/** The code as plain text, laid out like the highlighted block, while the highlighter loads. */
function Plain({className}: Props): ReactNode {
  const {
    metadata,
    wordWrap: {codeBlockRef},
  } = useCodeBlockContext();
  return (
    <pre
      ref={codeBlockRef}
      tabIndex={0}
      className={clsx(
        className,
        'prism-code',
        `language-${metadata.language}`,
        styles.codeBlock,
        'thin-scrollbar',
      )}
    >
      <code className={styles.codeBlockLines}>{metadata.code}</code>
    </pre>
  );
}

export default function CodeBlockContent(props: Props): ReactNode {
  // No Suspense boundary on the server: React streams a large boundary out of place (behind an
  // inline script). The server's highlighter never suspends (src/features/code/plugin.ts).
  if (typeof window === 'undefined') return <Highlighted {...props} />;
  return (
    <Suspense fallback={<Plain {...props} />}>
      <Highlighted {...props} />
    </Suspense>
  );
}

/**
 * Code blocks without Prism on the page-load path.
 *
 * The server renders every block highlighted, as usual. In the browser, a block that
 * is already on the page when React hydrates keeps the server's markup as it is (an
 * "island": React adopts the `<pre>` and never renders its tokens), so the page loads
 * without the highlighter's bytes and without tokenizing every sample a second time.
 * Blocks rendered later (a page reached by client-side navigation) load the
 * highlighter chunk; until it arrives they show the same code unhighlighted.
 *
 * Docusaurus marks CodeBlock/Content unsafe to wrap. The original renders unchanged
 * (lazily in the browser, via `@nest/code-highlighter`: src/features/code/plugin.ts).
 * What this wrapper depends on: `useCodeBlockContext()` from theme-common's internal
 * entry (`metadata.code`, `metadata.language`, the word-wrap ref), the original's CSS
 * module, and the original rendering a single `<pre>`. The end-to-end code-pair and
 * copy tests exercise all three, so a Docusaurus upgrade that changes them fails there.
 */
import React, {Suspense, useEffect, useLayoutEffect, useState, type ReactNode} from 'react';
import clsx from 'clsx';
import useIsBrowser from '@docusaurus/useIsBrowser';
import {useCodeBlockContext} from '@docusaurus/theme-common/internal';
import type ContentType from '@theme/CodeBlock/Content';
import type {WrapperProps} from '@docusaurus/types';
import styles from '@docusaurus/theme-classic/lib/theme/CodeBlock/Content/styles.module.css';
import Highlighted, {preloadOnIntent} from '@nest/code-highlighter';

type Props = WrapperProps<typeof ContentType>;

/** The server's markup must never be replaced, so the island always renders this. */
const keep = {__html: ''};

/** The server-rendered `<pre>`, adopted as is. Calls `onEmpty` if there is none (no SSR). */
function Island({onEmpty}: {onEmpty: () => void}): ReactNode {
  const {
    wordWrap: {codeBlockRef},
  } = useCodeBlockContext();
  useLayoutEffect(() => {
    if (!codeBlockRef.current?.hasChildNodes()) onEmpty();
  }, [codeBlockRef, onEmpty]);
  useEffect(() => preloadOnIntent(), []);
  return <pre ref={codeBlockRef} suppressHydrationWarning dangerouslySetInnerHTML={keep} />;
}

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
  const isBrowser = useIsBrowser();
  const server = typeof window === 'undefined';
  // True only for blocks rendered while a production page hydrates (never on the server,
  // never in `docusaurus start`, which renders in the browser without server markup).
  const [island, setIsland] = useState(
    () => !server && !isBrowser && process.env.NODE_ENV === 'production',
  );
  const [onEmpty] = useState(() => () => setIsland(false));
  // No Suspense boundary on the server or around the island: React streams a large
  // boundary out of place (behind an inline script), and the hydrating tree must match
  // the server's. The server's highlighter never suspends (src/features/code/plugin.ts).
  if (server) return <Highlighted {...props} />;
  if (island) return <Island onEmpty={onEmpty} />;
  return (
    <Suspense fallback={<Plain {...props} />}>
      <Highlighted {...props} />
    </Suspense>
  );
}

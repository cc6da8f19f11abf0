/**
 * "Copy page" and "View as Markdown", under the title of every docs page: the page's Markdown
 * twin (`/controllers.md`, written at build time by src/features/markdown-twins/node/step.ts) copied to the
 * clipboard, or opened.
 *
 * Nothing is fetched until the button is pressed. The clipboard is written in the click itself,
 * as Safari requires: `navigator.clipboard.write` with a `ClipboardItem` whose text is still
 * being fetched, else (or if that fails) `writeText` once the text is there. The button says
 * "Copied" (or "Copy failed") for a few seconds, and a live region says it to screen readers.
 *
 * `PageTitle` is the `h1` of MDX pages (src/features/markdown/client/MDXComponents.tsx): the page's heading and
 * these controls on a line of their own below it, in a layout that does not depend on text
 * widths (nothing moves when the brand font arrives; see the CSS). Only docs pages, which provide
 * their Markdown URL through `MarkdownUrl` (src/features/shell/client/DocItemContent.tsx), get the controls.
 */
import {createContext, useContext, useRef, useState, type ReactNode} from 'react';
import {translate} from '@docusaurus/Translate';
import MDXHeading from '@theme/MDXComponents/Heading';
import styles from './styles.module.css';

/** The twin of a page: `/controllers` -> `/controllers.md`, `/` -> `/index.md`. */
export function markdownUrl(permalink: string): string {
  return permalink === '/' ? '/index.md' : `${permalink.replace(/\/+$/, '')}.md`;
}

/** The Markdown URL of the docs page being rendered, if any. */
export const MarkdownUrl = createContext<string | null>(null);

type State = 'idle' | 'copied' | 'failed';

/** Copies the text of `url` within the current click (see the file comment). */
export function copyFrom(url: string): Promise<void> {
  const text = fetch(url).then((response) => {
    if (!response.ok) throw Error();
    return response.text();
  });
  const clipboard = navigator.clipboard;
  const writeText = () => text.then((value) => clipboard.writeText(value));
  if (typeof ClipboardItem === 'undefined' || !clipboard?.write) return writeText();
  const blob = text.then((value) => new Blob([value], {type: 'text/plain'}));
  return clipboard.write([new ClipboardItem({'text/plain': blob})]).catch(writeText);
}

export function CopyPage({url}: {url: string}): ReactNode {
  const [state, setState] = useState<State>('idle');
  const timer = useRef<number>(undefined);
  const labels: Record<State, string> = {
    idle: translate({message: 'Copy page'}),
    copied: translate({message: 'Copied'}),
    failed: translate({message: 'Copy failed'}),
  };
  const copy = () => {
    const done = (next: State) => {
      setState(next);
      clearTimeout(timer.current);
      timer.current = window.setTimeout(() => setState('idle'), 3000);
    };
    copyFrom(url).then(
      () => done('copied'),
      () => done('failed'),
    );
  };
  return (
    <div className={styles.actions} data-pagefind-ignore="" data-copy-page="">
      <button type="button" className={styles.button} data-state={state} onClick={copy}>
        {labels[state]}
      </button>
      {/* A file, not a route of the app: a plain link (no client-side navigation). */}
      {/* eslint-disable-next-line @docusaurus/no-html-links */}
      <a className={styles.button} href={url} type="text/markdown">
        {translate({message: 'View as Markdown'})}
      </a>
      {/* Screen readers hear "Copied" or "Copy failed" (a label change alone is not announced). */}
      <span role="status" className="visually-hidden">
        {state === 'idle' ? '' : labels[state]}
      </span>
    </div>
  );
}

export function PageTitle(props: {children?: ReactNode; id?: string}): ReactNode {
  const url = useContext(MarkdownUrl);
  const heading = <MDXHeading as="h1" {...props} />;
  if (url === null) return heading;
  return (
    <div className={styles.titleRow}>
      {heading}
      <CopyPage url={url} />
    </div>
  );
}

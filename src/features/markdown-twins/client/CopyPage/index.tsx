/**
 * "Copy page" and "View as Markdown", under the title of every docs page: the page's Markdown
 * twin (`/controllers.md`, written at build time by src/features/markdown-twins/node/step.ts) copied to the
 * clipboard, or opened.
 *
 * Markup only, the same on the server and in the browser: the button works through a delegated
 * listener (../copyPage.ts: nothing is fetched until it is
 * pressed; it then says "Copied" or "Copy failed" for a few seconds, and the status region says
 * it to screen readers), so it works in a static article, which has no component behind it.
 *
 * `PageTitle` is the `h1` of MDX pages (src/features/markdown/client/MDXComponents.tsx): the page's heading and
 * these controls on a line of their own below it, in a layout that does not depend on text
 * widths (nothing moves when the brand font arrives; see the CSS). Only docs pages, which provide
 * their Markdown URL through `MarkdownUrl` (src/features/shell/client/DocItemContent.tsx), get the controls.
 */
import {createContext, useContext, type ReactNode} from 'react';
import {translate} from '@docusaurus/Translate';
import MDXHeading from '@theme/MDXComponents/Heading';
import {copyPageLabel} from '../copyPage';
import styles from './styles.module.css';

/** The twin of a page: `/controllers` -> `/controllers.md`, `/` -> `/index.md`. */
export function markdownUrl(permalink: string): string {
  return permalink === '/' ? '/index.md' : `${permalink.replace(/\/+$/, '')}.md`;
}

/** The Markdown URL of the docs page being rendered, if any. */
export const MarkdownUrl = createContext<string | null>(null);

export function CopyPage({url}: {url: string}): ReactNode {
  return (
    <div className={styles.actions} data-pagefind-ignore="" data-copy-page="">
      <button type="button" className={styles.button} data-state="idle">
        {copyPageLabel('idle')}
      </button>
      {/* A file, not a route of the app: a plain link (no client-side navigation). */}
      {/* eslint-disable-next-line @docusaurus/no-html-links */}
      <a className={styles.button} href={url} type="text/markdown">
        {translate({message: 'View as Markdown'})}
      </a>
      {/* Screen readers hear "Copied" or "Copy failed" (a label change alone is not announced). */}
      <span role="status" className="visually-hidden" />
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

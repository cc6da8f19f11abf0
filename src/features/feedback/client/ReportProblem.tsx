/**
 * "Report a problem with this page", beside "Edit this page": a link to a new issue in the docs
 * repository, prefilled (../issueUrl.ts) with the page's title and address, the section the
 * reader is in, the text they selected in the article (quoted), the docs version and their
 * TypeScript/JavaScript choice. A plain link: no script of a third party, keyboard and
 * middle-click work as for any link.
 *
 * The address is computed again whenever the link may be followed or shown (pointer over it or
 * pressed, focus, Enter, context menu), from the page as it is then. The section is the one
 * holding the selection, else the last one the reader stayed on for 1.5 s while scrolling (so
 * that scrolling down to this link does not make it the page's last section), else the one in
 * view. Pressing the link may clear
 * the selection before the click: the selection is remembered as it changes (`selectionchange`)
 * and frozen from the moment the pointer goes down on the link.
 */
import React, {type ReactNode, useCallback, useEffect, useRef, useState} from 'react';
import Link from '@docusaurus/Link';
import Translate from '@docusaurus/Translate';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import {useLocation} from '@docusaurus/router';
import {useDoc} from '@docusaurus/plugin-content-docs/client';
import {links} from '@site/src/data/links';
import {siteMajor, siteRelease} from '@site/src/features/versions/versions';
import {issueUrl, type ProblemReport} from '../issueUrl';
import styles from './ReportProblem.module.css';

/** The reading line under the fixed header: as the table of contents' (70 + 45 px). */
const readingLine = 115;
/** A section the reader stays on this long is the one they were reading. */
export const dwellMs = 1500;
const articleSelector = '.theme-doc-markdown';
const headingSelector = 'h2[id], h3[id]';

export const docsVersion = `v${siteMajor} (NestJS ${siteRelease})`;

interface Section {
  readonly heading: string;
  readonly id?: string;
}

/** A heading's text, without its `#` self-link. */
function headingText(heading: Element): string {
  const copy = heading.cloneNode(true) as Element;
  copy.querySelectorAll('.hash-link').forEach((link) => link.remove());
  return (copy.textContent ?? '').replace(/\u200b/g, '').trim();
}

function sectionOfHeading(heading: Element | undefined): Section | undefined {
  return heading ? {heading: headingText(heading), id: heading.id || undefined} : undefined;
}

/** The section holding `node`: the last `##`/`###` heading before it. */
function sectionOf(article: Element, node: Node): Section | undefined {
  const before = Array.from(article.querySelectorAll(headingSelector)).filter(
    (heading) =>
      heading === node ||
      heading.contains(node) ||
      Boolean(heading.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_FOLLOWING),
  );
  return sectionOfHeading(before[before.length - 1]);
}

/** The section in view: the last heading above the reading line. */
function sectionInView(article: Element): Section | undefined {
  const passed = Array.from(article.querySelectorAll(headingSelector)).filter(
    (heading) => heading.getBoundingClientRect().top <= readingLine,
  );
  return sectionOfHeading(passed[passed.length - 1]);
}

interface Selected {
  readonly text: string;
  readonly section?: Section;
}

/** The reader's selection inside the article, if any. */
function currentSelection(): Selected | null {
  const selection = window.getSelection();
  const article = document.querySelector(articleSelector);
  if (!selection || selection.isCollapsed || selection.rangeCount === 0 || !article) return null;
  const range = selection.getRangeAt(0);
  if (!article.contains(range.commonAncestorContainer)) return null;
  const text = selection.toString();
  if (text.trim() === '') return null;
  return {text, section: sectionOf(article, range.startContainer)};
}

export default function ReportProblem(): ReactNode {
  const {siteConfig} = useDocusaurusContext();
  const {metadata} = useDoc();
  const {pathname} = useLocation();
  const pageUrl = `${siteConfig.url}${pathname}`;
  const link = useRef<HTMLAnchorElement>(null);
  const selected = useRef<Selected | null>(null);
  const frozen = useRef(false);
  /** The last section the reader stayed on for `dwellMs` while scrolling. */
  const read = useRef<Section | undefined>(undefined);

  // Rendered on the server and at hydration: the page alone (the same markup on both).
  const [href, setHref] = useState(() =>
    issueUrl(links.docsIssues, {
      title: metadata.title,
      pageUrl,
      version: docsVersion,
      codeLang: 'ts',
    }),
  );

  /** The report from the page as it is now. */
  const compute = useCallback((): string => {
    const article = document.querySelector(articleSelector);
    const h1 = article?.querySelector('h1');
    const report: ProblemReport = {
      title: (h1 && headingText(h1)) || metadata.title,
      pageUrl,
      section:
        selected.current?.section ?? read.current ?? (article ? sectionInView(article) : undefined),
      selection: selected.current?.text,
      version: docsVersion,
      codeLang: document.documentElement.dataset.codeLang === 'js' ? 'js' : 'ts',
    };
    return issueUrl(links.docsIssues, report);
  }, [metadata.title, pageUrl]);

  const refresh = useCallback(() => {
    const url = compute();
    // At once, for a click that follows in the same event loop turn; React's state follows.
    if (link.current) link.current.href = url;
    setHref(url);
  }, [compute]);

  useEffect(() => {
    selected.current = null;
    const onSelection = () => {
      if (!frozen.current) selected.current = currentSelection();
    };
    document.addEventListener('selectionchange', onSelection);
    return () => document.removeEventListener('selectionchange', onSelection);
  }, [pathname]);

  // The section being read: the one in view once the reader has stayed on it for a moment, so
  // that scrolling down to this link (past the sections after it) does not change it.
  useEffect(() => {
    read.current = undefined;
    let frame = 0;
    let timer = 0;
    let candidate: string | undefined;
    const onScroll = () => {
      if (frame) return;
      frame = window.requestAnimationFrame(() => {
        frame = 0;
        const article = document.querySelector(articleSelector);
        const section = article ? sectionInView(article) : undefined;
        if (section?.id === candidate) return;
        candidate = section?.id;
        window.clearTimeout(timer);
        timer = window.setTimeout(() => {
          read.current = section;
        }, dwellMs);
      });
    };
    window.addEventListener('scroll', onScroll, {passive: true});
    return () => {
      window.removeEventListener('scroll', onScroll);
      window.cancelAnimationFrame(frame);
      window.clearTimeout(timer);
    };
  }, [pathname]);

  // After the click (which used the frozen selection): the selection as it is now, which the
  // press may have cleared.
  const unfreeze = () => {
    window.setTimeout(() => {
      frozen.current = false;
      selected.current = currentSelection();
    }, 0);
  };

  return (
    <Link
      ref={link}
      href={href}
      className={styles.report}
      data-report-problem=""
      onPointerEnter={refresh}
      onFocus={refresh}
      onContextMenu={refresh}
      onPointerDown={() => {
        frozen.current = true;
        refresh();
      }}
      onPointerUp={unfreeze}
      onPointerCancel={unfreeze}
      onKeyDown={(event) => {
        if (event.key === 'Enter') refresh();
      }}
    >
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
        <path
          d="M5 21V4m0 0h11l-2 4 2 4H5"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinejoin="round"
          fill="none"
        />
      </svg>
      <Translate id="site.reportProblem.label">Report a problem with this page</Translate>
    </Link>
  );
}

/**
 * "Report a problem with this page": the URL of a new issue in the docs repository, prefilled
 * with what a maintainer needs to find the problem. Pure, shared by the link
 * (./client/ReportProblem.tsx) and the unit tests.
 *
 * GitHub answers very long URLs with an error page (414, or a form that does not load), so the
 * URL is kept under `maxUrlLength` characters: the reader's quoted selection is trimmed first
 * (the body says so), then the section heading and the title.
 */

/** What the issue is prefilled with. */
export interface ProblemReport {
  /** The page's title (its `# ` heading). */
  readonly title: string;
  /** The page's address, absolute (`https://docs.nestjs.com/pipes`). */
  readonly pageUrl: string;
  /** The section in view, or holding the selection: its heading text and anchor id. */
  readonly section?: {readonly heading: string; readonly id?: string};
  /** The text the reader selected on the page, if any. */
  readonly selection?: string;
  /** The docs version: `v8 (NestJS 8.4.7)`. */
  readonly version: string;
  /** The reader's code samples choice. */
  readonly codeLang: 'ts' | 'js';
}

/** A safe cap for a GitHub URL, well under the limits of browsers and of GitHub's servers. */
export const maxUrlLength = 8000;

/** Characters kept of a heading or title at most, before the URL cap is considered. */
const maxLineLength = 200;

/** Whitespace runs (line breaks included) as one space, trimmed. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The first `count` code points of `text` (never half of a surrogate pair). */
function codePoints(text: string, count: number): string {
  return Array.from(text).slice(0, count).join('');
}

function shorten(text: string, count: number): string {
  const points = Array.from(text);
  return points.length <= count ? text : `${points.slice(0, count).join('').trimEnd()}…`;
}

/** `text` as a Markdown quote: every line starts with `> `. */
export function quote(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => (line.trim() === '' ? '>' : `> ${line.trimEnd()}`))
    .join('\n');
}

/** The selection as the reader made it: line ends normalized, blank lines at its ends dropped. */
export function cleanSelection(text: string | undefined): string {
  return (text ?? '')
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\u00a0]+$/gm, '')
    .replace(/^\n+|\n+$/g, '')
    .trim();
}

interface Parts {
  readonly title: string;
  readonly heading?: string;
  readonly selection: string;
  /** Code points of the selection left out. */
  readonly trimmed: number;
}

function issueTitle(parts: Parts): string {
  return `Problem on "${parts.title}"${parts.heading ? ` (${parts.heading})` : ''}`;
}

function issueBody(report: ProblemReport, parts: Parts): string {
  const sectionUrl = report.section?.id ? `${report.pageUrl}#${report.section.id}` : undefined;
  const lines = [
    '### What is wrong or missing?',
    '',
    '<!-- Describe the problem here. -->',
    '',
    '### Where',
    '',
    `- Page: [${parts.title}](${report.pageUrl})`,
  ];
  if (parts.heading) {
    lines.push(`- Section: ${sectionUrl ? `[${parts.heading}](${sectionUrl})` : parts.heading}`);
  }
  lines.push(
    `- Docs version: ${report.version}`,
    `- Code samples shown in: ${report.codeLang === 'js' ? 'JavaScript' : 'TypeScript'}`,
  );
  if (parts.selection) {
    lines.push('', '### Selected text', '', quote(parts.selection));
    if (parts.trimmed > 0) {
      lines.push(
        '',
        `_The selection was trimmed to its first ${Array.from(parts.selection).length} ` +
          `characters (${parts.trimmed} left out) to keep this link short enough for GitHub._`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

function build(base: string, report: ProblemReport, parts: Parts): string {
  return (
    `${base}?title=${encodeURIComponent(issueTitle(parts))}` +
    `&body=${encodeURIComponent(issueBody(report, parts))}`
  );
}

/**
 * The new-issue URL (`base` is the repository's `/issues/new`), at most `limit` characters:
 * when too long, the selection is cut (by code points, found by bisection on the encoded
 * length), and if even no selection does not fit, the heading and the title are shortened.
 * Throws if even the shortest form does not fit (a `limit` too small for the fixed text).
 */
export function issueUrl(base: string, report: ProblemReport, limit = maxUrlLength): string {
  const selection = cleanSelection(report.selection);
  const full: Parts = {
    title: shorten(oneLine(report.title) || 'Untitled page', maxLineLength),
    heading: report.section ? shorten(oneLine(report.section.heading), maxLineLength) : undefined,
    selection,
    trimmed: 0,
  };
  const whole = build(base, report, full);
  if (whole.length <= limit) return whole;

  const length = Array.from(selection).length;
  const cut = (keep: number): Parts => {
    const kept = codePoints(selection, keep).trimEnd();
    return {...full, selection: kept, trimmed: length - Array.from(kept).length};
  };
  if (length > 0 && build(base, report, cut(1)).length <= limit) {
    // The longest prefix that fits.
    let low = 1;
    let high = length - 1;
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if (build(base, report, cut(middle)).length <= limit) low = middle;
      else high = middle - 1;
    }
    return build(base, report, cut(low));
  }
  const bare: Parts = {
    title: shorten(full.title, 60),
    heading: full.heading === undefined ? undefined : shorten(full.heading, 60),
    selection: '',
    trimmed: 0,
  };
  const shortest = build(base, report, bare);
  if (shortest.length > limit) {
    throw new Error(`An issue URL needs more than ${limit} characters: ${shortest.length}`);
  }
  return shortest;
}

/**
 * The API reference's step of the post-build pipeline (src/features/pipeline), before the search
 * step: every API entry becomes a search record of its own, so that a query for a symbol finds
 * its entry rather than the long page of its package. It reads the built API pages and hands on
 * the documents Pagefind indexes for them (`searchDocuments`).
 *
 * - Each entry is a `<section data-api-entry="Name">` of its package page (./pages.ts). Its
 *   record is the section's HTML under an `<h1>` of the export's name, at
 *   `/api/<package>#<Name>`, in the section `API`; ids are dropped so Pagefind makes no
 *   sub-results inside it, and so are its "See also" and "Used in" lines (links to other pages,
 *   whose titles would make "binding pipes" find the `Bind` entry).
 * - The package page's own record replaces the built page's (same URL): the page without its
 *   entries, i.e. its title and introduction. The page itself keeps everything, so the words of
 *   a search are highlighted in it (src/features/search/client/highlight.ts).
 */
import {readFile, stat} from 'node:fs/promises';
import {join} from 'node:path';
import {escapeHtml} from '../../../data/html';
import type {SearchDocument, Step} from '../../pipeline/node/steps';
import {apiSection, referencePackages} from '../packages';

export interface BuildInfo {
  readonly outDir: string;
  readonly baseUrl: string;
}

const sectionPattern =
  /<section\b[^>]*\bdata-api-entry=(?:"([^"]+)"|([^\s>]+))[^>]*>([\s\S]*?)<\/section>/g;

/** The paragraphs that only link elsewhere (./pages.ts writes them). */
const navigation = /<p><strong>(?:See also|Used in):<\/strong>[\s\S]*?(?=<p\b|<\/section>|$)/g;

/** The records of one built API page: its entries, then the page without them. */
export function entryDocuments(html: string, pageUrl: string): SearchDocument[] {
  const documents: SearchDocument[] = [];
  for (const match of html.matchAll(sectionPattern)) {
    const name = match[1] ?? match[2];
    const body = match[3]
      // The entry's own heading becomes the record's title.
      .replace(/^\s*<h3\b[\s\S]*?<\/h3>/, '')
      .replace(navigation, '')
      .replace(/\sid=(?:"[^"]*"|[^\s>]+)/g, '');
    const content =
      `<!doctype html><html lang="en"><head><title>${escapeHtml(name)}</title></head><body>` +
      `<main data-pagefind-body data-pagefind-filter="section:${apiSection}" ` +
      `data-pagefind-meta="section:${apiSection}">` +
      `<h1>${escapeHtml(name)}</h1>${body}</main></body></html>`;
    documents.push({url: `${pageUrl}#${name}`, content});
  }
  if (documents.length > 0) {
    documents.push({url: pageUrl, content: html.replace(sectionPattern, '')});
  }
  return documents;
}

/** The records of every API page of the build. */
export async function apiSearchDocuments(build: BuildInfo): Promise<SearchDocument[]> {
  const documents: SearchDocument[] = [];
  for (const pkg of referencePackages) {
    const html = await readFile(join(build.outDir, `${pkg.route}.html`), 'utf8');
    const found = entryDocuments(html, `${build.baseUrl}${pkg.route}`);
    if (found.length === 0) {
      throw new Error(`[api-reference] no entry found in the built page of ${pkg.name}`);
    }
    documents.push(...found);
  }
  return documents;
}

export const apiReferenceStep: Step = {
  name: 'api-reference',
  async run(build) {
    const searchDocuments = await apiSearchDocuments(build);
    let bytes = 0;
    for (const pkg of referencePackages) {
      bytes += (await stat(join(build.outDir, `${pkg.route}.html`))).size;
    }
    console.log(
      `[api-reference] ${referencePackages.length} pages, ${searchDocuments.length} search ` +
        `records, ${Math.round(bytes / 1024)} KiB of HTML`,
    );
    return {searchDocuments};
  },
};

/**
 * The Dash/Zeal docset (run by the post-build pipeline's docset step, ./step.ts). From the built
 * HTML of every docs page it writes
 *
 * - `docset/NestJS.tgz`: `NestJS.docset/` with `Contents/Info.plist`, the icons, the pages as
 *   static HTML under `Contents/Resources/Documents/` (./page.ts) with their stylesheet and the
 *   images they show, and the SQLite search index `Contents/Resources/docSet.dsidx`
 *   (./searchIndex.ts): a `Guide` per page, a `Section` per `##` heading, and the NestJS
 *   decorators, classes, interfaces, enums and functions the pages introduce (./apis.ts);
 * - `docset/NestJS.xml`: the Dash feed, whose version changes with the archive's content.
 *
 * Nothing is written to the build as loose pages: the archive is made in memory.
 */
import {createHash} from 'node:crypto';
import {mkdir, readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {apiEntries} from './apis';
import {feedXml, infoPlist, type DocsetIdentity} from './metadata';
import {docsetPage, pageFile, type DocsetPage} from './page';
import {searchIndexFile, type IndexEntry} from './searchIndex';
import {tarGz, type TarEntry} from './tar';

/** What the step needs of the build. */
export interface DocsetBuild {
  /** The build directory. */
  readonly outDir: string;
  /** The site's URL (`siteConfig.url`), `https://docs.nestjs.com`. */
  readonly siteUrl: string;
  /** Every route of the build; the docs pages among them are found by their HTML. */
  readonly routes: readonly string[];
}

/** What the step gives the next one. */
export interface DocsetOutput {
  /** Files written, under the site, with their `Content-Type` (for the hosting files). */
  readonly files: readonly {readonly path: string; readonly contentType: string}[];
  readonly pages: number;
  readonly entries: Readonly<Record<string, number>>;
  /** Size of the archive. */
  readonly bytes: number;
  /** The feed's version. */
  readonly version: string;
}

export const docsetName = 'NestJS';
export const archivePath = '/docset/NestJS.tgz';
export const feedPath = '/docset/NestJS.xml';
export const docsetFiles = [
  {path: archivePath, contentType: 'application/gzip'},
  {path: feedPath, contentType: 'application/xml; charset=utf-8'},
] as const;

/** The release the docs describe: the first part of the feed's version. */
export const docsRelease = '8.4.7';

const assetsDir = join(__dirname, '..', 'assets');
const root = `${docsetName}.docset`;
const documents = `${root}/Contents/Resources/Documents`;

/** A docs page of the build (the theme's article markup), as opposed to a redirect page or `/search`. */
const docsPageMarker = 'class="theme-doc-markdown markdown"';

/** The built file of a route (`trailingSlash: false`). */
function builtFile(outDir: string, route: string): string {
  return join(outDir, pageFile(route));
}

/** The code colours of the site (its inline Prism style), dark ones for a dark system theme. */
export function prismCss(html: string): string {
  const style = /<style[^>]*>([^<]*--prism-plain-color[^<]*)<\/style>/.exec(html)?.[1];
  if (!style) throw new Error('[docset] the pages have no inline Prism colours');
  return style.replace(
    /\[data-theme=["']?dark["']?\]\s*\{([^}]*)\}/,
    (_, body: string) => `@media (prefers-color-scheme: dark){:root{${body}}}`,
  );
}

/** The page a built page's "Next" link leads to, if any. */
export function nextRoute(html: string): string | undefined {
  const link = /<a\b[^>]*pagination-nav__link--next[^>]*>/.exec(html)?.[0];
  const href = link && /\shref=(?:"([^"]*)"|'([^']*)'|([^\s>]+))/.exec(link);
  return href ? (href[1] ?? href[2] ?? href[3]) : undefined;
}

/**
 * The pages in reading order: the menu's, followed through the pages' "Next" links from `/`;
 * pages outside that chain after it, by route.
 */
export function readingOrder(htmlByRoute: ReadonlyMap<string, string>): [string, string][] {
  const ordered: [string, string][] = [];
  const seen = new Set<string>();
  for (let route: string | undefined = '/'; route !== undefined && !seen.has(route); ) {
    const html = htmlByRoute.get(route);
    if (html === undefined) break;
    seen.add(route);
    ordered.push([route, html]);
    route = nextRoute(html)?.replace(/[?#].*$/, '');
  }
  const rest = [...htmlByRoute].filter(([route]) => !seen.has(route));
  return [...ordered, ...rest.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))];
}

/** The index entries of the pages, APIs included. */
export function indexEntries(pages: readonly DocsetPage[]): IndexEntry[] {
  const entries: IndexEntry[] = [];
  for (const page of pages) {
    entries.push({name: page.title, type: 'Guide', path: page.file});
    for (const section of page.sections) {
      entries.push({name: section.heading, type: 'Section', path: `${page.file}#${section.id}`});
    }
  }
  for (const api of apiEntries(pages)) {
    entries.push({name: api.name, type: api.kind, path: api.path});
  }
  // Two `##` headings of a page with the same text have different ids: only exact repeats go.
  const seen = new Set<string>();
  return entries.filter((entry) => {
    const key = `${entry.type}\0${entry.name}\0${entry.path}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The docset's files, in the archive's order. */
export async function docsetEntries(
  build: DocsetBuild,
  identity: DocsetIdentity,
): Promise<{entries: TarEntry[]; pages: DocsetPage[]; index: IndexEntry[]}> {
  const htmlByRoute = new Map<string, string>();
  for (const route of [...new Set(build.routes)].sort()) {
    let html: string;
    try {
      html = await readFile(builtFile(build.outDir, route), 'utf8');
    } catch {
      continue; // Not a page of its own (a redirect route, `/consulting`).
    }
    if (html.includes(docsPageMarker)) htmlByRoute.set(route, html);
  }
  if (htmlByRoute.size === 0) throw new Error(`[docset] no docs page in ${build.outDir}`);
  const routes = new Set(htmlByRoute.keys());
  const pages = readingOrder(htmlByRoute).map(([route, html]) =>
    docsetPage(html, {route, routes, siteUrl: build.siteUrl}),
  );
  const index = indexEntries(pages);

  const text = (path: string, content: string): TarEntry => ({
    path,
    data: Buffer.from(content, 'utf8'),
  });
  const css =
    (await readFile(join(assetsDir, 'docset.css'), 'utf8')) +
    prismCss(htmlByRoute.values().next().value ?? '');
  const images = [...new Set(pages.flatMap((page) => page.images))].sort();
  const entries: TarEntry[] = [
    text(`${root}/Contents/Info.plist`, infoPlist(identity)),
    {path: `${root}/icon.png`, data: await readFile(join(assetsDir, 'icon.png'))},
    {path: `${root}/icon@2x.png`, data: await readFile(join(assetsDir, 'icon@2x.png'))},
    {
      path: `${root}/Contents/Resources/docSet.dsidx`,
      data: await searchIndexFile(index),
    },
    text(`${documents}/docset.css`, css),
    ...pages.map((page) => text(`${documents}/${page.file}`, page.html)),
  ];
  for (const image of images) {
    try {
      entries.push({
        path: `${documents}/${image.slice(1)}`,
        data: await readFile(join(build.outDir, image.slice(1))),
      });
    } catch {
      throw new Error(`[docset] an image the pages show is not in the build: ${image}`);
    }
  }
  return {entries, pages, index};
}

/** The pipeline step: writes `docset/NestJS.tgz` and `docset/NestJS.xml` into the build. */
export async function writeDocset(build: DocsetBuild): Promise<DocsetOutput> {
  const identity: DocsetIdentity = {id: 'nestjs', name: 'NestJS 8', siteUrl: build.siteUrl};
  const {entries, pages, index} = await docsetEntries(build, identity);
  const archive = await tarGz(entries);
  const version = `${docsRelease}/${createHash('sha256').update(archive).digest('hex').slice(0, 12)}`;
  const dir = join(build.outDir, 'docset');
  await mkdir(dir, {recursive: true});
  await writeFile(join(dir, `${docsetName}.tgz`), archive);
  await writeFile(
    join(dir, `${docsetName}.xml`),
    feedXml(version, `${build.siteUrl}${archivePath}`),
  );
  const counts: Record<string, number> = {};
  for (const entry of index) counts[entry.type] = (counts[entry.type] ?? 0) + 1;
  return {files: docsetFiles, pages: pages.length, entries: counts, bytes: archive.length, version};
}

/**
 * The site's Markdown twins: every written docs page converted from its source
 * (./markdownTwins.ts), `/llms.txt` and `/llms-full.txt` ordered by the menu, as a map of file
 * paths to text, from the docs plugin's loaded content. Written after the build by the pipeline
 * step (./step.ts) and, for `docusaurus start`, by the plugin (../plugin.ts).
 *
 * Node-only.
 */
import {mkdir, readFile, writeFile} from 'node:fs/promises';
import {dirname, join, resolve} from 'node:path';
import type {LoadedContent} from '@docusaurus/plugin-content-docs';
import type {RootContent} from 'mdast';
import {companiesWithLogos, companiesWithoutLogos, type Company} from '../../promotions/companies';
import {links} from '../../../data/links';
import type {TypedFile} from '../../pipeline/node/steps';
import {
  llmsFullTxt,
  llmsSections,
  llmsTxt,
  twinPath,
  type LlmsOptions,
  type MenuItem,
  type TwinPage,
} from './llms';
import {toMarkdown} from './markdownTwins';

export const markdownType = 'text/markdown; charset=utf-8';
export const textType = 'text/plain; charset=utf-8';

/** The one-paragraph summary of llms.txt. */
export const llmsSummary =
  'The official documentation of NestJS 8 (Nest), a progressive Node.js framework for building ' +
  'efficient, scalable server-side applications in TypeScript or JavaScript, on Express or ' +
  'Fastify. Each page below is plain Markdown; its code samples come in TypeScript, then ' +
  'JavaScript.';

/** A list of links to companies (the "Who is using Nest?" page's logo wall and list). */
function companyList(companies: readonly Company[]): RootContent[] {
  return [
    {
      type: 'list',
      ordered: false,
      spread: false,
      children: companies.map((company) => ({
        type: 'listItem',
        spread: false,
        children: [
          {
            type: 'paragraph',
            children: [
              {type: 'link', url: company.url, children: [{type: 'text', value: company.name}]},
            ],
          },
        ],
      })),
    },
  ];
}

/** What the pages' JSX and expressions stand for in Markdown (anything else is unwrapped). */
export const pageScope = {links};
export const pageComponents = {
  CompanyLogos: () => companyList(companiesWithLogos),
  CompanyList: () => companyList(companiesWithoutLogos),
};

/** The written docs pages of the loaded docs content, converted. */
export async function twinPages(
  docs: LoadedContent['loadedVersions'][number]['docs'],
  siteDir: string,
  siteUrl: string,
): Promise<TwinPage[]> {
  const fileOf = (source: string) => resolve(siteDir, source.replace(/^@site\//, ''));
  const published = docs.filter((doc) => !doc.unlisted);
  const routesByFile = new Map(published.map((doc) => [fileOf(doc.source), doc.permalink]));
  return Promise.all(
    published.map(async (doc): Promise<TwinPage> => {
      const file = fileOf(doc.source);
      const markdown = toMarkdown(await readFile(file, 'utf8'), {
        siteUrl,
        route: doc.permalink,
        title: doc.title,
        file,
        routesByFile,
        scope: pageScope,
        components: pageComponents,
      });
      const description = doc.frontMatter.description ?? doc.description;
      return {
        id: doc.id,
        route: doc.permalink,
        // The title the page shows: its `# ` heading.
        title: markdown.slice(2, markdown.indexOf('\n')),
        description,
        markdown,
      };
    }),
  );
}

/** Writes the files under `dir`; returns their total size in bytes. */
export async function writeAll(dir: string, files: ReadonlyMap<string, string>): Promise<number> {
  let bytes = 0;
  for (const [path, text] of files) {
    const target = join(dir, path);
    await mkdir(dirname(target), {recursive: true});
    await writeFile(target, text);
    bytes += Buffer.byteLength(text);
  }
  return bytes;
}

/** The docs version whose pages are converted (the site has one). */
export function docsVersion(
  content: LoadedContent | undefined,
): LoadedContent['loadedVersions'][number] {
  const version = content?.loadedVersions[0];
  if (!version) throw new Error('[markdown-twins] the docs plugin loaded no docs');
  return version;
}

/** Every file: `/controllers.md` (one per page), `/llms.txt`, `/llms-full.txt`, by path. */
export async function siteTwins(
  content: LoadedContent | undefined,
  siteDir: string,
  siteUrl: string,
): Promise<Map<string, string>> {
  const version = docsVersion(content);
  const llmsOptions: LlmsOptions = {siteUrl, name: 'NestJS', summary: llmsSummary};
  const pages = await twinPages(version.docs, siteDir, siteUrl);
  const menu = Object.values(version.sidebars).flat() as MenuItem[];
  const sections = llmsSections(menu, pages);
  const files = new Map<string, string>();
  for (const page of pages) files.set(twinPath(page.route), page.markdown);
  files.set('/llms.txt', llmsTxt(sections, llmsOptions));
  files.set('/llms-full.txt', llmsFullTxt(sections, llmsOptions));
  return files;
}

/** The files with the `Content-Type` they are served with. */
export function typedFiles(paths: Iterable<string>): TypedFile[] {
  return [...paths].map((path) => ({
    path,
    contentType: path.endsWith('.md') ? markdownType : textType,
  }));
}

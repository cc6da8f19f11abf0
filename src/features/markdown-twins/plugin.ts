/**
 * The Markdown twin of every docs page (`/controllers.md`, `/techniques/database.md`,
 * `/index.md` for `/`), `/llms.txt` and `/llms-full.txt`: see src/node/markdownTwins.ts.
 *
 * Driven by the docs plugin's loaded content: once all content is loaded, every written page
 * (the docs metadata: route, source file, description) is converted from its source and the
 * menu (the loaded sidebar) orders llms.txt; `postBuild` writes the files. A new page needs no
 * extra step. The files are not routes, so they are in neither the sitemap nor Pagefind's index
 * (which reads HTML only). The "Copy page" button (src/components/CopyPage) fetches the twin.
 *
 * `docusaurus start` serves the same files from the generated files directory (rewritten when
 * the pages change), so "Copy page" works there too.
 *
 * `files()` lists what the plugin writes, with each file's content type, for the hosting plugin
 * (src/plugins/hosting.ts): plugins' `postBuild` hooks run at the same time, so it cannot look
 * for the files on disk.
 */
import {mkdir, readFile, writeFile} from 'node:fs/promises';
import {dirname, join, resolve} from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';
import type {LoadedContent} from '@docusaurus/plugin-content-docs';
import type {RootContent} from 'mdast';
import {companiesWithLogos, companiesWithoutLogos, type Company} from '../promotions/companies';
import {links} from '../../data/links';
import type {TypedFile} from '../hosting/node/hosting';
import {
  llmsFullTxt,
  llmsSections,
  llmsTxt,
  toMarkdown,
  twinPath,
  type LlmsOptions,
  type MenuItem,
  type TwinPage,
} from './node/markdownTwins';

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

interface Output {
  readonly files: Map<string, string>;
}

/** Writes the files under `dir`; returns their total size in bytes. */
async function writeAll(dir: string, files: ReadonlyMap<string, string>): Promise<number> {
  let bytes = 0;
  for (const [path, text] of files) {
    const target = join(dir, path);
    await mkdir(dirname(target), {recursive: true});
    await writeFile(target, text);
    bytes += Buffer.byteLength(text);
  }
  return bytes;
}

export default function markdownTwinsPlugin(context: LoadContext): Plugin & {
  files(): TypedFile[];
} {
  let output: Output | undefined;
  // `docusaurus start`: the files are served from here by the dev server.
  const development = process.env.NODE_ENV === 'development';
  const devDir = join(context.generatedFilesDir, 'markdown-twins');
  const llmsOptions: LlmsOptions = {
    siteUrl: context.siteConfig.url,
    name: 'NestJS',
    summary: llmsSummary,
  };
  return {
    name: 'markdown-twins',
    async allContentLoaded({allContent}) {
      const docsContent = allContent['docusaurus-plugin-content-docs']?.default as
        | LoadedContent
        | undefined;
      const version = docsContent?.loadedVersions[0];
      if (!version) throw new Error('[markdown-twins] the docs plugin loaded no docs');
      const pages = await twinPages(version.docs, context.siteDir, context.siteConfig.url);
      const menu = Object.values(version.sidebars).flat() as MenuItem[];
      const sections = llmsSections(menu, pages);
      const files = new Map<string, string>();
      for (const page of pages) files.set(twinPath(page.route), page.markdown);
      files.set('/llms.txt', llmsTxt(sections, llmsOptions));
      files.set('/llms-full.txt', llmsFullTxt(sections, llmsOptions));
      output = {files};
      if (development) await writeAll(devDir, files);
    },
    configureWebpack(_config, isServer) {
      if (!development || isServer) return {};
      // Merged into the dev server's options (webpack-merge appends to its static directories).
      return {
        devServer: {static: [{directory: devDir, publicPath: context.baseUrl, watch: false}]},
      } as object;
    },
    async postBuild({outDir}) {
      if (!output) throw new Error('[markdown-twins] no content was loaded');
      const bytes = await writeAll(outDir, output.files);
      console.log(
        `[markdown-twins] ${output.files.size - 2} Markdown pages, llms.txt, llms-full.txt ` +
          `(${Math.round(bytes / 1024)} KiB)`,
      );
    },
    files() {
      return [...(output?.files.keys() ?? [])].map((path) => ({
        path,
        contentType: path.endsWith('.md') ? markdownType : textType,
      }));
    },
  };
}

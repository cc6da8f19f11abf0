/**
 * Every docs page loads the metadata of its docs version (`p/index-*.json`, the `version` prop
 * of the docs root): the sidebars and, for each page, its id, title, sidebar and meta
 * description. In the browser only the theme's DocCard reads those descriptions (the cards of
 * a category index page or of `<DocCardList />`), and this site has neither; yet they are most
 * of that file (figures: PERFORMANCE.md, 2026-11-22).
 *
 * In production builds this plugin writes a copy of the file without the descriptions and
 * points the bundles at it. It also fails the build if a page starts using what reads them,
 * so that cards never show up without their text. `docusaurus start` keeps the original,
 * which it rewrites as pages change.
 */
import {existsSync, readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';
import {aliasToCopy} from './generatedCopy';

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The version prop without the pages' descriptions, as JSON; `null` when `text` is not a
 * version prop (the same folder holds other props).
 */
export function slimVersionProps(text: string): string | null {
  const data: unknown = JSON.parse(text);
  if (!isObject(data) || !isObject(data.version) || !isObject(data.version.docs)) {
    return null;
  }
  const docs = Object.fromEntries(
    Object.entries(data.version.docs).map(([id, doc]) => {
      if (!isObject(doc)) {
        return [id, doc];
      }
      const {description, ...rest} = doc;
      return [id, rest];
    }),
  );
  return JSON.stringify({...data, version: {...data.version, docs}});
}

/** A sidebar item, as far as this check looks into it. */
export interface SidebarItemLike {
  readonly type: string;
  readonly label?: string;
  readonly link?: {readonly type?: string};
  readonly items?: readonly SidebarItemLike[];
}

function generatedIndexLabels(items: readonly SidebarItemLike[]): string[] {
  return items.flatMap((item) => [
    ...(item.type === 'category' && item.link?.type === 'generated-index'
      ? [item.label ?? '(unlabelled category)']
      : []),
    ...generatedIndexLabels(item.items ?? []),
  ]);
}

/** What would read the descriptions: one line per page or category, empty when none. */
export function descriptionReaders(
  docs: readonly {source: string; text: string}[],
  sidebars: readonly (readonly SidebarItemLike[])[],
): string[] {
  return [
    ...docs
      .filter((doc) => /<DocCard(List)?\b/.test(doc.text))
      .map((doc) => `${doc.source} renders doc cards`),
    ...sidebars
      .flatMap(generatedIndexLabels)
      .map((label) => `the sidebar category "${label}" has a generated index page`),
  ];
}

interface LoadedDocs {
  loadedVersions: {
    docs: {source: string}[];
    sidebars: Record<string, SidebarItemLike[]>;
  }[];
}

const docsPluginName = 'docusaurus-plugin-content-docs';

export default function slimDocsVersion(context: LoadContext): Plugin {
  const generatedDocs = join(context.generatedFilesDir, docsPluginName);
  const slimDir = join(context.generatedFilesDir, 'nest-slim-docs-version', 'slim');
  return {
    name: 'nest-slim-docs-version',
    async allContentLoaded({allContent}) {
      const content = allContent[docsPluginName]?.default as LoadedDocs | undefined;
      const versions = content?.loadedVersions ?? [];
      const problems = descriptionReaders(
        versions.flatMap((version) =>
          version.docs.map((doc) => ({
            source: doc.source,
            text: readFileSync(doc.source.replace(/^@site/, context.siteDir), 'utf8'),
          })),
        ),
        versions.flatMap((version) => Object.values(version.sidebars)),
      );
      if (problems.length > 0) {
        throw new Error(
          "Doc cards need the pages' descriptions, which src/features/bundle/node/slimDocsVersion.ts " +
            `leaves out of the bundles; remove that plugin to use them:\n- ${problems.join('\n- ')}`,
        );
      }
    },
    configureWebpack(config) {
      if (config.mode !== 'production' || !existsSync(generatedDocs)) {
        return {};
      }
      const alias: Record<string, string> = {};
      for (const pluginId of readdirSync(generatedDocs)) {
        const propsDir = join(generatedDocs, pluginId, 'p');
        if (!existsSync(propsDir)) {
          continue;
        }
        for (const file of readdirSync(propsDir).filter((name) => name.endsWith('.json'))) {
          const slim = slimVersionProps(readFileSync(join(propsDir, file), 'utf8'));
          if (slim !== null) {
            Object.assign(
              alias,
              aliasToCopy(join(propsDir, file), join(slimDir, pluginId, file), slim),
            );
          }
        }
      }
      return {resolve: {alias}};
    },
  };
}

import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import type {LoadContext, Plugin} from '@docusaurus/types';
import slimDocsVersion, {descriptionReaders, slimVersionProps} from './slimDocsVersion';

const versionProp = {
  version: {
    pluginId: 'default',
    version: 'current',
    docsSidebars: {docs: [{type: 'link', href: '/', label: 'Introduction', docId: 'introduction'}]},
    docs: {
      introduction: {
        id: 'introduction',
        title: 'Introduction',
        description: 'What Nest is and why.',
        sidebar: 'docs',
      },
      controllers: {id: 'controllers', title: 'Controllers', description: 'Routes.'},
    },
  },
};

describe('slimVersionProps', () => {
  it('drops the descriptions of the pages and keeps everything else', () => {
    const slim = JSON.parse(slimVersionProps(JSON.stringify(versionProp)) ?? 'null') as unknown;
    expect(slim).toEqual({
      version: {
        ...versionProp.version,
        docs: {
          introduction: {id: 'introduction', title: 'Introduction', sidebar: 'docs'},
          controllers: {id: 'controllers', title: 'Controllers'},
        },
      },
    });
  });

  it('leaves other props alone', () => {
    expect(slimVersionProps('{"tags": []}')).toBeNull();
    expect(slimVersionProps('[1, 2]')).toBeNull();
    expect(slimVersionProps('{"version": {"docs": null}}')).toBeNull();
  });
});

describe('descriptionReaders', () => {
  it('names pages rendering doc cards and categories with a generated index', () => {
    expect(
      descriptionReaders(
        [
          {source: '@site/docs/a.md', text: '# A\n\nPlain text about DocCards.'},
          {
            source: '@site/docs/b.mdx',
            text: "import X from '@theme/DocCardList';\n\n<DocCardList />",
          },
          {source: '@site/docs/c.mdx', text: '<DocCard item={item} />'},
        ],
        [
          [
            {type: 'doc'},
            {
              type: 'category',
              label: 'Overview',
              items: [{type: 'category', label: 'Deep', link: {type: 'generated-index'}}],
            },
            {type: 'category', label: 'Techniques', link: {type: 'doc'}, items: []},
          ],
        ],
      ),
    ).toEqual([
      '@site/docs/b.mdx renders doc cards',
      '@site/docs/c.mdx renders doc cards',
      'the sidebar category "Deep" has a generated index page',
    ]);
  });
});

describe('the plugin', () => {
  let siteDir = '';
  afterEach(() => {
    if (siteDir) rmSync(siteDir, {recursive: true, force: true});
  });

  /** A site with generated files as the docs plugin writes them, and the plugin built on it. */
  function setUp(): {plugin: Plugin; original: string} {
    siteDir = mkdtempSync(join(tmpdir(), 'slim-docs-'));
    const propsDir = join(siteDir, '.docusaurus', 'docusaurus-plugin-content-docs', 'default', 'p');
    mkdirSync(propsDir, {recursive: true});
    const original = join(propsDir, 'index-466.json');
    writeFileSync(original, JSON.stringify(versionProp));
    writeFileSync(join(propsDir, 'tags-abc.json'), '{"tags": []}');
    const context = {siteDir, generatedFilesDir: join(siteDir, '.docusaurus')} as LoadContext;
    return {plugin: slimDocsVersion(context), original};
  }

  type Configure = (config: {mode: string}) => {resolve?: {alias?: Record<string, string>}};

  it('points production bundles at a copy without descriptions', () => {
    const {plugin, original} = setUp();
    const result = (plugin.configureWebpack as unknown as Configure)({mode: 'production'});
    const alias = result.resolve?.alias ?? {};
    expect(Object.keys(alias)).toEqual([`${original}$`]);
    const copy = JSON.parse(readFileSync(alias[`${original}$`], 'utf8')) as typeof versionProp;
    expect(copy.version.docs.introduction).not.toHaveProperty('description');
    expect(copy.version.docsSidebars).toEqual(versionProp.version.docsSidebars);
  });

  it('changes nothing in development, where the docs plugin rewrites the file as pages change', () => {
    const {plugin} = setUp();
    expect((plugin.configureWebpack as unknown as Configure)({mode: 'development'})).toEqual({});
  });

  it('fails the build when a page renders doc cards, naming it', async () => {
    const {plugin} = setUp();
    mkdirSync(join(siteDir, 'docs'));
    writeFileSync(join(siteDir, 'docs', 'cards.mdx'), '<DocCardList />\n');
    const allContent = {
      'docusaurus-plugin-content-docs': {
        default: {loadedVersions: [{docs: [{source: '@site/docs/cards.mdx'}], sidebars: {}}]},
      },
    };
    const load = plugin.allContentLoaded as unknown as (args: {
      allContent: unknown;
    }) => Promise<void>;
    await expect(load({allContent})).rejects.toThrow('@site/docs/cards.mdx renders doc cards');
  });
});

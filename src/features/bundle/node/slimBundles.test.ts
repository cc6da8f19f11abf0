import {spawnSync} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import type {DocusaurusConfig, LoadContext} from '@docusaurus/types';
import slimSiteConfig, {browserConfigModule, serverOnlyFields} from './slimSiteConfig';
import tslibHelpers, {helpersUsedBy, utilsCommonLib} from './tslibHelpers';
import * as helpersModule from '../client/tslibHelpers';
import prefetchOnce, {prefetchCaller} from './prefetchOnce';
import {once} from '../client/prefetchOnce';
import sourcePatchesPlugin, {
  type Edit,
  patchedFile,
  sourcePatchLoader,
  sourcePatches,
} from './sourcePatches';
import sourcePatchLoaderModule from './sourcePatchLoader.cjs';

const siteDir = join(__dirname, '..', '..', '..', '..');

type Configure = (
  config: {mode: string},
  isServer: boolean,
) => {
  resolve?: {alias?: Record<string, string>};
  module?: {
    rules?: {test: (resource: string) => boolean; resolve: {alias: Record<string, string>}}[];
  };
};

describe('slimSiteConfig', () => {
  const siteConfig = {
    title: 'NestJS',
    url: 'https://docs.nestjs.com',
    headTags: [{tagName: 'style', attributes: {}, innerHTML: '.a{}'}],
    ssrTemplate: '<html></html>',
    themeConfig: {navbar: {title: ''}},
  } as unknown as DocusaurusConfig;

  it('writes the config module without the fields only the server reads', () => {
    const module = browserConfigModule(siteConfig);
    expect(module.startsWith('export default {')).toBe(true);
    const parsed = JSON.parse(module.replace(/^export default /, '').replace(/;\n$/, '')) as Record<
      string,
      unknown
    >;
    expect(parsed).toEqual({
      title: 'NestJS',
      url: 'https://docs.nestjs.com',
      themeConfig: {navbar: {title: ''}},
    });
    expect(serverOnlyFields).toEqual(['headTags', 'ssrTemplate']);
    // The input is left as it was: the server still needs both.
    expect(siteConfig.headTags).toHaveLength(1);
  });

  let generatedFilesDir = '';
  afterEach(() => {
    if (generatedFilesDir) rmSync(generatedFilesDir, {recursive: true, force: true});
  });

  it('aliases the generated config for the production browser bundle only', () => {
    generatedFilesDir = mkdtempSync(join(tmpdir(), 'slim-config-'));
    const plugin = slimSiteConfig({siteConfig, generatedFilesDir} as LoadContext);
    const configure = plugin.configureWebpack as unknown as Configure;
    expect(configure({mode: 'production'}, true)).toEqual({});
    expect(configure({mode: 'development'}, false)).toEqual({});
    const alias = configure({mode: 'production'}, false).resolve?.alias ?? {};
    const key = `${join(generatedFilesDir, 'docusaurus.config.mjs')}$`;
    expect(Object.keys(alias)).toEqual([key]);
    expect(readFileSync(alias[key], 'utf8')).toBe(browserConfigModule(siteConfig));
  });
});

describe('tslibHelpers', () => {
  it('the narrow module exports every helper the installed @docusaurus/utils-common calls', () => {
    const used = helpersUsedBy(utilsCommonLib(siteDir));
    expect(used.length).toBeGreaterThan(0);
    expect(Object.keys(helpersModule).sort()).toEqual(used);
    for (const name of used) {
      expect(typeof (helpersModule as Record<string, unknown>)[name]).toBe('function');
    }
  });

  it('narrows tslib for that package, in the browser bundle only', () => {
    const plugin = tslibHelpers({siteDir} as LoadContext);
    const configure = plugin.configureWebpack as unknown as Configure;
    expect(configure({mode: 'production'}, true)).toEqual({});
    const [rule] = configure({mode: 'production'}, false).module?.rules ?? [];
    const lib = utilsCommonLib(siteDir);
    expect(rule.test(join(lib, 'index.js'))).toBe(true);
    expect(rule.test(join(siteDir, 'node_modules', 'react', 'index.js'))).toBe(false);
    expect(rule.resolve.alias['tslib$']).toBe(
      join(siteDir, 'src', 'features', 'bundle', 'client', 'tslibHelpers.ts'),
    );
  });
});

describe('prefetchOnce', () => {
  it('asks the helper once per URL and gives later callers the same promise', async () => {
    const asked: string[] = [];
    const prefetch = once((url) => {
      asked.push(url);
      return Promise.resolve();
    });
    const first = prefetch('/assets/js/a.js');
    expect(prefetch('/assets/js/a.js')).toBe(first);
    await prefetch('/assets/js/b.js');
    await prefetch('/assets/js/a.js');
    expect(asked).toEqual(['/assets/js/a.js', '/assets/js/b.js']);
  });

  it("redirects the helper import of Docusaurus' client, in the browser bundle only", () => {
    const caller = prefetchCaller(siteDir);
    // The installed client still calls its helper through this import.
    expect(readFileSync(caller, 'utf8')).toMatch(/^import prefetchHelper from '\.\/prefetch';$/m);
    const plugin = prefetchOnce({siteDir} as LoadContext);
    const configure = plugin.configureWebpack as unknown as Configure;
    expect(configure({mode: 'production'}, true)).toEqual({});
    const [rule] = configure({mode: 'production'}, false).module?.rules ?? [];
    expect(rule.test(caller)).toBe(true);
    expect(rule.test(join(dirname(caller), 'prefetch.js'))).toBe(false);
    expect(rule.resolve.alias['./prefetch$']).toBe(
      join(siteDir, 'src', 'features', 'bundle', 'client', 'prefetchOnce.ts'),
    );
  });
});

describe('sourcePatches', () => {
  const patched = (name: keyof typeof sourcePatches) => {
    const patch = {name, ...sourcePatches[name]};
    return sourcePatchLoaderModule.rewrite(
      readFileSync(patchedFile(siteDir, patch), 'utf8'),
      patch,
    );
  };

  it('gives each patched file, and only it, the loader with its patch, in both bundles', () => {
    const plugin = sourcePatchesPlugin({siteDir} as LoadContext);
    const configure = plugin.configureWebpack as unknown as (
      config: {mode: string},
      isServer: boolean,
    ) => {
      module: {
        rules: {
          test: (resource: string) => boolean;
          use: {loader: string; options: {name: string; edits: readonly Edit[]}}[];
        }[];
      };
    };
    for (const isServer of [false, true]) {
      const {rules} = configure({mode: 'production'}, isServer).module;
      expect(rules.map((rule) => rule.use[0].options.name)).toEqual(Object.keys(sourcePatches));
      for (const rule of rules) {
        const patch = sourcePatches[rule.use[0].options.name as keyof typeof sourcePatches];
        const file = patchedFile(siteDir, patch);
        expect(rule.test(file)).toBe(true);
        expect(rule.test(join(dirname(file), 'other.js'))).toBe(false);
        expect(rule.use[0].loader).toBe(sourcePatchLoader(siteDir));
        expect(rule.use[0].options.edits).toBe(patch.edits);
      }
    }
  });

  it('fails with the patch named when its text is not in the file', () => {
    expect(() =>
      sourcePatchLoaderModule.rewrite('export const a = 1;', {
        name: 'example',
        edits: [
          {original: 'a = 1', replacement: 'a = 2'},
          {original: 'b = 2', replacement: 'b = 3'},
        ],
      }),
    ).toThrow(/patch "example" did not find "b = 2"/);
  });

  it("shallowMemoObject: theme-common's comparator orders keys by code unit, without the collator", () => {
    const rewritten = patched('shallowMemoObject');
    expect(rewritten).not.toMatch(/localeCompare/);
    const sort = /deps\.sort\((.*)\);/.exec(rewritten)?.[1] ?? '';
    const compare = new Function(`return ${sort}`)() as (
      a: [string, unknown],
      b: [string, unknown],
    ) => number;
    const entries: [string, unknown][] = [
      ['subtree', 1],
      ['attributes', 2],
      ['childList', 3],
    ];
    expect(entries.sort(compare).map(([key]) => key)).toEqual([
      'attributes',
      'childList',
      'subtree',
    ]);
  });

  it('helmetOnMount: in the browser a <Head> registers when mounted and merges in a frame; on the server while rendering', () => {
    const rewritten = patched('helmetOnMount');
    // In the browser, a change only asks for a frame; the merge and the write happen there.
    expect(rewritten).toContain(
      'r.emitChange=function(){var s=this;if(!q.canUseDOM)return s.emitChangeNow();',
    );
    expect(rewritten).toContain('r.emitChangeNow=function(){var t,e,r=this.props.context');
    expect(rewritten).toContain(
      'r.componentDidMount=function(){this.init()},r.render=function(){return q.canUseDOM||this.init(),null}',
    );
    // `q` is the Provider whose canUseDOM the dispatcher already consults.
    expect(rewritten).toMatch(/\bq\.canUseDOM=/);
    // Still a valid ES module.
    const dir = mkdtempSync(join(tmpdir(), 'helmet-'));
    try {
      writeFileSync(join(dir, 'index.mjs'), rewritten);
      expect(spawnSync(process.execPath, ['--check', join(dir, 'index.mjs')]).status).toBe(0);
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  });
});

import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import type {DocusaurusConfig, LoadContext} from '@docusaurus/types';
import slimSiteConfig, {
  browserConfigModule,
  serverOnlyFields,
} from '../../src/plugins/slimSiteConfig';
import tslibHelpers, {helpersUsedBy, utilsCommonLib} from '../../src/plugins/tslibHelpers';
import * as helpersModule from '../../src/plugins/tslibHelpersModule';
import prefetchOnce, {prefetchCaller} from '../../src/plugins/prefetchOnce';
import {once} from '../../src/plugins/prefetchOnceModule';
import shallowMemoObject, {reactUtilsFile} from '../../src/plugins/shallowMemoObject';
import shallowMemoObjectLoader from '../../src/plugins/shallowMemoObjectLoader.cjs';

const siteDir = join(__dirname, '..', '..');

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
      join(siteDir, 'src', 'plugins', 'tslibHelpersModule.ts'),
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
      join(siteDir, 'src', 'plugins', 'prefetchOnceModule.ts'),
    );
  });
});

describe('shallowMemoObject', () => {
  it("rewrites theme-common's comparator to compare keys by code unit, in both bundles", () => {
    const file = reactUtilsFile(siteDir);
    const plugin = shallowMemoObject({siteDir} as LoadContext);
    const configure = plugin.configureWebpack as unknown as (
      config: {mode: string},
      isServer: boolean,
    ) => {module: {rules: {test: (resource: string) => boolean; use: {loader: string}[]}[]}};
    for (const isServer of [false, true]) {
      const [rule] = configure({mode: 'production'}, isServer).module.rules;
      expect(rule.test(file)).toBe(true);
      expect(rule.test(join(dirname(file), 'jsUtils.js'))).toBe(false);
      expect(rule.use[0].loader).toBe(
        join(siteDir, 'src', 'plugins', 'shallowMemoObjectLoader.cjs'),
      );
    }
    // The installed file still has the line, and the result has no collator left.
    const rewritten = shallowMemoObjectLoader.rewrite(readFileSync(file, 'utf8'));
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
    expect(() => shallowMemoObjectLoader.rewrite('export const a = 1;')).toThrow(/not found/);
  });
});

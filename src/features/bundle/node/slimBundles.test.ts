import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import type {DocusaurusConfig, LoadContext} from '@docusaurus/types';
import slimSiteConfig, {browserConfigModule, serverOnlyFields} from './slimSiteConfig';
import tslibHelpers, {helpersUsedBy, utilsCommonLib} from './tslibHelpers';
import * as helpersModule from '../client/tslibHelpers';

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

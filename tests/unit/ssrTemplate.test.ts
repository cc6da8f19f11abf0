import {createRequire} from 'node:module';
import {describe, expect, it} from 'vitest';
import {loadBundles, ssrTemplate, type BundleState} from '../../src/node/ssrTemplate';

type FakeScript = {
  src: string;
  async: boolean;
  onload: ((event: {type: string}) => void) | null;
  onerror: ((event: {type: string}) => void) | null;
};

/** A document and window just large enough for the loader, with the frame and timer in hand. */
function fakePage({hidden = false} = {}) {
  const appended: FakeScript[] = [];
  const frames: (() => void)[] = [];
  const timers: (() => void)[] = [];
  const doc = {
    hidden,
    createElement: () => ({src: '', async: true, onload: null, onerror: null}) as FakeScript,
    head: {appendChild: (script: FakeScript) => appended.push(script)},
  };
  const win: {
    __bundles?: BundleState;
    requestAnimationFrame: (callback: () => void) => number;
    setTimeout: (callback: () => void, delay: number) => number;
  } = {
    requestAnimationFrame: (callback) => frames.push(callback),
    setTimeout: (callback) => timers.push(callback),
  };
  return {appended, frames, timers, doc, win};
}

type Loader = (sources: readonly string[], doc: unknown, win: unknown) => void;
const sources = ['/assets/js/runtime~main.1.js', '/assets/js/main.2.js'];

describe('loadBundles', () => {
  it('requests the bundles after the first frame has been painted, in order', () => {
    const page = fakePage();
    (loadBundles as Loader)(sources, page.doc, page.win);
    expect(page.win.__bundles).toBe('waiting');
    expect(page.appended).toEqual([]);
    page.frames.shift()?.();
    // The frame callback runs before the paint: still nothing until the timer after it.
    expect(page.appended).toEqual([]);
    page.timers.shift()?.();
    expect(page.appended.map((script) => script.src)).toEqual(sources);
    expect(page.appended.every((script) => script.async === false)).toBe(true);
    expect(page.win.__bundles).toBe('loading');
    page.appended[0].onload?.({type: 'load'});
    expect(page.win.__bundles).toBe('loading');
    page.appended[1].onload?.({type: 'load'});
    expect(page.win.__bundles).toBe('loaded');
  });

  it('reports a bundle that failed to load', () => {
    const page = fakePage();
    (loadBundles as Loader)(sources, page.doc, page.win);
    page.frames.shift()?.();
    page.timers.shift()?.();
    page.appended[0].onerror?.({type: 'error'});
    page.appended[1].onload?.({type: 'load'});
    expect(page.win.__bundles).toBe('failed');
  });

  it('loads at once in a hidden document, which paints no frame', () => {
    const page = fakePage({hidden: true});
    (loadBundles as Loader)(sources, page.doc, page.win);
    expect(page.frames).toEqual([]);
    expect(page.appended.map((script) => script.src)).toEqual(sources);
  });

  it('with no bundles to load, is done after the first frame', () => {
    const page = fakePage();
    (loadBundles as Loader)([], page.doc, page.win);
    page.frames.shift()?.();
    page.timers.shift()?.();
    expect(page.appended).toEqual([]);
    expect(page.win.__bundles).toBe('loaded');
  });

  it('works when serialized into the page, using nothing but its arguments', () => {
    const page = fakePage();
    const serialized = new Function(`return (${loadBundles.toString()})`)() as Loader;
    serialized(sources, page.doc, page.win);
    page.frames.shift()?.();
    page.timers.shift()?.();
    expect(page.appended.map((script) => script.src)).toEqual(sources);
  });
});

describe('ssrTemplate', () => {
  it("keeps Docusaurus' slots and loads the bundles only through the loader", () => {
    for (const slot of [
      'it.htmlAttributes',
      'it.metaAttributes',
      'it.headTags',
      'it.stylesheets',
      'it.bodyAttributes',
      'it.preBodyTags',
      'it.appHtml',
      'it.postBodyTags',
    ]) {
      expect(ssrTemplate).toContain(slot);
    }
    expect(ssrTemplate).not.toMatch(/<script[^>]*\bsrc=/);
    expect(ssrTemplate).toContain(`(${loadBundles.toString()})(`);
    expect(ssrTemplate).toContain('it.scripts.map((script) => it.baseUrl + script)');
  });

  it("is Docusaurus' installed template but for the bundles (fails when an upgrade changes it)", () => {
    const require = createRequire(import.meta.url);
    const original = (require('@docusaurus/core/lib/ssg/ssgTemplate.html.js') as {default: string})
      .default;
    const scriptTags = /\n\s*<% it\.scripts\.forEach\(\(script\) => \{ %>[\s\S]*?<% \}\); %>/;
    expect(original).toMatch(scriptTags);
    const loader = /\n\s*<script>\(function loadBundles[\s\S]*?<\/script>/;
    expect(ssrTemplate).toMatch(loader);
    expect(ssrTemplate.replace(loader, '')).toBe(original.replace(scriptTags, ''));
  });
});

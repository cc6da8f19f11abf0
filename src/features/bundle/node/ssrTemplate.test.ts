import {createRequire} from 'node:module';
import {describe, expect, it} from 'vitest';
import {loadBundles, type BundleState} from '../loadBundles';
import {ssrTemplate} from './ssrTemplate';

type FakeScript = {
  src: string;
  async: boolean;
  onload: ((event: {type: string}) => void) | null;
  onerror: ((event: {type: string}) => void) | null;
};

type Entries = {getEntries(): readonly unknown[]};

/**
 * A document and window just large enough for the loader, with the frame, the timers and the
 * paint observer in hand. `paintTiming: false` is a browser without Paint Timing.
 */
function fakePage({hidden = false, paintTiming = true, observeThrows = false} = {}) {
  const appended: FakeScript[] = [];
  const frames: (() => void)[] = [];
  const timers: {callback: () => void; delay: number}[] = [];
  const observers: {
    callback: (list: Entries) => void;
    options?: {type: string; buffered: boolean};
    disconnected: boolean;
  }[] = [];
  const doc = {
    hidden,
    createElement: () => ({src: '', async: true, onload: null, onerror: null}) as FakeScript,
    head: {appendChild: (script: FakeScript) => appended.push(script)},
  };
  class FakeObserver {
    static supportedEntryTypes = ['mark', 'measure', 'paint', 'resource'];
    private readonly record: (typeof observers)[number];
    constructor(callback: (list: Entries) => void) {
      this.record = {callback, disconnected: false};
      observers.push(this.record);
    }
    observe(options: {type: string; buffered: boolean}) {
      if (observeThrows) {
        throw new TypeError('Failed to execute observe');
      }
      this.record.options = options;
    }
    disconnect() {
      this.record.disconnected = true;
    }
  }
  const win: {
    __bundles?: BundleState;
    requestAnimationFrame: (callback: () => void) => number;
    setTimeout: (callback: () => void, delay: number) => number;
    PerformanceObserver?: typeof FakeObserver;
  } = {
    requestAnimationFrame: (callback) => frames.push(callback),
    setTimeout: (callback, delay) => timers.push({callback, delay}),
    ...(paintTiming ? {PerformanceObserver: FakeObserver} : {}),
  };
  /** The browser reports the first paint (`first-paint`, then `first-contentful-paint`). */
  const paint = () => {
    for (const observer of observers) {
      if (!observer.disconnected) {
        observer.callback({getEntries: () => [{name: 'first-paint'}]});
      }
    }
  };
  return {appended, frames, timers, observers, paint, doc, win};
}

type Loader = (sources: readonly string[], doc: unknown, win: unknown) => void;
const sources = ['/assets/js/runtime~main.1.js', '/assets/js/main.2.js'];

describe('loadBundles', () => {
  it('requests the bundles once the first paint is reported, in order', () => {
    const page = fakePage();
    (loadBundles as Loader)(sources, page.doc, page.win);
    expect(page.win.__bundles).toBe('waiting');
    expect(page.observers).toHaveLength(1);
    expect(page.observers[0].options).toEqual({type: 'paint', buffered: true});
    expect(page.frames).toEqual([]);
    // An empty report (no entry yet) changes nothing.
    page.observers[0].callback({getEntries: () => []});
    expect(page.appended).toEqual([]);
    page.paint();
    expect(page.observers[0].disconnected).toBe(true);
    expect(page.appended.map((script) => script.src)).toEqual(sources);
    expect(page.appended.every((script) => script.async === false)).toBe(true);
    expect(page.win.__bundles).toBe('loading');
    page.appended[0].onload?.({type: 'load'});
    expect(page.win.__bundles).toBe('loading');
    page.appended[1].onload?.({type: 'load'});
    expect(page.win.__bundles).toBe('loaded');
  });

  it('loads them anyway when no paint is reported within 3 seconds, and only once', () => {
    const page = fakePage();
    (loadBundles as Loader)(sources, page.doc, page.win);
    expect(page.timers.map((timer) => timer.delay)).toEqual([3000]);
    page.timers[0].callback();
    expect(page.appended).toHaveLength(2);
    page.paint();
    expect(page.appended).toHaveLength(2);
  });

  it('without Paint Timing, requests them after the first frame and a timer', () => {
    for (const options of [{paintTiming: false}, {observeThrows: true}]) {
      const page = fakePage(options);
      (loadBundles as Loader)(sources, page.doc, page.win);
      expect(page.appended).toEqual([]);
      page.frames.shift()?.();
      // The frame callback runs before the paint: still nothing until the timer after it.
      expect(page.appended).toEqual([]);
      expect(page.timers.map((timer) => timer.delay)).toEqual([0]);
      page.timers.shift()?.callback();
      expect(page.appended.map((script) => script.src)).toEqual(sources);
    }
  });

  it('reports a bundle that failed to load', () => {
    const page = fakePage();
    (loadBundles as Loader)(sources, page.doc, page.win);
    page.paint();
    page.appended[0].onerror?.({type: 'error'});
    page.appended[1].onload?.({type: 'load'});
    expect(page.win.__bundles).toBe('failed');
  });

  it('loads at once in a hidden document, which paints no frame', () => {
    const page = fakePage({hidden: true});
    (loadBundles as Loader)(sources, page.doc, page.win);
    expect(page.frames).toEqual([]);
    expect(page.observers).toEqual([]);
    expect(page.appended.map((script) => script.src)).toEqual(sources);
  });

  it('with no bundles to load, is done after the first paint', () => {
    const page = fakePage();
    (loadBundles as Loader)([], page.doc, page.win);
    page.paint();
    expect(page.appended).toEqual([]);
    expect(page.win.__bundles).toBe('loaded');
  });

  it('works when serialized into the page, using nothing but its arguments', () => {
    for (const options of [{}, {paintTiming: false}]) {
      const page = fakePage(options);
      const serialized = new Function(`return (${loadBundles.toString()})`)() as Loader;
      serialized(sources, page.doc, page.win);
      page.paint();
      page.frames.shift()?.();
      page.timers.find((timer) => timer.delay === 0)?.callback();
      expect(page.appended.map((script) => script.src)).toEqual(sources);
    }
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

import {readFileSync, readdirSync} from 'node:fs';
import {mkdir, mkdtemp, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import type {LoadContext} from '@docusaurus/types';
import {describe, expect, it} from 'vitest';
import {links} from '../../data/links';
import {pipelineSteps} from './plugin';
import {htmlFiles, routeOf} from './node/pages';
import {merge, noArtifacts, runSteps, type BuildData, type Step} from './node/steps';

const build = {outDir: '/nowhere'} as BuildData;

/** The names of the steps, in the order `pipelineSteps` gives them. */
function stepNames(): string[] {
  const context = {baseUrl: '/', siteConfig: {trailingSlash: false, future: {}}} as LoadContext;
  const steps = pipelineSteps(context, {
    redirects: {redirects: [], noindexMarker: 'crud-utilities'},
    hosting: {redirects: [], enterpriseUrl: links.enterprise, forceRedirects: false},
  });
  return steps.map((step) => step.name);
}

describe('the build pipeline', () => {
  it('runs the features in order, hosting last', () => {
    expect(stepNames()).toEqual([
      'redirects',
      'markdown-twins',
      'api-reference',
      'search',
      'offline',
      'docset',
      'hosting',
    ]);
  });

  it('runs one step at a time and hands each what the steps before it produced', async () => {
    const seen: string[] = [];
    const step = (name: string, delay: number, path?: string): Step => ({
      name,
      async run(_build, previous) {
        seen.push(`${name} start (${previous.typedFiles.map((file) => file.path).join(' ')})`);
        await new Promise((resolve) => setTimeout(resolve, delay));
        seen.push(`${name} end`);
        return path ? {typedFiles: [{path, contentType: 'text/plain'}]} : {};
      },
    });
    const log: string[] = [];
    const artifacts = await runSteps(
      build,
      [step('a', 30, '/a.txt'), step('b', 0), step('c', 10, '/c.txt'), step('d', 0)],
      (line) => log.push(line),
    );
    expect(seen).toEqual([
      'a start ()',
      'a end',
      'b start (/a.txt)',
      'b end',
      'c start (/a.txt)',
      'c end',
      'd start (/a.txt /c.txt)',
      'd end',
    ]);
    expect(artifacts.typedFiles.map((file) => file.path)).toEqual(['/a.txt', '/c.txt']);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(
      /^\[build-pipeline\] a \d+\.\d s, b \d+\.\d s, c \d+\.\d s, d \d+\.\d s$/,
    );
  });

  it('stops at a failing step, naming it, and runs none after it', async () => {
    const ran: string[] = [];
    const failing: Step = {
      name: 'search',
      run: async () => {
        throw new Error('Pagefind could not start');
      },
    };
    const after: Step = {name: 'hosting', run: async () => (ran.push('hosting'), {})};
    await expect(runSteps(build, [failing, after], () => {})).rejects.toThrow(
      '[build-pipeline] step "search" failed: Pagefind could not start',
    );
    expect(ran).toEqual([]);
  });

  it('appends each output to the artifacts', () => {
    const one = merge(noArtifacts, {typedFiles: [{path: '/a.md', contentType: 'text/markdown'}]});
    expect(merge(one, {})).toEqual(one);
    expect(noArtifacts.typedFiles).toEqual([]);
    const two = merge(one, {searchDocuments: [{url: '/api/common#Get', content: '<h1>Get</h1>'}]});
    expect(two.typedFiles).toEqual(one.typedFiles);
    expect(two.searchDocuments.map((document) => document.url)).toEqual(['/api/common#Get']);
  });
});

describe('the documents that number the steps follow pipelineSteps', () => {
  const readme = readFileSync('src/features/pipeline/README.md', 'utf8');

  it("the pipeline README's table", () => {
    const rows = [...readme.matchAll(/^\| (\d+) \| `([\w-]+)` \|/gm)];
    expect(rows.map(([, number]) => Number(number))).toEqual(stepNames().map((_, i) => i + 1));
    expect(rows.map(([, , name]) => name)).toEqual(stepNames());
  });

  it("the pipeline README's log lines", () => {
    const lines = [...readme.matchAll(/`\[build-pipeline\] ((?:[\w-]+ [\d.]+ s(?:, |(?=`)))+)`/g)];
    expect(lines.length).toBeGreaterThan(0);
    for (const [, line] of lines) {
      expect(line.split(', ').map((part) => part.replace(/ [\d.]+ s$/, ''))).toEqual(stepNames());
    }
  });

  it('a feature README\'s ordinal ("the pipeline step (2nd)")', () => {
    const names = stepNames();
    for (const feature of readdirSync('src/features').filter((name) => name !== 'pipeline')) {
      let text: string;
      try {
        text = readFileSync(join('src/features', feature, 'README.md'), 'utf8');
      } catch {
        continue;
      }
      for (const [, ordinal] of text.matchAll(/\bstep \((\d+)(?:st|nd|rd|th)\)/g)) {
        expect(`${feature}: step ${ordinal}`).toBe(
          `${feature}: step ${names.indexOf(feature) + 1}`,
        );
      }
    }
  });
});

describe('built pages and their routes', () => {
  it('serves each HTML file at its route (trailingSlash: false), the 404 page under its name', () => {
    expect(routeOf('index.html')).toBe('/');
    expect(routeOf('404.html')).toBe('/404.html');
    expect(routeOf('controllers.html')).toBe('/controllers');
    expect(routeOf(join('techniques', 'queues.html'))).toBe('/techniques/queues');
    expect(routeOf(join('faq', 'index.html'))).toBe('/faq');
    expect(routeOf('pipes.html', '/docs/')).toBe('/docs/pipes');
    expect(routeOf('reindex.html')).toBe('/reindex');
  });

  it("lists the HTML files of a build, outside Pagefind's folder", async () => {
    const outDir = await mkdtemp(join(tmpdir(), 'pipeline-'));
    await mkdir(join(outDir, 'faq'));
    await mkdir(join(outDir, 'pagefind'));
    for (const file of [
      'index.html',
      'faq/index.html',
      'faq/serverless.html',
      'pagefind/x.html',
      'a.md',
    ]) {
      await writeFile(join(outDir, file), '');
    }
    const found = await htmlFiles(outDir);
    expect(found.map((page) => page.route).sort()).toEqual(['/', '/faq', '/faq/serverless']);
  });
});

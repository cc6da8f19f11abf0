import {readFileSync} from 'node:fs';
import {mkdtemp, mkdir, readFile, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {redirects} from './redirects';
import {emittedRedirects} from './node/emitted';
import {addNoindex, markNoindex} from './node/noindex';

describe('redirects', () => {
  it('each legacy target is a menu route (written or pending)', () => {
    const allRoutes = declaredPageRoutes();
    for (const redirect of redirects) {
      expect(allRoutes, `${redirect.from} -> ${redirect.to}`).toContain(redirect.to);
    }
  });

  it('no redirect source is itself a menu route', () => {
    const routes = declaredPageRoutes();
    for (const redirect of redirects) {
      expect(routes.has(redirect.from), redirect.from).toBe(false);
    }
  });

  it('emits a legacy redirect only when its target exists', () => {
    const exists = (route: string) => route === '/providers';
    const emitted = emittedRedirects(exists);
    expect(emitted).toContainEqual({from: '/components', to: '/providers'});
    expect(emitted.find((redirect) => redirect.from === '/application-context')).toBeUndefined();
  });
});

/** Routes of every `page('id', ...)` entry in sidebars.ts, pending ones included. */
function declaredPageRoutes(): Set<string> {
  const source = readFileSync(join(__dirname, '..', '..', '..', 'sidebars.ts'), 'utf8');
  const ids = [...source.matchAll(/page\('([^']+)'/g)].map((match) => match[1]);
  return new Set(ids.map((id) => (id === 'introduction' ? '/' : `/${id}`)));
}

describe('menu', () => {
  it('lists every route of the reference page table, in its order', () => {
    const tsv = readFileSync(
      join(__dirname, '..', '..', '..', 'scripts', 'reference', 'pages.tsv'),
      'utf8',
    );
    const rows = tsv
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split('\t'));
    const declared = declaredPageRoutes();
    for (const [route] of rows) {
      if (route === '/enterprise') continue; // reached from the header, not the menu
      expect(declared, route).toContain(route);
    }
  });

  it('uses the reference labels', () => {
    const tsv = readFileSync(
      join(__dirname, '..', '..', '..', 'scripts', 'reference', 'pages.tsv'),
      'utf8',
    );
    const labels = new Map(
      tsv
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => {
          const [route, title] = line.split('\t');
          return [route === '/' ? 'introduction' : route.slice(1), title] as const;
        }),
    );
    const source = readFileSync(join(__dirname, '..', '..', '..', 'sidebars.ts'), 'utf8');
    for (const [, id, label] of source.matchAll(/page\('([^']+)', '([^']+)'\)/g)) {
      expect(label, id).toBe(labels.get(id));
    }
  });
});

describe('noindex rule', () => {
  it('adds the robots tag once, as the first head child', () => {
    const html = '<!DOCTYPE html><html><head><meta charset="UTF-8"></head><body></body></html>';
    const marked = addNoindex(html);
    expect(marked).toContain('<head><meta name="robots" content="noindex"><meta charset="UTF-8">');
    expect(addNoindex(marked)).toBe(marked);
  });

  it('marks only files whose URL contains the marker', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'noindex-'));
    await mkdir(join(dir, 'recipes', 'crud-utilities'), {recursive: true});
    await writeFile(
      join(dir, 'recipes', 'crud-utilities', 'index.html'),
      '<html><head></head></html>',
    );
    await writeFile(join(dir, 'index.html'), '<html><head></head></html>');
    const marked = await markNoindex(dir, 'crud-utilities');
    expect(marked).toEqual(['/recipes/crud-utilities/index.html']);
    expect(await readFile(join(dir, 'index.html'), 'utf8')).not.toContain('noindex');
  });
});

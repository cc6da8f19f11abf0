/**
 * The Dash/Zeal docset of the production build (src/features/docset): the archive and the feed as
 * served, and the index of the real pages opened with SQLite (sql.js).
 */
import {execFileSync} from 'node:child_process';
import {existsSync, mkdtempSync, readdirSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, relative, resolve, dirname, sep} from 'node:path';
import initSqlJs from 'sql.js';
import {expect, test} from './fixtures';

const buildDir = resolve(process.env.E2E_BUILD_DIR ?? 'build');

let extracted = '';
const documents = () => join(extracted, 'NestJS.docset', 'Contents', 'Resources', 'Documents');

test.beforeAll(() => {
  extracted = mkdtempSync(join(tmpdir(), 'docset-e2e-'));
  execFileSync('tar', ['-xzf', join(buildDir, 'docset', 'NestJS.tgz'), '-C', extracted]);
});

test.afterAll(() => {
  if (extracted) rmSync(extracted, {recursive: true, force: true});
});

/** The docs pages of the build: the sitemap's routes whose page is an article. */
function docsRoutes(): string[] {
  const sitemap = readFileSync(join(buildDir, 'sitemap.xml'), 'utf8');
  return [...sitemap.matchAll(/<loc>https:\/\/docs\.nestjs\.com([^<]*)<\/loc>/g)]
    .map(([, path = '']) => path || '/')
    .filter((route) => {
      const file = join(buildDir, route === '/' ? 'index.html' : `${route.slice(1)}.html`);
      return existsSync(file) && readFileSync(file, 'utf8').includes('theme-doc-markdown');
    });
}

test('the archive and the Dash feed are served with their types, revalidated', async ({
  request,
}) => {
  const feed = await request.get('/docset/NestJS.xml');
  expect(feed.status()).toBe(200);
  expect(feed.headers()['content-type']).toBe('application/xml; charset=utf-8');
  expect(feed.headers()['cache-control']).toBe('no-cache');
  const xml = await feed.text();
  expect(xml).toMatch(/<version>8\.4\.7\/[0-9a-f]{12}<\/version>/);
  expect(xml).toContain('<url>https://docs.nestjs.com/docset/NestJS.tgz</url>');
  const archive = await request.get('/docset/NestJS.tgz');
  expect(archive.status()).toBe(200);
  expect(archive.headers()['content-type']).toBe('application/gzip');
  expect(archive.headers()['cache-control']).toBe('no-cache');
  // Served as is: a gzip stream, not compressed again.
  expect(archive.headers()['content-encoding']).toBeUndefined();
  const body = await archive.body();
  expect([...body.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
});

test('the offline "save all" list leaves the docset out', () => {
  const list = JSON.parse(readFileSync(join(buildDir, 'offline.json'), 'utf8')) as {
    pages: string[];
    files: string[];
  };
  expect([...list.pages, ...list.files].filter((url) => url.startsWith('/docset'))).toEqual([]);
});

test('the index has a Guide per docs page, and every entry leads to a file and an anchor of the docset', async () => {
  const SQL = await initSqlJs();
  const db = new SQL.Database(
    readFileSync(join(extracted, 'NestJS.docset', 'Contents', 'Resources', 'docSet.dsidx')),
  );
  const [result] = db.exec('SELECT name, type, path FROM searchIndex');
  db.close();
  const rows = (result?.values ?? []).map(([name, type, path]) => ({
    name: String(name),
    type: String(type),
    path: String(path),
  }));
  const routes = docsRoutes();
  expect(routes.length).toBeGreaterThan(100);
  const guides = new Set(rows.filter((row) => row.type === 'Guide').map((row) => row.path));
  for (const route of routes) {
    expect(guides, route).toContain(route === '/' ? 'index.html' : `${route.slice(1)}.html`);
  }
  const types = new Set(rows.map((row) => row.type));
  for (const type of ['Guide', 'Section', 'Decorator', 'Class', 'Interface', 'Function']) {
    expect(types, type).toContain(type);
  }
  const ids = new Map<string, Set<string>>();
  for (const row of rows) {
    const [file = '', anchor] = row.path.split('#');
    const path = join(documents(), file);
    expect(existsSync(path), `${row.type} ${row.name}: ${file}`).toBe(true);
    if (!anchor) continue;
    if (!ids.has(file)) {
      const html = readFileSync(path, 'utf8');
      ids.set(file, new Set([...html.matchAll(/\sid="([^"]+)"/g)].map(([, id = '']) => id)));
    }
    expect(ids.get(file), `${row.type} ${row.name}: ${row.path}`).toContain(anchor);
  }
  // Decorators a reader looks for.
  const names = new Set(rows.map((row) => row.name));
  for (const name of ['@Controller()', '@Injectable()', '@UseGuards()', 'PipeTransform']) {
    expect(names, name).toContain(name);
  }
});

test('the docset pages are static, their links between them relative and resolvable', () => {
  const files = readdirSync(documents(), {recursive: true, encoding: 'utf8'}).filter((file) =>
    file.endsWith('.html'),
  );
  expect(files.length).toBeGreaterThan(100);
  const broken: string[] = [];
  for (const file of files) {
    const html = readFileSync(join(documents(), file), 'utf8');
    expect(html, file).not.toMatch(/<script/i);
    expect(html, file).not.toContain('data-pagefind');
    for (const [, href = ''] of html.matchAll(/\shref="([^"]*)"/g)) {
      if (/^(https?:|mailto:|#)/.test(href)) continue;
      expect(href.startsWith('/'), `${file}: ${href}`).toBe(false);
      const target = join(dirname(join(documents(), file)), href.replace(/#.*$/, ''));
      if (!existsSync(target)) broken.push(`${file} -> ${href}`);
      expect(relative(documents(), target).startsWith(`..${sep}`), href).toBe(false);
    }
  }
  expect(broken).toEqual([]);
  const controllers = readFileSync(join(documents(), 'controllers.html'), 'utf8');
  expect(controllers).toContain('<span class="docset-lang">TypeScript</span>');
  expect(controllers).toContain('<span class="docset-lang">JavaScript</span>');
});

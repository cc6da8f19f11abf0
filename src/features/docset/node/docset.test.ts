import {execFileSync} from 'node:child_process';
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import initSqlJs from 'sql.js';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {writeDocset, nextRoute, prismCss, readingOrder, type DocsetOutput} from './docset';
import {pageFile, relativePath} from './page';

/**
 * A small build in the markup the theme writes (checked against the real build by
 * tests/e2e/docset.spec.ts): three docs pages, a page that is not a doc, a redirect page.
 */
const prism =
  ':root{--prism-plain-color:#393a34;--prism-plain-background-color:#f6f8fa}' +
  '[data-theme=dark]{--prism-plain-color:#f8f8f2;--prism-plain-background-color:#282a36}' +
  '.prism-keyword-color{color:var(--prism-keyword-color)}';

function codeBlock(lang: string, lines: string[]): string {
  return (
    `<div class="language-${lang} codeBlockContainer_x theme-code-block" style="--prism-color:var(--prism-plain-color)">` +
    `<div class="codeBlockContent_x"><pre tabindex="0" class="prism-code language-${lang}"><code class="codeBlockLines_x">` +
    lines
      .map((line) => `<div class="token-line"><span class="token plain">${line}</span><br/></div>`)
      .join('') +
    `</code></pre><div class="buttonGroup_x"><button type="button">Copy</button></div></div></div>`
  );
}

function pair(filename: string, ts: string[], js: string[]): string {
  return (
    `<div class="codePair_x" data-code-pair="pair"><div class="bar_x">` +
    `<span data-code-pair-filename="ts">${filename}.ts</span><span data-code-pair-filename="js">${filename}.js</span>` +
    `<button type="button" data-code-pair-switch="js">JS</button><button type="button" data-code-pair-switch="ts">TS</button></div>` +
    `<div data-code-pair-half="ts">${codeBlock('ts', ts)}</div><div data-code-pair-half="js">${codeBlock('js', js)}</div></div>`
  );
}

function heading(level: 2 | 3, id: string, text: string): string {
  return `<h${level} class="anchor" id="${id}">${text}<a href="#${id}" class="hash-link" aria-label="Direct link">\u200b</a></h${level}>`;
}

function docPage(title: string, body: string, next?: string): string {
  return (
    `<!DOCTYPE html><html><head><style>${prism}</style><script>document.documentElement.dataset.x=1</script></head>` +
    `<body><nav class="navbar">Header text</nav><article><nav class="theme-doc-breadcrumbs">Home</nav>` +
    `<p data-version-note="">You are reading the docs for NestJS 8.</p><div data-ad-slot=""></div>` +
    `<div data-pagefind-body="" data-pagefind-filter="section:Overview">` +
    `<div class="theme-doc-markdown markdown"><header><div class="titleRow"><h1>${title}</h1>` +
    `<div data-pagefind-ignore="" data-copy-page=""><button type="button">Copy page</button></div></div></header>` +
    `${body}</div></div><footer class="theme-doc-footer">Suggest edits</footer>` +
    `<aside class="newsletter">Join our newsletter</aside></article>` +
    (next
      ? `<nav class="pagination-nav"><a class="pagination-nav__link pagination-nav__link--next" href="${next}">Next</a></nav>`
      : '') +
    `<script src="/assets/js/main.js"></script></body></html>`
  );
}

const pages: Record<string, string> = {
  'index.html': docPage(
    'Introduction',
    `<p>Start with <a href="/controllers#routing">routing</a> or <a href="/techniques/caching">caching</a>.</p>` +
      heading(2, 'installation', 'Installation') +
      codeBlock('bash', ['npm i @nestjs/core']),
    '/controllers',
  ),
  'controllers.html': docPage(
    'Controllers',
    `<p>The <code>@Controller()</code> decorator declares a controller.</p>` +
      heading(2, 'routing', 'Routing') +
      `<p>Use <code>@Get()</code> on a method; see <a href="https://expressjs.com/">Express</a>, the ` +
      `<a href="/search?q=x">search</a> and <a href="/techniques/caching?lang=js#in-memory">the cache</a>.</p>` +
      pair(
        'cats.controller',
        [
          `import { Controller, Get, HttpException, HttpStatus } from '@nestjs/common';`,
          `@Controller('cats')`,
          `export class CatsController {`,
          `  @Get()`,
          `  findAll() { throw new HttpException('No', HttpStatus.FORBIDDEN); }`,
          `}`,
        ],
        [
          `import { Controller, Get } from '@nestjs/common';`,
          `@Controller('cats')`,
          `export class CatsController {}`,
        ],
      ) +
      `<p>Throw an <code>HttpException</code> with an <code>HttpStatus</code> member.</p>` +
      heading(3, 'status', 'Status') +
      `<div class="theme-admonition theme-admonition-hint alert alert--success"><div class="admonitionHeading_x"><span class="admonitionIcon_x"><svg></svg></span>hint</div>` +
      `<div class="admonitionContent_x"><p>A hint.</p></div></div>` +
      `<aside data-banner="courses">Learn Nest with the official courses</aside>` +
      `<p><button type="button" class="open_x"><img alt="A diagram" src="/img/overview/routing.svg"><span class="visually-hidden">(open full-screen)</span></button></p>` +
      heading(2, 'routing-2', 'Routing'),
    '/techniques/caching',
  ),
  'techniques/caching.html': docPage(
    'Caching',
    heading(2, 'in-memory', 'In-memory cache') +
      `<p>Implement <code>CacheOptionsFactory</code>, see <a href="/">the introduction</a> and ` +
      `<a href="/controllers">controllers</a>.</p>` +
      pair(
        'cache-config.service',
        [
          `import { CacheOptionsFactory, Injectable } from '@nestjs/common';`,
          `@Injectable()`,
          `export class CacheConfigService implements CacheOptionsFactory {}`,
        ],
        [`export class CacheConfigService {}`],
      ),
  ),
  'search.html': `<!DOCTYPE html><html><body><main>Search the docs</main></body></html>`,
  'components.html': `<!DOCTYPE html><html><head><meta http-equiv="refresh" content="0; url=/providers"></head></html>`,
};

let outDir: string;
let extracted: string;
let output: DocsetOutput;
const documents = () => join(extracted, 'NestJS.docset', 'Contents', 'Resources', 'Documents');

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'docset-build-'));
  for (const [file, html] of Object.entries(pages)) {
    mkdirSync(dirname(join(outDir, file)), {recursive: true});
    writeFileSync(join(outDir, file), html);
  }
  mkdirSync(join(outDir, 'img', 'overview'), {recursive: true});
  writeFileSync(
    join(outDir, 'img', 'overview', 'routing.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg"/>',
  );
  output = await writeDocset({
    outDir,
    siteUrl: 'https://docs.nestjs.com',
    routes: ['/', '/controllers', '/techniques/caching', '/search', '/components', '/consulting'],
  });
  extracted = mkdtempSync(join(tmpdir(), 'docset-extracted-'));
  // The system's tar reads the archive, not our own code.
  execFileSync('tar', ['-xzf', join(outDir, 'docset', 'NestJS.tgz'), '-C', extracted]);
});

afterAll(() => {
  rmSync(outDir, {recursive: true, force: true});
  rmSync(extracted, {recursive: true, force: true});
});

async function indexRows(): Promise<{name: string; type: string; path: string}[]> {
  const SQL = await initSqlJs();
  const db = new SQL.Database(
    readFileSync(join(extracted, 'NestJS.docset', 'Contents', 'Resources', 'docSet.dsidx')),
  );
  try {
    const [result] = db.exec('SELECT name, type, path FROM searchIndex ORDER BY id');
    return (result?.values ?? []).map(([name, type, path]) => ({
      name: String(name),
      type: String(type),
      path: String(path),
    }));
  } finally {
    db.close();
  }
}

describe('docset step', () => {
  it('writes the archive and the Dash feed into the build, nothing else', () => {
    expect(output.pages).toBe(3);
    expect(existsSync(join(outDir, 'docset', 'NestJS.tgz'))).toBe(true);
    const feed = readFileSync(join(outDir, 'docset', 'NestJS.xml'), 'utf8');
    expect(feed).toContain(`<version>${output.version}</version>`);
    expect(output.version).toMatch(/^8\.4\.7\/[0-9a-f]{12}$/);
    expect(feed).toContain('<url>https://docs.nestjs.com/docset/NestJS.tgz</url>');
    expect(output.files.map((file) => file.path)).toEqual([
      '/docset/NestJS.tgz',
      '/docset/NestJS.xml',
    ]);
  });

  it('is a docset bundle: Info.plist, icons, index, pages and their images', () => {
    const docset = join(extracted, 'NestJS.docset');
    const plist = readFileSync(join(docset, 'Contents', 'Info.plist'), 'utf8');
    expect(plist).toContain('<key>dashIndexFilePath</key>\n  <string>index.html</string>');
    expect(plist).toContain('<key>isDashDocset</key>\n  <true/>');
    expect(plist).toContain('<key>DashDocSetFamily</key>\n  <string>dashtoc</string>');
    for (const file of ['icon.png', 'icon@2x.png']) {
      expect(readFileSync(join(docset, file)).subarray(1, 4).toString()).toBe('PNG');
    }
    for (const file of [
      'index.html',
      'controllers.html',
      'techniques/caching.html',
      'docset.css',
    ]) {
      expect(existsSync(join(documents(), file))).toBe(true);
    }
    expect(existsSync(join(documents(), 'search.html'))).toBe(false);
    expect(existsSync(join(documents(), 'components.html'))).toBe(false);
    expect(readFileSync(join(documents(), 'img', 'overview', 'routing.svg'), 'utf8')).toContain(
      '<svg',
    );
  });

  it('indexes a Guide per page, a Section per ## heading and the APIs the pages introduce', async () => {
    const rows = await indexRows();
    const of = (type: string) => rows.filter((row) => row.type === type);
    expect(of('Guide').map((row) => [row.name, row.path])).toEqual([
      ['Introduction', 'index.html'],
      ['Controllers', 'controllers.html'],
      ['Caching', 'techniques/caching.html'],
    ]);
    expect(of('Section').map((row) => [row.name, row.path])).toEqual([
      ['Installation', 'index.html#installation'],
      ['Routing', 'controllers.html#routing'],
      ['Routing', 'controllers.html#routing-2'],
      ['In-memory cache', 'techniques/caching.html#in-memory'],
    ]);
    const apis = rows
      .filter((row) => !['Guide', 'Section'].includes(row.type))
      .map((row) => `${row.type} ${row.name} ${row.path}`)
      .sort();
    expect(apis).toEqual([
      'Class HttpException controllers.html#routing',
      'Decorator @Controller() controllers.html',
      'Decorator @Get() controllers.html#routing',
      'Enum HttpStatus controllers.html#routing',
      'Interface CacheOptionsFactory techniques/caching.html#in-memory',
    ]);
  });

  it('points every entry at a file of the docset and an anchor of that file', async () => {
    const rows = await indexRows();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const [file = '', anchor] = row.path.split('#');
      const path = join(documents(), file);
      expect(existsSync(path), `${row.type} ${row.name}: ${file}`).toBe(true);
      if (anchor) {
        const html = readFileSync(path, 'utf8');
        expect(html, `${row.type} ${row.name}: #${anchor}`).toMatch(
          new RegExp(`\\sid="${anchor.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`),
        );
      }
    }
  });

  it('writes the article only, as static HTML without the site scripts', () => {
    const html = readFileSync(join(documents(), 'controllers.html'), 'utf8');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<button/i);
    for (const text of [
      'Header text',
      'Suggest edits',
      'Join our newsletter',
      'You are reading',
      'Learn Nest with the official courses',
      'Copy page',
      'data-pagefind',
      'hash-link',
      'open full-screen',
    ]) {
      expect(html).not.toContain(text);
    }
    expect(html).toContain('<h1>Controllers</h1>');
    expect(html).toContain('<link rel="stylesheet" href="docset.css">');
    expect(html).toContain('<!-- Online page at https://docs.nestjs.com/controllers -->');
    expect(html).toContain('class="theme-admonition theme-admonition-hint');
    expect(html).toContain('<a name="//apple_ref/cpp/Section/Routing" class="dashAnchor"></a>');
    expect(html).toContain('<img alt="A diagram" src="img/overview/routing.svg">');
  });

  it('shows both halves of a code pair as two labelled blocks', () => {
    const html = readFileSync(join(documents(), 'controllers.html'), 'utf8');
    expect(html).toContain(
      '<figure class="docset-code" data-lang="ts"><figcaption><span class="docset-lang">TypeScript</span> <span class="docset-file">cats.controller.ts</span></figcaption>',
    );
    expect(html).toContain(
      '<figure class="docset-code" data-lang="js"><figcaption><span class="docset-lang">JavaScript</span> <span class="docset-file">cats.controller.js</span></figcaption>',
    );
    expect(html).not.toContain('data-code-pair-switch');
  });

  it('links docset pages relatively and the rest of the site absolutely', () => {
    const intro = readFileSync(join(documents(), 'index.html'), 'utf8');
    expect(intro).toContain('href="controllers.html#routing"');
    expect(intro).toContain('href="techniques/caching.html"');
    const caching = readFileSync(join(documents(), 'techniques', 'caching.html'), 'utf8');
    expect(caching).toContain('href="../index.html"');
    expect(caching).toContain('href="../controllers.html"');
    expect(caching).toContain('href="../docset.css"');
    const controllers = readFileSync(join(documents(), 'controllers.html'), 'utf8');
    expect(controllers).toContain('href="techniques/caching.html#in-memory"');
    expect(controllers).toContain('href="https://docs.nestjs.com/search?q=x"');
    expect(controllers).toContain('href="https://expressjs.com/"');
  });

  it('styles the code with the site colours, dark ones for a dark system theme', () => {
    const css = readFileSync(join(documents(), 'docset.css'), 'utf8');
    expect(css).toContain('.docset-code figcaption');
    expect(css).toContain('@media (prefers-color-scheme: dark){:root{--prism-plain-color:#f8f8f2;');
    expect(() => prismCss('<html></html>')).toThrow('no inline Prism colours');
  });

  it('gives the same archive for the same pages', async () => {
    const first = readFileSync(join(outDir, 'docset', 'NestJS.tgz'));
    const again = await writeDocset({
      outDir,
      siteUrl: 'https://docs.nestjs.com',
      routes: ['/', '/controllers', '/techniques/caching'],
    });
    expect(again.version).toBe(output.version);
    expect(readFileSync(join(outDir, 'docset', 'NestJS.tgz')).equals(first)).toBe(true);
  });

  it('fails with a clear error on a build without docs pages', async () => {
    await expect(
      writeDocset({outDir, siteUrl: 'https://docs.nestjs.com', routes: ['/search']}),
    ).rejects.toThrow(`[docset] no docs page in ${outDir}`);
  });
});

describe('docset paths and order', () => {
  it('maps routes to files and links them relatively', () => {
    expect(pageFile('/')).toBe('index.html');
    expect(pageFile('/techniques/caching')).toBe('techniques/caching.html');
    expect(relativePath('index.html', 'techniques/caching.html')).toBe('techniques/caching.html');
    expect(relativePath('techniques/caching.html', 'index.html')).toBe('../index.html');
    expect(relativePath('techniques/caching.html', 'techniques/queues.html')).toBe('queues.html');
    expect(relativePath('a/b/c.html', 'a/d/e.html')).toBe('../d/e.html');
  });

  it('orders pages by their Next links from the home page, the others after them', () => {
    const map = new Map([
      ['/b', docPage('B', '', '/c')],
      ['/z', docPage('Z', '')],
      ['/c', docPage('C', '')],
      ['/', docPage('Home', '', '/b')],
    ]);
    expect(readingOrder(map).map(([route]) => route)).toEqual(['/', '/b', '/c', '/z']);
    expect(nextRoute(docPage('Home', '', '/b'))).toBe('/b');
    expect(nextRoute(docPage('Home', ''))).toBeUndefined();
  });
});

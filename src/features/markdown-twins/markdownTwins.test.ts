import {mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {dirname, join, resolve} from 'node:path';
import type {RootContent} from 'mdast';
import {describe, expect, it} from 'vitest';
import sidebars from '../../../sidebars';
import {links} from '../../data/links';
import {calloutKinds} from '../markdown/callouts';
import {docsDir} from '../shell/node/docs';
import {
  hostingModel,
  renderHeaders,
  renderHtaccess,
  renderNginx,
  revalidate,
  typedFilePatterns,
} from '../hosting/node/hosting';
import {
  llmsFullTxt,
  llmsSections,
  llmsTxt,
  twinPath,
  type MenuItem,
  type TwinPage,
} from './node/llms';
import {absoluteUrl, toMarkdown, type ConvertOptions} from './node/markdownTwins';
import {llmsSummary, pageComponents, pageScope} from './node/site';
import {inspectMarkdownBuild, prose} from '../../../scripts/check-markdown-build.mjs';

const fixtures = resolve('src/features/markdown-twins/fixtures');
const siteUrl = 'https://docs.nestjs.com';

const oneCompany = (): RootContent[] => [
  {
    type: 'list',
    ordered: false,
    spread: false,
    children: [
      {
        type: 'listItem',
        spread: false,
        children: [
          {
            type: 'paragraph',
            children: [{type: 'link', url: 'https://x.io', children: [{type: 'text', value: 'X'}]}],
          },
        ],
      },
    ],
  },
];

function convertFixture(): string {
  const file = join(fixtures, 'page.mdx');
  return toMarkdown(readFileSync(file, 'utf8'), {
    siteUrl,
    route: '/techniques/cats',
    file,
    routesByFile: new Map([[join(fixtures, 'sibling.md'), '/techniques/sibling']]),
    scope: {links},
    components: {CompanyList: oneCompany},
  });
}

describe('the Markdown twin of a page', () => {
  const markdown = convertFixture();

  it('matches the expected Markdown of the fixture', () => {
    expect(markdown).toBe(readFileSync(join(fixtures, 'page.expected.md'), 'utf8'));
  });

  it('starts with the page title, without front matter, imports, exports or JSX', () => {
    expect(markdown.startsWith('# Cats\n\nCats are handled')).toBe(true);
    expect(markdown).not.toContain('front matter title');
    expect(markdown).not.toContain('description:');
    expect(prose(markdown)).not.toMatch(/^(import|export) /m);
    expect(prose(markdown)).not.toMatch(/(?<!\\)<\/?[A-Za-z]/);
    expect(markdown).not.toContain('CoursesBanner');
    expect(markdown).not.toContain('note to writers');
  });

  it('writes a code pair as two blocks, TypeScript first, each under its file name', () => {
    const ts = markdown.indexOf('`cats.controller.ts`\n\n```ts\nimport');
    const js = markdown.indexOf('`cats.controller.js`\n\n```js\nimport');
    expect(ts).toBeGreaterThan(0);
    expect(js).toBeGreaterThan(ts);
    expect(markdown).toContain('**TypeScript**\n\n```ts\nconst port: number = 3000;\n```');
    expect(markdown).toContain('**JavaScript**\n\n```js\nconst port = 3000;\n```');
    expect(markdown).toContain('`cat.interface.ts`\n\n```ts\nexport interface Cat {');
    expect(markdown).not.toContain('@@');
    expect(markdown).not.toContain('highlight-next-line');
  });

  it('writes callouts as quotes headed by their kind and label', () => {
    expect(markdown).toContain('> **Info**\n>\n> Nest is built on Express by default.');
    expect(markdown).toContain(
      '> **Warning: Breaking change**\n>\n> `@Res()` switches off the **standard** handling.\n>\n> - first\n> - second',
    );
    expect(markdown).toContain('> **Hint**\n>\n> Use the CLI: `nest g controller cats`.');
    expect(markdown).toContain('> **Hint: Learn more**\n>\n> A hint with a label.');
    expect(markdown).not.toContain(':::');
  });

  it('heads every callout kind of the site by its word, and refuses other kinds', () => {
    for (const [kind, word] of Object.entries(calloutKinds)) {
      expect(toMarkdown(`# T\n\n:::${kind}\nText.\n:::\n`, {siteUrl, route: '/x'})).toBe(
        `# T\n\n> **${word}**\n>\n> Text.\n`,
      );
    }
    // Docusaurus' other defaults (`tip`, `note`, ...) are not callouts of the site.
    expect(() => toMarkdown('# T\n\n:::tip\nText.\n:::\n', {siteUrl, route: '/x'})).toThrow(
      '/x:3: :::tip is not a callout kind (info, warning, hint)',
    );
  });

  it('keeps text that only looks like a directive', () => {
    expect(markdown).toContain('A shell command at 12:30 with a :colon and a:b:');
  });

  it('keeps tables, as GFM', () => {
    expect(markdown).toContain('| Decorator | Object     |\n| --------- | ---------- |');
    expect(markdown).toContain('| `@Body()` | `req.body` |');
  });

  it('makes links and images absolute, keeping anchors', () => {
    expect(markdown).toContain('[providers](https://docs.nestjs.com/providers)');
    expect(markdown).toContain('(https://docs.nestjs.com/pipes#binding-pipes)');
    expect(markdown).toContain('[below](https://docs.nestjs.com/techniques/cats#first-route)');
    expect(markdown).toContain('[sibling page](https://docs.nestjs.com/techniques/sibling#setup)');
    expect(markdown).toContain('[relative route](https://docs.nestjs.com/techniques/queues)');
    expect(markdown).toContain('[Express](https://expressjs.com/)');
    expect(markdown).toContain('[us](mailto:team@example.com)');
    expect(markdown).toContain(
      '![A request goes through the controller to the service.](https://docs.nestjs.com/img/overview/cats.svg)',
    );
  });

  it('drops heading ids and keeps inline code', () => {
    expect(markdown).toContain('\n## First route\n');
    expect(markdown).toContain('a `CatsController`');
  });

  it('evaluates the expressions and links of the page', () => {
    expect(markdown).toContain(`[write](mailto:${links.supportEmail})`);
    expect(markdown).toContain(`[repository](${links.editBase})`);
    expect(markdown).toContain('Escaped { braces } and \\<Cat> stay text.');
    expect(markdown).toContain('- [X](https://x.io)');
  });

  it('adds the title when the page has no # heading first', () => {
    expect(toMarkdown('Some text.\n', {siteUrl, route: '/a', title: 'A page'})).toBe(
      '# A page\n\nSome text.\n',
    );
    expect(() => toMarkdown('Some text.\n', {siteUrl, route: '/a'})).toThrow(/no # title/);
  });

  it('fails on malformed markers and unknown expressions, naming the file and line', () => {
    const options: ConvertOptions = {siteUrl, route: '/a', file: 'docs/a.md'};
    expect(() => toMarkdown('# A\n\n```ts\nconst a = 1;\n@@swtch\n```\n', options)).toThrow(
      /^docs\/a\.md:5: unknown marker/,
    );
    expect(() => toMarkdown('# A\n\n{unknown.value}\n', options)).toThrow(
      /^docs\/a\.md:3: cannot write the expression/,
    );
  });
});

describe('absoluteUrl', () => {
  const options: ConvertOptions = {siteUrl: `${siteUrl}/`, route: '/fundamentals/testing'};
  it.each([
    ['/pipes', `${siteUrl}/pipes`],
    ['#setup', `${siteUrl}/fundamentals/testing#setup`],
    ['custom-providers#x', `${siteUrl}/fundamentals/custom-providers#x`],
    ['../pipes', `${siteUrl}/pipes`],
    ['https://nestjs.com', 'https://nestjs.com'],
    ['//cdn.example.com/a.png', '//cdn.example.com/a.png'],
    ['mailto:a@b.c', 'mailto:a@b.c'],
  ])('%s -> %s', (url, expected) => {
    expect(absoluteUrl(url, options)).toBe(expected);
  });

  it('writes the twin of / as /index.md', () => {
    expect(twinPath('/')).toBe('/index.md');
    expect(twinPath('/techniques/database')).toBe('/techniques/database.md');
  });
});

const page = (id: string, title = id): TwinPage => ({
  id,
  route: `/${id}`,
  title,
  description: `About ${title}.`,
  markdown: `# ${title}\n\nText of ${id}.\n`,
});

describe('llms.txt', () => {
  const menu: MenuItem[] = [
    {type: 'doc', id: 'intro', label: 'Introduction'},
    {
      type: 'category',
      label: 'Overview',
      items: [
        {type: 'doc', id: 'a'},
        {type: 'html'},
        {type: 'category', label: 'Nested', items: [{type: 'doc', id: 'b'}]},
        {type: 'link', label: 'Examples'},
      ],
    },
    {type: 'category', label: 'Pending only', items: [{type: 'html'}]},
    {type: 'doc', id: 'a', label: 'Again'},
    {type: 'link', label: 'Courses'},
  ];
  const pages = [page('b', 'B [beta]'), page('intro'), page('a'), page('unlisted')];
  const options = {siteUrl, name: 'NestJS', summary: 'The docs.\nOf Nest.'};

  it('lists each written page once, in menu order, then the pages the menu does not list', () => {
    const sections = llmsSections(menu, pages);
    expect(sections.map((s) => [s.title, s.pages.map((p) => p.id)])).toEqual([
      ['Introduction', ['intro']],
      ['Overview', ['a', 'b']],
      ['Other pages', ['unlisted']],
    ]);
    expect(llmsTxt(sections, options)).toBe(
      [
        '# NestJS',
        '',
        '> The docs. Of Nest.',
        '',
        '## Introduction',
        '',
        '- [intro](https://docs.nestjs.com/intro.md): About intro.',
        '',
        '## Overview',
        '',
        '- [a](https://docs.nestjs.com/a.md): About a.',
        '- [B \\[beta\\]](https://docs.nestjs.com/b.md): About B [beta].',
        '',
        '## Other pages',
        '',
        '- [unlisted](https://docs.nestjs.com/unlisted.md): About unlisted.',
        '',
      ].join('\n'),
    );
  });

  it('concatenates the pages in the same order into llms-full.txt', () => {
    const full = llmsFullTxt(llmsSections(menu, pages), options);
    expect(full.startsWith('# NestJS\n\n> The docs. Of Nest.\n')).toBe(true);
    const order = ['intro', 'a', 'b', 'unlisted'].map((id) =>
      full.indexOf(`Source: https://docs.nestjs.com/${id}\n`),
    );
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((x, y) => x - y)).toEqual(order);
    expect(full).toContain('# B [beta]\n\nSource: https://docs.nestjs.com/b\n\nText of b.');
  });
});

/** The real docs, read as Docusaurus would: id, route (`slug`), title and description. */
function realPages(): {pages: TwinPage[]; order: string[]} {
  const files = readdirSync(docsDir, {recursive: true, encoding: 'utf8'}).filter((file) =>
    /\.mdx?$/.test(file),
  );
  const routesByFile = new Map<string, string>();
  const meta = files.map((file) => {
    const source = readFileSync(join(docsDir, file), 'utf8');
    const frontMatter = /^---\n([\s\S]*?)\n---/.exec(source)?.[1] ?? '';
    const field = (name: string) =>
      new RegExp(`^${name}:\\s*(.*)$`, 'm').exec(frontMatter)?.[1]?.trim();
    const id = file.replace(/\\/g, '/').replace(/\.mdx?$/, '');
    const route = field('slug') ?? `/${id}`;
    routesByFile.set(join(docsDir, file), route);
    return {file, source, id, route, description: field('description') ?? ''};
  });
  const pages = meta.map(({file, source, id, route, description}) => {
    const markdown = toMarkdown(source, {
      siteUrl,
      route,
      file: join(docsDir, file),
      routesByFile,
      scope: pageScope,
      components: pageComponents,
    });
    return {id, route, description, markdown, title: markdown.slice(2, markdown.indexOf('\n'))};
  });
  const order: string[] = [];
  const walk = (items: readonly MenuItem[]) => {
    for (const item of items) {
      if (item.type === 'doc' && item.id !== undefined && !order.includes(item.id)) {
        order.push(item.id);
      }
      walk(item.items ?? []);
    }
  };
  walk(sidebars.docs as MenuItem[]);
  return {pages, order};
}

describe('the real docs', () => {
  const {pages, order} = realPages();

  it('convert to clean Markdown', () => {
    expect(pages.length).toBeGreaterThan(100);
    for (const {id, markdown} of pages) {
      const text = prose(markdown);
      expect(markdown, id).toMatch(/^# \S/);
      expect(text, id).not.toMatch(/^@@|^:::|\{\/\*/m);
      expect(text, id).not.toMatch(/^(import .+ from ['"]|export (const|default|function) )/m);
      expect(text, id).not.toMatch(/<[A-Z][A-Za-z]*[\s/>]/);
      expect(text, id).not.toMatch(/\]\(\/(?!\/)/);
    }
  });

  it('are each listed once in llms.txt, in menu order', () => {
    const txt = llmsTxt(llmsSections(sidebars.docs as MenuItem[], pages), {
      siteUrl,
      name: 'NestJS',
      summary: llmsSummary,
    });
    const listed = [...txt.matchAll(/^- \[.+\]\(https:\/\/docs\.nestjs\.com(\/\S*)\.md\)/gm)].map(
      (match) => match[1],
    );
    const routeOf = new Map(pages.map((p) => [p.id, p.route === '/' ? '/index' : p.route]));
    const expected = [
      ...order.filter((id) => routeOf.has(id)),
      ...pages.map((p) => p.id).filter((id) => !order.includes(id)),
    ].map((id) => routeOf.get(id));
    expect(listed).toEqual(expected);
    expect(new Set(listed).size).toBe(pages.length);
    // Pending entries (html items in the menu) have no page and no line.
    expect(txt).not.toContain('soon');
  });
});

describe('hosting of the generated files', () => {
  const typedFiles = [
    {path: '/controllers.md', contentType: 'text/markdown; charset=utf-8'},
    {path: '/index.md', contentType: 'text/markdown; charset=utf-8'},
    {path: '/techniques/caching.md', contentType: 'text/markdown; charset=utf-8'},
    {path: '/llms.txt', contentType: 'text/plain; charset=utf-8'},
    {path: '/llms-full.txt', contentType: 'text/plain; charset=utf-8'},
  ];
  const model = hostingModel({
    features: {ads: false, pagefind: true},
    hashes: {scripts: [], styles: [], styleAttributes: []},
    redirects: [],
    enterpriseUrl: links.enterprise,
    htmlRoutes: ['/', '/controllers', '/techniques/caching'],
    typedFiles,
  });
  const matches = (pattern: string, url: string) =>
    new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(url);

  it('gives each file its type and exactly one no-cache rule in _headers', () => {
    const headers = renderHeaders(model);
    for (const {path, contentType} of typedFiles) {
      expect(headers).toContain(`\n${path}\n  Content-Type: ${contentType}\n`);
      const caching = model.caching.filter((rule) => matches(rule.path, path));
      expect(
        caching.map((rule) => rule.headers['Cache-Control']),
        path,
      ).toEqual([revalidate]);
    }
  });

  it('writes the same for Apache and nginx', () => {
    const htaccess = renderHtaccess(model);
    expect(htaccess).toContain('<If "%{REQUEST_URI} =~ m#(\\.md)$#">');
    expect(htaccess).toContain('ForceType "text/markdown; charset=utf-8"');
    expect(htaccess).toContain('ForceType "text/plain; charset=utf-8"');
    const nginx = renderNginx(model);
    expect(nginx).toContain('location ~ (\\.md)$ {');
    expect(nginx).toContain('location ~ (^(/llms-full\\.txt|/llms\\.txt))$ {');
    expect(nginx).toContain('default_type "text/markdown; charset=utf-8";');
    const md = new RegExp(typedFilePatterns(typedFiles)[0]?.pattern ?? '');
    expect(md.test('/techniques/caching.md')).toBe(true);
    expect(md.test('/techniques/caching')).toBe(false);
    const txt = new RegExp(typedFilePatterns(typedFiles)[1]?.pattern ?? '');
    expect(txt.test('/llms.txt')).toBe(true);
    expect(txt.test('/robots.txt')).toBe(false);
  });
});

describe('scripts/check-markdown-build.mjs', () => {
  function build(files: Record<string, string>): string {
    const dir = mkdtempSync(join(tmpdir(), 'md-build-'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), {recursive: true});
      writeFileSync(join(dir, path), text);
    }
    return dir;
  }
  const sitemap = (paths: string[]) =>
    `<urlset>${paths.map((p) => `<url><loc>${siteUrl}${p}</loc></url>`).join('')}</urlset>`;
  const headers = (paths: string[]) =>
    `/*\n  X: y\n${paths.map((p) => `${p}\n  Content-Type: ${p.endsWith('.md') ? 'text/markdown' : 'text/plain'}; charset=utf-8\n`).join('')}`;

  it('passes a complete build', () => {
    const dir = build({
      'sitemap.xml': sitemap(['/', '/pipes']),
      'index.md': '# Introduction\n',
      'pipes.md': '# Pipes\n\n```ts\nimport {A} from "a";\n```\n',
      'llms.txt': `# NestJS\n\n> Docs.\n\n## A\n\n- [Introduction](${siteUrl}/index.md): x\n- [Pipes](${siteUrl}/pipes.md): y\n`,
      'llms-full.txt': `# NestJS\n\n# Introduction\n\nSource: ${siteUrl}/\n\n# Pipes\n\nSource: ${siteUrl}/pipes\n`,
      _headers: headers(['/index.md', '/pipes.md', '/llms.txt', '/llms-full.txt']),
    });
    expect(inspectMarkdownBuild(dir).failures).toEqual([]);
  });

  it('names what is missing or left over', () => {
    const dir = build({
      'sitemap.xml': sitemap(['/', '/pipes', '/guards']),
      'index.md': '# Introduction\n\n:::info\nx\n:::\n',
      'pipes.md': 'Pipes\n',
      'llms.txt': `# NestJS\n\n> Docs.\n\n- [I](${siteUrl}/index.md)\n- [I](${siteUrl}/index.md)\n- [X](${siteUrl}/x.md)\n`,
      'llms-full.txt': `# NestJS\n`,
      _headers: headers(['/index.md']),
    });
    const {failures} = inspectMarkdownBuild(dir);
    expect(failures).toEqual(
      expect.arrayContaining([
        '/index.md still holds ":::"',
        '/pipes.md does not start with "# "',
        '/guards has no Markdown twin (/guards.md)',
        `llms.txt lists ${siteUrl}/index.md 2 times`,
        `llms.txt lists ${siteUrl}/pipes.md 0 times`,
        `llms.txt lists ${siteUrl}/x.md, which is not in the sitemap`,
        `llms-full.txt holds ${siteUrl}/pipes 0 times`,
        '_headers gives /pipes.md no Content-Type: text/markdown; charset=utf-8',
      ]),
    );
  });
});

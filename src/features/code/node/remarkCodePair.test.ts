import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import type {Root, RootContent} from 'mdast';
import type {MdxJsxAttribute, MdxJsxFlowElement} from 'mdast-util-mdx-jsx';
import remarkDirective from 'remark-directive';
import remarkMdx from 'remark-mdx';
import remarkParse from 'remark-parse';
import remarkStringify from 'remark-stringify';
import {unified} from 'unified';
import {visit} from 'unist-util-visit';
import {describe, expect, it} from 'vitest';
import codePair from './remarkCodePair';
import {location} from '../../markdown/node/fileLocation';
import {parseFence} from '../../markdown/markers.mjs';

const fixtures = 'src/features/code/node/fixtures';

function fixturePath(name: string): string {
  return join(process.cwd(), fixtures, `${name}.md`);
}

function processor() {
  return unified().use(remarkParse).use(remarkMdx).use(remarkDirective).use(codePair);
}

/** The fixture's tree after the plugin ran. */
async function transform(name: string): Promise<Root> {
  const path = fixturePath(name);
  const value = readFileSync(path, 'utf8');
  const run = processor();
  // The plugin replaces nodes in place: the root it returns is the parsed one.
  const tree = run.parse(value);
  await run.run(tree, {path, value});
  return tree;
}

/** The `<CodePair>` elements of a tree, as plain attribute maps. */
function pairs(tree: Root): Record<string, string>[] {
  const found: Record<string, string>[] = [];
  visit(tree, 'mdxJsxFlowElement', (node: MdxJsxFlowElement) => {
    if (node.name !== 'CodePair') {
      return;
    }
    expect(node.children).toEqual([]);
    const attributes: Record<string, string> = {};
    for (const attribute of node.attributes) {
      expect(attribute.type).toBe('mdxJsxAttribute');
      const {name, value} = attribute as MdxJsxAttribute;
      expect(typeof value).toBe('string');
      attributes[name] = value as string;
    }
    found.push(attributes);
  });
  return found;
}

function codeNodes(tree: Root): RootContent[] {
  const found: RootContent[] = [];
  visit(tree, 'code', (node) => {
    found.push(node);
  });
  return found;
}

describe('codePair remark plugin', () => {
  it('leaves fences without markers (and @@ in other languages) untouched', async () => {
    const tree = await transform('plain');
    expect(pairs(tree)).toEqual([]);
    expect(codeNodes(tree)).toHaveLength(2);
  });

  it('turns @@filename alone into a CodePair with the TypeScript code', async () => {
    const tree = await transform('filename-only');
    expect(pairs(tree)).toEqual([
      {filename: 'main', ts: "import { NestFactory } from '@nestjs/core';"},
    ]);
    expect(codeNodes(tree)).toEqual([]);
  });

  it('keeps a JavaScript fence with @@filename alone as JavaScript', async () => {
    const tree = await transform('filename-only-js');
    expect(pairs(tree)).toEqual([{filename: 'webpack.config', js: 'module.exports = {};'}]);
  });

  it('splits a pair at @@switch, keeping filename and meta', async () => {
    const tree = await transform('pair');
    expect(pairs(tree)).toEqual([
      {
        filename: 'cats.controller',
        ts: [
          "@Controller('cats')",
          'export class CatsController {',
          '  constructor(private catsService: CatsService) {}',
          '}',
        ].join('\n'),
        js: [
          "@Controller('cats')",
          '@Dependencies(CatsService)',
          'export class CatsController {',
          '  constructor(catsService) {',
          '    this.catsService = catsService;',
          '  }',
          '}',
        ].join('\n'),
        meta: '{2}',
      },
    ]);
  });

  it('makes a pair without filename, trimming blank lines around the halves', async () => {
    const tree = await transform('pair-without-filename');
    expect(pairs(tree)).toEqual([
      {
        ts: 'findAll(): Cat[] {\n  return this.cats;\n}',
        js: 'findAll() {\n  return this.cats;\n}',
      },
    ]);
  });

  it('replaces the code node in place, keeping its position', async () => {
    const tree = await transform('pair');
    const index = tree.children.findIndex((node) => node.type === 'mdxJsxFlowElement');
    expect(index).toBe(2);
    expect(tree.children[index].position?.start.line).toBe(5);
  });

  it('transforms fences nested in callouts and lists', async () => {
    const tree = await transform('nested');
    expect(pairs(tree).map((pair) => pair.filename)).toEqual(['app.module', 'cats.service']);
  });

  it('serializes to a self-closing <CodePair> MDX element', async () => {
    const path = fixturePath('pair-without-filename');
    const output = await processor()
      .use(remarkStringify)
      .process({path, value: readFileSync(path, 'utf8')});
    expect(String(output)).toBe(
      [
        '# Pair without filename',
        '',
        '<CodePair',
        '  ts="findAll(): Cat[] {',
        '  return this.cats;',
        '}"',
        '  js="findAll() {',
        '  return this.cats;',
        '}"',
        '/>',
        '',
      ].join('\n'),
    );
  });

  const malformed: [fixture: string, line: number, reason: RegExp][] = [
    ['switch-twice', 8, /@@switch appears twice/],
    ['empty-ts-half', 6, /empty TypeScript half/],
    ['empty-js-half', 7, /empty JavaScript half/],
    ['empty-filename-only', 4, /after @@filename is empty/],
    ['filename-not-first', 5, /@@filename must be on the first line/],
    ['unknown-marker', 6, /unknown marker "@@javascript"/],
    ['filename-no-name', 4, /@@filename\(\) has no name/],
    ['filename-malformed', 4, /malformed marker "@@filename cats\.controller"/],
    ['filename-extension', 4, /includes an extension/],
    ['switch-in-js', 6, /@@switch in a js fence/],
  ];

  it.each(malformed)(
    'rejects %s with file:line (%i) and the reason',
    async (name, line, reason) => {
      const error = await transform(name).then(
        () => null,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(Error);
      const {message} = error as Error;
      expect(message.startsWith(`${fixtures}/${name}.md:${line}: `), message).toBe(true);
      expect(message).toMatch(reason);
    },
  );

  it('names the file relative to the vfile cwd, or <input> without a path', () => {
    expect(location({path: '/site/docs/a.md', cwd: '/site'}, 3)).toBe('docs/a.md:3');
    expect(location({}, 3)).toBe('<input>:3');
  });
});

describe('parseFence (shared with check-samples)', () => {
  it('reports the 0-based line of the offending marker', () => {
    expect(parseFence('a\n@@switch\nb\n@@switch\nc', 'ts')).toEqual({
      kind: 'error',
      offset: 3,
      reason: '@@switch appears twice: a code block has at most one',
    });
  });

  it('gives each half its offset within the fence', () => {
    expect(parseFence('@@filename(x)\n\nconst a = 1;\n@@switch\n\nconst b = 2;\n', 'ts')).toEqual({
      kind: 'marked',
      filename: 'x',
      ts: {code: 'const a = 1;', offset: 2},
      js: {code: 'const b = 2;', offset: 5},
    });
  });

  it('ignores fences of other languages and accepts trailing spaces and CRLF', () => {
    expect(parseFence('@@nonsense', 'diff')).toEqual({kind: 'plain'});
    expect(parseFence('@@filename(a) \r\nx;\r\n@@switch  \r\ny;', 'TypeScript')).toMatchObject({
      kind: 'marked',
      filename: 'a',
    });
  });
});

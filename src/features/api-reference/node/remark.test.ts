import type {Root} from 'mdast';
import type {MdxJsxAttribute, MdxJsxFlowElement} from 'mdast-util-mdx-jsx';
import remarkMdx from 'remark-mdx';
import remarkParse from 'remark-parse';
import {unified} from 'unified';
import {describe, expect, it} from 'vitest';
import codePair from '../../code/node/remarkCodePair';
import sampleLinksPlugin, {parseRefsMeta, refsMetaValue} from './remark';

const resolve = (pkg: string, name: string) =>
  pkg === '@nestjs/common' && name !== 'Missing' ? `/api/common#${name}` : undefined;

async function transform(markdown: string): Promise<Root> {
  const processor = unified()
    .use(remarkParse)
    .use(remarkMdx)
    .use(codePair)
    .use(sampleLinksPlugin, {resolve});
  return processor.run(processor.parse(markdown)) as Promise<Root>;
}

function attributes(node: unknown): Record<string, string> {
  const element = node as MdxJsxFlowElement;
  return Object.fromEntries(
    element.attributes.map((item) => [(item as MdxJsxAttribute).name, String(item.value)]),
  );
}

const fence = (lang: string, meta: string, code: string) => `\`\`\`${lang}${meta}\n${code}\n\`\`\``;

describe('the sample links remark plugin', () => {
  it('adds the links of each half to a code pair', async () => {
    const tree = await transform(
      fence(
        'ts',
        '',
        [
          '@@filename(cats.controller)',
          "import { Get, Missing } from '@nestjs/common';",
          '@@switch',
          "import { Get } from '@nestjs/common';",
        ].join('\n'),
      ),
    );
    const pair = attributes(tree.children[0]);
    expect(pair.filename).toBe('cats.controller');
    expect(JSON.parse(pair.tsLinks)).toEqual({'/api/common#Get': [0, 9]});
    expect(JSON.parse(pair.jsLinks)).toEqual({'/api/common#Get': [0, 9]});
  });

  it('turns a plain fence with links into a one-half pair, and leaves other fences alone', async () => {
    const tree = await transform(
      [
        fence('typescript', ' title="x"', "import { Get } from '@nestjs/common';"),
        fence('ts', '', "import { Get } from 'elsewhere';"),
        fence('bash', '', 'npm i @nestjs/common'),
      ].join('\n\n'),
    );
    expect(tree.children.map((node) => node.type)).toEqual(['mdxJsxFlowElement', 'code', 'code']);
    expect(attributes(tree.children[0])).toEqual({
      ts: "import { Get } from '@nestjs/common';",
      tsLinks: '{"/api/common#Get":[0,9]}',
      meta: 'title="x"',
    });
  });

  it('links the names of a signature block given by its meta, which it removes', async () => {
    const meta = ` ${refsMetaValue({CanActivate: '@nestjs/common#CanActivate'})} title="s"`;
    const tree = await transform(
      fence('ts', meta, 'function UseGuards(...guards: CanActivate[]): MethodDecorator;'),
    );
    expect(attributes(tree.children[0])).toEqual({
      ts: 'function UseGuards(...guards: CanActivate[]): MethodDecorator;',
      tsLinks: '{"/api/common#CanActivate":[0,30]}',
      meta: 'title="s"',
    });
  });

  it('reads and writes the signature meta', () => {
    expect(parseRefsMeta('api-refs="A=@nestjs/common B=@nestjs/core" {1}')).toEqual({
      references: {A: '@nestjs/common#A', B: '@nestjs/core#B'},
      rest: '{1}',
    });
    expect(parseRefsMeta('{1}')).toEqual({references: null, rest: '{1}'});
    expect(refsMetaValue({A: '@nestjs/common#A', B: '@nestjs/core#Other'})).toBe(
      'api-refs="A=@nestjs/common"',
    );
  });
});

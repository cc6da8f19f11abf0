import {describe, expect, it} from 'vitest';
import type {ApiSymbol} from '../model';
import type {GuidePage} from './docsScan';
import {commentMarkdown, escapeProse, guideLabel, localUrl, symbolSection} from './pages';

const guides: GuidePage[] = [
  {
    route: '/guards',
    title: 'Guards',
    anchors: new Set(['binding-guards']),
    imports: new Set(['@nestjs/common#UseGuards']),
  },
  {route: '/websockets/guards', title: 'Guards', anchors: new Set(), imports: new Set()},
];
const context = {guides};

describe('API pages', () => {
  it('escapes what MDX would read as code, outside code spans', () => {
    expect(escapeProse('a {b} <c> `{d} <e>`')).toBe('a \\{b\\} \\<c\\> `{d} <e>`');
    expect(escapeProse('import x\n# not a heading')).toBe('\\import x\n\\# not a heading');
  });

  it("turns docs.nestjs.com links into this site's pages, with anchors that exist", () => {
    expect(localUrl('https://docs.nestjs.com/guards#binding-guards', context)).toBe(
      '/guards#binding-guards',
    );
    expect(localUrl('https://docs.nestjs.com/guards#gone', context)).toBe('/guards');
    expect(localUrl('https://docs.nestjs.com/nowhere', context)).toBeNull();
    expect(localUrl('https://example.com/guards', context)).toBeNull();
    expect(
      commentMarkdown(
        'See [Guards](https://docs.nestjs.com/guards) and [gone](https://docs.nestjs.com/gone), ' +
          'or https://docs.nestjs.com/guards.\n```typescript\nconst a = {b: 1};\n```',
        context,
      ),
    ).toBe('See [Guards](/guards) and gone, or [Guards](/guards).\n```ts\nconst a = {b: 1};\n```');
  });

  it('names pages that share a title by their folder', () => {
    expect(guideLabel(guides[0], guides)).toBe('Guards');
    expect(guideLabel(guides[1], guides)).toBe('Guards (websockets)');
  });

  it('writes an entry: kind, source, declaration with its references, doc, see also, used in', () => {
    const symbol: ApiSymbol = {
      name: 'UseGuards',
      kind: 'decorator',
      package: '@nestjs/common',
      declarations: ['function UseGuards(...guards: (CanActivate | Function)[]): MethodDecorator;'],
      doc: 'Binds guards to a `{scope}`.',
      see: ['[Guards](https://docs.nestjs.com/guards)'],
      deprecated: null,
      source: 'decorators/core/use-guards.decorator.d.ts',
      members: [{name: 'x', doc: 'First line\nsecond line'}],
      references: {CanActivate: '@nestjs/common#CanActivate'},
    };
    expect(symbolSection(symbol, context, [guides[0]])).toBe(
      [
        '<section data-api-entry="UseGuards">',
        '### UseGuards {/* #UseGuards */}',
        '**Decorator**, declared in `@nestjs/common/decorators/core/use-guards.decorator.d.ts`.',
        '```ts api-refs="CanActivate=@nestjs/common"\nfunction UseGuards(...guards: (CanActivate | Function)[]): MethodDecorator;\n```',
        'Binds guards to a `{scope}`.',
        '**Members**\n\n- `x`: First line\n  second line',
        '**See also:** [Guards](/guards)',
        '**Used in:** [Guards](/guards)',
        '</section>',
      ].join('\n\n'),
    );
  });
});

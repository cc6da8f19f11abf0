import {describe, expect, it} from 'vitest';
import {exportsOf, importsOf, stubCode} from './modules.mjs';

describe('check-types: imports and exports', () => {
  it('reads named, default, namespace, dynamic and require imports', () => {
    const imports = importsOf(
      [
        "import Default, { A, B as C } from './a';",
        "import * as ns from './b';",
        "import x = require('./c');",
        "export { D } from './d';",
        'async function f() {',
        "  const { E } = await import('./e');",
        "  const F = (await import('./f')).F;",
        "  return import('./g').then((m) => m.G);",
        '}',
        'const y: ns.T = ns.value + x.member;',
      ].join('\n'),
    );
    const names = (specifier: string) => [...(imports.get(specifier)?.names ?? [])].sort();
    expect(names('./a')).toEqual(['A', 'B']);
    expect(imports.get('./a')?.default).toBe(true);
    expect(names('./b')).toEqual(['T', 'value']);
    expect(names('./c')).toEqual(['member']);
    expect(names('./d')).toEqual(['D']);
    expect(names('./e')).toEqual(['E']);
    expect(names('./f')).toEqual(['F']);
    expect(names('./g')).toEqual(['G']);
  });

  it('lists the names a module exports, or null for export *', () => {
    expect(
      [
        ...(exportsOf(
          'export class A {}\nexport const b = 1, c = 2;\nexport interface D {}\nexport default 1;\nconst e = 1;\nexport { e as E };',
        ) ?? []),
      ].sort(),
    ).toEqual(['A', 'D', 'E', 'b', 'c', 'default']);
    expect(exportsOf("export * from './x';")).toBeNull();
  });

  it('writes an empty stub when nothing is needed', () => {
    expect(stubCode({names: new Set(), default: false, implemented: new Set()})).toMatch(
      /export \{\};\n$/,
    );
  });
});

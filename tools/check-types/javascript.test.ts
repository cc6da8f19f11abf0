import {describe, expect, it} from 'vitest';
import {checkJavaScriptImports} from './javascript.mjs';
import {collectSamples} from './samples.mjs';
import {page} from './testPage';

describe('check-types: JavaScript halves', () => {
  it('reports names that a @nestjs package does not export at run time', () => {
    const [sample] = collectSamples(
      page([
        'ts',
        [
          '@@filename(cats.controller)',
          'export class A {}',
          '@@switch',
          "import { Controller, Dependencies } from '@nestjs/common';",
          "import { Type } from '@nestjs/common';",
          "import { nothing } from 'other';",
          "import { X } from '@nestjs/missing';",
        ].join('\n'),
      ]),
      'docs/p.md',
    ).filter((candidate) => candidate.lang === 'js');
    const exportsOfModule = (module: string) =>
      module === '@nestjs/common'
        ? new Set(['Controller', 'Dependencies'])
        : `cannot load ${module}`;
    expect(
      checkJavaScriptImports([sample], exportsOfModule).map(({line, message}) => ({
        line,
        message,
      })),
    ).toEqual([
      {line: 8, message: "JavaScript: 'Type' is not exported by @nestjs/common at run time"},
      {line: 10, message: 'cannot load @nestjs/missing'},
    ]);
  });
});

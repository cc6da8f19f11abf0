/**
 * The browser/node boundary of src/ (eslint.config.mjs): browser code never imports Node's
 * modules or a feature's build-time code, build-time code never imports browser code, and a
 * feature's top-level files (used by both) neither. Checked on small sources linted as if they
 * sat at each kind of path.
 */
import {ESLint} from 'eslint';
import {describe, expect, it} from 'vitest';

const eslint = new ESLint();

/** The messages of the boundary rule for `code` at `filePath`. */
async function boundary(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, {filePath});
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === '@typescript-eslint/no-restricted-imports')
    .map((message) => message.message);
}

/** Each kind of file, the imports it must be refused and those it may make. */
const cases = [
  {
    kind: 'browser code',
    files: [
      'src/features/search/client/Example.tsx',
      'src/theme/Example.tsx',
      'src/pages/example.tsx',
    ],
    refused: [
      "import {readFile} from 'node:fs';",
      "import {join} from 'path';",
      "import {buildIndex} from '../node/pagefindIndex';",
      "import x from '@site/src/features/hosting/node/hosting';",
      "import plugin from '../plugin';",
    ],
    allowed: [
      "import React from 'react';",
      "import {requestKind} from '../logic';",
      "import type {BuildData} from '../../pipeline/node/steps';",
    ],
  },
  {
    kind: 'build-time code',
    files: ['src/features/search/node/example.ts', 'src/features/search/plugin.ts'],
    refused: [
      "import React from 'react';",
      "import SearchBox from '../client/SearchBox';",
      "import CodeBlock from '@theme/CodeBlock';",
    ],
    allowed: [
      "import {readFile} from 'node:fs/promises';",
      "import type {ReactNode} from 'react';",
    ],
  },
  {
    kind: "a feature's top-level files",
    files: ['src/features/offline/logic.ts'],
    refused: [
      "import {readFile} from 'node:fs';",
      "import x from './client/OfflineSave';",
      "import x from './node/step';",
    ],
    allowed: ["import {links} from '../../data/links';"],
  },
  {
    kind: 'tests next to the code',
    files: ['src/features/search/client/engine.test.ts'],
    refused: [],
    allowed: ["import {readFileSync} from 'node:fs';"],
  },
];

describe('the browser/node boundary', () => {
  for (const {kind, files, refused, allowed} of cases) {
    it(`${kind}: refuses what crosses it, allows the rest`, async () => {
      for (const file of files) {
        for (const line of refused) {
          expect(await boundary(file, `${line}\n`), `${file}: ${line}`).toHaveLength(1);
        }
        expect(await boundary(file, `${allowed.join('\n')}\n`), file).toEqual([]);
      }
    });
  }
});

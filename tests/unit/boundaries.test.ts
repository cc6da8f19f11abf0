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

describe('the browser/node boundary', () => {
  it('keeps Node and build-time code out of browser code', async () => {
    for (const file of [
      'src/features/search/client/Example.tsx',
      'src/theme/Example.tsx',
      'src/pages/example.tsx',
    ]) {
      expect(await boundary(file, "import {readFile} from 'node:fs';\n"), file).toHaveLength(1);
      expect(await boundary(file, "import {join} from 'path';\n"), file).toHaveLength(1);
      expect(
        await boundary(file, "import {buildIndex} from '../node/pagefindIndex';\n"),
        file,
      ).toHaveLength(1);
      expect(
        await boundary(file, "import x from '@site/src/features/hosting/node/hosting';\n"),
        file,
      ).toHaveLength(1);
      expect(await boundary(file, "import plugin from '../plugin';\n"), file).toHaveLength(1);
      // Browser code, a feature's shared logic and types from anywhere are fine.
      expect(
        await boundary(
          file,
          "import React from 'react';\nimport {requestKind} from '../logic';\n" +
            "import type {BuildData} from '../../pipeline/node/steps';\n",
        ),
        file,
      ).toEqual([]);
    }
  });

  it('keeps browser code out of build-time code', async () => {
    for (const file of ['src/features/search/node/example.ts', 'src/features/search/plugin.ts']) {
      expect(await boundary(file, "import React from 'react';\n"), file).toHaveLength(1);
      expect(
        await boundary(file, "import SearchBox from '../client/SearchBox';\n"),
        file,
      ).toHaveLength(1);
      expect(
        await boundary(file, "import CodeBlock from '@theme/CodeBlock';\n"),
        file,
      ).toHaveLength(1);
      expect(
        await boundary(
          file,
          "import {readFile} from 'node:fs/promises';\nimport type {ReactNode} from 'react';\n",
        ),
        file,
      ).toEqual([]);
    }
  });

  it("keeps a feature's top-level files free of either side", async () => {
    const file = 'src/features/offline/logic.ts';
    expect(await boundary(file, "import {readFile} from 'node:fs';\n")).toHaveLength(1);
    expect(await boundary(file, "import x from './client/OfflineSave';\n")).toHaveLength(1);
    expect(await boundary(file, "import x from './node/step';\n")).toHaveLength(1);
  });

  it('lets the tests next to the code read files', async () => {
    expect(
      await boundary(
        'src/features/search/client/engine.test.ts',
        "import {readFileSync} from 'node:fs';\n",
      ),
    ).toEqual([]);
  });
});

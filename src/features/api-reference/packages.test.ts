import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {writtenMarkdownFiles} from '../markdown/node/files.mjs';
import {apiRoute, referencePackages} from './packages';

describe('the route of the API reference (./route.mjs)', () => {
  it('prefixes every package page', () => {
    for (const pkg of referencePackages)
      expect(pkg.route).toMatch(new RegExp(`^${apiRoute}/[a-z-]+$`));
    expect(new Set(referencePackages.map((pkg) => pkg.route)).size).toBe(referencePackages.length);
  });

  it('is the generated folder that git ignores and the checks skip', () => {
    const ignored = readFileSync('.gitignore', 'utf8').split('\n');
    expect(ignored).toContain(`docs/${apiRoute}/`);
    expect(
      writtenMarkdownFiles('docs', 'docs').some((file) => file.startsWith(`docs/${apiRoute}/`)),
    ).toBe(false);
  });
});

/**
 * Every export of every pinned package has an entry: the exports are counted here from the
 * TypeScript checker's view of each package's `index.d.ts` (one program per package, apart from
 * the extractor's), and each must have its section on its package's page.
 */
import {join} from 'node:path';
import ts from 'typescript';
import {beforeAll, describe, expect, it} from 'vitest';
import {referencePackages} from '../packages';
import {scanGuides} from './docsScan';
import {packageDir} from './extract';
import {loadModel} from './generate';
import {ensureDeclarations} from './install';
import {referencePages} from './pages';

const siteDir = join(__dirname, '..', '..', '..', '..');
const samplesDir = join(siteDir, 'tools', 'samples');

let checker: ts.TypeChecker | undefined;
let program: ts.Program | undefined;

/** The names a package's entry module exports, as the checker sees them. */
function checkerExports(name: string): string[] {
  const entries = referencePackages.map((pkg) =>
    join(packageDir(samplesDir, pkg.name), 'index.d.ts'),
  );
  program ??= ts.createProgram(entries, {
    target: ts.ScriptTarget.ES2021,
    module: ts.ModuleKind.CommonJS,
    experimentalDecorators: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  });
  checker ??= program.getTypeChecker();
  const entry = join(packageDir(samplesDir, name), 'index.d.ts');
  const source = program.getSourceFile(entry);
  const module = source && checker.getSymbolAtLocation(source);
  if (!module) throw new Error(`${entry} is not a module`);
  return checker.getExportsOfModule(module).map((symbol) => symbol.name);
}

describe('the API reference covers every export', () => {
  let pages: Map<string, string>;

  beforeAll(() => {
    ensureDeclarations(samplesDir, console.log);
    const {model} = loadModel(siteDir, console.log);
    pages = referencePages(model, {guides: scanGuides(join(siteDir, 'docs'))});
  }, 600_000);

  it.each(referencePackages.map((pkg) => [pkg.name, pkg] as const))('%s', (_name, pkg) => {
    const exported = checkerExports(pkg.name);
    const page = pages.get(`${pkg.route}.md`) ?? '';
    const entries = new Set(
      [...page.matchAll(/<section data-api-entry="([^"]+)"/g)].map((match) => match[1]),
    );
    const missing = exported.filter((name) => !entries.has(name));
    expect(missing, `${pkg.name}: exports without an entry`).toEqual([]);
    expect(entries.size).toBe(exported.length);
    // The packages are not empty: a broken install would pass the checks above.
    expect(exported.length).toBeGreaterThan(0);
  });

  it('counts the exports the reference was measured with', () => {
    const counts = Object.fromEntries(
      referencePackages.map((pkg) => [pkg.name, checkerExports(pkg.name).length]),
    );
    expect(counts).toEqual({
      '@nestjs/common': 178,
      '@nestjs/core': 29,
      '@nestjs/testing': 6,
      '@nestjs/microservices': 98,
      '@nestjs/websockets': 17,
      '@nestjs/platform-express': 10,
      '@nestjs/platform-fastify': 2,
      '@nestjs/graphql': 96,
      '@nestjs/swagger': 71,
    });
  });
});

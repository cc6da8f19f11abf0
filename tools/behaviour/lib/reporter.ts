/**
 * Prints `N claims verified (A abuse cases, F failure modes) on P pages` after
 * the run, with the same figures by section, and fails the run when
 * a fence marked `output=<id>` in docs/ was compared by no test (only when the
 * whole suite ran: a filtered run cannot know).
 */
import {readdirSync, readFileSync, existsSync, rmSync} from 'node:fs';
import {join, relative} from 'node:path';
import type {Reporter, TestModule, Vitest} from 'vitest/node';
import {parseClaimName, type ClaimKind} from './claim';
import {verifiedOutputsDir} from './outputs';
import {readPage, repoRoot} from './pages';

function docsPages(dir = join(repoRoot, 'docs')): string[] {
  return readdirSync(dir, {withFileTypes: true}).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return docsPages(path);
    return /\.mdx?$/.test(entry.name) ? [relative(repoRoot, path)] : [];
  });
}

export default class ClaimReporter implements Reporter {
  private vitest!: Vitest;
  onInit(vitest: Vitest): void {
    this.vitest = vitest;
    rmSync(verifiedOutputsDir, {recursive: true, force: true});
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let failed = 0;
    const passedBy: Record<ClaimKind, number> = {claim: 0, abuse: 0, failure: 0};
    const pages = new Set<string>();
    const claimsByPage = new Map<string, Record<ClaimKind, number>>();
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const parsed = parseClaimName(test.name);
        if (!parsed) continue;
        const state = test.result().state;
        if (state === 'passed') {
          passedBy[parsed.kind] += 1;
          pages.add(parsed.page);
          const counts = claimsByPage.get(parsed.page) ?? {claim: 0, abuse: 0, failure: 0};
          counts[parsed.kind] += 1;
          claimsByPage.set(parsed.page, counts);
        } else if (state === 'failed') {
          failed += 1;
        }
      }
    }
    const passed = passedBy.claim + passedBy.abuse + passedBy.failure;
    // A run narrowed to some files or names cannot tell which outputs went unchecked.
    const positional = process.argv
      .slice(2)
      .filter(
        (arg, i, all) =>
          !arg.startsWith('-') && !/^(run|--config)$/.test(all[i - 1] ?? '') && arg !== 'run',
      );
    const filtered = this.vitest.config.testNamePattern !== undefined || positional.length > 0;
    const seen = new Set<string>();
    if (existsSync(verifiedOutputsDir)) {
      for (const file of readdirSync(verifiedOutputsDir)) {
        for (const line of readFileSync(join(verifiedOutputsDir, file), 'utf8').split('\n'))
          if (line) seen.add(line);
      }
    }
    const unchecked: string[] = [];
    if (!filtered) {
      for (const page of docsPages()) {
        for (const fence of readPage(page).fences) {
          if (fence.output && !seen.has(`${page}#${fence.output}`))
            unchecked.push(`${page}:${fence.line} output=${fence.output}`);
        }
      }
    }
    // By section of the site: the folder under docs/, with the top-level pages as "overview" (the
    // migration guide, also top level, on its own line).
    const sections = new Map<string, {counts: Record<ClaimKind, number>; pages: Set<string>}>();
    for (const [page, counts] of claimsByPage) {
      const parts = page.replace(/^docs\//, '').split('/');
      const section =
        parts.length > 1
          ? parts[0]
          : /^migration-guide\./.test(parts[0])
            ? 'migration-guide'
            : 'overview';
      const entry = sections.get(section) ?? {
        counts: {claim: 0, abuse: 0, failure: 0},
        pages: new Set<string>(),
      };
      for (const kind of Object.keys(counts) as ClaimKind[]) entry.counts[kind] += counts[kind];
      entry.pages.add(page);
      sections.set(section, entry);
    }
    if (sections.size > 1) {
      console.log('\nClaims verified by section (all, of which abuse cases and failure modes):');
      for (const [section, {counts, pages: inSection}] of [...sections].sort((a, b) =>
        a[0].localeCompare(b[0]),
      ))
        console.log(
          `  ${section.padEnd(16)} ${String(counts.claim + counts.abuse + counts.failure).padStart(5)} claims` +
            ` (${String(counts.abuse).padStart(3)} abuse, ${String(counts.failure).padStart(3)} failure)` +
            ` on ${inSection.size} pages`,
        );
    }
    console.log(
      `\n${passed} claims verified (${passedBy.abuse} abuse cases, ${passedBy.failure} failure modes)` +
        ` on ${pages.size} pages${failed ? ` (${failed} claims failed)` : ''}`,
    );
    if (unchecked.length) {
      console.error(
        `\nOutputs marked in docs/ that no test compared (${unchecked.length}):\n  ${unchecked.join('\n  ')}`,
      );
      process.exitCode = 1;
    }
  }
}

// @ts-check
/** The bench's report: the tables it prints and the budgets of bench/budgets.json. */
import {readFileSync} from 'node:fs';
import {relative} from 'node:path';
import {network} from '../search-bench.mjs';
import {budgetsPath, root} from './paths.mjs';

/** @typedef {import('./lighthouse.mjs').Run} Run */

/** @param {number} value @param {number} digits */
export const fixed = (value, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : '-');

/** @param {string} variant @param {Record<string, Record<string, Run>>} results @param {number} runs */
export function table(variant, results, runs) {
  const head = [
    'page',
    'form',
    'perf',
    'a11y',
    'bp',
    'seo',
    'FCP ms',
    'LCP ms',
    'TBT ms',
    'CLS',
    'JS KiB',
    'total KiB',
    'reqs',
  ];
  const rows = [head];
  for (const [page, byForm] of Object.entries(results)) {
    for (const [form, run] of Object.entries(byForm)) {
      rows.push([
        page,
        form,
        fixed(run.performance),
        fixed(run.accessibility),
        fixed(run.bestPractices),
        fixed(run.seo),
        fixed(run.fcpMs),
        fixed(run.lcpMs),
        fixed(run.tbtMs),
        fixed(run.cls, 3),
        fixed(run.jsKiB, 1),
        fixed(run.totalKiB, 1),
        fixed(run.requests),
      ]);
    }
  }
  const widths = head.map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  console.log(`\n${variant} (medians of ${runs} runs)`);
  for (const [index, row] of rows.entries()) {
    console.log(
      row
        .map((cell, column) =>
          column < 2 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]),
        )
        .join('  '),
    );
    if (index === 0) console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  }
}

/**
 * @typedef {{figure: string, formFactor?: 'mobile' | 'desktop', pages?: string[], search?: string, min?: number, max?: number, note?: string}} Budget
 * @param {Record<string, Record<string, Run>>} results
 * @param {{seconds: number} | undefined} buildFigures
 * @param {Record<string, SearchRun>} search
 */
export function checkBudgets(results, buildFigures, search) {
  /** @type {{budgets: Budget[]}} */
  const {budgets} = JSON.parse(readFileSync(budgetsPath, 'utf8'));
  const lines = [];
  let missed = 0;
  for (const budget of budgets) {
    /** @type {[string, number][]} */
    const measured = [];
    if (budget.figure === 'buildSeconds') {
      if (buildFigures) measured.push(['build', buildFigures.seconds]);
    } else if (budget.search) {
      const run = search[budget.search];
      const key = /** @type {keyof SearchRun} */ (
        budget.figure.replace(/^search/, '').replace(/^./, (c) => c.toLowerCase())
      );
      if (run) measured.push([`search "${run.query}" (${budget.search})`, Number(run[key])]);
    } else {
      for (const page of budget.pages ?? Object.keys(results)) {
        const run = results[page]?.[budget.formFactor ?? 'mobile'];
        if (run)
          measured.push([
            page,
            /** @type {number} */ (run[/** @type {keyof Run} */ (budget.figure)]),
          ]);
      }
    }
    for (const [where, value] of measured) {
      const holds =
        (budget.min === undefined || value >= budget.min) &&
        (budget.max === undefined || value <= budget.max);
      if (!holds) missed += 1;
      const limit = budget.min !== undefined ? `>= ${budget.min}` : `<= ${budget.max}`;
      lines.push(
        `${holds ? 'holds ' : 'MISSED'}  ${budget.figure} ${budget.formFactor ?? ''} ${where}: ${fixed(value, budget.figure === 'cls' ? 3 : 1)} (budget ${limit})`,
      );
    }
  }
  console.log(`\nbudgets (${relative(root, budgetsPath)}, first-party figures)`);
  for (const line of lines) console.log(`  ${line}`);
  return missed;
}

/**
 * @typedef {{query: string, leadMs: number, firstMs: number, firstKiB: number, wordMs: number, settledMs: number, settledKiB: number, searchKiB: number, otherKiB: number, requests: number}} SearchRun
 * @param {Record<string, SearchRun>} search
 * @param {number} runs
 */
export function searchTable(search, runs) {
  const entries = Object.entries(search);
  if (entries.length === 0) return;
  console.log(
    `\nsearch cold on /controllers (medians of ${runs}; ${network.latencyMs} ms RTT, ` +
      `${network.downloadKbps / 1000} Mbit/s down, ${network.cpuSlowdown}x CPU, cold cache)`,
  );
  console.log(
    'query                                          lead ms  first ms  first KiB  word ms  settled ms  settled KiB  search KiB  other KiB  reqs',
  );
  for (const [name, run] of entries) {
    console.log(
      `${`${name}: "${run.query}"`.padEnd(46)}${fixed(run.leadMs).padStart(9)}${fixed(run.firstMs).padStart(10)}` +
        `${fixed(run.firstKiB, 1).padStart(11)}${fixed(run.wordMs).padStart(9)}${fixed(run.settledMs).padStart(12)}` +
        `${fixed(run.settledKiB, 1).padStart(13)}${fixed(run.searchKiB, 1).padStart(12)}` +
        `${fixed(run.otherKiB, 1).padStart(11)}${fixed(run.requests).padStart(6)}`,
    );
  }
}

/**
 * Outputs printed on a page (a JSON error body, a log line, a response) are
 * marked in the Markdown as the output of a test: the fence's meta holds
 * `output=<id>` (```json output=cors-origin-error). `expectOutput()` compares
 * that block with what the test produced, and records the id, so the runner
 * can fail when a marked block is compared by no test.
 */
import {appendFileSync, mkdirSync} from 'node:fs';
import {join, resolve} from 'node:path';
import {expect} from 'vitest';
import {readPage, type Fence} from './pages';

export const verifiedOutputsDir = resolve(__dirname, '..', '.run', 'outputs');

export function outputBlock(pagePath: string, id: string): Fence {
  const fence = readPage(pagePath).fences.find((f) => f.output === id);
  if (!fence) throw new Error(`behaviour: ${pagePath} has no fence marked output=${id}`);
  return fence;
}

function normalise(text: string): string {
  return text
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((line) => line.replace(/\s+$/, ''))
    .join('\n')
    .trim();
}

/**
 * Asserts that `actual` is what the page shows in its block `output=<id>`.
 * JSON blocks compare as values (key order and spacing aside); other blocks
 * compare as text, line by line, trailing spaces aside. `mask` replaces
 * varying parts (timestamps, pids, ports) in both before comparing.
 */
export function expectOutput(
  pagePath: string,
  id: string,
  actual: unknown,
  mask: [RegExp, string][] = [],
): void {
  const fence = outputBlock(pagePath, id);
  const apply = (text: string) => mask.reduce((out, [re, to]) => out.replace(re, to), text);
  if (fence.lang === 'json') {
    const shown = JSON.parse(apply(fence.value));
    const got =
      typeof actual === 'string'
        ? JSON.parse(apply(actual))
        : JSON.parse(apply(JSON.stringify(actual)));
    expect(got, `${pagePath} output=${id}`).toEqual(shown);
  } else {
    const got = typeof actual === 'string' ? actual : JSON.stringify(actual, null, 2);
    expect(normalise(apply(got)), `${pagePath} output=${id}`).toBe(normalise(apply(fence.value)));
  }
  mkdirSync(verifiedOutputsDir, {recursive: true});
  appendFileSync(join(verifiedOutputsDir, `${process.pid}.txt`), `${pagePath}#${id}\n`);
}

// @ts-check
/**
 * The bench's build: a timed `docusaurus build` (cold when asked), with the peak memory of its
 * whole process tree and the size of its output.
 */
import {spawn} from 'node:child_process';
import {readFileSync, readdirSync, rmSync, statSync} from 'node:fs';
import {join} from 'node:path';
import {root} from './paths.mjs';

/** Resident memory (bytes) of a process and all its descendants, read from /proc. @param {number} pid */
export function treeRss(pid) {
  /** @type {Map<number, number[]>} */
  const children = new Map();
  /** @type {Map<number, number>} */
  const rss = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces): state ppid ...; rss is field 24.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const parent = Number(fields[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
      rss.set(Number(entry), Number(fields[21]) * 4096);
    } catch {
      // The process ended while we read it.
    }
  }
  let total = 0;
  const stack = [pid];
  while (stack.length > 0) {
    const current = /** @type {number} */ (stack.pop());
    total += rss.get(current) ?? 0;
    stack.push(...(children.get(current) ?? []));
  }
  return total;
}

/** @param {string} dir @returns {{bytes: number, files: number}} */
export function directorySize(dir) {
  let bytes = 0;
  let files = 0;
  for (const entry of readdirSync(dir, {withFileTypes: true})) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const inner = directorySize(path);
      bytes += inner.bytes;
      files += inner.files;
    } else {
      bytes += statSync(path).size;
      files += 1;
    }
  }
  return {bytes, files};
}

/**
 * Builds into `outDir` with `env`; cold when asked (bundler cache and generated files removed).
 * @param {string} outDir @param {NodeJS.ProcessEnv} env @param {boolean} cold
 */
export async function timedBuild(outDir, env, cold) {
  if (cold) {
    rmSync(join(root, 'node_modules', '.cache', 'rspack'), {recursive: true, force: true});
    rmSync(join(root, '.docusaurus'), {recursive: true, force: true});
  }
  const started = process.hrtime.bigint();
  const child = spawn(
    process.execPath,
    [
      join(root, 'node_modules', '@docusaurus', 'core', 'bin', 'docusaurus.mjs'),
      'build',
      '--out-dir',
      outDir,
    ],
    {cwd: root, env, stdio: ['ignore', 'ignore', 'pipe']},
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  let peak = 0;
  const sampler = setInterval(() => {
    if (child.pid) peak = Math.max(peak, treeRss(child.pid));
  }, 200);
  const code = await new Promise((resolve) => child.on('close', resolve));
  clearInterval(sampler);
  if (code !== 0) throw new Error(`build failed (exit ${code}):\n${stderr.slice(-3000)}`);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return {seconds, peakMemoryMiB: peak / 2 ** 20, cold, size: directorySize(outDir)};
}

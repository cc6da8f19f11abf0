/**
 * Loading docusaurus.config.ts runs nothing (issue #38, item 4): scripts, tests and Docusaurus
 * itself load it, sometimes several times per command. Whatever touches files or other
 * processes (the API reference's generation and `npm ci`, the redirects' look at docs/) happens
 * in the plugins' functions and hooks, which only Docusaurus calls.
 */
import {describe, expect, it, vi} from 'vitest';

const touched: string[] = [];

/** `module` with each of `names` recording its call (and the first argument) in `touched`. */
function recording<T extends object>(module: T, names: string[], label: string): T {
  const wrapped: Record<string, unknown> = {...(module as Record<string, unknown>)};
  for (const name of names) {
    const original = (module as Record<string, unknown>)[name];
    if (typeof original !== 'function') continue;
    wrapped[name] = (...args: unknown[]) => {
      touched.push(`${label}.${name}(${String(args[0])})`);
      return (original as (...a: unknown[]) => unknown)(...args);
    };
  }
  return {...wrapped, default: wrapped} as T;
}

const fsCalls = [
  'readFileSync',
  'readdirSync',
  'statSync',
  'existsSync',
  'writeFileSync',
  'appendFileSync',
  'mkdirSync',
  'rmSync',
  'renameSync',
  'copyFileSync',
  'unlinkSync',
  'readFile',
  'readdir',
  'writeFile',
  'mkdir',
  'rm',
];
const processCalls = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'];

vi.mock('node:fs', async (original) => recording(await original(), fsCalls, 'fs'));
vi.mock('fs', async (original) => recording(await original(), fsCalls, 'fs'));
vi.mock('node:fs/promises', async (original) => recording(await original(), fsCalls, 'fs'));
vi.mock('node:child_process', async (original) =>
  recording(await original(), processCalls, 'child_process'),
);
vi.mock('child_process', async (original) =>
  recording(await original(), processCalls, 'child_process'),
);

describe('docusaurus.config.ts', () => {
  it('reads, writes, installs and spawns nothing when it is loaded', async () => {
    const {default: config} = await import('../../docusaurus.config');
    expect(config.title).toContain('NestJS');
    expect(config.plugins.length).toBeGreaterThan(10);
    expect(touched).toEqual([]);
  });
});

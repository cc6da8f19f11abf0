/**
 * Runs the real Nest CLI (@nestjs/cli 8.2.8 with @nestjs/schematics 8.0.11, from tools/behaviour/node_modules)
 * in temporary folders outside the repository. Projects are scaffolded with `nest new --skip-install` and get a
 * symlink to tools/behaviour/node_modules instead of an npm install, so no test needs the network.
 */
import {spawnSync} from 'node:child_process';
import {
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  readdirSync,
  statSync,
} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, relative, resolve} from 'node:path';

export const nodeModules = resolve(__dirname, '..', '..', 'node_modules');
const nestBin = join(nodeModules, '@nestjs', 'cli', 'bin', 'nest.js');

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr together, colours removed. */
  out: string;
}

// eslint-disable-next-line no-control-regex
const stripAnsi = (text: string) => text.replace(/\x1b\[[0-9;]*[a-zA-Z]/g, '');

/**
 * `nest <args>` in `cwd`. `input` is written to stdin; `tty: true` makes the schematics answer their prompts
 * from stdin (NG_FORCE_TTY), as in a terminal.
 */
export function nestCli(
  cwd: string,
  args: string[],
  options: {input?: string; tty?: boolean; env?: NodeJS.ProcessEnv} = {},
): Run {
  const env: NodeJS.ProcessEnv = {...process.env, FORCE_COLOR: '0', NO_COLOR: '1', ...options.env};
  delete env.NG_FORCE_TTY;
  // Under vitest NODE_ENV is 'test', and the sub-app schematic then skips moving src and test into apps/.
  delete env.NODE_ENV;
  if (options.tty) env.NG_FORCE_TTY = '1';
  const run = spawnSync(process.execPath, [nestBin, ...args], {
    cwd,
    env,
    input: options.input ?? '',
    encoding: 'utf8',
    // A webpack build took over 50 s at a load average of 30 on the shared 2-core machine.
    timeout: 150_000,
  });
  const stdout = stripAnsi(run.stdout ?? '');
  const stderr = stripAnsi(run.stderr ?? '');
  return {status: run.status, stdout, stderr, out: `${stdout}\n${stderr}`};
}

/** A temporary folder under os.tmpdir(); `cleanup()` removes it. */
export function tempDir(prefix: string): {dir: string; cleanup: () => void} {
  const dir = mkdtempSync(join(tmpdir(), `nest-cli-${prefix}-`));
  return {dir, cleanup: () => rmSync(dir, {recursive: true, force: true})};
}

/** `nest new <name> --skip-install -p npm` in `parent`, then node_modules linked in; returns the project folder. */
export function newProject(parent: string, name: string, extra: string[] = ['--skip-git']): string {
  const run = nestCli(parent, [
    'new',
    name,
    '--skip-install',
    '--package-manager',
    'npm',
    ...extra,
  ]);
  if (run.status !== 0) throw new Error(`nest new ${name} failed:\n${run.out}`);
  const dir = join(parent, name);
  symlinkSync(nodeModules, join(dir, 'node_modules'), 'dir');
  return dir;
}

/** Runs the CLI and fails with its output when it exits non-zero. */
export function nestOk(
  cwd: string,
  args: string[],
  options: {input?: string; tty?: boolean} = {},
): Run {
  const run = nestCli(cwd, args, options);
  if (run.status !== 0)
    throw new Error(`nest ${args.join(' ')} exited with ${run.status}:\n${run.out}`);
  return run;
}

export const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));
export const writeJson = (file: string, value: unknown) =>
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);

/** Every file below `dir` (relative, sorted), skipping node_modules and .git. */
export function listFiles(dir: string, root = dir): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === '.git') continue;
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...listFiles(full, root));
    else out.push(relative(root, full));
  }
  return out.sort();
}

/** The CREATE/UPDATE lines a generate command prints, without the byte counts. */
export function actions(run: Run): string[] {
  return run.stdout
    .split('\n')
    .map((line) => /^(CREATE|UPDATE|DELETE) (\S+)/.exec(line.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => `${m[1]} ${m[2]}`);
}

/** The file paths of a `text` tree fence (├── / └── lines), as paths relative to the tree's root. */
export function treeFiles(tree: string): string[] {
  const files: string[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n').slice(1)) {
    const m = /^((?:│ {3}| {4})*)(?:├──|└──) (\S+)/.exec(line.replace(/\u00a0/g, ' '));
    if (!m) continue;
    const depth = m[1].length / 4;
    const name = m[2];
    stack.length = depth;
    if (name.endsWith('/')) stack.push(name.slice(0, -1));
    else files.push([...stack, name].join('/'));
  }
  return files.sort();
}

#!/usr/bin/env node
// The behaviour suite (tools/behaviour): real NestJS 8.4.7 apps started from
// the pages' samples, against real servers from Debian's packages.
//   npm run test:behaviour                       every page
//   npm run test:behaviour -- tests/techniques/queues.test.ts   one page's tests
//   npm run test:behaviour -- --list [abuse|failure] [files]   lists the claims (of
//     one kind) by page without running them
// It installs tools/behaviour's packages when they are missing, and fails
// before running anything when a server binary is missing, naming the
// apt-get line (a missing broker never skips its tests).
import {spawnSync} from 'node:child_process';
import {existsSync, mkdirSync, readFileSync, rmSync, statSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = join(root, 'tools', 'behaviour');

/** Binary paths Debian uses, by package (the same list as tools/behaviour/lib/services.ts). */
const servers = [
  {pkg: 'redis-server', paths: ['/usr/bin/redis-server', '/usr/local/bin/redis-server']},
  {
    pkg: 'nats-server',
    paths: ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'],
  },
  {pkg: 'mosquitto', paths: ['/usr/sbin/mosquitto', '/usr/bin/mosquitto']},
  {
    pkg: 'rabbitmq-server',
    paths: ['/usr/lib/rabbitmq/bin/rabbitmq-server', '/usr/sbin/rabbitmq-server'],
  },
  {
    pkg: 'postgresql',
    paths: existsSync('/usr/lib/postgresql')
      ? spawnSync('ls', ['/usr/lib/postgresql'], {encoding: 'utf8'})
          .stdout.split('\n')
          .filter(Boolean)
          .map((v) => `/usr/lib/postgresql/${v}/bin/postgres`)
      : [],
  },
];

const missing = servers
  .filter((server) => !server.paths.some((path) => existsSync(path)))
  .map((server) => server.pkg);
if (missing.length > 0) {
  console.error(
    `test:behaviour: the suite runs real servers, and ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not installed.\n` +
      `Install with: apt-get install -y ${missing.join(' ')}   (.ci/run does this on a clean machine)`,
  );
  process.exit(1);
}

function installed() {
  const lock = join(dir, 'package-lock.json');
  const marker = join(dir, 'node_modules', '.package-lock.json');
  if (!existsSync(marker)) return false;
  const wanted = JSON.parse(readFileSync(lock, 'utf8')).packages ?? {};
  const have = JSON.parse(readFileSync(marker, 'utf8')).packages ?? {};
  // Optional packages for other platforms (fsevents on macOS) are never installed here.
  return Object.entries(wanted).every(
    ([path, entry]) => path === '' || entry.optional || have[path]?.version === entry.version,
  );
}

/**
 * One install at a time: two runs that start together (two terminals, or parallel jobs) would
 * otherwise both run npm ci in the same folder and undo each other. The lock is a directory
 * (mkdir is atomic); a run that finds it waits for the other's install, then checks again.
 */
const lock = join(dir, '.install-lock');
function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
for (let waited = 0; !installed(); waited += 1) {
  let owner = false;
  try {
    mkdirSync(lock);
    owner = true;
  } catch {
    // Another run is installing: wait for it (a lock older than 10 minutes is stale).
    const age = Date.now() - statSync(lock, {throwIfNoEntry: false})?.mtimeMs;
    if (age > 600_000) rmSync(lock, {recursive: true, force: true});
    if (waited === 0)
      console.log('test:behaviour: another run is installing tools/behaviour, waiting...');
    sleep(2000);
    continue;
  }
  try {
    if (installed()) break;
    console.log('test:behaviour: installing tools/behaviour (npm ci)...');
    const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], {
      cwd: dir,
      stdio: 'inherit',
    });
    if (result.status !== 0) {
      console.error('test:behaviour: npm ci in tools/behaviour failed');
      process.exit(1);
    }
  } finally {
    if (owner) rmSync(lock, {recursive: true, force: true});
  }
}

// The tests and the harness type-check against the same Nest 8 declarations they run.
const tsc = spawnSync(
  process.execPath,
  [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir],
  {stdio: 'inherit'},
);
if (tsc.status !== 0) {
  console.error('test:behaviour: the suite does not type-check (tsc -p tools/behaviour)');
  process.exit(1);
}

const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const config = ['--config', join(dir, 'vitest.config.mts')];
const args = process.argv.slice(2);

if (args[0] === '--list') {
  // Collects the tests (the files are imported, nothing runs) and prints them by page and kind.
  const kinds = ['abuse', 'failure', 'claim'];
  const only = kinds.includes(args[1]) ? args[1] : null;
  const rest = args.slice(only ? 2 : 1);
  const out = join(dir, '.run', `list-${process.pid}.json`);
  mkdirSync(dirname(out), {recursive: true});
  const listed = spawnSync(
    process.execPath,
    [vitest, 'list', ...config, `--json=${out}`, ...rest],
    {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  if (listed.status !== 0 || !existsSync(out)) process.exit(listed.status ?? 1);
  const tests = JSON.parse(readFileSync(out, 'utf8'));
  rmSync(out, {force: true});
  const {parseClaimName} = await import('../tools/behaviour/lib/claim-name.mjs');
  /** @type {Map<string, string[]>} */
  const byPage = new Map();
  const counts = {claim: 0, abuse: 0, failure: 0};
  for (const test of tests) {
    // `vitest list` names a test inside describe() blocks "block > test": the claim starts at docs/.
    const start = test.name.search(/(?:^| > )docs\//);
    const parsed = parseClaimName(start > 0 ? test.name.slice(start + 3) : test.name);
    if (!parsed || (only && parsed.kind !== only)) continue;
    counts[parsed.kind] += 1;
    const lines = byPage.get(parsed.page) ?? [];
    lines.push(
      `  ${parsed.kind.padEnd(7)} ${parsed.ref.slice(parsed.page.length)}  ${parsed.statement}`,
    );
    byPage.set(parsed.page, lines);
  }
  for (const [page, lines] of [...byPage].sort((a, b) => a[0].localeCompare(b[0])))
    console.log(`${page}\n${lines.join('\n')}`);
  console.log(
    `\n${counts.claim + counts.abuse + counts.failure} claims listed (${counts.abuse} abuse cases, ${counts.failure} failure modes) on ${byPage.size} pages`,
  );
  process.exit(0);
}

const result = spawnSync(process.execPath, [vitest, 'run', ...config, ...args], {
  cwd: dir,
  stdio: 'inherit',
});
process.exit(result.status ?? 1);

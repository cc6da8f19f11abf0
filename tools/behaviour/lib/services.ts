/**
 * Real servers for the suite, from Debian's packages: each test file that
 * needs one starts its own on a free loopback port (`await service('redis')`
 * in `beforeAll`) and stops it in `afterAll`, so one page's tests run alone.
 * A missing binary fails with its name and the apt-get line; nothing skips.
 */
import {spawn, spawnSync, type ChildProcess} from 'node:child_process';
import {existsSync, mkdtempSync, writeFileSync, rmSync, readdirSync, chmodSync} from 'node:fs';
import {createServer, connect} from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';

export type ServiceName = 'redis' | 'nats' | 'mqtt' | 'rabbitmq' | 'postgres';

export interface Service {
  name: ServiceName;
  host: '127.0.0.1';
  port: number;
  /** A connection URL (redis://, nats://, mqtt://, amqp://, postgres://). */
  url: string;
  stop(): Promise<void>;
}

/** Binary, Debian package, and where Debian puts it. */
export const serviceBinaries: Record<ServiceName, {binary: string; pkg: string; paths: string[]}> =
  {
    redis: {
      binary: 'redis-server',
      pkg: 'redis-server',
      paths: ['/usr/bin/redis-server', '/usr/local/bin/redis-server'],
    },
    nats: {
      binary: 'nats-server',
      pkg: 'nats-server',
      paths: ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'],
    },
    mqtt: {
      binary: 'mosquitto',
      pkg: 'mosquitto',
      paths: ['/usr/sbin/mosquitto', '/usr/bin/mosquitto'],
    },
    rabbitmq: {
      binary: 'rabbitmq-server',
      pkg: 'rabbitmq-server',
      paths: ['/usr/lib/rabbitmq/bin/rabbitmq-server', '/usr/sbin/rabbitmq-server'],
    },
    postgres: {
      binary: 'postgres (and initdb)',
      pkg: 'postgresql',
      paths: postgresBinDirs().map((dir) => join(dir, 'postgres')),
    },
  };

function postgresBinDirs(): string[] {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return [];
  return readdirSync(base)
    .sort((a, b) => Number(b) - Number(a))
    .map((version) => join(base, version, 'bin'));
}

/** The binary of a service, or an error that names the package to install. */
export function findBinary(name: ServiceName): string {
  const {binary, pkg, paths} = serviceBinaries[name];
  const found = paths.find((path) => existsSync(path));
  if (!found) {
    throw new Error(
      `behaviour: ${binary} is not installed; the suite needs a real ${name} server. Install it with: apt-get install -y ${pkg} (.ci/run does)`,
    );
  }
  return found;
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolvePort(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function waitForPort(
  port: number,
  child: ChildProcess,
  name: string,
  log: () => string,
  timeoutMs: number,
): Promise<void> {
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(
        `behaviour: ${name} exited with code ${child.exitCode} before listening:\n${log()}`,
      );
    }
    const open = await new Promise<boolean>((done) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        done(true);
      });
      socket.once('error', () => done(false));
    });
    if (open) return;
    if (Date.now() - started > timeoutMs) {
      child.kill('SIGKILL');
      throw new Error(
        `behaviour: ${name} did not listen on 127.0.0.1:${port} within ${timeoutMs} ms:\n${log()}`,
      );
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

function launch(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
  user?: {uid: number; gid: number},
): {child: ChildProcess; log: () => string} {
  const child = spawn(command, args, {
    env: {...process.env, ...env},
    stdio: ['ignore', 'pipe', 'pipe'],
    ...user,
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return {child, log: () => output};
}

function stopper(
  child: ChildProcess,
  cleanup: () => void = () => {},
  signal: NodeJS.Signals = 'SIGTERM',
): () => Promise<void> {
  return async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    cleanup();
  };
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

function postgresUser(): {uid: number; gid: number} {
  const uid = Number(spawnSync('id', ['-u', 'postgres'], {encoding: 'utf8'}).stdout.trim());
  const gid = Number(spawnSync('id', ['-g', 'postgres'], {encoding: 'utf8'}).stdout.trim());
  if (!uid)
    throw new Error(
      'behaviour: postgres refuses to run as root and there is no postgres user (apt-get install -y postgresql creates it)',
    );
  return {uid, gid};
}

/** Starts a real server of the kind on a free loopback port. */
export async function service(name: ServiceName): Promise<Service> {
  const binary = findBinary(name);
  const port = await freePort();
  const host = '127.0.0.1' as const;
  switch (name) {
    case 'redis': {
      const {child, log} = launch(binary, [
        '--port',
        String(port),
        '--bind',
        host,
        '--save',
        '',
        '--appendonly',
        'no',
        '--protected-mode',
        'no',
      ]);
      await waitForPort(port, child, 'redis-server', log, 10_000);
      return {name, host, port, url: `redis://${host}:${port}`, stop: stopper(child)};
    }
    case 'nats': {
      const {child, log} = launch(binary, ['-a', host, '-p', String(port)]);
      await waitForPort(port, child, 'nats-server', log, 10_000);
      return {name, host, port, url: `nats://${host}:${port}`, stop: stopper(child)};
    }
    case 'mqtt': {
      const dir = mkdtempSync(join(tmpdir(), 'behaviour-mqtt-'));
      const conf = join(dir, 'mosquitto.conf');
      writeFileSync(conf, `listener ${port} ${host}\nallow_anonymous true\npersistence false\n`);
      const {child, log} = launch(binary, ['-c', conf]);
      await waitForPort(port, child, 'mosquitto', log, 10_000);
      return {
        name,
        host,
        port,
        url: `mqtt://${host}:${port}`,
        stop: stopper(child, () => rmSync(dir, {recursive: true, force: true})),
      };
    }
    case 'rabbitmq': {
      const dir = mkdtempSync(join(tmpdir(), 'behaviour-rabbitmq-'));
      chmodSync(dir, 0o755);
      const distPort = await freePort();
      const epmdPort = await freePort();
      const nodeName = `behaviour${port}@localhost`;
      writeFileSync(
        join(dir, 'rabbitmq.conf'),
        `listeners.tcp.default = ${host}:${port}\nloopback_users = none\n`,
      );
      writeFileSync(join(dir, 'enabled_plugins'), '[].\n');
      writeFileSync(join(dir, '.erlang.cookie'), `BEHAVIOUR${port}COOKIE`, {mode: 0o400});
      const {child, log} = launch(binary, [], {
        HOME: dir,
        RABBITMQ_NODENAME: nodeName,
        RABBITMQ_NODE_IP_ADDRESS: host,
        RABBITMQ_NODE_PORT: String(port),
        RABBITMQ_DIST_PORT: String(distPort),
        ERL_EPMD_PORT: String(epmdPort),
        RABBITMQ_CONFIG_FILE: join(dir, 'rabbitmq'),
        RABBITMQ_ENABLED_PLUGINS_FILE: join(dir, 'enabled_plugins'),
        RABBITMQ_MNESIA_BASE: join(dir, 'mnesia'),
        RABBITMQ_LOG_BASE: join(dir, 'log'),
        RABBITMQ_LOGS: '-',
      });
      await waitForPort(port, child, 'rabbitmq-server', log, 180_000);
      const stop = async () => {
        await stopper(child)();
        // The Erlang port mapper started for this node's own port.
        spawnSync('epmd', ['-port', String(epmdPort), '-kill'], {
          env: {...process.env, ERL_EPMD_PORT: String(epmdPort)},
        });
        rmSync(dir, {recursive: true, force: true});
      };
      return {name, host, port, url: `amqp://guest:guest@${host}:${port}`, stop};
    }
    case 'postgres': {
      const bin = binary.replace(/\/postgres$/, '');
      const dir = mkdtempSync(join(tmpdir(), 'behaviour-postgres-'));
      chmodSync(dir, 0o777);
      const data = join(dir, 'data');
      // initdb and postgres refuse to run as root: run them as Debian's postgres user then.
      const user = isRoot ? postgresUser() : undefined;
      const init = spawnSync(
        join(bin, 'initdb'),
        ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C'],
        {encoding: 'utf8', ...user},
      );
      if (init.status !== 0) {
        throw new Error(
          `behaviour: initdb failed (${init.status}):\n${init.stderr || init.stdout}`,
        );
      }
      const args = [
        '-D',
        data,
        '-p',
        String(port),
        '-h',
        host,
        '-k',
        dir,
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        '-c',
        'full_page_writes=off',
      ];
      const {child, log} = launch(join(bin, 'postgres'), args, {}, user);
      await waitForPort(port, child, 'postgres', log, 30_000);
      // Accepting TCP comes a moment before accepting queries.
      await new Promise((r) => setTimeout(r, 300));
      return {
        name,
        host,
        port,
        url: `postgres://postgres@${host}:${port}/postgres`,
        stop: stopper(child, () => rmSync(dir, {recursive: true, force: true}), 'SIGINT'),
      };
    }
  }
}

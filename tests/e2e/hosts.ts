/**
 * The build behind real web servers, configured only by the host files it generates: nginx
 * (Debian's `nginx-light`) with `nginx.conf` included in its `server` block, and Apache 2.4
 * (Debian's `apache2`) with `.htaccess` read from the document root, as the README's
 * "Deploying" section says to serve it. Each runs as a child process of the tests, on a free
 * loopback port, with its configuration, pid file and logs in a temporary folder, and is
 * stopped by its process id.
 *
 * Apache answers over HTTPS (a self-signed certificate made with `openssl` for the run): the
 * `.htaccess` sends plain HTTP to HTTPS, and that rule is checked on a second, plain port.
 */
import {spawn, execFileSync, type ChildProcess} from 'node:child_process';
import {existsSync} from 'node:fs';
import {mkdtemp, readFile, rm, writeFile} from 'node:fs/promises';
import {createServer, connect} from 'node:net';
import {tmpdir} from 'node:os';
import {join, resolve} from 'node:path';

/** The build under test (playwright.config.ts serves it). */
export const buildDir = resolve(process.env.E2E_BUILD_DIR ?? 'build');

export const nginxBinary = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
export const apacheBinary = process.env.APACHE_PATH ?? '/usr/sbin/apache2';
const apacheModules = process.env.APACHE_MODULES ?? '/usr/lib/apache2/modules';

export interface RunningHost {
  readonly name: 'nginx' | 'apache';
  /** Where the site answers (`http://127.0.0.1:port`, or `https://` for Apache). */
  readonly baseURL: string;
  /** Apache's plain-HTTP port, which only redirects to HTTPS. */
  readonly plainURL?: string;
  /** The server's error log, for a failing test's message. */
  errors(): Promise<string>;
  stop(): Promise<void>;
}

/** A TCP port free on loopback right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolvePort(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/** Resolves once something accepts connections on the port; rejects if the process ends first. */
async function listening(port: number, child: ChildProcess, log: () => Promise<string>) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the server ended (${child.exitCode ?? child.signalCode}):\n${await log()}`);
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
    if (Date.now() > deadline) throw new Error(`nothing listens on ${port}:\n${await log()}`);
    await new Promise((wait) => setTimeout(wait, 50));
  }
}

/** Stops a child by its process id and waits for it to end. */
async function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const ended = new Promise((done) => child.once('exit', done));
  try {
    process.kill(child.pid, signal);
  } catch {
    return; // already gone
  }
  const timer = setTimeout(() => {
    if (child.pid !== undefined && child.exitCode === null) process.kill(child.pid, 'SIGKILL');
  }, 10_000);
  await ended;
  clearTimeout(timer);
}

/** Fails with the install line when a server is missing. */
function installed(binary: string, pkg: string): void {
  if (!existsSync(binary)) {
    throw new Error(`${binary} is missing: apt-get install ${pkg} (.ci/run installs it)`);
  }
}

function started(command: string, args: string[], folder: string): ChildProcess {
  const child = spawn(command, args, {cwd: folder, stdio: ['ignore', 'ignore', 'pipe']});
  child.on('error', (error) => {
    void writeFile(join(folder, 'stderr.log'), `${error.message}\n`, {flag: 'a'});
  });
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => {
    void writeFile(join(folder, 'stderr.log'), text, {flag: 'a'});
  });
  return child;
}

async function readLogs(folder: string, names: string[]): Promise<string> {
  const texts = await Promise.all(
    names.map(async (name) => {
      const file = join(folder, name);
      return existsSync(file) ? `${name}:\n${await readFile(file, 'utf8')}` : '';
    }),
  );
  return texts.filter(Boolean).join('\n');
}

/**
 * nginx with the build's `nginx.conf` included in a plain `server` block whose `root` is the
 * build (TLS changes nothing the snippet does; the HTTP-to-HTTPS redirect is the README's other
 * server block).
 */
export async function startNginx(buildDir: string): Promise<RunningHost> {
  installed(nginxBinary, 'nginx-light');
  const root = resolve(buildDir);
  if (!existsSync(join(root, 'nginx.conf'))) throw new Error(`${root}/nginx.conf is missing`);
  const folder = await mkdtemp(join(tmpdir(), 'nest-nginx-'));
  const port = await freePort();
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((kind) => `  ${kind}_temp_path ${join(folder, kind)};`)
    .join('\n');
  await writeFile(
    join(folder, 'nginx.conf'),
    `daemon off;
master_process on;
worker_processes 1;
pid ${join(folder, 'nginx.pid')};
error_log ${join(folder, 'error.log')} warn;
events { worker_connections 256; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log ${join(folder, 'access.log')};
${temp}
  server {
    listen 127.0.0.1:${port};
    server_name localhost;
    root ${root};
    include ${join(root, 'nginx.conf')};
  }
}
`,
  );
  const child = started(nginxBinary, ['-p', folder, '-c', join(folder, 'nginx.conf')], folder);
  const errors = () => readLogs(folder, ['stderr.log', 'error.log']);
  await listening(port, child, errors);
  return {
    name: 'nginx',
    baseURL: `http://127.0.0.1:${port}`,
    errors,
    async stop() {
      await stopChild(child, 'SIGTERM');
      await rm(folder, {recursive: true, force: true});
    },
  };
}

/**
 * Apache 2.4 with the build as its document root and `AllowOverride All`, so the `.htaccess`
 * applies as uploaded; HTTPS on one port, plain HTTP on another.
 */
export async function startApache(buildDir: string): Promise<RunningHost> {
  installed(apacheBinary, 'apache2');
  const root = resolve(buildDir);
  if (!existsSync(join(root, '.htaccess'))) throw new Error(`${root}/.htaccess is missing`);
  const folder = await mkdtemp(join(tmpdir(), 'nest-apache-'));
  const [port, plainPort] = [await freePort(), await freePort()];
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1'],
      ...['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1'],
      ...['-addext', 'subjectAltName=IP:127.0.0.1'],
      ...['-keyout', join(folder, 'key.pem'), '-out', join(folder, 'cert.pem')],
    ],
    {stdio: 'ignore'},
  );
  // Besides what the `.htaccess` needs, the modules Debian's Apache enables that change its
  // answers: folder listings (autoindex) and content negotiation.
  const modules = [
    ...['mpm_event', 'authz_core', 'mime', 'dir', 'alias', 'rewrite', 'headers', 'ssl'],
    ...['autoindex', 'negotiation'],
  ]
    .map((name) => `LoadModule ${name}_module ${apacheModules}/mod_${name}.so`)
    .join('\n');
  // Started as root, Apache serves as an unprivileged user (it refuses to serve as root).
  const user = process.getuid?.() === 0 ? 'User www-data\nGroup www-data\n' : '';
  await writeFile(
    join(folder, 'apache2.conf'),
    `ServerRoot ${folder}
DefaultRuntimeDir ${folder}
PidFile ${join(folder, 'apache2.pid')}
ErrorLog ${join(folder, 'error.log')}
LogLevel warn
${modules}
${user}ServerName 127.0.0.1
Listen 127.0.0.1:${port}
Listen 127.0.0.1:${plainPort}
TypesConfig /etc/mime.types
DocumentRoot ${root}
<Directory />
  AllowOverride None
  Require all denied
</Directory>
<Directory ${root}>
  AllowOverride All
  Require all granted
</Directory>
<VirtualHost 127.0.0.1:${port}>
  SSLEngine on
  SSLCertificateFile ${join(folder, 'cert.pem')}
  SSLCertificateKeyFile ${join(folder, 'key.pem')}
</VirtualHost>
<VirtualHost 127.0.0.1:${plainPort}>
</VirtualHost>
`,
  );
  const child = started(apacheBinary, ['-f', join(folder, 'apache2.conf'), '-DFOREGROUND'], folder);
  const errors = () => readLogs(folder, ['stderr.log', 'error.log']);
  await listening(port, child, errors);
  await listening(plainPort, child, errors);
  return {
    name: 'apache',
    baseURL: `https://127.0.0.1:${port}`,
    plainURL: `http://127.0.0.1:${plainPort}`,
    errors,
    async stop() {
      await stopChild(child, 'SIGTERM');
      await rm(folder, {recursive: true, force: true});
    },
  };
}

// @ts-check
/**
 * Serves builds side by side for the before/after scripts (cpu-report, page-facts): each build
 * by scripts/serve-build.mjs (the production headers applied, uncompressed) in a child process,
 * on `port` and the next ports.
 */
import {spawn} from 'node:child_process';
import {join} from 'node:path';

/**
 * @param {readonly string[]} dirs the builds' folders
 * @param {number} port the first build's port
 * @param {string} who the script's name, for the error when a server does not start
 * @returns {Promise<{origins: string[], stop: () => void}>}
 */
export async function serveBuilds(dirs, port, who) {
  const servers = dirs.map((dir, index) =>
    spawn(
      process.execPath,
      [
        join(import.meta.dirname, '..', 'serve-build.mjs'),
        '--dir',
        dir,
        '--port',
        String(port + index),
      ],
      {stdio: ['ignore', 'pipe', 'inherit']},
    ),
  );
  const stop = () => {
    for (const server of servers) server.kill();
  };
  try {
    await Promise.all(
      servers.map(
        (server) =>
          new Promise((resolve, reject) => {
            server.stdout?.once('data', resolve);
            server.once('exit', () => reject(new Error(`${who}: a server did not start`)));
          }),
      ),
    );
  } catch (error) {
    stop();
    throw error;
  }
  return {origins: dirs.map((_, index) => `http://127.0.0.1:${port + index}`), stop};
}

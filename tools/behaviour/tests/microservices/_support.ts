/** Small helpers for the microservices pages' tests: a TCP microservice and its client on a free port. */
import {nest, freePort, memoryLogger} from '../../lib';

const {NestFactory} = nest('@nestjs/core');
const {Transport, ClientProxyFactory} = nest('@nestjs/microservices');

export async function until(check: () => boolean, ms = 5000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Starts `module` as a TCP microservice on a free loopback port; `setup` runs before listen(). */
export async function tcpMicroservice(
  module: unknown,
  setup: (app: any) => void = () => {},
  log = memoryLogger(),
) {
  const port = await freePort();
  const app = await NestFactory.createMicroservice(module, {
    transport: Transport.TCP,
    logger: log.logger,
    options: {host: '127.0.0.1', port},
  });
  setup(app);
  await app.listen();
  const client = ClientProxyFactory.create({
    transport: Transport.TCP,
    options: {host: '127.0.0.1', port},
  });
  return {
    app,
    client,
    port,
    log,
    close: async () => {
      client.close();
      await app.close();
    },
  };
}

/** Keeps what console.log prints while the returned `restore()` has not been called. */
export function captureConsole(): {lines: string[]; restore: () => void} {
  const {format} = require('node:util') as typeof import('node:util');
  const lines: string[] = [];
  const original = console.log;
  console.log = (...args: unknown[]) => {
    lines.push(format(...args));
  };
  return {lines, restore: () => (console.log = original)};
}

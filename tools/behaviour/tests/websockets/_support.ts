/**
 * Small helpers for the WebSocket pages: real socket.io-client and ws clients
 * against real gateways. Every wait is bounded (a missing reply fails fast).
 */
import {nest} from '../../lib';

const {io} = nest('socket.io-client');
const WebSocket = nest('ws');

export type IoClient = any;

/** A connected socket.io-client socket (rejects on connect_error). */
export function ioConnect(url: string, options: Record<string, unknown> = {}): Promise<IoClient> {
  const socket = io(url, {
    reconnection: false,
    forceNew: true,
    transports: ['websocket'],
    ...options,
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.close();
      reject(new Error(`no connection to ${url} within 3 s`));
    }, 3000);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve(socket);
    });
    socket.once('connect_error', (error: Error) => {
      clearTimeout(timer);
      socket.close();
      reject(error);
    });
  });
}

/** Emits with an acknowledgement callback; resolves with the ack's argument, or `timeout` when none comes. */
export function emitAck(
  socket: IoClient,
  event: string,
  data: unknown,
  ms = 600,
): Promise<unknown> {
  return new Promise((resolve) => {
    socket.timeout(ms).emit(event, data, (error: unknown, response: unknown) => {
      resolve(error ? 'timeout' : response);
    });
  });
}

/** Collects the payloads of `event` on a socket.io-client socket until `count` arrived or `ms` passed. */
export function collect(socket: IoClient, event: string, count = 1, ms = 600): Promise<unknown[]> {
  const received: unknown[] = [];
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      socket.off(event, listener);
      resolve(received);
    };
    const listener = (...args: unknown[]) => {
      received.push(args.length === 1 ? args[0] : args);
      if (received.length >= count) done();
    };
    const timer = setTimeout(done, ms);
    socket.on(event, listener);
  });
}

/** A connected `ws` client with a message queue (JSON-parsed where possible). */
export async function wsConnect(
  url: string,
): Promise<{socket: any; messages: unknown[]; next(ms?: number): Promise<unknown>; close(): void}> {
  const socket = new WebSocket(url);
  const messages: unknown[] = [];
  const waiters: ((value: unknown) => void)[] = [];
  socket.on('message', (raw: Buffer) => {
    const text = raw.toString();
    let value: unknown = text;
    try {
      value = JSON.parse(text);
    } catch {
      // keep the text
    }
    const waiter = waiters.shift();
    if (waiter) waiter(value);
    else messages.push(value);
  });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  return {
    socket,
    messages,
    next(ms = 600) {
      if (messages.length) return Promise.resolve(messages.shift());
      return new Promise((resolve) => {
        const waiter = (value: unknown) => {
          clearTimeout(timer);
          resolve(value);
        };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          resolve('timeout');
        }, ms);
        waiters.push(waiter);
      });
    },
    close() {
      socket.close();
    },
  };
}

/** Polls `check` until it returns true (at most `ms`). */
export async function until(check: () => boolean, ms = 2000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * A Socket.io client written by hand: a raw WebSocket to `/socket.io/`, which sends the Socket.io packets
 * given (`'0{"token":"x"}'` is a CONNECT with an auth payload, `'21["whoami"]'` an EVENT with ack id 1), as
 * soon as Engine.IO has opened, and without waiting for the server's answer, as a hostile client may.
 * Resolves with the Socket.io packets received and whether the server closed the connection within `ms`.
 */
export function rawSocketIo(
  url: string,
  packets: string[],
  ms = 500,
): Promise<{received: string[]; closed: boolean}> {
  const socket = new WebSocket(
    `${url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`,
  );
  const received: string[] = [];
  return new Promise((resolve, reject) => {
    let closed = false;
    const timer = setTimeout(() => {
      socket.terminate();
      resolve({received, closed});
    }, ms);
    socket.on('error', (error: Error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('message', (raw: Buffer) => {
      const text = raw.toString();
      if (text.startsWith('0')) for (const packet of packets) socket.send(`4${packet}`);
      else if (text === '2') socket.send('3');
      else if (text.startsWith('4')) received.push(text.slice(1));
    });
    socket.on('close', () => {
      closed = true;
      clearTimeout(timer);
      resolve({received, closed});
    });
  });
}

/** The payload of the first of `events` that arrives on a socket.io-client socket, or 'timeout' after `ms`. */
export function firstOf(socket: IoClient, events: string[], ms = 600): Promise<unknown> {
  return new Promise((resolve) => {
    const listeners = events.map((event) => {
      const listener = (payload: unknown) => done(payload);
      socket.once(event, listener);
      return [event, listener] as const;
    });
    const timer = setTimeout(() => done('timeout'), ms);
    function done(value: unknown) {
      clearTimeout(timer);
      for (const [event, listener] of listeners) socket.off(event, listener);
      resolve(value);
    }
  });
}

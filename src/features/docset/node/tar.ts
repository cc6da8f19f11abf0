/**
 * A gzipped tar archive (POSIX ustar) of files held in memory: what Dash and Zeal download.
 * The docset never touches the build directory as loose files (Pagefind indexes every HTML file
 * there, and "Save all docs" lists its images), so it is archived from memory.
 *
 * Deterministic: entries in the order given, a fixed modification time, no owner names, and a
 * fixed gzip header (Node's zlib writes no time and no file name), so the same docset gives the
 * same bytes and the feed's version (a hash of them) only changes when the docset does.
 */
import {gzipSync} from 'node:zlib';

export interface TarEntry {
  /** `/`-separated path inside the archive, without a leading slash. */
  readonly path: string;
  readonly data: Uint8Array;
}

const block = 512;
/** 2022-06-22 (NestJS 8.4.7's release): the time every entry carries. */
export const entryTime = Date.UTC(2022, 5, 22) / 1000;

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

/** Splits a path for ustar: `name` holds 100 bytes, `prefix` 155, cut at a `/`. */
export function splitPath(path: string): {name: string; prefix: string} {
  const bytes = (text: string) => Buffer.byteLength(text);
  if (bytes(path) <= 100) return {name: path, prefix: ''};
  for (let slash = path.indexOf('/'); slash !== -1; slash = path.indexOf('/', slash + 1)) {
    const prefix = path.slice(0, slash);
    const name = path.slice(slash + 1);
    if (bytes(prefix) <= 155 && bytes(name) <= 100 && name !== '') return {name, prefix};
  }
  throw new Error(`Path too long for a tar archive: ${path}`);
}

function header(path: string, size: number, type: '0' | '5'): Buffer {
  if (path === '' || path.startsWith('/') || path.split('/').includes('..')) {
    throw new Error(`Not a relative path inside the archive: "${path}"`);
  }
  const {name, prefix} = splitPath(path);
  const buffer = Buffer.alloc(block);
  buffer.write(name, 0, 100, 'utf8');
  buffer.write(octal(type === '5' ? 0o755 : 0o644, 8), 100, 'ascii');
  buffer.write(octal(0, 8), 108, 'ascii'); // uid
  buffer.write(octal(0, 8), 116, 'ascii'); // gid
  buffer.write(octal(size, 12), 124, 'ascii');
  buffer.write(octal(entryTime, 12), 136, 'ascii');
  buffer.write('        ', 148, 'ascii'); // the checksum counts as spaces while it is computed
  buffer.write(type, 156, 'ascii');
  buffer.write('ustar\0', 257, 'ascii');
  buffer.write('00', 263, 'ascii');
  buffer.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const byte of buffer) sum += byte;
  buffer.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return buffer;
}

/** The tar archive of `entries`, with a directory entry before the first file of each folder. */
export function tar(entries: readonly TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  const directories = new Set<string>();
  const seen = new Set<string>();
  for (const entry of entries) {
    if (seen.has(entry.path)) throw new Error(`Duplicate path in the archive: ${entry.path}`);
    seen.add(entry.path);
    const segments = entry.path.split('/');
    for (let depth = 1; depth < segments.length; depth++) {
      const directory = `${segments.slice(0, depth).join('/')}/`;
      if (directories.has(directory)) continue;
      directories.add(directory);
      parts.push(header(directory, 0, '5'));
    }
    parts.push(header(entry.path, entry.data.byteLength, '0'), Buffer.from(entry.data));
    const padding = (block - (entry.data.byteLength % block)) % block;
    if (padding > 0) parts.push(Buffer.alloc(padding));
  }
  // The end of the archive: two empty blocks.
  parts.push(Buffer.alloc(block * 2));
  return Buffer.concat(parts);
}

/** `tar` of the entries, gzipped at the highest level. */
export function tarGz(entries: readonly TarEntry[]): Buffer {
  return gzipSync(tar(entries), {level: 9});
}

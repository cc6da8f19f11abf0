/**
 * A gzipped tar archive of files held in memory: what Dash and Zeal download. Written with
 * node-tar (the `tar` package npm itself uses) from a temporary folder outside the build: the
 * docset never lies in the build as loose files (Pagefind indexes every HTML file there, and
 * "Save all docs" lists its images).
 *
 * Deterministic: entries in the order given (each folder before its first file), `portable`
 * headers (no owner, no device, modes from a 022 umask), one fixed modification time, and
 * node-tar's portable gzip header (no time, no name), so the same docset gives the same bytes and
 * the feed's version (a hash of them) only changes when the docset does.
 */
import {mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {create} from 'tar';

export interface TarEntry {
  /** `/`-separated path inside the archive, without a leading slash. */
  readonly path: string;
  readonly data: Uint8Array;
}

/** 2022-06-22 (NestJS 8.4.7's release): the time every entry carries. */
export const entryTime = new Date(Date.UTC(2022, 5, 22));

/**
 * The archive's members in order: each folder (with a trailing `/`) before the first file under
 * it, then the file. Refuses a path that would leave the archive, and a path given twice.
 */
export function members(entries: readonly TarEntry[]): string[] {
  const list: string[] = [];
  const seen = new Set<string>();
  for (const {path} of entries) {
    if (
      path === '' ||
      path.startsWith('/') ||
      path.includes('\\') ||
      path.split('/').includes('..')
    ) {
      throw new Error(`Not a relative path inside the archive: "${path}"`);
    }
    if (seen.has(path)) throw new Error(`Duplicate path in the archive: ${path}`);
    seen.add(path);
    const segments = path.split('/');
    for (let depth = 1; depth < segments.length; depth++) {
      const folder = `${segments.slice(0, depth).join('/')}/`;
      if (seen.has(folder)) continue;
      seen.add(folder);
      list.push(folder);
    }
    list.push(path);
  }
  return list;
}

/** The entries as a `.tgz`, gzipped at the highest level. */
export async function tarGz(entries: readonly TarEntry[]): Promise<Buffer> {
  const order = members(entries);
  const staging = await mkdtemp(join(tmpdir(), 'nest-docset-'));
  try {
    for (const {path, data} of entries) {
      const file = join(staging, ...path.split('/'));
      await mkdir(dirname(file), {recursive: true});
      await writeFile(file, data);
    }
    const chunks: Buffer[] = [];
    const archive = create(
      {cwd: staging, gzip: {level: 9}, portable: true, mtime: entryTime, noDirRecurse: true},
      order,
    );
    for await (const chunk of archive) chunks.push(Buffer.from(chunk as Uint8Array));
    return Buffer.concat(chunks);
  } finally {
    await rm(staging, {recursive: true, force: true});
  }
}

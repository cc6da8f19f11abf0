/**
 * The saving itself, outside React: fetches every URL of the build's save list
 * (`/offline.json`, written by src/features/offline/node/step.ts) into the worker's cache, a few at a time,
 * skipping what is cached already (so a cancelled or interrupted save resumes where it
 * stopped), then measures what the site stores.
 */
import {
  cacheKey,
  runtimeCache,
  saveHeader,
  saveListPath,
  urlsToSave,
  type SaveList,
} from '../../logic';

export interface Progress {
  readonly done: number;
  readonly total: number;
  readonly failed: number;
}

/** Requests in flight at once: enough to fill a connection, few enough to leave it usable. */
const concurrency = 6;

export async function fetchSaveList(signal?: AbortSignal): Promise<SaveList> {
  const response = await fetch(saveListPath, {cache: 'no-cache', signal});
  if (!response.ok) throw new Error(`${saveListPath}: ${response.status}`);
  return (await response.json()) as SaveList;
}

/** What the site has stored already, in our cache and plugin-pwa's precache (keys without query). */
async function cachedKeys(): Promise<Set<string>> {
  const keys = new Set<string>();
  for (const name of await caches.keys()) {
    for (const request of await (await caches.open(name)).keys()) keys.add(cacheKey(request.url));
  }
  return keys;
}

/**
 * Saves every URL of `list`; resolves with the final progress (aborting resolves too, with
 * what was done).
 */
export async function saveAll(
  list: SaveList,
  onProgress: (progress: Progress) => void,
  signal: AbortSignal,
): Promise<Progress> {
  const urls = urlsToSave(list).map((path) => new URL(path, window.location.origin).href);
  const cache = await caches.open(runtimeCache);
  const cached = await cachedKeys();
  let next = 0;
  let done = 0;
  let failed = 0;
  const report = () => onProgress({done, total: urls.length, failed});
  const worker = async () => {
    while (next < urls.length && !signal.aborted) {
      const url = urls[next++] as string;
      try {
        if (!cached.has(cacheKey(url))) {
          const response = await fetch(url, {headers: {[saveHeader]: '1'}, signal});
          if (!response.ok) throw new Error(`${url}: ${response.status}`);
          await cache.put(cacheKey(url), response);
        }
        done += 1;
      } catch {
        if (signal.aborted) break;
        failed += 1;
      }
      report();
    }
  };
  report();
  await Promise.all(Array.from({length: concurrency}, worker));
  return {done, total: urls.length, failed};
}

/** The bytes the site keeps in the Cache API (ours and the precached app shell). */
export async function cachedBytes(): Promise<number> {
  let bytes = 0;
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const response = await cache.match(request);
      if (response) bytes += (await response.blob()).size;
    }
  }
  return bytes;
}

/** Removes everything read or saved for offline reading (the app shell stays, a few hundred KB). */
export async function removeSaved(): Promise<void> {
  await caches.delete(runtimeCache);
}

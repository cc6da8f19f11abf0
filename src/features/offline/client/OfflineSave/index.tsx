/**
 * "Save all docs for offline reading", in the footer of every page. Only the button is in the
 * main bundle; the panel that saves (./Panel.tsx: progress, cancel, size, remove) is a chunk
 * of its own, loaded on the first click. The button is in the server HTML, so nothing moves
 * when the page hydrates; in a browser without service workers or the Cache API it says so.
 */
import React, {
  lazy,
  Suspense,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import Translate from '@docusaurus/Translate';
import {formatBytes, savedStateKey} from '../../logic';
import styles from './styles.module.css';

const Panel = lazy(() => import('./Panel'));

function subscribe(onChange: () => void): () => void {
  window.addEventListener('storage', onChange);
  return () => window.removeEventListener('storage', onChange);
}

function readSavedRecord(): string | null {
  try {
    return localStorage.getItem(savedStateKey);
  } catch {
    return null; // No storage (private mode): the button offers to save.
  }
}

/**
 * The size of a completed save this browser remembers, or null. The server renders the plain
 * button; the browser's answer replaces it once hydrated.
 */
function useSavedSize(): string | null {
  const record = useSyncExternalStore(subscribe, readSavedRecord, () => null);
  if (!record) return null;
  try {
    const saved = JSON.parse(record) as {bytes?: unknown} | null;
    return saved && typeof saved.bytes === 'number' ? formatBytes(saved.bytes) : null;
  } catch {
    return null;
  }
}

export default function OfflineSave(): ReactNode {
  const [open, setOpen] = useState(false);
  const saved = useSavedSize();
  const button = useRef<HTMLButtonElement>(null);
  const reopened = useRef(false);
  useEffect(() => {
    if (!open && reopened.current) button.current?.focus();
  }, [open]);
  return (
    <div className={styles.offlineSave}>
      {open ? (
        <Suspense fallback={null}>
          <Panel
            onClose={() => {
              reopened.current = true;
              setOpen(false);
            }}
          />
        </Suspense>
      ) : (
        <button ref={button} type="button" className={styles.action} onClick={() => setOpen(true)}>
          {saved ? (
            <Translate id="site.offline.savedButton" values={{size: saved}}>
              {'Docs saved for offline reading ({size}): manage'}
            </Translate>
          ) : (
            <Translate id="site.offline.save">Save all docs for offline reading</Translate>
          )}
        </button>
      )}
    </div>
  );
}

/**
 * "Save all docs for offline reading", in the footer of every page. Only the button is in the
 * main bundle; the panel that saves (./Panel.tsx: progress, cancel, size, remove) is a chunk
 * of its own, loaded on the first click. The button is in the server HTML, so nothing moves
 * when the page hydrates; in a browser without service workers or the Cache API it says so.
 */
import React, {lazy, Suspense, useState, type ReactNode} from 'react';
import Translate from '@docusaurus/Translate';
import styles from './styles.module.css';

const Panel = lazy(() => import('./Panel'));

export default function OfflineSave(): ReactNode {
  const [open, setOpen] = useState(false);
  return (
    <div className={styles.offlineSave}>
      {open ? (
        <Suspense fallback={null}>
          <Panel />
        </Suspense>
      ) : (
        <button type="button" className={styles.action} onClick={() => setOpen(true)}>
          <Translate id="site.offline.save">Save all docs for offline reading</Translate>
        </button>
      )}
    </div>
  );
}

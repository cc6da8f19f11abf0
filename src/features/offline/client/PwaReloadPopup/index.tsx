/**
 * The "New version available — Reload" prompt (swizzled from @docusaurus/plugin-pwa): shown by
 * src/features/offline/client/registration.ts when a new build's service worker waits. It never takes the focus
 * or reloads by itself: a status message the reader can act on or dismiss.
 */
import React, {useState, type ReactNode} from 'react';
import Translate, {translate} from '@docusaurus/Translate';
import type {Props} from '@theme/PwaReloadPopup';
import styles from './styles.module.css';

export default function PwaReloadPopup({onReload}: Props): ReactNode {
  const [visible, setVisible] = useState(true);
  if (!visible) return null;
  return (
    <div className={`alert alert--secondary ${styles.popup}`} role="status">
      <p>
        <Translate id="theme.PwaReloadPopup.info">New version available</Translate>
      </p>
      <div className={styles.buttons}>
        <button
          className="button button--primary button--sm"
          type="button"
          onClick={() => {
            setVisible(false);
            onReload();
          }}
        >
          <Translate id="theme.PwaReloadPopup.refreshButtonText">Reload</Translate>
        </button>
        <button
          aria-label={translate({
            id: 'theme.PwaReloadPopup.closeButtonAriaLabel',
            message: 'Close',
          })}
          className={`clean-btn ${styles.close}`}
          type="button"
          onClick={() => setVisible(false)}
        >
          <span aria-hidden="true">×</span>
        </button>
      </div>
    </div>
  );
}

/**
 * The "Save all docs" panel (loaded by ./index.tsx on the first click): saves every page, its
 * bundles and images, and the search index into the service worker's cache, with a progress
 * bar, Cancel (a later Save resumes: what is cached already is skipped), the size stored at the
 * end, and "Remove saved docs".
 */
import React, {useCallback, useEffect, useRef, useState, type ReactNode} from 'react';
import Translate, {translate} from '@docusaurus/Translate';
import {formatBytes, savedStateKey, type SavedState, type SaveList} from '../../logic';
import {cachedBytes, fetchSaveList, removeSaved, saveAll, type Progress} from './save';
import styles from './styles.module.css';

type Phase =
  | {name: 'unsupported'}
  | {name: 'confirm'; list: SaveList | null}
  | {name: 'saving'; progress: Progress}
  | {name: 'stopped'; progress: Progress}
  | {name: 'failed'; progress: Progress}
  | {name: 'saved'; state: SavedState}
  | {name: 'removed'};

export function readSaved(): SavedState | undefined {
  try {
    const value = JSON.parse(localStorage.getItem(savedStateKey) ?? 'null') as SavedState | null;
    return value && typeof value.bytes === 'number' ? value : undefined;
  } catch {
    return undefined;
  }
}

function writeSaved(state: SavedState | undefined): void {
  try {
    if (state) localStorage.setItem(savedStateKey, JSON.stringify(state));
    else localStorage.removeItem(savedStateKey);
  } catch {
    // Storage refused (private mode): the cache still holds the pages.
  }
}

const supported = () => 'caches' in window && 'serviceWorker' in navigator;

export default function Panel({onClose}: {onClose: () => void}): ReactNode {
  const [phase, setPhase] = useState<Phase>(() => {
    if (!supported()) return {name: 'unsupported'};
    const saved = readSaved();
    return saved ? {name: 'saved', state: saved} : {name: 'confirm', list: null};
  });
  const controller = useRef<AbortController | null>(null);
  const status = useRef<HTMLParagraphElement>(null);

  const start = useCallback(() => {
    const abort = new AbortController();
    controller.current = abort;
    setPhase({name: 'saving', progress: {done: 0, total: 0, failed: 0}});
    void (async () => {
      // Ask the browser not to evict the saved docs under storage pressure (may be refused).
      void navigator.storage?.persist?.().catch(() => false);
      let progress: Progress = {done: 0, total: 0, failed: 0};
      try {
        const list = await fetchSaveList(abort.signal);
        progress = await saveAll(
          list,
          (update) => {
            if (!abort.signal.aborted) setPhase({name: 'saving', progress: update});
          },
          abort.signal,
        );
      } catch {
        if (!abort.signal.aborted) {
          setPhase({name: 'failed', progress});
          return;
        }
      }
      if (abort.signal.aborted) {
        setPhase({name: 'stopped', progress});
      } else if (progress.failed > 0) {
        setPhase({name: 'failed', progress});
      } else {
        const state: SavedState = {
          savedAt: Date.now(),
          bytes: await cachedBytes(),
          pages: progress.total,
          build: '',
        };
        writeSaved(state);
        setPhase({name: 'saved', state});
      }
    })();
  }, []);

  // Before anything is downloaded, the reader is told how much (the build's save list says).
  useEffect(() => {
    if (phase.name !== 'confirm' || phase.list) return undefined;
    const abort = new AbortController();
    fetchSaveList(abort.signal).then(
      (list) =>
        setPhase((current) => (current.name === 'confirm' ? {name: 'confirm', list} : current)),
      () => undefined,
    );
    return () => abort.abort();
  }, [phase]);
  useEffect(() => () => controller.current?.abort(), []);
  // Keep keyboard users in the panel when the button they used goes away.
  useEffect(() => {
    if (phase.name !== 'saving') status.current?.focus();
  }, [phase.name]);

  const remove = async () => {
    await removeSaved();
    writeSaved(undefined);
    setPhase({name: 'removed'});
  };

  const saveButton = (
    <button type="button" className="button button--sm button--primary" onClick={start}>
      {phase.name === 'stopped' || phase.name === 'failed' ? (
        <Translate id="site.offline.resume">Resume saving</Translate>
      ) : (
        <Translate id="site.offline.saveAgain">Save all docs for offline reading</Translate>
      )}
    </button>
  );
  const removeButton = (
    <button
      type="button"
      className="button button--sm button--secondary"
      onClick={() => void remove()}
    >
      <Translate id="site.offline.remove">Remove saved docs</Translate>
    </button>
  );

  let message: ReactNode;
  let buttons: ReactNode = null;
  switch (phase.name) {
    case 'confirm':
      message = !phase.list ? (
        <Translate id="site.offline.preparing">Preparing to save the docs…</Translate>
      ) : (
        <Translate
          id="site.offline.confirm"
          values={{
            size: formatBytes(phase.list.bytes ?? 0),
            pages: phase.list.pages.length,
          }}
        >
          {
            'Saving downloads up to {size}: the {pages} pages with their images, code and the search index, kept on this device.'
          }
        </Translate>
      );
      buttons = (
        <>
          <button
            type="button"
            className="button button--sm button--primary"
            disabled={!phase.list}
            onClick={start}
          >
            <Translate id="site.offline.confirmSave">Save for offline reading</Translate>
          </button>
          <button type="button" className="button button--sm button--secondary" onClick={onClose}>
            <Translate id="site.offline.notNow">Not now</Translate>
          </button>
        </>
      );
      break;
    case 'unsupported':
      message = (
        <Translate id="site.offline.unsupported">
          This browser cannot save pages for offline reading.
        </Translate>
      );
      break;
    case 'saving': {
      const {done, total} = phase.progress;
      message =
        total === 0 ? (
          <Translate id="site.offline.preparing">Preparing to save the docs…</Translate>
        ) : (
          <Translate id="site.offline.progress" values={{done, total}}>
            {'{done} of {total} files'}
          </Translate>
        );
      buttons = (
        <button
          type="button"
          className="button button--sm button--secondary"
          onClick={() => controller.current?.abort()}
        >
          <Translate id="site.offline.cancel">Cancel</Translate>
        </button>
      );
      break;
    }
    case 'stopped':
    case 'failed': {
      const {done, total} = phase.progress;
      message =
        phase.name === 'stopped' ? (
          <Translate id="site.offline.stopped" values={{done, total}}>
            {'Stopped: {done} of {total} files saved. Saving again resumes from there.'}
          </Translate>
        ) : (
          <Translate id="site.offline.failed" values={{done, total}}>
            {
              'Some files could not be saved (are you offline?): {done} of {total} saved. Try again to resume.'
            }
          </Translate>
        );
      buttons = (
        <>
          {saveButton}
          {removeButton}
        </>
      );
      break;
    }
    case 'saved':
      message = (
        <Translate
          id="site.offline.saved"
          values={{size: formatBytes(phase.state.bytes), pages: phase.state.pages}}
        >
          {'All docs and search are saved for offline reading: {size} on this device.'}
        </Translate>
      );
      buttons = (
        <>
          {saveButton}
          {removeButton}
        </>
      );
      break;
    case 'removed':
      message = (
        <Translate id="site.offline.removed">
          Saved docs removed. Your browser's settings for this site (Clear site data) remove the
          rest.
        </Translate>
      );
      buttons = saveButton;
      break;
  }

  return (
    <div className={styles.panel} data-offline-phase={phase.name}>
      {/* The live region says when saving starts and ends, not every file. */}
      <p ref={status} tabIndex={-1} role="status">
        {phase.name === 'saving' ? (
          <Translate id="site.offline.savingStatus">Saving the docs for offline reading…</Translate>
        ) : (
          message
        )}
      </p>
      {phase.name === 'saving' && <p>{message}</p>}
      {phase.name === 'saving' && (
        <progress
          value={phase.progress.done}
          max={Math.max(phase.progress.total, 1)}
          aria-label={translate({
            id: 'site.offline.progressLabel',
            message: 'Saving docs for offline reading',
          })}
        />
      )}
      {buttons && <div className={styles.buttons}>{buttons}</div>}
    </div>
  );
}

/**
 * The pages' images are diagrams (about 800 px wide SVGs). On a phone they shrink to some 340 px,
 * where their labels are a few pixels high, so each one is a button that opens it full-screen in
 * a modal dialog: fitted to the screen first, "Zoom in" shows it at twice its size with scrolling
 * (and the phone's own pinch zoom works there). Escape, "Close" or a tap outside the image closes
 * it, and the focus returns to the diagram. In the dark theme the diagrams, drawn light, are
 * inverted with their hues kept (styles.module.css), so they are no longer glaring panels.
 */
import React, {type ComponentProps, type ReactNode, useEffect, useRef, useState} from 'react';
import {translate} from '@docusaurus/Translate';
import Img from '@theme/MDXComponents/Img';
import styles from './styles.module.css';

export default function Diagram(props: ComponentProps<'img'>): ReactNode {
  const [open, setOpen] = useState(false);
  const [zoomed, setZoomed] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    if (open) dialog.current?.showModal();
  }, [open]);

  return (
    <>
      <button
        type="button"
        className={styles.open}
        onClick={() => {
          setZoomed(false);
          setOpen(true);
        }}
      >
        <Img {...props} className={`${props.className ?? ''} ${styles.image}`} />
        <span className="visually-hidden">
          {translate({id: 'site.diagram.enlarge', message: '(open full-screen)'})}
        </span>
      </button>
      {open && (
        <dialog
          ref={dialog}
          className={styles.dialog}
          aria-label={props.alt}
          onClose={() => setOpen(false)}
          onClick={(event) => {
            if (event.target === event.currentTarget) dialog.current?.close();
          }}
        >
          <div className={styles.bar}>
            <button
              type="button"
              className="button button--sm button--secondary"
              aria-pressed={zoomed}
              onClick={() => setZoomed((current) => !current)}
            >
              {translate({id: 'site.diagram.zoom', message: 'Zoom in'})}
            </button>
            <button
              type="button"
              className="button button--sm button--primary"
              onClick={() => dialog.current?.close()}
            >
              {translate({id: 'site.diagram.close', message: 'Close'})}
            </button>
          </div>
          <div className={styles.viewport}>
            <img
              src={props.src}
              alt={props.alt}
              className={`${styles.image} ${zoomed ? styles.zoomed : styles.fitted}`}
            />
          </div>
        </dialog>
      )}
    </>
  );
}

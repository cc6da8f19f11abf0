/**
 * The pages' images are diagrams (about 800 px wide SVGs). On a phone they shrink to some 340 px,
 * where their labels are a few pixels high, so each one is a button that opens it full-screen in
 * a modal dialog: fitted to the screen first, "Zoom in" shows it at twice its size with scrolling
 * (and the phone's own pinch zoom works there). Escape, "Close" or a tap outside the image closes
 * it, and the focus returns to the diagram. In the dark theme the diagrams, drawn light, are
 * inverted with their hues kept (styles.module.css), so they are no longer glaring panels.
 *
 * Markup only: the dialog is built by a delegated listener when the button is pressed
 * (../diagram.ts), so diagrams of a static article, which have no
 * component behind them, open too.
 */
import React, {type ComponentProps, type ReactNode} from 'react';
import {translate} from '@docusaurus/Translate';
import Img from '@theme/MDXComponents/Img';
import styles from './styles.module.css';

export default function Diagram(props: ComponentProps<'img'>): ReactNode {
  return (
    <button type="button" className={styles.open} data-diagram="">
      <Img {...props} className={`${props.className ?? ''} ${styles.image}`} />
      <span className="visually-hidden">
        {translate({id: 'site.diagram.enlarge', message: '(open full-screen)'})}
      </span>
    </button>
  );
}

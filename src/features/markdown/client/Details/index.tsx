/**
 * `<details>` in a page: the browser's own element, styled like a callout, instead of Docusaurus'
 * `Details` component. That one renders its content hidden with an inline `display: none` and
 * opens it in a React click handler, so in a static article (src/features/static-article), where
 * no React runs inside the article, it would never open. The native element opens and closes with
 * the pointer and the keyboard (Enter or Space on its `<summary>`) with no script at all, the same
 * on a first load and after a client-side navigation.
 */
import React, {type ComponentProps, type ReactNode} from 'react';
import clsx from 'clsx';
import styles from './styles.module.css';

export default function Details({className, ...props}: ComponentProps<'details'>): ReactNode {
  return <details {...props} className={clsx('alert', 'alert--info', styles.details, className)} />;
}

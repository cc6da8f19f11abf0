/**
 * The copy and word-wrap buttons of a code block (`@theme/CodeBlock/Buttons`, src/theme), as
 * markup only, rendered by the server too: Docusaurus renders its buttons in the browser only,
 * as React components with state, so a block of a static article would have none. What they do
 * is ./codeButtons.ts, for every block of the page whether React rendered it or not.
 *
 * The same buttons, labels and classes as Docusaurus' (its CSS modules), so they look and read
 * the same; the icons are CSS masks (./codeButtons.module.css) rather than inline SVG, which
 * keeps them to a few hundred bytes of HTML per block. The word-wrap button starts `hidden` and
 * shows on blocks whose code is wider than the block, as Docusaurus' does.
 */
import React, {type ReactNode} from 'react';
import clsx from 'clsx';
import {translate} from '@docusaurus/Translate';
import type {Props} from '@theme/CodeBlock/Buttons';
import groupStyles from '@docusaurus/theme-classic/lib/theme/CodeBlock/Buttons/styles.module.css';
import copyStyles from '@docusaurus/theme-classic/lib/theme/CodeBlock/Buttons/CopyButton/styles.module.css';
import wrapStyles from '@docusaurus/theme-classic/lib/theme/CodeBlock/Buttons/WordWrapButton/styles.module.css';
import icons from './codeButtons.module.css';

/** Class names ./codeButtons.ts switches, from the same modules. */
export const codeButtonClasses = {
  copied: copyStyles.copyButtonCopied,
  wrapEnabled: wrapStyles.wordWrapButtonEnabled,
};

export default function CodeButtons({className}: Props): ReactNode {
  const wrapLabel = translate({
    id: 'theme.CodeBlock.wordWrapToggle',
    message: 'Toggle word wrap',
    description: 'The title attribute for toggle word wrapping button of code block lines',
  });
  return (
    <div className={clsx(className, groupStyles.buttonGroup)}>
      <button
        type="button"
        className={clsx('clean-btn', icons.wrapButton)}
        aria-label={wrapLabel}
        title={wrapLabel}
        data-code-wrap=""
        hidden
      >
        <span className={clsx(wrapStyles.wordWrapButtonIcon, icons.wrap)} aria-hidden="true" />
      </button>
      <button
        type="button"
        className={clsx('clean-btn', copyStyles.copyButton)}
        aria-label={translate({
          id: 'theme.CodeBlock.copyButtonAriaLabel',
          message: 'Copy code to clipboard',
          description: 'The ARIA label for copy code blocks button',
        })}
        title={translate({
          id: 'theme.CodeBlock.copy',
          message: 'Copy',
          description: 'The copy button label on code blocks',
        })}
        data-code-copy=""
      >
        <span className={copyStyles.copyButtonIcons} aria-hidden="true">
          <span className={clsx(copyStyles.copyButtonIcon, icons.copy)} />
          <span className={clsx(copyStyles.copyButtonSuccessIcon, icons.success)} />
        </span>
      </button>
    </div>
  );
}

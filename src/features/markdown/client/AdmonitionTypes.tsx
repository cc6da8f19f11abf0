/**
 * Admonition kinds: the stock ones plus `hint`. Every kind is announced to
 * screen readers even when the writer gives a custom `[Label]` title.
 */
import React, {type ComponentType, type ReactNode} from 'react';
import clsx from 'clsx';
import Translate from '@docusaurus/Translate';
import DefaultAdmonitionTypes from '@theme-original/Admonition/Types';
import AdmonitionLayout from '@theme/Admonition/Layout';
import IconTip from '@theme/Admonition/Icon/Tip';
import type {Props} from '@theme/Admonition';

type AdmonitionComponent = ComponentType<Props>;

function HintAdmonition(props: Props): ReactNode {
  return (
    <AdmonitionLayout
      icon={<IconTip />}
      title={
        <Translate id="site.admonition.hint" description="The default label of :::hint">
          hint
        </Translate>
      }
      {...props}
      className={clsx('alert alert--success', props.className)}
    >
      {props.children}
    </AdmonitionLayout>
  );
}

/** Prefixes a custom title with the kind, for screen readers only. */
function announceKind(kind: string, Type: AdmonitionComponent): AdmonitionComponent {
  function AnnouncedAdmonition(props: Props): ReactNode {
    if (props.title === undefined) {
      return <Type {...props} />;
    }
    return (
      <Type
        {...props}
        title={
          <>
            <span className="visually-hidden">{`${kind}: `}</span>
            {props.title}
          </>
        }
      />
    );
  }
  return AnnouncedAdmonition;
}

const AdmonitionTypes: Record<string, AdmonitionComponent> = {
  ...DefaultAdmonitionTypes,
  info: announceKind('Info', DefaultAdmonitionTypes.info),
  warning: announceKind('Warning', DefaultAdmonitionTypes.warning),
  hint: announceKind('Hint', HintAdmonition),
};

export default AdmonitionTypes;

/**
 * Admonition kinds: the theme's own (it renders some itself, such as the unlisted page's
 * `caution` banner) and the site's callout kinds (../callouts.ts), `hint` added. Each callout
 * kind is announced to screen readers by its word even when the writer gives a custom `[Label]`
 * title.
 */
import React, {type ComponentType, type ReactNode} from 'react';
import clsx from 'clsx';
import Translate from '@docusaurus/Translate';
import DefaultAdmonitionTypes from '@theme-original/Admonition/Types';
import AdmonitionLayout from '@theme/Admonition/Layout';
import IconTip from '@theme/Admonition/Icon/Tip';
import type {Props} from '@theme/Admonition';
import {calloutKinds, type CalloutKind} from '../callouts';

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

/** The component of each callout kind before its announcement: the theme's, or ours for `hint`. */
const kindComponents: Record<CalloutKind, AdmonitionComponent> = {
  info: DefaultAdmonitionTypes.info,
  warning: DefaultAdmonitionTypes.warning,
  hint: HintAdmonition,
};

const AdmonitionTypes: Record<string, AdmonitionComponent> = {
  ...DefaultAdmonitionTypes,
  ...Object.fromEntries(
    (Object.keys(calloutKinds) as CalloutKind[]).map((kind) => [
      kind,
      announceKind(calloutKinds[kind], kindComponents[kind]),
    ]),
  ),
};

export default AdmonitionTypes;

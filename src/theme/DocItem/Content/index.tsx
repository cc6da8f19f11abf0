/** Every content page: the ad slot first (it takes no space until an ad arrives), then the page. */
import React, {type ReactNode} from 'react';
import Content from '@theme-original/DocItem/Content';
import type ContentType from '@theme/DocItem/Content';
import type {WrapperProps} from '@docusaurus/types';
import AdSlot from '@site/src/components/AdSlot';

type Props = WrapperProps<typeof ContentType>;

export default function ContentWrapper(props: Props): ReactNode {
  return (
    <>
      <AdSlot />
      <Content {...props} />
    </>
  );
}

/**
 * Below every content page: the stock footer (suggest edits), then the
 * sponsors block and the newsletter box.
 */
import React, {type ReactNode} from 'react';
import Footer from '@theme-original/DocItem/Footer';
import type FooterType from '@theme/DocItem/Footer';
import type {WrapperProps} from '@docusaurus/types';
import Newsletter from '@site/src/features/promotions/client/Newsletter';
import Sponsors from '@site/src/features/promotions/client/Sponsors';

type Props = WrapperProps<typeof FooterType>;

export default function FooterWrapper(props: Props): ReactNode {
  return (
    <>
      <Footer {...props} />
      <Sponsors />
      <Newsletter />
    </>
  );
}

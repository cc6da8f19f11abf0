/** The docs menu's desktop column, not hydrated at a phone's width (./DesktopPart.tsx). */
import React, {type ReactNode} from 'react';
import Original from '@theme-original/DocSidebar/Desktop';
import type OriginalType from '@theme/DocSidebar/Desktop';
import type {WrapperProps} from '@docusaurus/types';
import DesktopPart from './DesktopPart';

export default function DocSidebarDesktop(props: WrapperProps<typeof OriginalType>): ReactNode {
  return (
    <DesktopPart name="desktop-menu">
      <Original {...props} />
    </DesktopPart>
  );
}

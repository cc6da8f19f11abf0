/** The table of contents' desktop column, not hydrated at a phone's width (./DesktopPart.tsx). */
import React, {type ReactNode} from 'react';
import Original from '@theme-original/DocItem/TOC/Desktop';
import DesktopPart from './DesktopPart';

export default function DocItemTOCDesktop(): ReactNode {
  return (
    <DesktopPart name="desktop-toc">
      <Original />
    </DesktopPart>
  );
}

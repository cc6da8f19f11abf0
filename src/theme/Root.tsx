/** Site-wide providers, and the head tags every page shares. */
import React, {type ReactNode} from 'react';
import {SidebarStateProvider} from '@site/src/components/SidebarState';
import FontPreload from '@site/src/components/FontPreload';

export default function Root({children}: {children: ReactNode}): ReactNode {
  return (
    <SidebarStateProvider>
      <FontPreload />
      {children}
    </SidebarStateProvider>
  );
}

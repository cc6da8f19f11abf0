/** Site-wide providers, and the head tags every page shares. */
import React, {type ReactNode} from 'react';
import {SidebarStateProvider} from '@site/src/features/shell/client/SidebarState';
import {SansFontPreload} from '@site/src/features/fonts/client/FontPreload';

export default function Root({children}: {children: ReactNode}): ReactNode {
  return (
    <SidebarStateProvider>
      <SansFontPreload />
      {children}
    </SidebarStateProvider>
  );
}

/** Site-wide providers. */
import React, {type ReactNode} from 'react';
import {SidebarStateProvider} from '@site/src/components/SidebarState';

export default function Root({children}: {children: ReactNode}): ReactNode {
  return <SidebarStateProvider>{children}</SidebarStateProvider>;
}

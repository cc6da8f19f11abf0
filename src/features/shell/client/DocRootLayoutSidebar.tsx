/** Wraps the docs sidebar: the header toggle hides it on desktop. */
import React, {type ReactNode} from 'react';
import Sidebar from '@theme-original/DocRoot/Layout/Sidebar';
import type SidebarType from '@theme/DocRoot/Layout/Sidebar';
import type {WrapperProps} from '@docusaurus/types';
import {useSidebarState} from '@site/src/features/shell/client/SidebarState';

type Props = WrapperProps<typeof SidebarType>;

export default function SidebarWrapper(props: Props): ReactNode {
  const {isOpen} = useSidebarState();
  return isOpen ? <Sidebar {...props} /> : null;
}

/** Wraps the docs main column: it widens while the sidebar is hidden. */
import React, {type ReactNode} from 'react';
import Main from '@theme-original/DocRoot/Layout/Main';
import type MainType from '@theme/DocRoot/Layout/Main';
import type {WrapperProps} from '@docusaurus/types';
import {useSidebarState} from '@site/src/features/shell/client/SidebarState';

type Props = WrapperProps<typeof MainType>;

export default function MainWrapper(props: Props): ReactNode {
  const {isOpen} = useSidebarState();
  return <Main {...props} hiddenSidebarContainer={props.hiddenSidebarContainer || !isOpen} />;
}

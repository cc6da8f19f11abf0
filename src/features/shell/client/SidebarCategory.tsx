/**
 * Menu groups open by route: on every navigation to another section, the
 * group holding the current page opens and every other group (Overview
 * included) closes. On `/` the Overview group is open. Within a section the
 * reader's own toggling is kept.
 */
import React, {type ReactNode} from 'react';
import {useLocation} from '@docusaurus/router';
import {isActiveSidebarItem} from '@docusaurus/plugin-content-docs/client';
import Category from '@theme-original/DocSidebarItem/Category';
import type CategoryType from '@theme/DocSidebarItem/Category';
import type {WrapperProps} from '@docusaurus/types';

type Props = WrapperProps<typeof CategoryType>;

export default function CategoryWrapper(props: Props): ReactNode {
  const {pathname} = useLocation();
  const section = pathname.split('/')[1] ?? '';
  const open =
    isActiveSidebarItem(props.item, pathname) ||
    (section === '' && props.item.label === 'Overview');
  // Keyed by section so the open state is recomputed when the reader moves to another section.
  return <Category key={section} {...props} item={{...props.item, collapsed: !open}} />;
}

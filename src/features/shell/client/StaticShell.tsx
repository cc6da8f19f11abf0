/**
 * The shell's parts that the first load does not hydrate: markup only, adopted from the server's
 * page by `StaticPart` (src/features/static-article/client/StaticPart.tsx), and rendered by React
 * once the reader goes to another page. Each is the stock component inside a part:
 * - the header's logo (`Navbar/Logo`),
 * - the header's plain links ("Our website", "Courses", "Sponsor us", "Enterprise support":
 *   navbar items of the `default` type, wrapped in ./NavbarItemTypes.tsx) and social icons,
 * - the breadcrumbs (`DocBreadcrumbs`) and the previous/next links (`DocItem/Paginator`).
 * The panels of "More" (./MoreMenu) and of the version menu (src/features/versions), the version
 * note and the sponsors are static parts where they are rendered.
 */
import React, {type ComponentProps, type ReactNode} from 'react';
import OriginalNavbarLogo from '@theme-original/Navbar/Logo';
import OriginalDocBreadcrumbs from '@theme-original/DocBreadcrumbs';
import OriginalPaginator from '@theme-original/DocItem/Paginator';
import DefaultNavbarItem from '@theme/NavbarItem/DefaultNavbarItem';
import StaticPart from '@site/src/features/static-article/client/StaticPart';
import SocialLinks from './SocialLinks';

export function NavbarLogo(): ReactNode {
  return (
    <StaticPart name="navbar-logo">
      <OriginalNavbarLogo />
    </StaticPart>
  );
}

export function DocBreadcrumbs(): ReactNode {
  return (
    <StaticPart name="breadcrumbs">
      <OriginalDocBreadcrumbs />
    </StaticPart>
  );
}

export function DocItemPaginator(): ReactNode {
  return (
    <StaticPart name="paginator">
      <OriginalPaginator />
    </StaticPart>
  );
}

type NavbarItemProps = ComponentProps<typeof DefaultNavbarItem>;

/** A plain header link; in the phone menu's drawer (rendered by React anyway) as it is. */
export function StaticNavbarItem(props: NavbarItemProps): ReactNode {
  if (props.mobile) return <DefaultNavbarItem {...props} />;
  return (
    <StaticPart name={`navbar-item-${props.label ?? props.href ?? props.to ?? ''}`}>
      <DefaultNavbarItem {...props} />
    </StaticPart>
  );
}

/** The header's social icons; in the drawer as they are. */
export function StaticSocialLinks({mobile}: {mobile?: boolean}): ReactNode {
  if (mobile) return <SocialLinks mobile />;
  return (
    <StaticPart name="navbar-social">
      <SocialLinks />
    </StaticPart>
  );
}

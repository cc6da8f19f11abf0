/**
 * Navbar item types: the stock ones plus the site's sidebar toggle, version menu, social icons
 * and More menu.
 */
import ComponentTypes from '@theme-original/NavbarItem/ComponentTypes';
import SidebarToggle from '@site/src/features/shell/client/SidebarToggle';
import {StaticNavbarItem, StaticSocialLinks} from '@site/src/features/shell/client/StaticShell';
import MoreMenu from '@site/src/features/shell/client/MoreMenu';
import VersionMenu from '@site/src/features/versions/client/VersionMenu';

export default {
  ...ComponentTypes,
  // Plain links: static parts, adopted from the server's page on a first load (./StaticShell).
  default: StaticNavbarItem,
  'custom-sidebarToggle': SidebarToggle,
  'custom-socialLinks': StaticSocialLinks,
  'custom-moreMenu': MoreMenu,
  'custom-versionMenu': VersionMenu,
};

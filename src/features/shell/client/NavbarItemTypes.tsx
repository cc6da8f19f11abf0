/**
 * Navbar item types: the stock ones plus the site's sidebar toggle, version menu, social icons
 * and More menu.
 */
import ComponentTypes from '@theme-original/NavbarItem/ComponentTypes';
import SidebarToggle from '@site/src/features/shell/client/SidebarToggle';
import SocialLinks from '@site/src/features/shell/client/SocialLinks';
import MoreMenu from '@site/src/features/shell/client/MoreMenu';
import VersionMenu from '@site/src/features/versions/client/VersionMenu';

export default {
  ...ComponentTypes,
  'custom-sidebarToggle': SidebarToggle,
  'custom-socialLinks': SocialLinks,
  'custom-moreMenu': MoreMenu,
  'custom-versionMenu': VersionMenu,
};

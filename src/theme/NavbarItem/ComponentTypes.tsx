/** Navbar item types: the stock ones plus the site's sidebar toggle and social icons. */
import ComponentTypes from '@theme-original/NavbarItem/ComponentTypes';
import SidebarToggle from '@site/src/components/SidebarToggle';
import SocialLinks from '@site/src/components/SocialLinks';

export default {
  ...ComponentTypes,
  'custom-sidebarToggle': SidebarToggle,
  'custom-socialLinks': SocialLinks,
};

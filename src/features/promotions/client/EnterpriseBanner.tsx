/** `<EnterpriseBanner />`: the official enterprise support offer, linking to links.enterprise. */
import React, {type ReactNode} from 'react';
import Translate, {translate} from '@docusaurus/Translate';
import Heading from '@theme/Heading';
import PromoBanner, {promoStyles} from '@site/src/features/promotions/client/PromoBanner';
import {links} from '@site/src/data/links';

function Icon(): ReactNode {
  // A shield with a check mark.
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8">
      <path d="M12 3 4.5 6v5.5c0 4.6 3.2 8.3 7.5 9.5 4.3-1.2 7.5-4.9 7.5-9.5V6L12 3Z" />
      <path d="m8.5 12 2.5 2.5 4.5-5" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

export default function EnterpriseBanner(): ReactNode {
  return (
    <PromoBanner
      tone="enterprise"
      icon={<Icon />}
      label={translate({id: 'site.banner.enterprise.label', message: 'Enterprise support'})}
      href={links.enterprise}
      action={<Translate id="site.banner.enterprise.action">Explore more</Translate>}
    >
      <Heading as="h2" className={promoStyles.title}>
        <Translate id="site.banner.enterprise.title">Official enterprise support</Translate>
      </Heading>
      <ul className={promoStyles.list}>
        <li>
          <Translate id="site.banner.enterprise.guidance">Providing technical guidance</Translate>
        </li>
        <li>
          <Translate id="site.banner.enterprise.reviews">
            Performing in-depth code reviews
          </Translate>
        </li>
        <li>
          <Translate id="site.banner.enterprise.mentoring">Mentoring team members</Translate>
        </li>
        <li>
          <Translate id="site.banner.enterprise.practices">Advising best practices</Translate>
        </li>
      </ul>
    </PromoBanner>
  );
}

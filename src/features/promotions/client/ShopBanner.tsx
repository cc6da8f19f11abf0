/** `<ShopBanner />`: the official merchandise store, linking to links.shop. */
import React, {type ReactNode} from 'react';
import Translate, {translate} from '@docusaurus/Translate';
import PromoBanner, {promoStyles} from '@site/src/features/promotions/client/PromoBanner';
import {links} from '@site/src/data/links';

function Icon(): ReactNode {
  // A T-shirt.
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8">
      <path
        d="M9 3.5 4 5.5 2.5 10l3 1.2V20.5h13v-9.3l3-1.2L20 5.5l-5-2c-.4 1.3-1.6 2.2-3 2.2S9.4 4.8 9 3.5Z"
        strokeLinejoin="round"
      />
    </svg>
  );
}

export default function ShopBanner(): ReactNode {
  return (
    <PromoBanner
      tone="shop"
      icon={<Icon />}
      label={translate({id: 'site.banner.shop.label', message: 'Official store'})}
      href={links.shop}
      action={<Translate id="site.banner.shop.action">See more</Translate>}
    >
      <p className={promoStyles.text}>
        <strong>
          <Translate id="site.banner.shop.title">
            Support our future development by shopping in the official store!
          </Translate>
        </strong>{' '}
        <Translate id="site.banner.shop.text">
          Hoodies, T-shirts and accessories: wear Nest and help keep it independent.
        </Translate>
      </p>
    </PromoBanner>
  );
}

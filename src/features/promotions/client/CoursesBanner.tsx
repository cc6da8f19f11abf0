/** `<CoursesBanner />`: the official video courses, linking to links.courses. */
import React, {type ReactNode} from 'react';
import Translate, {translate} from '@docusaurus/Translate';
import PromoBanner, {promoStyles} from '@site/src/features/promotions/client/PromoBanner';
import {links} from '@site/src/data/links';

function Icon(): ReactNode {
  // A play button in a screen.
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8">
      <rect x="2.5" y="4" width="19" height="13.5" rx="2" />
      <path d="m10 8 4.5 2.75L10 13.5V8Z" fill="currentColor" strokeLinejoin="round" />
      <path d="M8 21h8" strokeLinecap="round" />
    </svg>
  );
}

export default function CoursesBanner(): ReactNode {
  return (
    <PromoBanner
      tone="courses"
      icon={<Icon />}
      label={translate({id: 'site.banner.courses.label', message: 'Official courses'})}
      href={links.courses}
      action={<Translate id="site.banner.courses.action">Explore courses</Translate>}
    >
      <p className={promoStyles.text}>
        <strong>
          <Translate id="site.banner.courses.title">Learn Nest from its creators.</Translate>
        </strong>{' '}
        <Translate id="site.banner.courses.text">
          The official courses: 80+ chapters and 5+ hours of video, from the fundamentals to
          production-ready applications.
        </Translate>
      </p>
    </PromoBanner>
  );
}

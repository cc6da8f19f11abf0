/**
 * The "Who is using Nest?" page's logo wall and plain list of links, both read
 * from src/features/promotions/companies.ts (in its order).
 */
import React, {type ReactNode} from 'react';
import Link from '@docusaurus/Link';
import useBaseUrl from '@docusaurus/useBaseUrl';
import {
  companiesWithLogos,
  companiesWithoutLogos,
  logoPath,
  logoSize,
  type Company,
} from '@site/src/features/promotions/companies';
import styles from './styles.module.css';

/** Logos are shown at 150 x 50 (180 x 60 on narrow screens, via CSS). */
const shownWidth = 150;
const shownHeight = Math.round((shownWidth * logoSize.height) / logoSize.width);

function LogoTile({company}: {company: Company}): ReactNode {
  const src = useBaseUrl(logoPath(company));
  return (
    <li className={styles.item}>
      <Link className={styles.tile} href={company.url}>
        <img
          className={styles.logo}
          src={src}
          alt={company.name}
          width={shownWidth}
          height={shownHeight}
          loading="lazy"
          decoding="async"
        />
      </Link>
    </li>
  );
}

export function CompanyLogos(): ReactNode {
  return (
    <ul className={styles.wall} data-company-logos="">
      {companiesWithLogos.map((company) => (
        <LogoTile key={company.name} company={company} />
      ))}
    </ul>
  );
}

export function CompanyList(): ReactNode {
  return (
    <ul className={styles.list} data-company-list="">
      {companiesWithoutLogos.map((company) => (
        <li key={company.name}>
          <Link href={company.url}>{company.name}</Link>
        </li>
      ))}
    </ul>
  );
}

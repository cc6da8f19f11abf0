/**
 * The ad slot at the top of every content page. It renders an empty box
 * that takes no space; the ad script (links.adsScript) is added once the
 * page is interactive and fills it if an ad arrives. `customFields.adsEnabled`
 * (env `ADS=off` at build time) turns it off entirely.
 */
import React, {useEffect, useRef, type ReactNode} from 'react';
import {useLocation} from '@docusaurus/router';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import {links} from '@site/src/data/links';
import {loadAd} from './loadAd';
import styles from './styles.module.css';

export default function AdSlot(): ReactNode {
  const enabled = useDocusaurusContext().siteConfig.customFields?.adsEnabled !== false;
  const {pathname} = useLocation();
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const container = ref.current;
    if (!enabled || !container) {
      return undefined;
    }
    // One ad per page view: a client-side navigation empties the slot and loads anew.
    return loadAd(container, links.adsScript);
  }, [enabled, pathname]);

  if (!enabled) {
    return null;
  }
  return <div ref={ref} className={styles.slot} data-ad-slot="" />;
}

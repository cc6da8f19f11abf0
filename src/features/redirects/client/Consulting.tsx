/**
 * `/consulting` leaves for the external enterprise site. The URL is read from
 * one place, `customFields.enterpriseUrl` in the site config.
 */
import React, {useEffect, type ReactNode} from 'react';
import Head from '@docusaurus/Head';
import Link from '@docusaurus/Link';
import Layout from '@theme/Layout';
import Heading from '@theme/Heading';
import Translate from '@docusaurus/Translate';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';

function useEnterpriseUrl(): string {
  const {siteConfig} = useDocusaurusContext();
  const url = siteConfig.customFields?.enterpriseUrl;
  if (typeof url !== 'string') {
    throw new Error('customFields.enterpriseUrl must be set in docusaurus.config.ts');
  }
  return url;
}

export default function Consulting(): ReactNode {
  const url = useEnterpriseUrl();
  useEffect(() => {
    window.location.replace(url);
  }, [url]);
  return (
    <Layout
      title="Enterprise consulting"
      description="Official enterprise consulting and support for NestJS."
    >
      <Head>
        <meta httpEquiv="refresh" content={`0; url=${url}`} />
      </Head>
      <main className="container margin-vert--xl">
        <Heading as="h1">
          <Translate id="site.consulting.title">Official enterprise support</Translate>
        </Heading>
        <p>
          <Translate id="site.consulting.leaving" values={{link: <Link href={url}>{url}</Link>}}>
            {'Taking you to {link}.'}
          </Translate>
        </p>
      </main>
    </Layout>
  );
}

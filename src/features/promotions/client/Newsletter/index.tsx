/**
 * The newsletter box under every content page: one email field and a
 * button. States (see ./state.ts): idle -> submitting (field and button
 * disabled) -> added (the button shows a check mark and stays disabled).
 */
import React, {useState, useSyncExternalStore, type ReactNode} from 'react';
import clsx from 'clsx';
import Translate, {translate} from '@docusaurus/Translate';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import {subscribeToNewsletter, type NewsletterEndpoint} from './client';
import {createNewsletterStore} from './state';
import styles from './styles.module.css';

function useEndpoint(): NewsletterEndpoint {
  const {customFields} = useDocusaurusContext().siteConfig;
  const host = customFields?.newsletterHost;
  const token = customFields?.newsletterToken;
  return {
    host: typeof host === 'string' ? host : '',
    token: typeof token === 'string' ? token : '',
  };
}

// One newsletter box per page: fixed ids give the heading a readable anchor.
const headingId = 'newsletter-heading';
const inputId = 'newsletter-email';

function CheckMark(): ReactNode {
  return (
    <svg className={styles.check} viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
      <path
        d="M5 12.5l4.5 4.5L19 7.5"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.5"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

export default function Newsletter(): ReactNode {
  const endpoint = useEndpoint();
  const [store] = useState(() =>
    createNewsletterStore((email) => subscribeToNewsletter(email, endpoint)),
  );
  const {status, email} = useSyncExternalStore(store.subscribe, store.getState, store.getState);
  const busy = status !== 'idle';

  return (
    <aside className={styles.newsletter} aria-labelledby={headingId} data-status={status}>
      <div className={styles.intro}>
        {/* A plain heading, not the theme's Heading: no "Direct link" anchor, and no `anchor` class,
            which is what the table of contents' highlight follows (only the article's headings
            count there). */}
        {/* eslint-disable-next-line @docusaurus/prefer-docusaurus-heading */}
        <h2 id={headingId} className={styles.title}>
          <Translate id="site.newsletter.title">Join our newsletter</Translate>
        </h2>
        <p className={styles.text}>
          <Translate id="site.newsletter.text">
            Subscribe to stay up to date with the latest Nest updates, features, and videos!
          </Translate>
        </p>
      </div>
      <form
        className={styles.form}
        onSubmit={(event) => {
          event.preventDefault();
          void store.submit();
        }}
      >
        <label htmlFor={inputId} className="visually-hidden">
          <Translate id="site.newsletter.label">Email address</Translate>
        </label>
        <input
          id={inputId}
          className={styles.input}
          type="email"
          name="email"
          required
          autoComplete="email"
          placeholder={translate({id: 'site.newsletter.placeholder', message: 'Email address..'})}
          value={email}
          onChange={(event) => store.edit(event.target.value)}
          disabled={busy}
        />
        <button
          type="submit"
          className={clsx(styles.button, status === 'added' && styles.added)}
          disabled={busy}
        >
          {status === 'added' ? (
            <>
              <CheckMark />
              <span className="visually-hidden">
                <Translate id="site.newsletter.added">Subscribed</Translate>
              </span>
            </>
          ) : status === 'submitting' ? (
            <Translate id="site.newsletter.submitting">Subscribing…</Translate>
          ) : (
            <Translate id="site.newsletter.submit">Subscribe</Translate>
          )}
        </button>
        <p className="visually-hidden" role="status">
          {status === 'added' ? (
            <Translate id="site.newsletter.thanks">Thank you for subscribing!</Translate>
          ) : null}
        </p>
      </form>
    </aside>
  );
}

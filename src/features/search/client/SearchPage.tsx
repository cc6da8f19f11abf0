/**
 * `/search?q=…&section=…`: every page that matches, best first, with its best sections and a
 * filter by menu group. The address is the state, so a search can be shared or bookmarked;
 * typing updates it without adding history entries. The results need JavaScript (the search runs
 * in the browser); without it the form still shows and submits.
 */
import React, {type ReactNode, useEffect, useState} from 'react';
import Heading from '@theme/Heading';
import Head from '@docusaurus/Head';
import Layout from '@theme/Layout';
import Link from '@docusaurus/Link';
import {useHistory, useLocation} from '@docusaurus/router';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import useIsBrowser from '@docusaurus/useIsBrowser';
import {translate} from '@docusaurus/Translate';
import type {SearchOutcome} from './engine';
import {searchPageUrl, type PageResult} from './results';
import styles from './SearchPage.module.css';

const pageSize = 20;

type Result =
  | {key: string; status: 'error'}
  | {key: string; status: 'done'; query: string; outcome: SearchOutcome<PageResult>};

type State = {status: 'idle'} | {status: 'loading'} | Result;

/**
 * The query and section from the address. The page is built without them, so the first render in
 * the browser (hydration) uses none either, and the address is read once hydrated: otherwise the
 * title and form would differ from the server's HTML.
 */
function useSearchParams(): {query: string; section: string} {
  const {search} = useLocation();
  const isBrowser = useIsBrowser();
  const params = new URLSearchParams(isBrowser ? search : '');
  return {query: params.get('q') ?? '', section: params.get('section') ?? ''};
}

export default function SearchPage(): ReactNode {
  const {
    siteConfig: {baseUrl},
  } = useDocusaurusContext();
  const history = useHistory();
  const {query, section} = useSearchParams();
  const [text, setText] = useState(query);
  const [limit, setLimit] = useState(pageSize);
  const [shownFor, setShownFor] = useState(`${query}\n${section}`);
  const [result, setResult] = useState<Result | null>(null);

  // The address changed (typing here, the header box, back/forward): follow it, from the
  // first page of results.
  const current = `${query}\n${section}`;
  if (current !== shownFor) {
    setShownFor(current);
    setLimit(pageSize);
    if (text.trim() !== query.trim()) setText(query);
  }

  const key = `${current}\n${limit}`;
  useEffect(() => {
    if (!query.trim()) return undefined;
    let stale = false;
    import('./engine')
      .then((engine) => engine.searchPages(baseUrl, query, {limit, ...(section && {section})}))
      .then(
        (outcome) => {
          if (!stale) setResult({key, status: 'done', query, outcome});
        },
        () => {
          if (!stale) setResult({key, status: 'error'});
        },
      );
    return () => {
      stale = true;
    };
  }, [baseUrl, query, section, limit, key]);

  let state: State = {status: 'idle'};
  if (query.trim()) {
    if (result?.key === key) state = result;
    // While the next results load, the previous ones stay.
    else if (result?.status === 'done') state = result;
    else state = {status: 'loading'};
  }

  const navigate = (nextQuery: string, nextSection: string) => {
    history.replace(searchPageUrl(baseUrl, nextQuery, nextSection || undefined));
  };

  const title = query.trim()
    ? translate({id: 'site.search.pageTitle', message: 'Search results for “{query}”'}, {query})
    : translate({id: 'site.search.pageTitleEmpty', message: 'Search the documentation'});

  const done = state.status === 'done' ? state : null;
  const sections = done
    ? Object.entries(done.outcome.sections).sort(([a], [b]) => a.localeCompare(b))
    : [];
  const allCount = sections.reduce((sum, [, count]) => sum + count, 0);

  return (
    <Layout title={title} description="Search the NestJS documentation.">
      <Head>
        <meta name="robots" content="noindex, follow" />
      </Head>
      <main className="container margin-vert--lg">
        <div className={styles.page}>
          <Heading as="h1">{title}</Heading>
          <form
            role="search"
            className={styles.form}
            action={`${baseUrl}search`}
            method="get"
            onSubmit={(event) => {
              event.preventDefault();
              navigate(text, section);
            }}
          >
            <label className={styles.label} htmlFor="search-page-query">
              {translate({id: 'site.search.pageLabel', message: 'Search the documentation'})}
            </label>
            <div className={styles.controls}>
              <input
                id="search-page-query"
                className={styles.input}
                type="search"
                name="q"
                value={text}
                autoComplete="off"
                spellCheck={false}
                onChange={(event) => {
                  setText(event.target.value);
                  navigate(event.target.value, section);
                }}
              />
              <label className={styles.label} htmlFor="search-page-section">
                {translate({id: 'site.search.sectionLabel', message: 'Section'})}
              </label>
              <select
                id="search-page-section"
                className={styles.select}
                name="section"
                value={section}
                onChange={(event) => navigate(text, event.target.value)}
              >
                <option value="">
                  {translate({id: 'site.search.allSections', message: 'All sections'})}
                  {done ? ` (${allCount})` : ''}
                </option>
                {sections.map(([name, count]) => (
                  <option key={name} value={name}>
                    {name} ({count})
                  </option>
                ))}
                {section && !sections.some(([name]) => name === section) && (
                  <option value={section}>{section}</option>
                )}
              </select>
            </div>
          </form>

          <div role="status" className={styles.summary}>
            {state.status === 'loading' &&
              translate({id: 'site.search.loading', message: 'Searching…'})}
            {state.status === 'error' &&
              translate({
                id: 'site.search.unavailable',
                message: 'Search is unavailable right now. Check your connection and try again.',
              })}
            {done &&
              (done.outcome.total === 0
                ? translate(
                    {id: 'site.search.noResults', message: 'No results for “{query}”.'},
                    {query: done.query},
                  )
                : done.outcome.total === 1
                  ? translate({id: 'site.search.foundOne', message: '1 page found'})
                  : translate(
                      {id: 'site.search.found', message: '{count} pages found'},
                      {count: String(done.outcome.total)},
                    ))}
          </div>

          {done && done.outcome.total === 0 && done.query.trim() !== '' && (
            <p className={styles.hint}>
              {translate({
                id: 'site.search.noResultsHint',
                message: 'Check the spelling, or try fewer or other words.',
              })}{' '}
              <Link to={`${baseUrl}introduction`}>
                {translate({
                  id: 'site.search.browseSections',
                  message: 'Browse the sections of the documentation',
                })}
              </Link>
            </p>
          )}

          {done && done.outcome.items.length > 0 && (
            <ol className={styles.results}>
              {done.outcome.items.map((result) => (
                <li key={result.url} className={styles.result}>
                  <span className={styles.section}>{result.section}</span>
                  <Heading as="h2" className={styles.resultTitle}>
                    <Link to={result.url}>{result.title}</Link>
                  </Heading>
                  {result.excerpt && (
                    <p
                      className={styles.excerpt}
                      // Pagefind's excerpt: escaped page text with <mark> around the matched words.
                      dangerouslySetInnerHTML={{__html: result.excerpt}}
                    />
                  )}
                  {result.parts.length > 0 && (
                    <ul className={styles.parts}>
                      {result.parts.map((part) => (
                        <li key={part.url}>
                          <Link to={part.url}>{part.heading}</Link>
                          <span
                            className={styles.excerpt}
                            dangerouslySetInnerHTML={{__html: part.excerpt}}
                          />
                        </li>
                      ))}
                    </ul>
                  )}
                </li>
              ))}
            </ol>
          )}
          {done && done.outcome.total > done.outcome.items.length && (
            <button
              type="button"
              className="button button--secondary"
              onClick={() => setLimit((current) => current + pageSize)}
            >
              {translate({id: 'site.search.more', message: 'Show more results'})}
            </button>
          )}
        </div>
      </main>
    </Layout>
  );
}

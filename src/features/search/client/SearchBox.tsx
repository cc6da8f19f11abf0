/**
 * The header search box: a combobox with a list of suggestions (WAI-ARIA combobox pattern).
 *
 * Only this small component is in the page bundle. The search (Pagefind and its index, see
 * ./engine.ts) is fetched when the reader turns to the box: focus, the pointer over it, a touch,
 * or Ctrl+K / ⌘K. Each suggestion shows the page, the section heading of its best match and an
 * excerpt with the matched words marked; the page opened from one highlights those words
 * (./highlight.ts). The last option leads to the full list on /search.
 */
import React, {
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import clsx from 'clsx';
import {useHistory} from '@docusaurus/router';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import useIsBrowser from '@docusaurus/useIsBrowser';
import {translate} from '@docusaurus/Translate';
import {noteSearchActivity} from './activity';
import {pageListIfLoaded, prepare} from './pagefind';
import {panelOffset} from './placement';
import {searchPageUrl, titleMatches, type Suggestion} from './results';
import styles from './styles.module.css';

/** How many pages the box suggests. */
export const suggestionLimit = 5;
/**
 * How long the reader pauses before the excerpts of the suggested pages are fetched: long enough
 * that the pauses of ordinary typing do not fetch them for a word still being typed.
 */
const settleMs = 300;
/**
 * The suggestions whose excerpts are fetched once the reader pauses (each costs its page's
 * fragment, up to 12 KB on a phone's data plan); the others get theirs when the reader moves to
 * them.
 */
const excerptsAtOnce = 3;
const listboxId = 'search-suggestions';
const optionId = (index: number) => `search-suggestion-${index}`;

const loadEngine = () => import('./engine');

type Status = 'idle' | 'loading' | 'done' | 'error';

interface Results {
  /** The query these suggestions answer. */
  query: string;
  suggestions: Suggestion[];
  status: Status;
}

const idle: Results = {query: '', suggestions: [], status: 'idle'};

/** "ctrl K", or "⌘ K" on Apple systems; known only in the browser, once hydrated. */
function useShortcutHint(): string | null {
  const isBrowser = useIsBrowser();
  if (!isBrowser) return null;
  return /Mac|iPhone|iPad|iPod/.test(navigator.platform || navigator.userAgent) ? '⌘ K' : 'ctrl K';
}

export default function SearchBox(): ReactNode {
  const {
    siteConfig: {baseUrl},
  } = useDocusaurusContext();
  const history = useHistory();
  const input = useRef<HTMLInputElement>(null);
  const latest = useRef(0);
  /** The query whose suggestions are shown. */
  const shownId = useRef(0);
  const settle = useRef<number | undefined>(undefined);
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<Results>(idle);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const hint = useShortcutHint();
  /** Fetches the excerpt of one of the current suggestions (set once the reader pauses). */
  const more = useRef<(index: number) => void>(() => undefined);
  /** The suggestions whose excerpts are fetched or on their way. */
  const requested = useRef(new Set<number>());

  const warmUp = useCallback(() => {
    // Offline or blocked: the query will say so; nothing to report here.
    prepare(baseUrl).catch(() => undefined);
    loadEngine().catch(() => undefined);
  }, [baseUrl]);

  /** Whether Pagefind has answered yet (since the page loaded). */
  const answered = useRef(false);
  /**
   * Until Pagefind answers (its script, WebAssembly and first index chunk, ~100 KB, take a
   * second or more on a slow phone link), the pages whose titles match the words typed so far:
   * the page list (3 KB, asked for first) is usually there by the first key. Pagefind's answer
   * replaces them.
   */
  const provisional = useCallback(
    (text: string): Suggestion[] => {
      if (answered.current) return [];
      const list = pageListIfLoaded(baseUrl);
      return list ? titleMatches(list.values(), text, suggestionLimit) : [];
    },
    [baseUrl],
  );

  const run = useCallback(
    (text: string) => {
      const id = ++latest.current;
      window.clearTimeout(settle.current);
      more.current = () => undefined;
      if (!text.trim()) {
        shownId.current = id;
        setResults(idle);
        return;
      }
      const early = provisional(text);
      if (early.length > 0) {
        shownId.current = id;
        setResults({query: text, suggestions: early, status: 'loading'});
        setActive(0);
      } else {
        setResults((previous) => ({...previous, status: 'loading'}));
      }
      const failed = () => {
        if (id === latest.current) setResults({query: text, suggestions: [], status: 'error'});
      };
      loadEngine()
        .then((engine) => engine.suggest(baseUrl, text, {limit: suggestionLimit}))
        .then(({items, detailed}) => {
          // The answer to an earlier prefix shows while the reader types on, until a later one
          // arrives: the list follows the typing instead of waiting for a pause.
          answered.current = true;
          if (id < shownId.current) return;
          shownId.current = id;
          const current = id === latest.current;
          setResults({query: text, suggestions: items, status: current ? 'done' : 'loading'});
          setActive(0);
          if (!current) return;
          // Sections and excerpts once the reader pauses (each page's fragment is fetched).
          settle.current = window.setTimeout(() => {
            more.current = (index) => {
              if (index >= items.length || requested.current.has(index)) return;
              requested.current.add(index);
              detailed(index).then(
                (suggestion) => {
                  if (id !== latest.current) return;
                  setResults((previous) =>
                    previous.query === text
                      ? {
                          ...previous,
                          suggestions: previous.suggestions.map((item, at) =>
                            at === index ? suggestion : item,
                          ),
                        }
                      : previous,
                  );
                  // Unreachable (offline, say): the page still shows, without its excerpt.
                },
                () => requested.current.delete(index),
              );
            };
            requested.current = new Set();
            for (let index = 0; index < excerptsAtOnce; index += 1) more.current(index);
          }, settleMs);
        }, failed);
    },
    [baseUrl, provisional],
  );

  // Ctrl+K / ⌘K anywhere focuses the box.
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (
        event.key.toLowerCase() === 'k' &&
        (event.ctrlKey || event.metaKey) &&
        !event.altKey &&
        !event.shiftKey
      ) {
        event.preventDefault();
        input.current?.focus();
        input.current?.select();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const shown = results.status === 'idle' ? [] : results.suggestions;

  // The option chosen with the arrow keys (or the pointer) stays in view when the list scrolls
  // (short screens), and gets its excerpt if it has none yet.
  useEffect(() => {
    if (!open) return;
    document.getElementById(optionId(active))?.scrollIntoView({block: 'nearest'});
    more.current(active);
  }, [active, open]);
  // The suggestions, then "See all results".
  const optionCount = query.trim() ? shown.length + 1 : 0;
  const expanded = open && query.trim() !== '';

  const close = () => setOpen(false);

  // The panel fits the viewport at every width and zoom (./placement.ts).
  const box = useRef<HTMLDivElement>(null);
  const popup = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (!expanded) return undefined;
    const place = () => {
      if (!box.current || !popup.current) return;
      // On phones the panel is fixed to the viewport's sides (styles.module.css).
      if (getComputedStyle(popup.current).position === 'fixed') {
        popup.current.style.left = '';
        return;
      }
      const left = panelOffset(
        box.current.getBoundingClientRect().left,
        popup.current.offsetWidth,
        document.documentElement.clientWidth,
      );
      popup.current.style.left = `${left}px`;
    };
    place();
    window.addEventListener('resize', place);
    return () => window.removeEventListener('resize', place);
  }, [expanded]);

  const go = (url: string, newTab: boolean) => {
    close();
    if (newTab) {
      window.open(url, '_blank', 'noopener');
      return;
    }
    setQuery('');
    setResults(idle);
    latest.current += 1;
    shownId.current = latest.current;
    input.current?.blur();
    history.push(url);
  };

  const pick = (index: number, newTab = false) => {
    const suggestion = shown[index];
    go(suggestion ? suggestion.url : searchPageUrl(baseUrl, query.trim()), newTab);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        if (optionCount === 0) return;
        event.preventDefault();
        if (!open) {
          setOpen(true);
          return;
        }
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((current) => (current + step + optionCount) % optionCount);
        return;
      }
      case 'Enter': {
        if (!query.trim()) return;
        event.preventDefault();
        // Before the suggestions of this query arrive, Enter opens the full list.
        const current = results.query === query && results.status === 'done';
        pick(open && current ? active : shown.length, event.ctrlKey || event.metaKey);
        return;
      }
      case 'Escape': {
        if (expanded) {
          event.preventDefault();
          close();
        } else if (query) {
          event.preventDefault();
          setQuery('');
          run('');
        }
        return;
      }
      default:
    }
  };

  let status = '';
  if (expanded && results.status === 'error') {
    status = translate({
      id: 'site.search.unavailable',
      message: 'Search is unavailable right now. Check your connection and try again.',
    });
  } else if (expanded && results.status === 'done' && shown.length === 0) {
    status = translate(
      {
        id: 'site.search.noResultsBox',
        message: 'No results for “{query}”. Check the spelling, or try other words.',
      },
      {query: results.query},
    );
  } else if (expanded && results.status === 'loading' && shown.length === 0) {
    status = translate({id: 'site.search.loading', message: 'Searching…'});
  }
  const announcement =
    expanded && results.status === 'done' && shown.length > 0
      ? translate(
          {id: 'site.search.count', message: '{count} suggestions'},
          {count: String(shown.length)},
        )
      : status;

  return (
    // data-search-box: the code highlighter does not start loading on events here.
    <div className={styles.box} data-search-box="" ref={box}>
      <input
        ref={input}
        id="search"
        type="search"
        className={clsx('navbar__search-input', styles.input)}
        placeholder={translate({
          id: 'site.searchBar.placeholder',
          message: 'Search...',
          description: 'The placeholder of the header search box',
        })}
        aria-label={translate({id: 'site.searchBar.label', message: 'Search the documentation'})}
        role="combobox"
        aria-expanded={expanded}
        aria-autocomplete="list"
        aria-haspopup="listbox"
        {...(expanded && {'aria-controls': listboxId})}
        {...(expanded &&
          optionCount > 0 && {
            'aria-activedescendant': optionId(Math.min(active, optionCount - 1)),
          })}
        autoComplete="off"
        autoCorrect="off"
        autoCapitalize="off"
        spellCheck={false}
        enterKeyHint="search"
        value={query}
        onChange={(event) => {
          noteSearchActivity();
          setQuery(event.target.value);
          setOpen(true);
          run(event.target.value);
        }}
        onFocus={() => {
          noteSearchActivity();
          warmUp();
          setOpen(true);
        }}
        onBlur={close}
        onPointerEnter={warmUp}
        onTouchStart={warmUp}
        onKeyDown={onKeyDown}
      />
      {hint && !query && (
        <kbd className={styles.hint} aria-hidden="true">
          {hint}
        </kbd>
      )}
      <div className={styles.live} role="status" aria-live="polite">
        {announcement}
      </div>
      {expanded && (
        // Keeps the focus in the box while the pointer picks an option.
        <div ref={popup} className={styles.popup} onMouseDown={(event) => event.preventDefault()}>
          {status && <p className={styles.status}>{status}</p>}
          <ul
            role="listbox"
            id={listboxId}
            // What these suggestions answer (tests and tools wait on it).
            data-search-query={results.status === 'done' ? results.query : undefined}
            className={styles.listbox}
            aria-label={translate({
              id: 'site.searchBar.suggestions',
              message: 'Search suggestions',
              description: 'The accessible name of the list of suggestions under the search box',
            })}
          >
            {shown.map((suggestion, index) => (
              <li
                key={suggestion.url}
                id={optionId(index)}
                role="option"
                aria-selected={index === active}
                data-search-page={suggestion.url}
                className={styles.option}
                onClick={(event: MouseEvent) => pick(index, event.ctrlKey || event.metaKey)}
                onMouseMove={() => setActive(index)}
              >
                <span className={styles.section}>{suggestion.section}</span>
                <span className={styles.title}>
                  {suggestion.title}
                  {suggestion.heading && (
                    <span className={styles.heading}>{` › ${suggestion.heading}`}</span>
                  )}
                </span>
                {suggestion.excerpt && (
                  <span
                    className={styles.excerpt}
                    // Pagefind's excerpt: escaped page text with <mark> around the matched words.
                    dangerouslySetInnerHTML={{__html: suggestion.excerpt}}
                  />
                )}
              </li>
            ))}
            <li
              id={optionId(shown.length)}
              role="option"
              aria-selected={active === shown.length}
              className={clsx(styles.option, styles.all)}
              onClick={(event: MouseEvent) => pick(shown.length, event.ctrlKey || event.metaKey)}
              onMouseMove={() => setActive(shown.length)}
            >
              {translate(
                {id: 'site.search.seeAll', message: 'See all results for “{query}”'},
                {query: query.trim()},
              )}
            </li>
          </ul>
        </div>
      )}
    </div>
  );
}

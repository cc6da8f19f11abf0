/**
 * A code sample shown in TypeScript or JavaScript, with an optional filename
 * bar. Emitted by the remark plugin `src/features/code/node/remarkCodePair.ts` from marked
 * fences and registered globally in `src/features/markdown/client/MDXComponents.tsx`.
 *
 * The chosen language is one value for the whole site: the `data-code-lang`
 * attribute of `<html>` (`ts` or `js`), remembered in localStorage under
 * `nest-docs.code-lang` and settable with `?lang=js` / `?lang=ts`.
 *
 * Before first paint, the inline script built from the same rules
 * (src/features/code/codeLang.ts, node/prePaintScript.ts) sets the attribute
 * from the query or storage; the server-rendered HTML holds
 * both halves and the CSS module hides the inactive one from that attribute,
 * so a JavaScript reader never sees TypeScript flash. After hydration a small
 * external store keeps React in step with the attribute (all pairs switch
 * together, other tabs follow through the `storage` event).
 */
import {useEffect, useRef, useSyncExternalStore, type ReactNode, type RefObject} from 'react';
import clsx from 'clsx';
import {useLocation} from '@docusaurus/router';
import Translate, {translate} from '@docusaurus/Translate';
import CodeBlock from '@theme/CodeBlock';
import {
  codeLangStorageKey as storageKey,
  defaultCodeLang,
  parseCodeLang,
  type CodeLang,
} from '../../codeLang';
import {CodeLinksProvider} from '@site/src/features/api-reference/client/CodeLinks';
import styles from './styles.module.css';

export interface Props {
  /** File name without extension: the bar shows `name.ts` or `name.js`. */
  readonly filename?: string;
  /** TypeScript code. */
  readonly ts?: string;
  /** JavaScript code. */
  readonly js?: string;
  /** The fence's meta string (e.g. `{2-3} showLineNumbers`), passed to both blocks. */
  readonly meta?: string;
  /** Links to the API reference in the TypeScript half (src/features/api-reference). */
  readonly tsLinks?: string;
  /** Links to the API reference in the JavaScript half. */
  readonly jsLinks?: string;
}

const listeners = new Set<() => void>();

function notify(): void {
  listeners.forEach((listener) => listener());
}

function applyCodeLang(lang: CodeLang): void {
  document.documentElement.dataset.codeLang = lang;
  notify();
}

/** Switches every pair (on this page and later ones) to `lang` and remembers it. */
function chooseCodeLang(lang: CodeLang): void {
  applyCodeLang(lang);
  try {
    window.localStorage.setItem(storageKey, lang);
  } catch {
    // Storage unavailable (private mode, blocked cookies): the choice lasts for this page.
  }
}

function onStorage(event: StorageEvent): void {
  const lang = event.key === storageKey ? parseCodeLang(event.newValue) : null;
  if (lang) {
    applyCodeLang(lang);
  }
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (listeners.size === 1) {
    window.addEventListener('storage', onStorage);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      window.removeEventListener('storage', onStorage);
    }
  };
}

function getSnapshot(): CodeLang {
  return parseCodeLang(document.documentElement.dataset.codeLang) ?? defaultCodeLang;
}

/** Unknown on the server and during hydration: the CSS decides until then. */
function getServerSnapshot(): CodeLang | null {
  return null;
}

/** The active language, or null before hydration has finished. */
function useCodeLang(): CodeLang | null {
  const lang = useSyncExternalStore<CodeLang | null>(subscribe, getSnapshot, getServerSnapshot);
  // `?lang=` on a client-side navigation (the pre-paint script covers full loads).
  const {search} = useLocation();
  useEffect(() => {
    const requested = parseCodeLang(new URLSearchParams(search).get('lang'));
    if (requested && requested !== getSnapshot()) {
      chooseCodeLang(requested);
    }
  }, [search]);
  return lang;
}

const halfClass: Record<CodeLang, string> = {ts: styles.tsOnly, js: styles.jsOnly};

function Filename({name, lang}: {name: string; lang: CodeLang}): ReactNode {
  return (
    <span className={clsx(styles.filename, halfClass[lang])} data-code-pair-filename={lang}>
      {`${name}.${lang}`}
    </span>
  );
}

interface SwitchProps {
  /** The language the button switches to. */
  readonly to: CodeLang;
  readonly self: RefObject<HTMLButtonElement | null>;
  /** The pair's other button, which takes the focus after the switch. */
  readonly other: RefObject<HTMLButtonElement | null>;
  readonly pair: RefObject<HTMLDivElement | null>;
}

function Switch({to, self, other, pair}: SwitchProps): ReactNode {
  const onClick = () => {
    // Every pair on the page changes height: keep this one where the reader sees it.
    const before = pair.current?.getBoundingClientRect().top;
    chooseCodeLang(to);
    const after = pair.current?.getBoundingClientRect().top;
    if (before !== undefined && after !== undefined && before !== after) {
      window.scrollBy(0, after - before);
    }
    // This button is hidden now; the other one (shown now) keeps keyboard focus.
    other.current?.focus();
  };
  const label =
    to === 'js'
      ? translate({
          id: 'theme.codePair.showJavaScript',
          message: 'JS, show JavaScript',
          description:
            'Accessible name of the code pair button that switches to JavaScript; starts with its visible label (WCAG 2.5.3)',
        })
      : translate({
          id: 'theme.codePair.showTypeScript',
          message: 'TS, show TypeScript',
          description:
            'Accessible name of the code pair button that switches to TypeScript; starts with its visible label (WCAG 2.5.3)',
        });
  return (
    <button
      ref={self}
      type="button"
      // The button for JavaScript is shown while TypeScript is active, and vice versa.
      className={clsx(styles.switch, halfClass[to === 'js' ? 'ts' : 'js'])}
      aria-label={label}
      title={label}
      data-code-pair-switch={to}
      onClick={onClick}
    >
      <svg
        className={styles.switchIcon}
        viewBox="0 0 16 16"
        aria-hidden="true"
        focusable="false"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.6"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d="M2 5h11M10 2l3 3-3 3M14 11H3M6 8l-3 3 3 3" />
      </svg>
      {to === 'js' ? (
        <Translate id="theme.codePair.js" description="Label of the button that shows JavaScript">
          JS
        </Translate>
      ) : (
        <Translate id="theme.codePair.ts" description="Label of the button that shows TypeScript">
          TS
        </Translate>
      )}
    </button>
  );
}

interface CodeProps {
  readonly lang: CodeLang;
  readonly code: string;
  readonly meta?: string;
  readonly links?: string;
}

function Code({lang, code, meta, links}: CodeProps): ReactNode {
  return (
    <CodeLinksProvider code={code} links={links}>
      <CodeBlock language={lang} metastring={meta} className={styles.code}>
        {code}
      </CodeBlock>
    </CodeLinksProvider>
  );
}

function Pair({
  filename,
  ts,
  js,
  meta,
  tsLinks,
  jsLinks,
}: Required<Pick<Props, 'ts' | 'js'>> & Props): ReactNode {
  const lang = useCodeLang();
  const pair = useRef<HTMLDivElement>(null);
  const toJs = useRef<HTMLButtonElement>(null);
  const toTs = useRef<HTMLButtonElement>(null);
  return (
    <div ref={pair} className={styles.codePair} data-code-pair="pair">
      <div className={styles.bar}>
        {filename ? (
          <>
            <Filename name={filename} lang="ts" />
            <Filename name={filename} lang="js" />
          </>
        ) : null}
        <Switch to="js" self={toJs} other={toTs} pair={pair} />
        <Switch to="ts" self={toTs} other={toJs} pair={pair} />
      </div>
      {/* Both halves are in the HTML; the CSS shows one before React runs, `hidden` after. */}
      {/* `data-filename`: the label of each half in print (src/features/print). */}
      <div
        className={styles.tsOnly}
        data-code-pair-half="ts"
        data-filename={filename ? `${filename}.ts` : undefined}
        hidden={lang === 'js'}
      >
        <Code lang="ts" code={ts} meta={meta} links={tsLinks} />
      </div>
      <div
        className={styles.jsOnly}
        data-code-pair-half="js"
        data-filename={filename ? `${filename}.js` : undefined}
        hidden={lang === 'ts'}
      >
        <Code lang="js" code={js} meta={meta} links={jsLinks} />
      </div>
    </div>
  );
}

/** A TypeScript/JavaScript pair, or a single block under a filename bar. */
export default function CodePair({filename, ts, js, meta, tsLinks, jsLinks}: Props): ReactNode {
  if (ts !== undefined && js !== undefined) {
    return (
      <Pair filename={filename} ts={ts} js={js} meta={meta} tsLinks={tsLinks} jsLinks={jsLinks} />
    );
  }
  const lang: CodeLang = ts !== undefined ? 'ts' : 'js';
  const code = ts ?? js ?? '';
  const links = ts !== undefined ? tsLinks : jsLinks;
  if (!filename) {
    return <Code lang={lang} code={code} meta={meta} links={links} />;
  }
  return (
    <div className={styles.codePair} data-code-pair="single">
      <div className={styles.bar}>
        <span className={styles.filename} data-code-pair-filename={lang}>
          {`${filename}.${lang}`}
        </span>
      </div>
      <Code lang={lang} code={code} meta={meta} links={links} />
    </div>
  );
}

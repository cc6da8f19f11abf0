/**
 * A code sample shown in TypeScript or JavaScript, with an optional filename
 * bar. Emitted by the remark plugin `../../node/remarkCodePair.ts` from marked
 * fences and registered globally in src/features/markdown/client/MDXComponents.tsx.
 *
 * The chosen language is one value for the whole site: the `data-code-lang`
 * attribute of `<html>` (`ts` or `js`), remembered in localStorage under
 * `nest-docs.code-lang` and settable with `?lang=js` / `?lang=ts`.
 *
 * Before first paint, the inline script built from the same rules
 * (src/features/code/codeLang.ts, node/prePaintScript.ts) sets the attribute
 * from the query or storage; the HTML holds both halves and the CSS module
 * hides the inactive one from that attribute, so a JavaScript reader never
 * sees TypeScript flash.
 *
 * This component renders markup only, the same on the server and in the
 * browser. The switch buttons work through one delegated listener
 * (../codePair.ts), which also marks the
 * inactive halves `hidden`: the same code serves pairs React rendered and
 * pairs of a static article, which have no component behind them.
 */
import type {ReactNode} from 'react';
import clsx from 'clsx';
import Translate, {translate} from '@docusaurus/Translate';
import CodeBlock from '@theme/CodeBlock';
import {CodeLinksProvider} from '@site/src/features/api-reference/client/CodeLinks';
import type {CodeLang} from '../../codeLang';
import styles from './styles.module.css';

export type {CodeLang};

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

const halfClass: Record<CodeLang, string> = {ts: styles.tsOnly, js: styles.jsOnly};

function Filename({name, lang}: {name: string; lang: CodeLang}): ReactNode {
  return (
    <span className={clsx(styles.filename, halfClass[lang])} data-code-pair-filename={lang}>
      {`${name}.${lang}`}
    </span>
  );
}

/** The button that switches to `to` (shown while the other language is active). */
function Switch({to}: {to: CodeLang}): ReactNode {
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
      type="button"
      // The button for JavaScript is shown while TypeScript is active, and vice versa.
      className={clsx(styles.switch, halfClass[to === 'js' ? 'ts' : 'js'])}
      aria-label={label}
      title={label}
      data-code-pair-switch={to}
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
  return (
    <div className={styles.codePair} data-code-pair="pair">
      <div className={styles.bar}>
        {filename ? (
          <>
            <Filename name={filename} lang="ts" />
            <Filename name={filename} lang="js" />
          </>
        ) : null}
        <Switch to="js" />
        <Switch to="ts" />
      </div>
      {/* Both halves are in the HTML; the CSS shows one, and the inactive one gets `hidden`. */}
      {/* `data-filename`: the label of each half in print (src/features/print). */}
      <div
        className={styles.tsOnly}
        data-code-pair-half="ts"
        data-filename={filename ? `${filename}.ts` : undefined}
      >
        <Code lang="ts" code={ts} meta={meta} links={tsLinks} />
      </div>
      <div
        className={styles.jsOnly}
        data-code-pair-half="js"
        data-filename={filename ? `${filename}.js` : undefined}
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

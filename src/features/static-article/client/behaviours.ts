/**
 * Client module (../plugin.ts): the delegated listeners that make a docs article interactive
 * without React components inside it, for the static article of a first load and for articles
 * React renders after a client-side navigation alike (one implementation for both):
 * code pair switches (../../code/client/codePair.ts), code copy and word-wrap buttons
 * (../../code/client/codeButtons.ts), "Copy page" (../../markdown-twins/client/copyPage.ts) and
 * full-screen diagrams (../../markdown/client/diagram.ts). One `click` listener on
 * the document, installed when the main bundle runs, so the buttons work from that moment, even
 * before hydration has finished. Links of a static article are wired by ./adopt.ts (./links.ts),
 * which has the router's history.
 */
import type {ClientModule} from '@docusaurus/types';
import {
  applyLangQuery,
  onCodeLangChange,
  onStorage,
  onSwitchClick,
  syncHalves,
} from '../../code/client/codePair';
import {measureBlocks, onCodeButtonClick} from '../../code/client/codeButtons';
import {onCopyPageClick} from '../../markdown-twins/client/copyPage';
import {onDiagramClick} from '../../markdown/client/diagram';

/** Measures the code blocks once the browser is idle (or soon, where it cannot say). */
let measureQueued = false;
function queueMeasure(): void {
  if (measureQueued) return;
  measureQueued = true;
  const run = () => {
    measureQueued = false;
    measureBlocks();
  };
  if (typeof window.requestIdleCallback === 'function') {
    window.requestIdleCallback(run, {timeout: 2000});
  } else {
    setTimeout(run, 200);
  }
}

function onClick(event: MouseEvent): void {
  if (event.defaultPrevented || !(event.target instanceof Element)) return;
  const target = event.target;
  // Each handler answers only for its own buttons.
  void (
    onSwitchClick(target) ||
    onCodeButtonClick(target) ||
    onCopyPageClick(target) ||
    onDiagramClick(target)
  );
}

if (typeof window !== 'undefined') {
  document.addEventListener('click', onClick);
  window.addEventListener('storage', onStorage);
  window.addEventListener('resize', queueMeasure, {passive: true});
  // Halves that were hidden have no width: measure them once shown.
  onCodeLangChange(queueMeasure);
}

const clientModule: ClientModule = {
  onRouteDidUpdate({location}) {
    applyLangQuery(location.search);
    syncHalves();
    queueMeasure();
  },
};

export default clientModule;

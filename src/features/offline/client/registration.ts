/**
 * The service worker's registration (loaded in idle time by ./register.ts) and the update
 * prompt: when a new build's worker has installed, it waits; the reader sees "New version
 * available — Reload" (src/features/offline/client/PwaReloadPopup) and nothing reloads until they choose to.
 * Reload tells the waiting worker to take over (`SKIP_WAITING`, handled by plugin-pwa's sw.js)
 * and reloads the page once it controls it.
 */
import React from 'react';
import {createRoot, type Root} from 'react-dom/client';
import {Workbox} from 'workbox-window';
import {searchInUse} from '../../search/client/activity';
import {askToYield} from './yield';

/** The worker's URL, with the parameters plugin-pwa's sw.js reads (offline mode always on). */
export function serviceWorkerUrl(base: string): string {
  return `${base}?params=${encodeURIComponent(JSON.stringify({offlineMode: true, debug: false}))}`;
}

let popup: Root | undefined;
let shown = false;

async function showReloadPopup(onReload: () => void): Promise<void> {
  // Once per page: the event and the check after registering can both report the same worker.
  if (shown) return;
  shown = true;
  const {default: ReloadPopup} = await import('@theme/PwaReloadPopup');
  const container = document.createElement('div');
  container.id = 'pwa-popup-container';
  document.body.appendChild(container);
  popup = createRoot(container);
  popup.render(React.createElement(ReloadPopup, {onReload}));
}

export async function registerServiceWorker(): Promise<ServiceWorkerRegistration | undefined> {
  const wb = new Workbox(serviceWorkerUrl(process.env.PWA_SERVICE_WORKER_URL ?? '/sw.js'));
  const prompt = () =>
    showReloadPopup(() => {
      // Reload once the new worker controls the page (whichever way it was found waiting:
      // Workbox's own `controlling` event skips a worker that waited before it registered).
      navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), {
        once: true,
      });
      // To the waiting worker itself (Workbox's messageSkipWaiting missed one that waited before
      // this page registered); src/features/offline/client/sw.js and plugin-pwa's sw.js both take SKIP_WAITING.
      // Repeated until it takes over: a worker the browser had stopped is started to receive
      // the message, and its listeners, added once its code has loaded, can miss that first one.
      let tries = 0;
      const skipWaiting = () =>
        void navigator.serviceWorker.getRegistration().then((registration) => {
          const waiting = registration?.waiting;
          if (!waiting || tries++ >= 20) return;
          waiting.postMessage({type: 'SKIP_WAITING'});
          window.setTimeout(skipWaiting, 500);
        });
      skipWaiting();
    });
  // A new worker has installed and waits (here, or in another tab).
  wb.addEventListener('waiting', () => void prompt());
  const firstVisit = !navigator.serviceWorker.controller;
  const registration = await wb.register();
  // The reader turned to search while the worker's script was on its way: its install waits.
  if (searchInUse()) askToYield(registration?.installing);
  if (firstVisit) {
    // This page and its files loaded before the worker existed: have it keep them too.
    const ready = await navigator.serviceWorker.ready;
    const files = performance
      .getEntriesByType('resource')
      .map((entry) => entry.name)
      .filter((url) => url.startsWith(`${window.location.origin}/`));
    ready.active?.postMessage({type: 'NEST_SAVE', urls: [window.location.pathname, ...files]});
  }
  // One left waiting by an earlier visit whose reader did not reload.
  if (registration?.waiting && navigator.serviceWorker.controller) await prompt();
  return registration;
}

/**
 * Puts the third-party ad script into a container, late and safely: after
 * the page has loaded and the browser is idle, never on narrow screens,
 * never twice, and without letting a failure reach the reader.
 */

/** The id the ad script looks for to know where to insert the ad. */
export const adScriptId = '_carbonads_js';
/** The id of the element the ad script inserts. */
export const adElementId = 'carbonads';
/** At this width or less no ad is loaded (and the slot is hidden by CSS). */
export const narrowScreenQuery = '(max-width: 480px)';

/** Schedules the script; returns a cleanup that cancels it and empties the container. */
export function loadAd(container: HTMLElement, src: string): () => void {
  let cancelled = false;
  let idleHandle: number | undefined;
  let timeoutHandle: ReturnType<typeof setTimeout> | undefined;

  const insert = (): void => {
    idleHandle = undefined;
    timeoutHandle = undefined;
    if (cancelled || !container.isConnected) {
      return;
    }
    try {
      if (window.matchMedia?.(narrowScreenQuery).matches) {
        return;
      }
      if (container.querySelector(`script, #${adElementId}`)) {
        return; // already loading or shown
      }
      const script = document.createElement('script');
      script.async = true;
      script.src = src;
      script.id = adScriptId;
      script.onerror = () => {
        script.remove();
      };
      container.appendChild(script);
    } catch (error) {
      console.warn('Ad slot: the ad script could not be added', error);
    }
  };

  const whenIdle = (): void => {
    if (cancelled) {
      return;
    }
    if (typeof window.requestIdleCallback === 'function') {
      idleHandle = window.requestIdleCallback(insert, {timeout: 3000});
    } else {
      timeoutHandle = setTimeout(insert, 200);
    }
  };

  // A script that was still loading when the reader navigated away may run
  // late and insert a second ad: keep only the newest one.
  const observer =
    typeof MutationObserver === 'function'
      ? new MutationObserver(() => {
          const ads = container.querySelectorAll(`#${adElementId}`);
          for (let index = 0; index < ads.length - 1; index += 1) {
            ads[index].remove();
          }
        })
      : undefined;
  observer?.observe(container, {childList: true});

  if (document.readyState === 'complete') {
    whenIdle();
  } else {
    window.addEventListener('load', whenIdle, {once: true});
  }

  return () => {
    cancelled = true;
    window.removeEventListener('load', whenIdle);
    if (idleHandle !== undefined) {
      window.cancelIdleCallback?.(idleHandle);
    }
    if (timeoutHandle !== undefined) {
      clearTimeout(timeoutHandle);
    }
    observer?.disconnect();
    container.replaceChildren();
  };
}

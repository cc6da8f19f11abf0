import {redirects, stopgapRedirects, type Redirect} from '../redirects';
import {docExists} from '../../shell/node/docs';

/**
 * The redirects to emit now: a legacy route is redirected once its target
 * page exists; a stopgap redirect only while its own page does not.
 */
export function emittedRedirects(
  exists: (route: string) => boolean = docExists,
  stopgaps: readonly Redirect[] = stopgapRedirects,
): Redirect[] {
  return [
    ...redirects.filter((redirect) => exists(redirect.to)),
    ...stopgaps.filter((redirect) => !exists(redirect.from)),
  ];
}

import {redirects} from '../redirects';
import type {Redirect} from '../redirects';
import {docExists} from '../../shell/node/docs';

/** The redirects to emit now: a legacy route is redirected once its target page exists. */
export function emittedRedirects(exists: (route: string) => boolean = docExists): Redirect[] {
  return redirects.filter((redirect) => exists(redirect.to));
}

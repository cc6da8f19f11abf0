/** The newsletter sign-up call: POST `{"email": ...}` to `{host}/Stage/newsletter?token={token}`. */
import {postJson, type HttpEnvironment} from './http';
import {isValidEmail} from './state';

export interface NewsletterEndpoint {
  /** Scheme and host, e.g. `https://newsletter.example.com` (a trailing slash is ignored). */
  readonly host: string;
  /** The fixed public token the endpoint expects in its query string. */
  readonly token: string;
}

export function newsletterUrl({host, token}: NewsletterEndpoint): string {
  return `${host.replace(/\/+$/, '')}/Stage/newsletter?token=${encodeURIComponent(token)}`;
}

/**
 * Signs `email` up. The answer is not read and the promise never rejects: a
 * failure is only logged, and the form shows success either way. An invalid
 * address is never sent.
 */
export async function subscribeToNewsletter(
  email: string,
  endpoint: NewsletterEndpoint,
  environment?: HttpEnvironment,
): Promise<void> {
  const address = email.trim();
  if (!isValidEmail(address)) {
    console.warn('Newsletter sign-up skipped: invalid email address');
    return;
  }
  try {
    const response = await postJson(newsletterUrl(endpoint), {email: address}, environment);
    if (!response.ok) {
      console.warn(`Newsletter sign-up failed: HTTP ${response.status}`);
    }
  } catch (error) {
    console.warn('Newsletter sign-up failed', error);
  }
}

/**
 * The newsletter form's state machine, free of React and of the network so
 * it can be unit-tested: idle -> submitting -> added. Nothing leads back:
 * once a reader has signed up (or the attempt failed, which the reader is
 * not told about), the form stays done.
 */

export type NewsletterStatus = 'idle' | 'submitting' | 'added';

export interface NewsletterState {
  readonly status: NewsletterStatus;
  readonly email: string;
}

export type NewsletterAction =
  | {readonly type: 'edit'; readonly email: string}
  | {readonly type: 'submit'}
  | {readonly type: 'settled'};

export const initialNewsletterState: NewsletterState = {status: 'idle', email: ''};

// The HTML standard's "valid e-mail address", the rule `<input type="email">` applies.
const emailPattern =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** Whether `email` (surrounding spaces aside) is an address the browser would accept. */
export function isValidEmail(email: string): boolean {
  return emailPattern.test(email.trim());
}

/**
 * Returns the next state, or the very same object when the action does not
 * apply (an edit or a submit while busy or done, a submit with an invalid
 * address, a settle without a pending submit).
 */
export function newsletterReducer(
  state: NewsletterState,
  action: NewsletterAction,
): NewsletterState {
  switch (action.type) {
    case 'edit':
      return state.status === 'idle' && action.email !== state.email
        ? {status: 'idle', email: action.email}
        : state;
    case 'submit':
      return state.status === 'idle' && isValidEmail(state.email)
        ? {status: 'submitting', email: state.email.trim()}
        : state;
    case 'settled':
      return state.status === 'submitting' ? {status: 'added', email: state.email} : state;
  }
}

/** Sends one sign-up; expected never to reject (see `subscribeToNewsletter`). */
export type NewsletterSender = (email: string) => Promise<void>;

/** The form's state plus the one side effect, usable with `useSyncExternalStore`. */
export interface NewsletterStore {
  readonly getState: () => NewsletterState;
  readonly subscribe: (listener: () => void) => () => void;
  readonly edit: (email: string) => void;
  /** Sends the address once; resolves to whether this call sent anything. */
  readonly submit: () => Promise<boolean>;
}

export function createNewsletterStore(send: NewsletterSender): NewsletterStore {
  let state = initialNewsletterState;
  const listeners = new Set<() => void>();
  const dispatch = (action: NewsletterAction): NewsletterState => {
    const next = newsletterReducer(state, action);
    if (next !== state) {
      state = next;
      listeners.forEach((listener) => listener());
    }
    return next;
  };
  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    edit(email) {
      dispatch({type: 'edit', email});
    },
    async submit() {
      const before = state;
      const submitting = dispatch({type: 'submit'});
      if (submitting === before) {
        return false; // invalid address, or already submitting or added
      }
      try {
        await send(submitting.email);
      } catch (error) {
        console.warn('Newsletter sign-up failed', error);
      }
      dispatch({type: 'settled'});
      return true;
    },
  };
}

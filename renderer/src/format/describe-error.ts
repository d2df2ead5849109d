/**
 * What to tell the user when hubs or devices cannot be loaded: what happened and what to do. The
 * message from main is used for codes without a specific explanation, because it is written for people.
 */
import type { UiError } from '../stores/settle';

export interface ErrorAdvice {
  text: string;
  /** Whether trying the same request again can help. */
  retry: boolean;
}

export function describeDevicesError(error: UiError, hubName: string): ErrorAdvice {
  switch (error.code) {
    case 'hub-unreachable':
      return {
        text: `${hubName} cannot be reached right now. Check that it is switched on and connected, then try again.`,
        retry: true,
      };
    case 'hub-session-lost':
      return {
        text: `${hubName} did not accept a new session. Try again; if this keeps happening, sign out and sign in again.`,
        retry: true,
      };
    case 'forbidden':
      return {
        text: `Hubdesk is not allowed to list the devices on ${hubName}. Sign out, then sign in again and allow access to devices.`,
        retry: false,
      };
    case 'hub-not-found':
      return { text: `${hubName} is no longer in your account. Reload the list of hubs.`, retry: true };
    case 'cloud-error':
    case 'cloud-unreachable':
    case 'internal':
    case 'invalid-argument':
    case 'sign-in-in-progress':
    case 'signed-out':
    case 'system-refused':
      return describeCommonError(error);
  }
}

export function describeHubsError(error: UiError): ErrorAdvice {
  return describeCommonError(error);
}

function describeCommonError(error: UiError): ErrorAdvice {
  switch (error.code) {
    case 'cloud-unreachable':
      return { text: 'The cloud cannot be reached right now. Check your internet connection, then try again.', retry: true };
    case 'signed-out':
      return { text: 'Your sign-in has ended. Please sign in again.', retry: false };
    case 'invalid-argument':
    case 'sign-in-in-progress':
    case 'cloud-error':
    case 'hub-not-found':
    case 'hub-unreachable':
    case 'hub-session-lost':
    case 'forbidden':
    case 'system-refused':
    case 'internal':
      return { text: `Something went wrong: ${error.message} Try again; if it keeps failing, restart Hubdesk.`, retry: true };
  }
}

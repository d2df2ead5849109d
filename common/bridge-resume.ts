/**
 * How a tab finds a restarted browser host again (docs/architecture.md, "The browser host across
 * restarts"): each run of the host gives the tabs it welcomes a resume key, which the next run of the
 * same profile knows. A tab proves it holds the key, and the host proves it knows it too, with
 * `hex(HMAC-SHA256(key, label, origin, host nonce, tab nonce))`, so the key itself never crosses the
 * wire again: whoever answers on the port while Hubdesk is down learns nothing it can use, and a proof
 * made for one origin or one pair of nonces is worth nothing for another. The same code on both sides
 * (Web Crypto: Node and the page).
 */

/** Whose proof: the labels differ, so a host's proof cannot be replayed as a tab's. */
export type ResumeRole = 'tab' | 'host';

const LABELS: Record<ResumeRole, string> = { tab: 'hubdesk-resume-tab-v1', host: 'hubdesk-resume-host-v1' };

/** 64 hex digits: the proofs' only form. */
export const RESUME_PROOF_PATTERN = /^[0-9a-f]{64}$/;

export interface ResumeExchange {
  /** The origin the tab is on, and the host serves: `http://127.0.0.1:<port>`. */
  origin: string;
  hostNonce: string;
  tabNonce: string;
}

export async function resumeProof(key: string, role: ResumeRole, exchange: ResumeExchange): Promise<string> {
  const encoder = new TextEncoder();
  const hmac = await crypto.subtle.importKey('raw', encoder.encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const text = [LABELS[role], exchange.origin, exchange.hostNonce, exchange.tabNonce].join('\n');
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', hmac, encoder.encode(text)));
  return Array.from(mac, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** 256 random bits as base64url (43 characters): nonces and keys. */
export function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

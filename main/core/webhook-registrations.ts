/**
 * The developer's webhook registrations in settings. The secret, and the optional tap credential, are
 * encrypted through the same SecretCipher as the cloud tokens and under the same policy
 * (token-vault.ts): with a cipher that does not really encrypt, and no opt-in, they are kept in memory
 * only, so after a restart such a registration is listed without them and must be added again. Views
 * never carry either.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { type WebhookRegistrationInput, WebhookRoutingSchema, type WebhookRouting } from '../../common/ipc-contract';
import type { KeyValueStore, Logger, SecretCipher } from './ports';
import type { TokenStorage } from './token-vault';

export const REGISTRATIONS_KEY = 'webhooks:registrations';
export const ackKey = (webhookId: string) => `webhooks:ack:${webhookId}`;

export interface WebhookRegistration {
  id: string;
  routing: WebhookRouting;
  label?: string;
  /** Chosen once, kept across reconnects and restarts: the forwarder resumes per listenerId. */
  listenerId: string;
  tapId: string;
  /** Null when it was kept in memory only and the app has restarted since. */
  secret: string | null;
  /** The owner's tap credential (`tc_<id>.<secret>`): undefined when none was given, null when it was set but cannot be read (as `secret`). */
  tapCredential: string | null | undefined;
}

const SealedSchema = z.object({ backend: z.string(), data: z.string().min(1) });
type Sealed = z.infer<typeof SealedSchema>;

const StoredSchema = z.object({
  v: z.literal(1),
  id: z.string().min(1).max(200),
  routing: WebhookRoutingSchema,
  label: z.string().max(100).optional(),
  listenerId: z.string().min(1).max(200),
  tapId: z.string().min(1).max(200),
  secretRecord: SealedSchema.nullable(),
  /** Absent: no tap credential (also every record saved before there were any); null: kept in memory only. */
  tapCredentialRecord: SealedSchema.nullable().optional(),
});
type Stored = z.infer<typeof StoredSchema>;

export interface WebhookRegistrations {
  /** Reads and decrypts what settings hold; malformed entries are dropped (and logged). */
  load(): Promise<WebhookRegistration[]>;
  /** Adds, or replaces the registration with the same id (keeping its listenerId, so resuming still works). */
  add(input: WebhookRegistrationInput): Promise<WebhookRegistration>;
  remove(id: string): void;
  lastAck(id: string): string | undefined;
  /** Kept in memory at once, written to settings at most once per ACK_FLUSH_MS (see flush). */
  setLastAck(id: string, messageId: string): void;
  /** Writes pending acknowledgements now (on dispose). */
  flush(): void;
}

/**
 * Acknowledgements arrive with every message; writing the settings file for each would put a
 * synchronous file write on the hot path. They are coalesced: after a crash the listener resumes at
 * most this much earlier and receives those messages again (at least once, never lost).
 */
export const ACK_FLUSH_MS = 1_000;

export interface WebhookRegistrationsDeps {
  cipher: SecretCipher;
  store: KeyValueStore;
  logger: Logger;
  storage: () => TokenStorage;
}

export function createWebhookRegistrations({ cipher, store, logger, storage }: WebhookRegistrationsDeps): WebhookRegistrations {
  const stored = (): Stored[] => {
    const raw = store.get(REGISTRATIONS_KEY);
    if (!Array.isArray(raw)) return [];
    return raw.flatMap((entry) => {
      const parsed = StoredSchema.safeParse(entry);
      if (!parsed.success) logger.warn('webhooks: dropped a malformed saved registration');
      return parsed.success ? [parsed.data] : [];
    });
  };
  const save = (records: Stored[]) => store.set(REGISTRATIONS_KEY, records);
  const pendingAcks = new Map<string, string>();
  let flushTimer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    clearTimeout(flushTimer);
    flushTimer = undefined;
    for (const [id, messageId] of pendingAcks) store.set(ackKey(id), messageId);
    pendingAcks.clear();
  };

  const seal = async (text: string): Promise<Sealed | null> => (storage() === 'memory-only' ? null : { backend: cipher.backend, data: await cipher.encrypt(text) });
  const unseal = async (webhookId: string, sealed: Sealed | null): Promise<string | null> => {
    if (!sealed || sealed.backend !== cipher.backend || storage() === 'memory-only') return null;
    try {
      return await cipher.decrypt(sealed.data);
    } catch {
      logger.warn('webhooks: a saved webhook secret or tap credential could not be decrypted', { webhookId });
      return null;
    }
  };

  return {
    async load() {
      return Promise.all(
        stored().map(async (record) => ({
          id: record.id,
          routing: record.routing,
          ...(record.label !== undefined && { label: record.label }),
          listenerId: record.listenerId,
          tapId: record.tapId,
          secret: await unseal(record.id, record.secretRecord),
          tapCredential: record.tapCredentialRecord === undefined ? undefined : await unseal(record.id, record.tapCredentialRecord),
        })),
      );
    },
    async add(input) {
      const previous = stored().find((record) => record.id === input.id);
      const secretRecord = await seal(input.secret);
      const tapCredentialRecord = input.tapCredential === undefined ? undefined : await seal(input.tapCredential);
      const record: Stored = {
        v: 1,
        id: input.id,
        routing: input.routing,
        ...(input.label !== undefined && { label: input.label }),
        listenerId: previous?.listenerId ?? `hubdesk-${randomUUID()}`,
        tapId: previous?.tapId ?? `hubdesk-tap-${randomUUID()}`,
        secretRecord,
        ...(tapCredentialRecord !== undefined && { tapCredentialRecord }),
      };
      // Read again after the await: another add may have finished meanwhile.
      save([...stored().filter((r) => r.id !== input.id), record]);
      const { v: _v, secretRecord: _s, tapCredentialRecord: _t, ...rest } = record;
      return { ...rest, secret: input.secret, tapCredential: input.tapCredential };
    },
    remove(id) {
      save(stored().filter((record) => record.id !== id));
      pendingAcks.delete(id);
      store.delete(ackKey(id));
    },
    lastAck(id) {
      const value = pendingAcks.get(id) ?? store.get(ackKey(id));
      return typeof value === 'string' && value.length > 0 && value.length <= 200 ? value : undefined;
    },
    setLastAck(id, messageId) {
      pendingAcks.set(id, messageId);
      if (flushTimer === undefined) {
        flushTimer = setTimeout(flush, ACK_FLUSH_MS);
        flushTimer.unref?.();
      }
    },
    flush,
  };
}

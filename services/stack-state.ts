/**
 * The stack's state directory (docs/services.md, "Keeping state across a restart"): what real services
 * keep across a restart, so an app signed in before the stack was killed comes back by itself after it
 * starts again. Two files, each written whole (common/atomic-write.ts, mode 0600):
 * - `stack.json`, written once the stack listens (and when a hub moves): the host, every port, the
 *   cloud's signing key, the hubs' identity keys, the CA and the LAN certificate;
 * - `grants.json`, written on every change of the cloud's grants (services/cloud/grants.ts): grants and
 *   the hashes of their tokens.
 * Everything read back is validated; a file that is not what the stack wrote stops the start with a
 * StackStateError naming the file and what is wrong in it.
 */
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomically } from '../common/atomic-write';
import { SigningKeySchema } from './cloud/delegation-signer';
import { type GrantSnapshot, GrantSnapshotSchema } from './cloud/grants';

export const STACK_STATE_FILE = 'stack.json';
export const GRANTS_STATE_FILE = 'grants.json';
/** No state file the stack writes comes near this; a larger one is refused unread. */
export const MAX_STATE_FILE_BYTES = 16 * 1024 * 1024;

const PortSchema = z.number().int().min(1).max(65_535);
const PemSchema = z
  .string()
  .max(16_384)
  .regex(/^-----BEGIN [A-Z ]+-----\r?\n[\s\S]+-----END [A-Z ]+-----\s*$/);
const HubIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

export const HubPortsSchema = z.object({ http: PortSchema, https: PortSchema.nullable(), relay: PortSchema }).strict();
export type HubPorts = z.infer<typeof HubPortsSchema>;

export const KeptStackSchema = z
  .object({
    version: z.literal(1),
    /** The address the stack listened on: the certificate names it, the ports are its. */
    host: z.string().min(1).max(255),
    ports: z.object({ cloud: PortSchema, forwarder: PortSchema, portal: PortSchema, hubs: z.record(HubIdSchema, HubPortsSchema) }).strict(),
    cloudSigningKey: SigningKeySchema,
    /** Each hub's Ed25519 identity key, PKCS #8 PEM. */
    hubIdentityKeys: z.record(HubIdSchema, PemSchema),
    certificates: z.object({ ca: PemSchema, server: z.object({ key: PemSchema, cert: PemSchema }).strict() }).strict(),
  })
  .strict();
export type KeptStack = z.infer<typeof KeptStackSchema>;

/** A state file the stack cannot use: the message says which and why, for the operator. */
export class StackStateError extends Error {
  override name = 'StackStateError';
}

export interface StackState {
  /** What the last run kept; undefined in a directory never used. */
  stack: KeptStack | undefined;
  grants: GrantSnapshot | undefined;
  saveStack(stack: KeptStack): void;
  saveGrants(grants: GrantSnapshot): void;
}

/** Opens (making it, mode 0700, when absent) the state directory and reads what it holds; throws StackStateError for a file it cannot use. */
export function openStackState(dir: string): StackState {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new StackStateError(`the state directory ${dir} cannot be made: ${(error as Error).message}`);
  }
  const stackPath = join(dir, STACK_STATE_FILE);
  const grantsPath = join(dir, GRANTS_STATE_FILE);
  return {
    stack: readStateFile(stackPath, KeptStackSchema),
    grants: readStateFile(grantsPath, GrantSnapshotSchema),
    saveStack: (stack) => writeFileAtomically(stackPath, JSON.stringify(KeptStackSchema.parse(stack), null, 2) + '\n'),
    saveGrants: (grants) => writeFileAtomically(grantsPath, JSON.stringify(grants) + '\n'),
  };
}

function readStateFile<T>(path: string, schema: z.ZodType<T>): T | undefined {
  const refuse = (why: string) =>
    new StackStateError(`${path} ${why}. Fix or remove it (the stack then starts afresh, and apps signed in to it must sign in again).`);
  let size: number;
  try {
    size = statSync(path).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw refuse(`cannot be read (${(error as Error).message})`);
  }
  if (size > MAX_STATE_FILE_BYTES) throw refuse(`is ${size} bytes, more than the ${MAX_STATE_FILE_BYTES} a state file may have`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw refuse(`is not JSON (${(error as Error).message})`);
  }
  const result = schema.safeParse(parsed);
  if (!result.success) {
    const [issue] = result.error.issues;
    throw refuse(`is not a state file this stack wrote: ${issue!.path.join('.') || '(the whole file)'}: ${issue!.message}`);
  }
  return result.data;
}

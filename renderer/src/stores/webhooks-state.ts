/**
 * The webhooks store's state (webhooks-store.ts) and what its parts share: the registrations
 * (webhook-registrations-slice.ts), the selected message (inspector-selection-slice.ts), the filter
 * (inspector-search-slice.ts) and the list itself (webhooks-store.ts, webhook-entry-list.ts).
 */
import type { StoreApi } from 'zustand/vanilla';
import type { Envelope } from '../../../common/app-error';
import type {
  Bridge,
  FirstWebhook,
  HistorySettings,
  HistoryView,
  NewWebhookInput,
  ReplayRequest,
  ReplayResult,
  SignatureVerdict,
  WebhookConnection,
  WebhookEdit,
  WebhookEntry,
  WebhookFullMessage,
  WebhookRegistrationInput,
  WebhookRouting,
  WebhookView,
} from '../../../common/ipc-contract';
import type { MessageFilter } from '../../../common/message-filter';
import type { Schedule } from '../../../common/schedule';
import type { UiError } from './settle';
import type { ArchiveFormat, exportMessages, importMessages } from './webhook-archive-io';

/** The selected message in full, as far as it has been fetched from main. */
export type MessageDetailsState =
  | { status: 'idle' }
  | { status: 'loading'; key: string }
  | { status: 'kept'; key: string; message: WebhookFullMessage; signature: SignatureVerdict }
  | { status: 'gone'; key: string; reason: string }
  | { status: 'error'; key: string; error: UiError };

/** The last replay of the selected message (reset when another is selected). */
export type ReplayState =
  | { status: 'idle' }
  | { status: 'sending'; key: string }
  | { status: 'done'; key: string; result: ReplayResult }
  | { status: 'error'; key: string; error: UiError };

/** Where to and what to send: the message as received unless edited. */
export type ReplayOptions = Pick<ReplayRequest, 'target' | 'headers' | 'body'>;

export type RegistrationsState = { status: 'loading' } | { status: 'loaded'; views: WebhookView[] } | { status: 'error'; error: UiError };

export type WebhookAction = 'add' | 'edit' | 'create' | 'recreate' | 'remove' | 'undoRemove' | 'clear' | 'openPortal' | 'setHistory';

export interface WebhooksState {
  registrations: RegistrationsState;
  /** Latest connection per webhook id (events may arrive before the list). */
  connections: Readonly<Record<string, WebhookConnection>>;
  /** Shown entries, newest first. */
  entries: readonly WebhookEntry[];
  /** Main answered the first page of what it keeps (it reads the saved history first, which takes seconds for a large one). */
  listed: boolean;
  paused: boolean;
  /** Entries that arrived while paused, newest first; shown on resume. */
  held: readonly WebhookEntry[];
  selectedKey: string | null;
  /** The full message of the selected entry (fetched on selection). */
  details: MessageDetailsState;
  replay: ReplayState;
  /** What the list is narrowed to (empty: everything). While it is not empty, the list is main's answer, asked again as messages arrive. */
  filter: MessageFilter;
  /** Main is looking for the filter's matches. */
  searching: boolean;
  /** Why main refused the filter (a key path that does not parse). */
  filterError: string | null;
  setFilter(filter: MessageFilter): Promise<void>;
  /** Sends the selected message again (main does it: it has the bytes). */
  replaySelected(options: ReplayOptions): Promise<void>;
  /** Builds an export file of the shown messages, or of the selected one only. */
  exportArchive(format: ArchiveFormat, onlySelected: boolean): ReturnType<typeof exportMessages>;
  /** Adds the messages of a HAR or NDJSON file (`open` gives its bytes), read in pieces paced by `pacing`. */
  importArchive(open: Parameters<typeof importMessages>[1], pacing: Parameters<typeof importMessages>[2]): ReturnType<typeof importMessages>;
  /** Bytes accounted for shown and held entries together (at most the budget). */
  bytes: number;
  pending: WebhookAction | null;
  actionError: UiError | null;
  load(): Promise<void>;
  add(input: WebhookRegistrationInput): Promise<boolean>;
  /** Changes a registration in place (routing, signing secret, Forward to); true when main took it. */
  edit(edit: WebhookEdit): Promise<boolean>;
  /** The webhook made last here (new-webhook.tsx), with the first message to send it; until dismissed. */
  first: FirstWebhook | null;
  /** "New webhook" (in the portal) or "Use the demo webhook": main makes and registers it; true when it did. */
  create(how: { portal: NewWebhookInput } | { demo: WebhookRouting }): Promise<boolean>;
  /** Makes a webhook the forwarder no longer knows again (a new intake URL), removing the old registration. */
  recreate(id: string): Promise<boolean>;
  dismissFirst(): void;
  /** Removes it; its messages stay listed until WEBHOOK_UNDO_MS has passed without `undoRemove`. */
  remove(id: string): Promise<void>;
  /** The registration removed last, while it can still be brought back. */
  removed: { id: string; label: string } | null;
  undoRemove(): Promise<void>;
  /** Opens the developer portal in the system browser. */
  openPortal(): Promise<void>;
  pause(): void;
  resume(): void;
  /** Forgets every message, here and in main (memory and disk). */
  clear(): Promise<void>;
  /** The history's settings and figures as main last said (null until read). */
  history: HistoryView | null;
  loadHistory(): Promise<void>;
  setHistory(settings: HistorySettings): Promise<void>;
  select(key: string | null): void;
}

export type WebhooksStore = StoreApi<WebhooksState> & { dispose(): void };

/** What the store's parts are given: its state, main, the clock, and what they call of each other. */
export interface WebhooksContext {
  bridge: WebhooksBridge;
  get: StoreApi<WebhooksState>['getState'];
  set: StoreApi<WebhooksState>['setState'];
  schedule: Schedule;
  /** Runs an action on main: `pending` while it runs, `actionError` when it fails; true when it did. */
  run(action: WebhookAction, call: () => Promise<Envelope<unknown>>): Promise<boolean>;
  /** How many entries the list shows at most (one of `withBounds`' two bounds, with the bytes). */
  capacity: number;
  /** The shown and held lists cut to their bounds (webhook-entry-list.ts `withinBounds`). */
  withBounds(held: WebhookEntry[], entries: WebhookEntry[]): { held: WebhookEntry[]; entries: WebhookEntry[]; bytes: number };
}

export type WebhooksBridge = Pick<Bridge, 'webhooks' | 'inspector' | 'on'>;

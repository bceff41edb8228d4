import type { z } from 'zod';
import type { NoticeBoard } from './notices.ts';
import type { UnreadRegistry } from './unread.ts';
import type { ChannelName, ChannelResponse, Channels } from '../../shared/ipc.ts';
import type { ApiRequest } from './client/client.ts';
import type { DeskApprovals } from './approvals/deskApprovals.ts';
import type { TeamWiring } from './team/wiring.ts';
import type { Profile } from './profiles/profile.ts';
import type { BalancesService } from './balances/service.ts';
import type { HistoryService } from './history/service.ts';
import type { RebalanceService } from './rebalance/service.ts';
import type { SubAccountsService } from './subaccounts/service.ts';
import type { Session } from './session.ts';
import type { SettingsStore } from './settings.ts';
import type { VaultPort } from './vaultPort.ts';
import type { BatchArchive } from './store/batchArchive.ts';

// What every domain's handlers are given and must answer: its own module, so that the domains' handler
// files and the one merge point (handlers.ts) depend on it and not on each other.

export interface HandlerDeps {
  session: Session;
  settings: SettingsStore;
  vault: VaultPort | null;
  /** A request signed by the active profile's key, its answer checked against the record's schema. */
  call<S extends z.ZodType>(req: ApiRequest, schema: S): Promise<z.output<S>>;
  /** The active profile's cached histories (docs/histories.md). */
  history: HistoryService;
  log?: (line: string) => void;
  /** The active profile's balances (sub-account matrix, alerts, snapshots). */
  balances(): BalancesService;
  /** Operators, policy, requests and approvals; null when the desk keeps no data folder (then it sends no writes). */
  approvals: DeskApprovals | null;
  /** Which team store each governance domain uses (joining, founding, leaving); null when `approvals` is. */
  team: TeamWiring | null;
  /**
   * The desk's Sandbox for rehearsing a team (team/rehearsal.ts): its data folder, its own Sandbox's
   * credentials.json, and the built-in profile a join points at another desk's Sandbox; null without a data folder.
   */
  sandbox: { dataDir: string; credentialsPath?: string; builtIn?: Profile } | null;
  /** Plans, templates and batches of rebalances; null without a data folder. */
  rebalance: RebalanceService | null;
  /** Sub-account management and the incident page; null without a data folder. */
  subAccounts: SubAccountsService | null;
  /** Records the active profile's latest list answers set aside as malformed. */
  unread: UnreadRegistry;
  notices: NoticeBoard;
  /** Which payout and rebalance batches the operator archived; null without a data folder. */
  archive: BatchArchive | null;
  /** The link to the exchange and the request budget as they stand now (the status bar's picture). */
  status(): ChannelResponse<'deskStatus'>;
  /** The window painted its first figures: what waited for that paint may run (startUp.ts). */
  windowPainted(): void;
}

type Parsed<C extends ChannelName> = z.output<Channels[C]['request']>;
/** What a handler returns is checked against the channel's response schema before it leaves the core. */
type Answer<C extends ChannelName> = z.input<Channels[C]['response']>;

export type Handlers = { [C in ChannelName]: (req: Parsed<C>, deps: HandlerDeps) => Promise<Answer<C>> };

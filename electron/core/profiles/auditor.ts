import type { ChannelName } from '../../../shared/ipc.ts';
import type { ConfirmChannelName } from '../../../shared/confirm.ts';

// What an auditor profile may do from the window: read the desk's own records and the team's, verify
// them, and look after profiles, the vault and settings. Every other channel (the exchange's reads, every
// write, draft, ticket and signature) is refused in the core while one is active, whatever a script in the
// window sends: a list of what is let through, so that a channel added later is refused until it is named here.

export const AUDITOR_CHANNELS: ReadonlySet<ChannelName> = new Set<ChannelName>([
  'profileCurrent',
  'profilesList',
  'profileSave',
  'profileSaveAuditor',
  'profileRemove',
  'profileSelect',
  'vaultStatus',
  'vaultUnlock',
  'vaultLock',
  'vaultSetPassphrase',
  'userActive',
  'settingsGet',
  'settingsSave',
  'intentsList',
  'journalStatus',
  'journalEntries',
  'journalVerify',
  'journalExport',
  'journalAuditKeys',
  'approvalsState',
  'requestStatus',
  'batchStatus',
  'addressBookList',
  'unreadRecords',
  'noticesList',
  'noticesRead',
  'deskStatus',
  'windowPainted',
  'teamTest',
  'teamVerify',
  // Joining from an auditor profile keeps the membership read only (team/membership.ts).
  'teamStatus',
  'teamJoin',
  'teamLeave',
]);

/** The confirmation window shows what waits (nothing can) and may dismiss it; it signs nothing for an auditor. */
export const AUDITOR_CONFIRM_CHANNELS: ReadonlySet<ConfirmChannelName> = new Set<ConfirmChannelName>(['confirmState', 'confirmDecline']);

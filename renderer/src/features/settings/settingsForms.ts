import { z } from 'zod';
import { channels, Settings, type VaultStatus } from '../../../../shared/ipc.ts';

// The schemas of the Settings page's small forms: the contract's own request schemas on what each form
// sends, with the field names of the request, so that the core's refusals land where zod's do.

export interface PassphraseValues {
  current: string;
  next: string;
  again: string;
  leave_keychain: boolean;
}
export const PASSPHRASE_DEFAULTS: PassphraseValues = { current: '', next: '', again: '', leave_keychain: false };

/** The request for the vault as it stands: the current passphrase only when one is set, the move only off a keychain. */
export function passphraseRequest(v: PassphraseValues, s: Pick<VaultStatus, 'backend' | 'passphrase_set'>) {
  return {
    ...(s.passphrase_set ? { current: v.current } : {}),
    ...(s.backend === 'safeStorage' && v.leave_keychain ? { leave_keychain: true as const } : {}),
    next: v.next,
  };
}

const PassphraseFields = z.object({ current: z.string(), next: z.string(), again: z.string(), leave_keychain: z.boolean() });

export function passphraseFormSchema(status: () => Pick<VaultStatus, 'backend' | 'passphrase_set'>) {
  return PassphraseFields.superRefine((v, ctx) => {
    const checked = channels.vaultSetPassphrase.request.safeParse(passphraseRequest(v, status()));
    if (!checked.success)
      for (const issue of checked.error.issues)
        ctx.addIssue({ code: 'custom', path: [String(issue.path[0] ?? 'next')], message: issue.message });
    if (v.again !== v.next) ctx.addIssue({ code: 'custom', path: ['again'], message: 'the two new passphrases differ' });
  }).transform((v) => passphraseRequest(v, status()));
}

/** The preferences as typed: whole numbers, under the contract's names. */
export interface PreferencesValues {
  idle_lock_minutes: string;
  settle_seconds: string;
}

export const preferencesOf = (s: Settings): PreferencesValues => ({
  idle_lock_minutes: String(s.idle_lock_minutes),
  settle_seconds: String(s.settle_seconds),
});

const numbersOf = (v: PreferencesValues) => ({
  idle_lock_minutes: Number(v.idle_lock_minutes.trim()),
  settle_seconds: Number(v.settle_seconds.trim()),
});

/** Whole numbers first (so that "ten" is not read as NaN), then the contract's Settings and its bounds, for each field. */
export const PreferencesFormSchema = z
  .object({ idle_lock_minutes: z.string(), settle_seconds: z.string() })
  .superRefine((v, ctx) => {
    const said = new Set<string>();
    for (const k of ['idle_lock_minutes', 'settle_seconds'] as const) {
      if (/^\d{1,6}$/.test(v[k].trim())) continue;
      said.add(k);
      ctx.addIssue({ code: 'custom', path: [k], message: 'a whole number of at most 6 digits' });
    }
    const checked = Settings.safeParse(numbersOf(v));
    if (checked.success) return;
    for (const issue of checked.error.issues) {
      const k = String(issue.path[0]);
      if (said.has(k)) continue;
      said.add(k);
      ctx.addIssue({ code: 'custom', path: [k], message: issue.message });
    }
  })
  .transform(numbersOf);

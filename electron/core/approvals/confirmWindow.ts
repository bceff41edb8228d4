import type { ConfirmState } from '../../../shared/confirm.ts';
import type { Role } from '../../../shared/api/roles.ts';
import { InputError } from '../errors.ts';
import type { VaultPort } from '../vaultPort.ts';
import type { DomainGovernance } from './domains.ts';
import { asInput } from './inputErrors.ts';
import type { Approvals, NewOperatorKey } from './service.ts';

// The confirmation window: what waits there for a signature and who may sign it, signing a ticket with
// an operator's passphrase (then an approved request goes out), the first operator and a wedged desk's
// recovery (both under the vault's own credential), a new operator's proposal and an operator's own key.

export interface ConfirmWindowOptions {
  domains: DomainGovernance;
  vault: VaultPort | null;
  onChange: () => void;
  /** Hands every approved request of the active profile to its executor (sending.ts). */
  dispatch: () => Promise<void>;
}

export class ConfirmWindow {
  constructor(private readonly opts: ConfirmWindowOptions) {}

  notify(): void {
    this.opts.onChange();
  }

  async confirmState(): Promise<ConfirmState> {
    let forActive: ReturnType<DomainGovernance['forActive']>;
    try {
      forActive = this.opts.domains.forActive();
    } catch (e) {
      return {
        tickets: [],
        operators: [],
        first_operator: null,
        wedged: null,
        recovery: null,
        unavailable: (e as Error).message,
        withdrawn: [],
      };
    }
    const { approvals } = forActive;
    let s: Awaited<ReturnType<Approvals['load']>>;
    try {
      s = await approvals.load();
      await approvals.sweepTickets();
    } catch (e) {
      // The team store is offline: a freeze can still be signed here, against the operators last read.
      const last = (e as Error).name === 'TeamStoreOfflineError' ? approvals.operatorsLastRead() : null;
      if (!last) throw e;
      return {
        tickets: approvals.pendingTickets(),
        operators: last,
        first_operator: null,
        wedged: null,
        recovery: null,
        unavailable: null,
        withdrawn: approvals.withdrawnTickets(),
      };
    }
    return {
      tickets: approvals.pendingTickets(),
      operators: approvals.activeOperators(),
      first_operator: s.operators.size === 0 ? approvals.credential : null,
      wedged:
        s.operators.size === 0 ? null : await approvals.wedged().then((why) => (why ? { why, credential: approvals.credential } : null)),
      recovery: s.recovery ? { effective_at: s.recovery.effective_at, reason: s.recovery.reason } : null,
      unavailable: null,
      withdrawn: approvals.withdrawnTickets(),
    };
  }

  async sign(ticket: string, operator: string, passphrase: string): Promise<{ signed: true; title: string }> {
    const { approvals } = this.opts.domains.forActive();
    const t = await approvals.sign(ticket, operator, passphrase).catch((e: unknown) => {
      this.opts.onChange();
      return asInput(e);
    });
    // What this signature put in force may make other tickets stale: they leave the window now, with why.
    await approvals.sweepTickets().catch(() => {});
    this.opts.onChange();
    void this.opts.dispatch();
    return { signed: true, title: t.title };
  }

  /** A wedged desk's recovery: the vault's own credential (none on a Sandbox-only desk), then the cooling-off. */
  async recover(reason: string, vaultPassphrase: string | undefined): Promise<{ effective_at: number }> {
    const { approvals } = this.opts.domains.forActive();
    if (approvals.credential === 'vault') {
      if (!this.opts.vault) throw new InputError([], 'this desk has no vault.');
      await this.opts.vault.unlock(vaultPassphrase ?? '');
    }
    const r = await approvals.recover(reason).catch(asInput);
    this.opts.onChange();
    return r;
  }

  async createFirstOperator(name: string, passphrase: string, vaultPassphrase: string | undefined): Promise<string> {
    const { approvals } = this.opts.domains.forActive();
    if (approvals.credential === 'vault') {
      // The vault's own credential, so that a script in the window cannot become the first operator.
      if (!this.opts.vault) throw new InputError([], 'this desk has no vault.');
      await this.opts.vault.unlock(vaultPassphrase ?? '');
    }
    const id = await approvals.createFirstOperator(name, passphrase).catch(asInput);
    this.opts.onChange();
    return id;
  }

  async proposeOperator(name: string, newKey: NewOperatorKey | string, by: string, passphrase: string, role?: Role): Promise<string> {
    const { approvals } = this.opts.domains.forActive();
    const id = await approvals.proposeOperator(name, newKey, by, passphrase, role).catch(asInput);
    this.opts.onChange();
    return id;
  }

  async makeOwnKey(name: string, passphrase: string): Promise<{ id: string; enrolment: string; fingerprint: string }> {
    return this.opts.domains.forActive().approvals.makeOwnKey(name, passphrase).catch(asInput);
  }
}

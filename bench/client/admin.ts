// The Sandbox's admin API (simulator/README.md (endpoints section), "Admin routes"): copies of the bench world so that
// each client has its own main account and UID budget, record counts for the benchmark's minimums,
// the server clock, and deposits credited by hand.

import type { SandboxCredentials, SandboxKey } from '../../shared/sandbox.ts';

export type KeyPair = SandboxKey;

export interface RecordCounts {
  withdrawals: number;
  deposits: number;
  sub_accounts: number;
}

export class SandboxAdmin {
  constructor(private readonly creds: SandboxCredentials) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.creds.admin_url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${this.creds.admin_token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`admin ${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  }

  /** A whole copy of the running world under a new main account; its main key has every permission. */
  async copyWorld(): Promise<KeyPair> {
    const r = await this.call<{ main: KeyPair }>('POST', '/accounts', {});
    return r.main;
  }

  /** The Sandbox's clock, in whole Unix seconds. */
  async nowSec(): Promise<number> {
    const r = await this.call<{ now: number }>('GET', '/clock');
    return Math.floor(r.now);
  }

  async limitsEnabled(): Promise<boolean> {
    return (await this.call<{ enabled: boolean }>('GET', '/limits')).enabled;
  }

  /** Records of the account with from <= timestamp <= to, as the list endpoints bound them. */
  counts(uid: string, from: number, to: number): Promise<RecordCounts> {
    return this.call<RecordCounts>('GET', `/counts?uid=${encodeURIComponent(uid)}&from=${from}&to=${to}`);
  }

  async creditDeposit(uid: string, currency: string, amount: string): Promise<void> {
    await this.call('POST', '/deposits', { uid, currency, amount });
  }
}

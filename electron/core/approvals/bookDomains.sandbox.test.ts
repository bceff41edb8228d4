import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressBookEntryView } from '../../../shared/addressBook.ts';
import type { ProfileSummary } from '../../../shared/ipc.ts';
import type { ConfirmCore, Core } from '../core.ts';
import { openDesk } from '../desk.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { DEFAULT_COOLING_OFF_MS } from '../governance/state.ts';
import { addToBook, ensureOperator } from './testkit/governed.ts';
import { ok } from '../testkit/sandboxCore.ts';

// Each governance domain keeps its own address book. The Sandbox rehearses with a short cooling-off
// (TREASURY_DESK_COOLING_OFF_HOURS, here 0); a live profile's new destination must still wait the default,
// and an entry signed under one domain's operators must not count, or be in the way, under the other's.

const VAULT = 'book domains vault passphrase';
const TRX = 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA';
const withdrawal = { kind: 'withdrawal' as const, input: { currency: 'USDT', chain: 'TRX', address: TRX, amount: '12' } };
let core: Core & ConfirmCore;

const book = () => ok<AddressBookEntryView[]>(core.invoke('addressBookList', {}));

const sb = useSandbox('book-domains', { limits: false });
beforeAll(() => {
  core = openDesk({ home: join(sb.dir, 'home'), sandboxCredentialsPath: sb.credentialsPath, log: () => {}, coolingOffMs: 0 });
});
afterAll(async () => {
  await core?.close();
});

describe('address books by governance domain', () => {
  it("a stored profile's new destination waits the default cooling-off, whatever the Sandbox's is", async () => {
    await ok(core.invoke('vaultSetPassphrase', { next: VAULT }));
    const saved = await ok<ProfileSummary>(
      core.invoke('profileSave', {
        name: 'Live-like',
        environment: 'futures',
        base_url: sb.creds.base_url,
        svc: 'Svc',
        key: sb.creds.main.key,
        secret: sb.creds.main.secret,
        permissions: { spot: 'write', futures: 'write', delivery: 'write', wallet: 'write', withdraw: 'write', unified: false },
        sub_keys: [],
      }),
    );
    await ok(core.invoke('profileSelect', { id: saved.id }));
    const operator = await ensureOperator(core, VAULT);
    await addToBook(core, { currency: 'USDT', chain: 'TRX', address: TRX }, operator);
    const [entry] = await book();
    expect(entry).toMatchObject({ address: TRX, refused: null });
    expect(entry!.ready_at - entry!.added_at).toBe(DEFAULT_COOLING_OFF_MS);
    const drafted = await core.invoke('approvalsDraft', { write: withdrawal });
    expect(drafted).toMatchObject({ ok: false, error: { message: expect.stringMatching(/unknown-destination/) } });
  });

  it("the Sandbox profile's book is apart: the vault's entry is not in it, and its own counts at once", async () => {
    await ok(core.invoke('profileSelect', { id: 'sandbox' }));
    expect(await book()).toEqual([]);
    const operator = await ensureOperator(core);
    await addToBook(core, { currency: 'USDT', chain: 'TRX', address: TRX }, operator);
    const [entry] = await book();
    expect(entry).toMatchObject({ address: TRX, refused: null, ready_at: entry!.added_at });
    expect(await core.invoke('approvalsDraft', { write: withdrawal })).toMatchObject({ ok: true });
  });
});

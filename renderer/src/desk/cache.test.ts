import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { CHANNEL_NAMES, STALE_AFTER_EVENT, type ChannelName, type IntentPage, type IntentView } from '../../../shared/ipc.ts';
import { afterCall, applyEvent, deskKeys } from './cache.ts';

// The renderer's cache against the contract: an event refetches exactly what STALE_AFTER_EVENT names,
// and an intent's new state is written into the cached list instead of refetching it. Each watched
// query counts its fetches.

const READS = ['profileCurrent', 'profilesList', 'vaultStatus', 'settingsGet', 'totalBalance', 'intentsList'] as const satisfies readonly ChannelName[];

function intent(id: string, created_at: number, state: IntentView['state'] = 'pending_approval'): IntentView {
  return { id, kind: 'withdrawal', client_id: `c-${id}`, body: { amount: '1' }, state, created_at, updated_at: created_at, attempts: 0, absent_lookups: 0 };
}

async function watched() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  const fetches = Object.fromEntries(READS.map((n) => [n, 0])) as Record<(typeof READS)[number], number>;
  const page: IntentPage = { items: [intent('b', 2000), intent('a', 1000)], next: null };
  const unsubscribe: Array<() => void> = [];
  for (const name of READS) {
    const observer = new QueryObserver(qc, {
      queryKey: deskKeys.query(name, name === 'intentsList' ? { unfinished_only: false, limit: 100 } : {}),
      queryFn: async () => {
        fetches[name]++;
        return name === 'intentsList' ? structuredClone(page) : { n: fetches[name] };
      },
    });
    unsubscribe.push(observer.subscribe(() => {}));
  }
  await expect.poll(() => Object.values(fetches).every((n) => n === 1)).toBe(true);
  const since = () => {
    const before = { ...fetches };
    return () => Object.fromEntries(READS.map((n) => [n, fetches[n] - before[n]]));
  };
  return { qc, fetches, since, close: () => unsubscribe.forEach((u) => u()) };
}

describe('the renderer cache refetches only what the contract says an event made stale', () => {
  it.each(['vault', 'profiles', 'rateLimits'] as const)('a %s event', async (event) => {
    const w = await watched();
    const delta = w.since();
    const payload = { vault: { locked: false, backend: null, passphrase_set: false, keychain_note: null }, profiles: { active_id: null }, rateLimits: { buckets: [] } }[event];
    await applyEvent(w.qc, event, payload as never);
    const stale: readonly ChannelName[] = STALE_AFTER_EVENT[event];
    expect(delta()).toEqual(Object.fromEntries(READS.map((n) => [n, stale.includes(n) ? 1 : 0])));
    w.close();
  });

  it('an intent event writes the intent into the list (no refetch of it) and refetches the balance', async () => {
    const w = await watched();
    const delta = w.since();
    await applyEvent(w.qc, 'intent', intent('a', 1000, 'done'));
    await applyEvent(w.qc, 'intent', intent('c', 3000));
    expect(delta()).toEqual({ profileCurrent: 0, profilesList: 0, vaultStatus: 0, settingsGet: 0, totalBalance: 2, intentsList: 0 });
    const page = w.qc.getQueryData<IntentPage>(deskKeys.query('intentsList', { unfinished_only: false, limit: 100 }))!;
    expect(page.items.map((i) => [i.id, i.state])).toEqual([['c', 'pending_approval'], ['b', 'pending_approval'], ['a', 'done']]);
    w.close();
  });

  it('a settings save refetches the settings only; a write call refetches nothing', async () => {
    const w = await watched();
    const delta = w.since();
    await afterCall(w.qc, 'settingsSave', { idle_lock_minutes: 5, settle_seconds: 30 });
    await afterCall(w.qc, 'writeApprove', intent('b', 2000, 'accepted'));
    expect(delta()).toEqual({ profileCurrent: 0, profilesList: 0, vaultStatus: 0, settingsGet: 1, totalBalance: 0, intentsList: 0 });
    expect(CHANNEL_NAMES).toContain('settingsSave');
    w.close();
  });
});

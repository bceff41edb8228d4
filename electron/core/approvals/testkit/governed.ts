import type { WriteRequest } from '../../../../shared/api/writes.ts';
import type { ConfirmState } from '../../../../shared/confirm.ts';
import type { IntentView } from '../../../../shared/ipc.ts';
import type { z } from 'zod';
import type { ConfirmCore, Core } from '../../core.ts';
import { ok } from '../../testkit/sandboxCore.ts';

// For tests that need a write sent the way the desk now sends one: drafted from the main window's
// channels, signed through the confirmation channels by an operator. The desk must run with a
// cooling-off of 0 so that an address-book entry counts at once.

export const TEST_OPERATOR = { name: 'Test operator', passphrase: 'test operator passphrase' };

/** The operator's id, creating it as the first operator when the desk has none. */
export async function ensureOperator(core: Core & ConfirmCore, vaultPassphrase?: string): Promise<string> {
  const st = await ok<ConfirmState>(core.invokeConfirm('confirmState', {}));
  const found = st.operators.find((o) => o.name === TEST_OPERATOR.name);
  if (found) return found.id;
  const made = await ok<{ id: string }>(
    core.invokeConfirm('confirmCreateFirstOperator', {
      name: TEST_OPERATOR.name,
      passphrase: TEST_OPERATOR.passphrase,
      ...(vaultPassphrase ? { vault_passphrase: vaultPassphrase } : {}),
    }),
  );
  return made.id;
}

/**
 * Proposes another operator, signed by the test operator; under the default policy (one approval) and a
 * cooling-off of 0 they are in force at once. For policies that need more than one signer.
 */
export async function addOperator(core: Core & ConfirmCore, name: string, passphrase: string): Promise<string> {
  const by = await ensureOperator(core);
  const st = await ok<ConfirmState>(core.invokeConfirm('confirmState', {}));
  const found = st.operators.find((o) => o.name === name);
  if (found) return found.id;
  const made = await ok<{ id: string }>(
    core.invokeConfirm('confirmProposeOperator', { name, new_passphrase: passphrase, by, passphrase: TEST_OPERATOR.passphrase }),
  );
  return made.id;
}

/** Adds a destination to the address book, signed by the operator; one already there is left as it is. */
export async function addToBook(
  core: Core & ConfirmCore,
  entry: { currency: string; chain: string; address: string; memo?: string },
  operator: string,
): Promise<void> {
  const asked = await core.invoke('addressBookAdd', entry);
  if (!asked.ok) {
    if (/in the address book already/.test(asked.error.message)) return;
    throw new Error(asked.error.message);
  }
  await ok(
    core.invokeConfirm('confirmSign', {
      ticket: (asked.data as { ticket: string }).ticket,
      operator,
      passphrase: TEST_OPERATOR.passphrase,
    }),
  );
}

/** Drafts and signs a write under the default policy (one signed confirmation); answers with its id (the intent's) at once. */
export async function signGoverned(
  core: Core & ConfirmCore,
  write: z.input<typeof WriteRequest>,
  vaultPassphrase?: string,
): Promise<string> {
  const operator = await ensureOperator(core, vaultPassphrase);
  if (write.kind === 'withdrawal') {
    const { currency, chain, address, memo } = write.input;
    await addToBook(core, { currency, chain, address, ...(memo ? { memo } : {}) }, operator);
  }
  const t = await ok<{ ticket: string; ref: string }>(core.invoke('approvalsDraft', { write }));
  await ok(core.invokeConfirm('confirmSign', { ticket: t.ticket, operator, passphrase: TEST_OPERATOR.passphrase }));
  return t.ref;
}

/** signGoverned, then waits until the exchange's answer is journaled. */
export async function sendGoverned(
  core: Core & ConfirmCore,
  write: z.input<typeof WriteRequest>,
  vaultPassphrase?: string,
): Promise<IntentView> {
  const ref = await signGoverned(core, write, vaultPassphrase);
  for (let i = 0; i < 400; i++) {
    const list = await core.invoke('intentsList', {});
    const v = list.ok ? (list.data as { items: IntentView[] }).items.find((x) => x.id === ref) : undefined;
    if (v && !['pending_approval', 'approved', 'in_flight'].includes(v.state)) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the governed write ${ref} did not get an answer`);
}

// How one move between two of the operator's accounts becomes requests (§4.1). The main account's spot
// account is the counterpart of every main↔sub transfer; a margin or cross-margin account first moves to
// (or from) its owner's spot account. Sub↔sub goes through the main spot account as two main/sub transfers,
// though §4.1 has a direct endpoint: that one takes no client id, so after an unclear answer or a restored
// data folder nothing could prove whether it landed, while each main/sub leg is looked up by its
// client_order_id. The price is one more request per move against §8.2, which the planner counts.

export type Kind = 'spot' | 'margin' | 'cross_margin' | 'futures' | 'delivery' | 'options';
export const KINDS: readonly Kind[] = ['spot', 'margin', 'cross_margin', 'futures', 'delivery', 'options'];

/** `owner` is 'main' or a sub-account's user id; `pair` names an isolated margin account. */
export interface AccountRef {
  owner: string;
  kind: Kind;
  pair?: string;
}

export type Endpoint = '/wallet/transfers' | '/wallet/sub_account_transfers';

/** One request: `signer` is whose key signs it ('main' or a sub-account's user id). */
export interface Leg {
  endpoint: Endpoint;
  signer: string;
  from: AccountRef;
  to: AccountRef;
}

const MAIN_TO_SUB: ReadonlySet<Kind> = new Set(['spot', 'futures', 'delivery', 'options']);
const SUB_OWN_ONLY: ReadonlySet<Kind> = new Set(['margin', 'cross_margin']);

export function accountKey(a: AccountRef): string {
  return a.pair ? `${a.owner}:${a.kind}:${a.pair}` : `${a.owner}:${a.kind}`;
}

export function sameAccount(a: AccountRef, b: AccountRef): boolean {
  return accountKey(a) === accountKey(b);
}

const spotOf = (owner: string): AccountRef => ({ owner, kind: 'spot' });

function own(from: AccountRef, to: AccountRef): Leg {
  return { endpoint: '/wallet/transfers', signer: from.owner, from, to };
}

/** The account a move can leave from without an own-account hop first. */
function exitPoint(a: AccountRef): AccountRef {
  if (a.owner === 'main') return a.kind === 'spot' ? a : spotOf('main');
  return SUB_OWN_ONLY.has(a.kind) ? spotOf(a.owner) : a;
}

/** The requests, in order, that move money from `from` to `to`. */
export function route(from: AccountRef, to: AccountRef): Leg[] {
  if (sameAccount(from, to)) throw new Error(`a transfer needs two different accounts, not ${accountKey(from)} twice`);
  const a = exitPoint(from);
  const b = exitPoint(to);
  const legs: Leg[] = [];
  if (!sameAccount(from, a)) legs.push(own(from, a));
  legs.push(...between(a, b));
  if (!sameAccount(b, to)) legs.push(own(b, to));
  return legs;
}

function between(a: AccountRef, b: AccountRef): Leg[] {
  if (sameAccount(a, b)) return [];
  if (a.owner === b.owner) return [own(a, b)];
  const mainSpot = spotOf('main');
  if (a.owner === 'main') return [{ endpoint: '/wallet/sub_account_transfers', signer: 'main', from: a, to: b }];
  if (b.owner === 'main') return [{ endpoint: '/wallet/sub_account_transfers', signer: 'main', from: a, to: b }];
  if (!MAIN_TO_SUB.has(a.kind) || !MAIN_TO_SUB.has(b.kind)) throw new Error(`no route from ${accountKey(a)} to ${accountKey(b)}`);
  return [
    { endpoint: '/wallet/sub_account_transfers', signer: 'main', from: a, to: mainSpot },
    { endpoint: '/wallet/sub_account_transfers', signer: 'main', from: mainSpot, to: b },
  ];
}

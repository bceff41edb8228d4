import { createHash } from 'node:crypto';
import { stmt, type DB } from '../db.ts';
import type { ChainRow } from './catalog.ts';

// Addresses that look like their chain's, so that screens and tests read naturally. The Sandbox's own
// deposit addresses derive from the uid and chain (stable across restarts and world copies).

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const HEX = '0123456789abcdef';

function draw(next: () => number, alphabet: string, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[next() % alphabet.length];
  return s;
}

/** An address of `chain`'s shape, drawn from `next` (a source of non-negative integers). */
export function addressShape(chain: string, next: () => number): string {
  switch (chain) {
    case 'BTC':
      return `bc1q${draw(next, BECH32, 38)}`;
    case 'TRX':
      return `T${draw(next, B58, 33)}`;
    case 'SOL':
      return draw(next, B58, 44);
    case 'XRP':
      return `r${draw(next, B58, 33)}`;
    case 'TON':
      return `UQ${draw(next, B64URL, 46)}`;
    case 'DOGE':
      return `D${draw(next, B58, 33)}`;
    default:
      return `0x${draw(next, HEX, 40)}`;
  }
}

function hashStream(seed: string): () => number {
  let block = createHash('sha256').update(seed).digest();
  let i = 0;
  return () => {
    if (i >= block.length) {
      block = createHash('sha256').update(block).digest();
      i = 0;
    }
    return block[i++]!;
  };
}

/** Plausible address check: refuses blanks, spaces and absurd lengths, nothing chain-specific. */
export function addressLooksValid(address: string): boolean {
  return /^[A-Za-z0-9:_\-.]{10,128}$/.test(address);
}

export interface DepositAddress {
  address: string;
  payment_id: string;
}

/** The address the Sandbox issues to `uid` for `currency` on `chain`; tag chains share one address with a per-user memo. */
export function depositAddress(db: DB, uid: string, chain: ChainRow): DepositAddress {
  const found = stmt(db, 'SELECT address, payment_id FROM deposit_addresses WHERE uid = ? AND currency = ? AND chain = ?').get(
    uid,
    chain.currency,
    chain.chain,
  ) as DepositAddress | undefined;
  if (found) return found;
  const made: DepositAddress = chain.is_tag
    ? {
        address: addressShape(chain.chain, hashStream(`sandbox-hot-wallet:${chain.chain}`)),
        payment_id: String(100000000 + (Number(uid) % 900000000)),
      }
    : { address: addressShape(chain.chain, hashStream(`deposit:${uid}:${chain.chain}`)), payment_id: '' };
  stmt(db, 'INSERT INTO deposit_addresses (uid, currency, chain, address, payment_id) VALUES (?, ?, ?, ?, ?)').run(
    uid,
    chain.currency,
    chain.chain,
    made.address,
    made.payment_id,
  );
  return made;
}

/** The Sandbox account that owns this address (and memo, on tag chains), if the Sandbox issued it. */
export function addressOwner(db: DB, chain: ChainRow, address: string, memo: string): string | undefined {
  const row = (
    chain.is_tag
      ? stmt(db, 'SELECT uid FROM deposit_addresses WHERE chain = ? AND address = ? AND payment_id = ? AND currency = ?').get(
          chain.chain,
          address,
          memo,
          chain.currency,
        )
      : stmt(db, 'SELECT uid FROM deposit_addresses WHERE chain = ? AND address = ? AND currency = ?').get(
          chain.chain,
          address,
          chain.currency,
        )
  ) as { uid: string } | undefined;
  return row?.uid;
}

import { createHash, createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { verifySignature } from '../operators/keys.ts';

// How a governance record sits in the team store so that every desk can check it from public keys
// alone. The local journal's records are chained by an HMAC under a key only that desk holds; across
// desks that proves nothing, so a team record instead carries:
// - `prev`: the SHA-256 link of the record before it (the first: of the team's id), so a row deleted,
//   moved or inserted between two others breaks the chain;
// - the writing desk's Ed25519 signature over the whole entry (position, time, link and body), so no
//   byte is edited and no row is written by someone who holds no desk key;
// - that desk's certificate: an operator's signature over the desk's public key, so a desk key counts
//   only while the operator who vouched for it is in force.
// The operators' own signatures inside the bodies are checked as at the single desk (governance/fold.ts).

export const Entry = z.strictObject({
  v: z.literal(1),
  team: z.string().uuid(),
  seq: z.number().int().min(1),
  at: z.iso.datetime(),
  prev: z.string().regex(/^[0-9a-f]{64}$/),
  body: z.record(z.string(), z.unknown()),
  desk: z.strictObject({
    key: z.string().min(1).max(200),
    by: z.string().min(1).max(64),
    cert: z.string().min(1).max(200),
  }),
});
export type Entry = z.infer<typeof Entry>;

export type DeskCert = Entry['desk'];

export const genesisLink = (team: string): string => sha256(`treasury-desk-team-genesis-v1\n${team}`);

/** The link the next record names as its `prev`. */
export const linkOf = (entryText: string): string => sha256(`treasury-desk-team-link-v1\n${entryText}`);

/** What an operator signs to vouch for a desk's key in a team. */
export const certText = (team: string, deskKey: string): string => ['treasury-desk-team-desk-v1', team, deskKey].join('\n');

const recordText = (entryText: string): string => `treasury-desk-team-record-v1\n${entryText}`;

function sha256(s: string): string {
  return createHash('sha256').update(s, 'utf8').digest('hex');
}

export function newDeskKey(): { privatePem: string; publicKey: string } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    privatePem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    publicKey: publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
  };
}

export const deskPrivateKey = (pem: string): KeyObject => createPrivateKey(pem);

export function signEntry(key: KeyObject, entryText: string): string {
  return sign(null, Buffer.from(recordText(entryText), 'utf8'), key).toString('base64');
}

export function entrySignatureValid(deskKey: string, entryText: string, sig: string): boolean {
  return verifySignature(deskKey, recordText(entryText), sig);
}

import { createHash, createPublicKey } from 'node:crypto';
import type { OperatorKey } from './keys.ts';

// An operator's key is made at their own desk; what reaches the desk that proposes them is this code:
// the key's id (its sealed half is bound to it, and the other desk finds the key file by it) and its
// public half. Nothing in it is secret, so it may be read out, mailed or pasted. Whoever relays it (a chat,
// a mail server) could put their own public key in it, so the new operator also reads the key's
// fingerprint to the proposer by another way (in person, by phone) and the proposer types it: the
// proposing desk refuses a code whose key does not have that fingerprint.

const PREFIX = 'tdop1';
const Id = /^[A-Za-z0-9_-]{1,64}$/;

export interface Enrolment {
  id: string;
  public_key: string;
}

export class EnrolmentCodeError extends Error {
  constructor(problem: string) {
    super(`That enrolment code ${problem}. Ask the new operator to read it again from their desk.`);
    this.name = 'EnrolmentCodeError';
  }
}

export function enrolmentCode(key: Pick<OperatorKey, 'id' | 'public_key'>): string {
  return `${PREFIX}.${key.id}.${key.public_key}`;
}

/** Reads a code made by enrolmentCode(); throws EnrolmentCodeError naming what is wrong with it. */
export function parseEnrolmentCode(code: string): Enrolment {
  const parts = code.trim().split('.');
  if (parts.length !== 3 || parts[0] !== PREFIX) throw new EnrolmentCodeError(`is not one (it starts "${PREFIX}." and has three parts)`);
  const [, id, publicKey] = parts as [string, string, string];
  if (!Id.test(id)) throw new EnrolmentCodeError('has a malformed operator id');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(publicKey)) throw new EnrolmentCodeError('has a public key that is not base64');
  let type: string | undefined;
  try {
    type = createPublicKey({ key: Buffer.from(publicKey, 'base64'), format: 'der', type: 'spki' }).asymmetricKeyType;
  } catch {
    throw new EnrolmentCodeError('has a malformed public key');
  }
  if (type !== 'ed25519') throw new EnrolmentCodeError(`has a ${type ?? 'unknown'} public key, not an Ed25519 one`);
  return { id, public_key: publicKey };
}

/** 80 bits of SHA-256 over the key's DER bytes, as five groups of four hex digits: short enough to read aloud. */
export function enrolmentFingerprint(publicKey: string): string {
  const hex = createHash('sha256').update(Buffer.from(publicKey, 'base64')).digest('hex').slice(0, 20).toUpperCase();
  return hex.match(/.{4}/g)!.join('-');
}

/** Throws EnrolmentFingerprintError unless `heard` (spaces, dashes and case aside) is the fingerprint of `publicKey`. */
export function checkEnrolmentFingerprint(publicKey: string, heard: string): void {
  const given = heard.replace(/[\s-]/g, '').toUpperCase();
  if (!/^[0-9A-F]{20}$/.test(given))
    throw new EnrolmentFingerprintError("is not one: it is twenty hex digits (0-9, A-F), as the new operator's desk shows it");
  if (given !== enrolmentFingerprint(publicKey).replace(/-/g, ''))
    throw new EnrolmentFingerprintError(
      'does not match the key in the enrolment code: the code was changed on its way, or one of them was misread. Nothing was proposed',
    );
}

export class EnrolmentFingerprintError extends Error {
  constructor(problem: string) {
    super(`The fingerprint you typed ${problem}. Ask the new operator to read both again from their desk.`);
    this.name = 'EnrolmentCodeError';
  }
}

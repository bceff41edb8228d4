import { createPublicKey } from 'node:crypto';
import type { OperatorKey } from './keys.ts';

// An operator's key is made at their own desk; what reaches the desk that proposes them is this code:
// the key's id (its sealed half is bound to it, and the other desk finds the key file by it) and its
// public half. Nothing in it is secret, so it may be read out, mailed or pasted.

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

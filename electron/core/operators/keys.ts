import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, randomUUID, sign, verify } from 'node:crypto';
import { DEFAULT_SCRYPT, deriveMasterKey, open, seal, type ScryptParams, type Sealed } from '../vault/crypto.ts';

// Operators are people: each signs what they draft, approve or reject with an Ed25519 key whose private
// half is sealed by their own passphrase (scrypt, then AES-256-GCM bound to the operator's id). The
// desk keeps only the sealed key; a signature therefore proves that someone who knew that operator's
// passphrase agreed to exactly the bytes signed, not merely that this desk wrote a line.

export interface OperatorKey {
  id: string;
  name: string;
  /** The public key, SPKI DER, base64. */
  public_key: string;
  sealed_private: { salt: string; N: number; r: number; p: number } & Sealed;
  created_at: number;
}

export class OperatorPassphraseError extends Error {
  constructor(name: string) {
    super(`That is not ${name}'s passphrase. Nothing was signed.`);
    this.name = 'OperatorPassphraseError';
  }
}

const aad = (id: string): string => `operator-key:${id}`;

export async function createOperatorKey(
  name: string,
  passphrase: string,
  nowMs: number,
  params: ScryptParams = DEFAULT_SCRYPT,
): Promise<OperatorKey> {
  const id = randomUUID();
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const salt = randomBytes(16);
  const kek = await deriveMasterKey(passphrase, salt, params);
  const der = privateKey.export({ format: 'der', type: 'pkcs8' });
  const sealed = seal(kek, der.toString('base64'), aad(id));
  kek.fill(0);
  der.fill(0);
  return {
    id,
    name,
    created_at: nowMs,
    public_key: publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
    sealed_private: { salt: salt.toString('base64'), ...params, ...sealed },
  };
}

/** Signs `payload` as the operator; throws OperatorPassphraseError when the passphrase does not open the key. */
export async function signAs(op: OperatorKey, passphrase: string, payload: string): Promise<string> {
  const { salt, N, r, p, iv, tag, data } = op.sealed_private;
  const kek = await deriveMasterKey(passphrase, Buffer.from(salt, 'base64'), { N, r, p });
  const b64 = open(kek, { iv, tag, data }, aad(op.id));
  kek.fill(0);
  if (b64 === null) throw new OperatorPassphraseError(op.name);
  const der = Buffer.from(b64, 'base64');
  const key = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  der.fill(0);
  return sign(null, Buffer.from(payload, 'utf8'), key).toString('base64');
}

export function verifySignature(publicKey: string, payload: string, signature: string): boolean {
  try {
    const key = createPublicKey({ key: Buffer.from(publicKey, 'base64'), format: 'der', type: 'spki' });
    return verify(null, Buffer.from(payload, 'utf8'), key, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

/** The exact text an operator signs for a write: its kind and wire body with keys in order, so any edit changes it. */
export function signedText(
  action: 'draft' | 'approve' | 'reject',
  intent: string,
  kind: string,
  body: Readonly<Record<string, unknown>>,
  extra = '',
): string {
  const ordered = Object.fromEntries(Object.entries(body).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return ['treasury-desk-operator-v1', action, intent, kind, JSON.stringify(ordered), extra].join('\n');
}

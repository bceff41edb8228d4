import { createHash, createHmac } from 'node:crypto';

// §5.7: SIGN = hex HMAC-SHA512(secret, METHOD \n path \n query \n hex SHA512(body) \n timestamp).
// The query is sent percent-encoded but signed decoded, both in the order sent; the body hashed is the
// very bytes sent (§5.8), so callers pass the serialised body, never an object.

export type QueryPairs = ReadonlyArray<readonly [string, string]>;

export interface EncodedQuery {
  /** What goes after "?" on the wire. */
  sent: string;
  /** What goes into the signature string. */
  signed: string;
}

export function encodeQuery(pairs: QueryPairs): EncodedQuery {
  return {
    sent: pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'),
    signed: pairs.map(([k, v]) => `${k}=${v}`).join('&'),
  };
}

export function signatureString(method: string, path: string, signedQuery: string, body: string, timestamp: string): string {
  const bodyHash = createHash('sha512').update(body, 'utf8').digest('hex');
  return `${method.toUpperCase()}\n${path}\n${signedQuery}\n${bodyHash}\n${timestamp}`;
}

/** A stored profile's secret is a Buffer from decryption to here (it is zeroed on lock); the Sandbox's may be a string. */
export function sign(secret: string | Buffer, method: string, path: string, signedQuery: string, body: string, timestamp: string): string {
  if (typeof secret !== 'string' && !secret.some((b) => b !== 0)) {
    // Zeroed by a lock or a profile switch while this request waited: sign nothing rather than garbage.
    throw new WipedSecretError();
  }
  return createHmac('sha512', secret)
    .update(signatureString(method, path, signedQuery, body, timestamp))
    .digest('hex');
}

export class WipedSecretError extends Error {
  constructor() {
    super('The key was put away (the desk locked or the profile changed) before this request was signed; nothing was sent.');
    this.name = 'WipedSecretError';
  }
}

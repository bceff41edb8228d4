import { describe, expect, it } from 'vitest';
import { createOperatorKey, OperatorPassphraseError, signAs, signedText, verifySignature } from './keys.ts';

const FAST = { N: 2 ** 10, r: 8, p: 1 };

describe('operator keys', () => {
  it("signs with the operator's passphrase only, and the signature holds for exactly the body signed", async () => {
    const alice = await createOperatorKey('Alice', 'alice passphrase 1', 0, FAST);
    expect(JSON.stringify(alice)).not.toMatch(/PRIVATE KEY/);
    const body = { amount: '10', currency: 'USDT', address: 'Tabc', chain: 'TRX' };
    const text = signedText('approve', 'i1', 'withdrawal', body);
    const sig = await signAs(alice, 'alice passphrase 1', text);
    expect(verifySignature(alice.public_key, text, sig)).toBe(true);
    // Key order does not matter; any edit of a value does.
    expect(signedText('approve', 'i1', 'withdrawal', { chain: 'TRX', address: 'Tabc', currency: 'USDT', amount: '10' })).toBe(text);
    expect(verifySignature(alice.public_key, signedText('approve', 'i1', 'withdrawal', { ...body, amount: '100' }), sig)).toBe(false);
    expect(verifySignature(alice.public_key, signedText('reject', 'i1', 'withdrawal', body), sig)).toBe(false);
    await expect(signAs(alice, 'not alice at all', text)).rejects.toBeInstanceOf(OperatorPassphraseError);
  });

  it('refuses a signature by another operator and a sealed key moved to another operator', async () => {
    const alice = await createOperatorKey('Alice', 'alice passphrase 1', 0, FAST);
    const bob = await createOperatorKey('Bob', 'bob passphrase 22', 0, FAST);
    const text = signedText('approve', 'i1', 'withdrawal', { amount: '1' });
    expect(verifySignature(alice.public_key, text, await signAs(bob, 'bob passphrase 22', text))).toBe(false);
    // Bob's sealed key under Alice's id does not open, even with Bob's passphrase.
    await expect(signAs({ ...alice, sealed_private: bob.sealed_private }, 'bob passphrase 22', text)).rejects.toBeInstanceOf(
      OperatorPassphraseError,
    );
    expect(verifySignature(alice.public_key, text, 'not base64 at all')).toBe(false);
  });
});

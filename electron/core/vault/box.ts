import { openBytes, seal, type Sealed, type VaultKeys } from './crypto.ts';
import { VaultError } from './errors.ts';

// What the vault hands out to seal and open secrets (DeskVault.box()); profiles/store.ts seals each
// profile's keys with it. Declared here, beside its maker, so that the vault imports nothing of the
// profiles it serves (.dependency-cruiser.cjs vault-below-journal-and-profiles).

/** Seals and opens secrets; throws while the vault is locked. */
export interface SecretBox {
  /** `binding` is authenticated with the sealed bytes: the blob opens only with the same binding. */
  seal(plain: string | Buffer, binding?: string): string;
  open(sealed: string, binding?: string): string;
  /** As open, into a Buffer the caller owns and zeroes: secrets never become JS strings. */
  openBytes(sealed: string, binding?: string): Buffer;
  /** False for a blob sealed before bindings existed (re-sealed at the next unlock). */
  isBound(sealed: string): boolean;
}

/** Unbound (additional data 'secret' only): what seal() makes without a binding, and how profiles were sealed before bindings. */
const LEGACY_PREFIX = 'tdv1';
/** Sealed with the caller's binding (profile id, environment, base address) as additional data. */
const BOX_PREFIX = 'tdv2';

/** A box over the vault's keys; `keys` throws while the vault is locked, so every call checks the lock. */
export function makeSecretBox(keys: () => VaultKeys): SecretBox {
  const aad = (binding: string | undefined) => (binding === undefined ? 'secret' : `secret\u0000${binding}`);
  const openBytes_ = (sealed: string, binding?: string): Buffer => {
    const k = keys();
    const [prefix, iv, tag, data, ...rest] = sealed.split('.');
    const legacy = prefix === LEGACY_PREFIX;
    const plain =
      (legacy || prefix === BOX_PREFIX) && iv && tag && data && rest.length === 0
        ? openBytes(k.enc, { iv, tag, data } as Sealed, legacy ? 'secret' : aad(binding))
        : null;
    if (plain === null) {
      throw new VaultError(
        'CORRUPT',
        "A stored secret could not be opened with this vault's key for this profile and address: the profiles file was changed, or it was sealed by another vault or for another profile. Enter that profile's key and secret again.",
      );
    }
    return plain;
  };
  return {
    seal: (plain, binding) => {
      const s = seal(keys().enc, plain, aad(binding));
      return [binding === undefined ? LEGACY_PREFIX : BOX_PREFIX, s.iv, s.tag, s.data].join('.');
    },
    openBytes: openBytes_,
    open: (sealed, binding) => {
      const b = openBytes_(sealed, binding);
      const text = b.toString('utf8');
      b.fill(0);
      return text;
    },
    isBound: (sealed) => sealed.startsWith(`${BOX_PREFIX}.`),
  };
}

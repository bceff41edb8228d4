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

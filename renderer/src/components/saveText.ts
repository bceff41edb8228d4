/**
 * Hands text the core made to the browser's (or Electron's) save dialog as a download, so that the
 * operator picks where it goes. The address is revoked later, not at once: the download may start
 * after the click returns.
 */
export function saveText(text: string | Uint8Array<ArrayBuffer>, filename: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The same for a file the core handed over as base64 (its bytes, not text: a PDF). */
export function saveBase64(base64: string, filename: string, type: string): void {
  saveText(
    Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)),
    filename,
    type,
  );
}

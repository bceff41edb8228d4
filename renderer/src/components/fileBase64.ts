/**
 * A picked file's exact bytes in base64, as the core takes files: so that a digest the core computes is
 * the one `sha256sum` prints for the file. Larger than `maxBytes` is refused before it is read.
 */
export async function fileBase64(f: File, maxBytes: number, what: string): Promise<string> {
  if (f.size > maxBytes) throw new Error(`${f.name} is ${f.size} bytes; ${what} may hold at most ${maxBytes} bytes.`);
  const bytes = new Uint8Array(await bytesOf(f));
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function bytesOf(f: Blob): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(r.result as ArrayBuffer);
    r.onerror = () => reject(new Error(`The file could not be read: ${r.error?.message ?? 'unknown error'}.`));
    r.readAsArrayBuffer(f);
  });
}

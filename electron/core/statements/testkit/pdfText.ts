import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

// What a reader of the PDF sees, page by page, as Mozilla's PDF.js extracts it: tests read the statement
// the way an auditor's viewer does, not the way the desk wrote it.

/** Each page's text, its pieces joined by single spaces. */
export async function pdfPages(bytes: Uint8Array): Promise<string[]> {
  const doc = await getDocument({ data: new Uint8Array(bytes), disableFontFace: true, useSystemFonts: false, verbosity: 0 }).promise;
  try {
    const pages: string[] = [];
    for (let i = 1; i <= doc.numPages; i++) {
      const content = await (await doc.getPage(i)).getTextContent();
      pages.push(
        content.items
          .map((it) => ('str' in it ? it.str : ''))
          .filter((t) => t.trim() !== '')
          .join(' '),
      );
    }
    return pages;
  } finally {
    await doc.destroy();
  }
}

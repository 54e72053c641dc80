/** Longest file name most file systems accept, in UTF-8 bytes, `.pdf` included. */
export const MAX_FILENAME_BYTES = 255;

const PATH_SEPARATORS = /[/\\]/;
// C0 and C1 controls and DEL.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;
// Bidirectional overrides and isolates can make `evil\u202Efdp.exe` display as `evilexe.pdf`.
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/;

export type PdfFilenameCheck = { ok: true; filename: string } | { ok: false; reason: string };

/**
 * A plain file name for a generated PDF: no path separators, no control characters, not `.`
 * or `..`, not empty, at most 255 bytes. `.pdf` is appended when the name does not end with it.
 */
export function checkPdfFilename(raw: string): PdfFilenameCheck {
  if (raw.trim() === '') return { ok: false, reason: 'must not be empty' };
  if (PATH_SEPARATORS.test(raw)) return { ok: false, reason: 'must be a plain file name, without path separators (/ or \\)' };
  if (CONTROL_CHARACTERS.test(raw)) return { ok: false, reason: 'must not contain control characters' };
  if (BIDI_CONTROLS.test(raw)) return { ok: false, reason: 'must not contain bidirectional control characters' };
  if (raw === '.' || raw === '..') return { ok: false, reason: 'must be a file name, not . or ..' };
  const filename = /\.pdf$/i.test(raw) ? raw : `${raw}.pdf`;
  if (Buffer.byteLength(filename) > MAX_FILENAME_BYTES) {
    return { ok: false, reason: `must be at most ${MAX_FILENAME_BYTES} bytes long (UTF-8, .pdf included)` };
  }
  return { ok: true, filename };
}

/**
 * `Content-Disposition: attachment` for a file name (RFC 6266): a plain-ASCII `filename` for
 * old clients and, when the name is not plain ASCII, `filename*` in UTF-8 (RFC 5987/8187).
 */
export function attachmentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_');
  if (fallback === filename) return `attachment; filename="${filename}"`;
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeRfc5987(filename)}`;
}

/** Percent-encodes everything but RFC 5987's attr-char. */
function encodeRfc5987(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

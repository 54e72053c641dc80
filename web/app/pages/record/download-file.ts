/**
 * Saves a record's PDF. The download URL needs the Authorization header, which a plain link
 * cannot send, so the bytes are fetched here and handed to the browser as an object URL. This is
 * the one request of the page made without the typed client: it answers bytes, not JSON.
 */
export async function downloadFile(url: string, token: string, fileName: string): Promise<{ ok: true } | { ok: false; status: number }> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { authorization: `Bearer ${token}` }, cache: 'no-store' });
  } catch {
    return { ok: false, status: 0 };
  }
  if (!response.ok) return { ok: false, status: response.status };
  const objectUrl = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = objectUrl;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has started the download by now; the URL is only needed until then.
  setTimeout(() => URL.revokeObjectURL(objectUrl), 60_000);
  return { ok: true };
}

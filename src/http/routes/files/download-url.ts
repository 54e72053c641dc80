/** Where a stored file of a record is downloaded. */
export function fileDownloadUrl(baseUrl: string, recordId: string, fileId: string): string {
  return `${baseUrl}/v1/records/${encodeURIComponent(recordId)}/files/${encodeURIComponent(fileId)}`;
}

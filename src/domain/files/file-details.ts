import { Type } from '@sinclair/typebox';
import type { StoredFile } from './stored-file.js';

/** The shape fileDetails answers: the pdf_create step's details, and each entry of a record's file list. */
export const StoredFileDetails = Type.Object(
  {
    file_id: Type.String(),
    pdf_filename: Type.String(),
    content_type: Type.Literal('application/pdf'),
    size_bytes: Type.Integer(),
    pages: Type.Integer(),
    sha256: Type.String({ description: 'hex SHA-256 of the PDF bytes' }),
    download_url: Type.String({ format: 'uri', description: 'GET it with the same bearer, or a record token for this record' }),
    created_at: Type.String({ format: 'date-time' }),
  },
  { title: 'StoredFile' },
);

/** Where a stored file of a record is downloaded. */
export function fileDownloadUrl(baseUrl: string, recordId: string, fileId: string): string {
  return `${baseUrl}/v1/records/${encodeURIComponent(recordId)}/files/${encodeURIComponent(fileId)}`;
}

/** A stored file as the API shows it: the pdf_create step's `details`, and each entry of a record's file list. */
export function fileDetails(file: StoredFile, baseUrl: string) {
  return {
    file_id: file.id,
    pdf_filename: file.filename,
    content_type: 'application/pdf' as const,
    size_bytes: file.size_bytes,
    pages: file.pages,
    sha256: file.sha256,
    download_url: fileDownloadUrl(baseUrl, file.record_id, file.id),
    created_at: file.created_at,
  };
}

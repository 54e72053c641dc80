import type { StoredFile } from '../../domain/files/file-service.js';

/** A company's pdfme templates, stored as the JSON the operator uploaded. */
export interface PdfTemplatesTable {
  company_id: string;
  id: string;
  /** The pdfme template `{basePdf, schemas}` as JSON text. */
  template_json: string;
  size_bytes: number;
  /** Pages the template rendered in its trial render at upload. */
  pages: number;
  created_at: string;
  updated_at: string;
}

/** Metadata of a stored file (a rendered PDF); its bytes live in the blob store under `blob_key`. */
export interface RecordFilesTable extends StoredFile {
  company_id: string;
  blob_key: string;
}

/** The database blob store: bytes kept in the service's own database, so every replica serves them. */
export interface BlobsTable {
  company_id: string;
  key: string;
  data: Buffer;
  size_bytes: number;
  created_at: string;
}

export interface PdfTables {
  pdf_templates: PdfTemplatesTable;
  record_files: RecordFilesTable;
  blobs: BlobsTable;
}

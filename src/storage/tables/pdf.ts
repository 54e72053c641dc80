import type { FileRow } from '../../domain/files/files-repository.port.js';

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

/** Metadata of a stored file (a rendered PDF): the domain's file row, column for column. */
export type RecordFilesTable = FileRow;

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

import type { FileRow } from '../../domain/files/files-repository.port.js';
import type { TemplateRow } from '../../domain/templates/templates-repository.port.js';

/** A company's pdfme templates: the domain's template row, column for column. */
export type PdfTemplatesTable = TemplateRow;

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

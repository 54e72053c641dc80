/** A company's pdfme template, stored as the JSON the operator uploaded. */
export interface TemplateRow {
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

export interface TemplateToSave {
  id: string;
  templateJson: string;
  sizeBytes: number;
  pages: number;
  at: string;
}

/** PDF templates of one company at a time. */
export interface TemplatesRepository {
  find(companyId: string, templateId: string): Promise<TemplateRow | undefined>;
  /** The company's templates without their bodies, by ID. */
  list(companyId: string): Promise<Omit<TemplateRow, 'template_json'>[]>;
  /** Inserts or replaces; tells whether the template is new. */
  save(companyId: string, template: TemplateToSave): Promise<{ created: boolean; row: TemplateRow }>;
  delete(companyId: string, templateId: string): Promise<boolean>;
}

/** One field of a template page, as far as the service reads it; the rest is the template engine's. */
export interface TemplateField {
  readonly name: string;
  readonly type: string;
}

/** A checked pdfme template `{basePdf, schemas}` in pdfme's current form: one list of fields per page. */
export interface TemplateDocument {
  basePdf: unknown;
  schemas: TemplateField[][];
}

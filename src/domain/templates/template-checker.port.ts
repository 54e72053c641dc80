import type { TemplateDocument } from './template-document.js';

/** Reads uploaded templates with the template engine's own rules. */
export interface TemplateChecker {
  /** The body as a template in the engine's current form; throws a 400 naming every problem. */
  check(body: unknown): Promise<TemplateDocument>;
  /** Inputs for the trial render at upload, by schema name. */
  sampleInputs(template: TemplateDocument): Promise<Record<string, string>>;
}

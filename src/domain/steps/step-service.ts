import { invalidBody } from '../../errors/app-error.js';
import type { StoredFile } from '../files/stored-file.js';
import { checkPdfCreateInputs, type createPdfCreateStep } from './pdf-create-step.js';

export const SUPPORTED_STEP_TYPES = ['pdf_create'] as const;

export interface StepRequest {
  type: string;
  inputs: Record<string, unknown>;
}

export type StepResult = { type: 'pdf_create'; message: string; file: StoredFile };

/** Runs a workflow step against a record. */
export interface StepService {
  /** `baseUrl`: the base of the links in the result's details (and in its step.completed webhook). */
  run(companyId: string, recordId: string, step: StepRequest, baseUrl: string): Promise<StepResult>;
}

/** What the step service is built from. */
export interface StepServiceDeps {
  pdfCreate: ReturnType<typeof createPdfCreateStep>;
}

export function createStepService(deps: StepServiceDeps): StepService {
  return {
    async run(companyId, recordId, step, baseUrl) {
      if (step.type !== 'pdf_create') {
        throw invalidBody(`unsupported step type '${step.type}'; supported types: ${SUPPORTED_STEP_TYPES.join(', ')}`, {
          supported_types: [...SUPPORTED_STEP_TYPES],
        });
      }
      // Inputs are checked before the record is looked up: a malformed request is a 400 for any record.
      const inputs = checkPdfCreateInputs(step.inputs);
      const file = await deps.pdfCreate(companyId, recordId, inputs, baseUrl);
      return { type: 'pdf_create', message: 'PDF created', file };
    },
  };
}

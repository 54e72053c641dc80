import type { Static, TObject, TSchema } from '@sinclair/typebox';
import type { Clock } from '../../lib/clock.js';
import type { FileService } from '../files/file-service.js';
import type { PdfRenderer } from '../templates/pdf-renderer.port.js';
import type { TemplateService } from '../templates/template-service.js';
import type { WebhookOutbox } from '../webhooks/outbox.js';
import type { StepRecordFinder } from './record-inputs.js';

/**
 * What every step type may use, built once in the composition root. A step type takes what it
 * needs; a new type that needs something else adds it here and in app-context.ts.
 */
export interface StepTools {
  findRecord: StepRecordFinder;
  templates: TemplateService;
  renderer: PdfRenderer;
  /** Largest record data a render takes in (WRS_PDF_INPUT_LIMIT_BYTES): render time grows faster than it. */
  pdfInputLimitBytes: number;
  files: FileService;
  clock: Clock;
  /** Announces step.completed in the transaction that stores a step's result. */
  outbox: WebhookOutbox;
}

/** One run of a step: its inputs already checked against the type's schema. */
export interface StepRun<Inputs> {
  companyId: string;
  recordId: string;
  inputs: Inputs;
  /** The base of the links the details (and a step.completed webhook) carry. */
  baseUrl: string;
}

/** What a step answers: `{message, details}`, details as the type's schema says. */
export interface StepOutcome<Details> {
  message: string;
  details: Details;
}

/**
 * A step type: all the service knows of it. `inputs` and `details` are titled TypeBox schemas:
 * the step service checks inputs with the first (TypeBox's `Value`, so a string `format` needs
 * TypeBox's FormatRegistry), the route answers with the second, and the OpenAPI document names
 * both (`StepInputs` and `StepDetails` list every type's).
 */
export interface StepType<Inputs extends TObject = TObject, Details extends TSchema = TSchema> {
  /** snake_case, as clients send it in `type`. */
  readonly type: string;
  /** One line for the OpenAPI document and the console. */
  readonly summary: string;
  readonly inputs: Inputs;
  readonly details: Details;
  /** Problems the schema cannot state (a file name rule), worded as `inputs.<name> ...`; listed in the same 400. */
  readonly moreInputProblems?: (inputs: Readonly<Record<string, unknown>>) => string[];
  run(tools: StepTools, step: StepRun<Static<Inputs>>): Promise<StepOutcome<Static<Details>>>;
}

/** A step type with its own inputs and details types inferred (a registry holds them as `StepType`). */
export function defineStepType<Inputs extends TObject, Details extends TSchema>(stepType: StepType<Inputs, Details>): StepType {
  return stepType as unknown as StepType;
}

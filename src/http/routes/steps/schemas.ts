import { Type, type TSchema } from '@sinclair/typebox';
import { StoredFileDetails } from '../../../domain/files/file-details.js';
import type { StepType } from '../../../domain/steps/step-type.js';

export const RecordParams = Type.Object({ record: Type.String({ minLength: 1, maxLength: 200 }) });

/** The details of pdf_create, also each entry of a record's file list. */
export const PdfCreateDetails = StoredFileDetails;

export const StoredFileList = Type.Object({ count: Type.Integer(), results: Type.Array(StoredFileDetails) }, { title: 'StoredFileList' });

/**
 * The schemas of PUT /v1/records/{record}/steps, read from the step registry: `StepType` (the
 * enum of type names), `StepInputs` and `StepDetails` (a `oneOf` of each type's titled schema).
 */
export function stepSchemas(types: readonly StepType[]) {
  const StepTypeName = Type.Unsafe<string>({
    type: 'string',
    enum: types.map((stepType) => stepType.type),
    title: 'StepType',
    description: 'a step type the service runs',
  });
  const StepInputs = Type.Unsafe<Record<string, unknown>>({
    oneOf: types.map((stepType) => stepType.inputs),
    title: 'StepInputs',
    description: "a step's inputs, as the schema of its type says",
  });
  const StepDetails = Type.Unsafe<unknown>({
    oneOf: types.map((stepType) => stepType.details as TSchema),
    title: 'StepDetails',
    description: "what a step made, as the schema of its type says (pdf_create: the stored PDF)",
  });
  const StepBody = Type.Object({ type: StepTypeName, inputs: StepInputs }, { additionalProperties: false });
  const StepResponse = Type.Object(
    {
      message: Type.String({ description: 'step execution result message' }),
      details: StepDetails,
    },
    { title: 'StepResult' },
  );
  return { StepTypeName, StepDetails, StepBody, StepResponse };
}

/**
 * What the body validator checks of a step (its shape); the type and its inputs are the step
 * service's to check: an unknown type answers with the supported ones, and inputs are taken as
 * sent (the body validator coerces scalars, and a non-string pdf_filename must be refused
 * rather than turned into a string).
 */
export const StepEnvelope = Type.Object(
  { type: Type.String(), inputs: Type.Object({}, { additionalProperties: true }) },
  { additionalProperties: false },
);
